/*
 * GPGPU-Sim's L1 data cache string (-gpgpu_cache:dl1), the form GPU
 * architects paste around:
 *
 *     3.x:             32:128:4,L:L:m:N:H,A:32:8,8
 *     4.x / Accel-Sim: S:4:128:64,L:T:m:L:L,A:512:8,16:0,32
 *
 * nsets:line:ways, then replacement : write : allocation : write-allocate
 * [: set index], then MSHR type : entries : merges, then miss queue
 * [: result FIFO] [, data port width]; 4.x leads with N (normal) or S
 * (sector). rdscope models the geometry, the set index and the MSHR
 * count; every other field is reported through the note callback, never
 * silently dropped.
 */
#ifndef PRESET_GPGPUSIM_H
#define PRESET_GPGPUSIM_H

#include <stddef.h>

#include "rdscope.h"

/* Receives one human-readable line per field that does not carry over. */
typedef void (*gpgpusim_note_fn)(void *ctx, const char *msg);

/*
 * Set the cache keys of cfg from str; other keys keep their values.
 * Returns 0, or -1 with "gpgpusim: ..." in err (str malformed).
 */
int gpgpusim_import(const char *str, rd_config *cfg, gpgpusim_note_fn note, void *ctx,
		    char *err, size_t errlen);

enum gpgpusim_form { GPGPUSIM_3X = 0, GPGPUSIM_4X };

/*
 * cfg's L1 as a cache string of the given form. Fields rdscope does not
 * model get GPGPU-Sim's Fermi defaults (L:L:m:N, 8 merges, miss queue 8),
 * and what the string cannot say (latencies, per-warp MSHRs, ...) is
 * noted. Returns 0, or -1 if buf is too small.
 */
int gpgpusim_export(const rd_config *cfg, enum gpgpusim_form form, char *buf, size_t len,
		    gpgpusim_note_fn note, void *ctx);

#endif
