/*
 * The sample placement's measured times (rdscope placements --sample FILE;
 * seed 002's Eqs. 1, 2, 4, 11, 12): one `name = value` per line, in any
 * order, each once:
 *
 *   tcomp = 1.20        # the sample's computation time (any unit)
 *   tmem = 2.50         # its memory time, same unit
 *   toverlap = 0.80     # the overlap of the two, same unit
 *   inst_per_warp = 96  # issued instructions per warp (with replays)
 *   warps_per_sm = 64   # warps per SM
 *   wserial = 0.05      # optional (default 0): Eq. 2's serialisation
 *
 * Values are finite decimal numbers (C's strtod, no hex, inf or nan) >= 0;
 * tmem, inst_per_warp and warps_per_sm > 0; wserial < tcomp; toverlap
 * <= tcomp and <= tmem. Blank lines and '#' comments (also after a value)
 * are skipped; CRLF taken. Every refusal says "FILE:LINE: why".
 */
#ifndef READERS_SAMPLETIMES_H
#define READERS_SAMPLETIMES_H

#include <stddef.h>

#define SAMPLETIMES_MAX_BYTES (1u << 20)

typedef struct sample_times {
	double tcomp, tmem, toverlap, inst_per_warp, warps_per_sm, wserial;
} sample_times;

/* Parse text[0..n) (shown names it in messages): 0; -1 with
 * "SHOWN:LINE: why" (or "SHOWN: why") in err. */
int sampletimes_parse(const char *text, size_t n, const char *shown, sample_times *out,
		      char *err, size_t errlen);
/* The same from a file: 0; -1 bad or unreadable; -2 out of memory. */
int sampletimes_read(const char *path, sample_times *out, char *err, size_t errlen);

#endif
