/*
 * rp:PATH[,length=N][,seed=S][,threads=T]: a synthetic trace generated from
 * a reuse profile (seed 003, MLCRP's Algorithms 1-2; model/rpgen.c). PATH
 * holds either the profile as CSV rows `rd,fraction` (rd -1 the cold
 * share; a `rd,fraction` header allowed) or a Gaussian mixture: lines
 * `maxrd M`, `cold F` and one `peak POSITION RATIO SIGMA` per peak
 * (Algorithm 1, renormalised). '#' starts a comment. Index x of the
 * generated sequence becomes address x * line (one line each); T threads
 * (default 1: the request stream is the sequence itself) take the
 * accesses round-robin; length defaults to 10,000 (MLCRP's), seed to 1.
 */
#ifndef RPINPUT_H
#define RPINPUT_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

#define RP_PREFIX "rp:"
#define RP_MAX_RD (1u << 20)
#define RP_MAX_LENGTH (1ull << 27)

/* Generate the kernel of spec (RP_PREFIX...) with addresses at line bytes.
 * INPUT_OK, or INPUT_EINPUT / INPUT_ENOMEM with "PATH:LINE: why" in err;
 * a note (forced cold fills) in note, or "" (both may be NULL). */
int rp_load(const char *spec, uint32_t line, rd_kernel **out, char *err, size_t errlen, char *note,
	    size_t notelen);

/* The profile of PATH's text (for the fuzz harness): p[0..*maxrd+1], as
 * rd_rp_mixture gives it (malloc'd); 0, or -1 with "LINE: why" in err. */
int rp_parse(const char *text, size_t len, double **p, uint32_t *maxrd, char *err, size_t errlen);

#endif
