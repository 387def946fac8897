/*
 * The explorer's profile generator (seed 003, MLCRP): a Gaussian mixture
 * (Algorithm 1: peaks at positions with ratios and widths, a cold share,
 * distances up to maxrd) and the trace Algorithm 2 generates from it, as
 * the rp: input does (model/rpgen.c: rd_rp_mixture, rd_rp_kernel). Pure:
 * no curses; views/gen.c draws it and steps its rows.
 */
#ifndef UI_MIX_H
#define UI_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

#define MIX_PEAKS 8
#define MIX_MIN_MAXRD 4u
#define MIX_MAX_MAXRD 65536u
#define MIX_MIN_LENGTH 256u
#define MIX_MAX_LENGTH (1u << 20)

typedef struct mix {
	uint32_t maxrd;
	double cold;
	uint32_t n;                 /* peaks, 1..MIX_PEAKS */
	double pos[MIX_PEAKS], ratio[MIX_PEAKS], sigma[MIX_PEAKS];
	uint64_t length, seed;
} mix;

/* The rows: maxrd, cold, length, seed, then each peak's position, ratio
 * and sigma. */
enum { MIX_ROW_MAXRD, MIX_ROW_COLD, MIX_ROW_LENGTH, MIX_ROW_SEED, MIX_FIXED_ROWS };

/* One peak at 40 lines (ratio 1, sigma 2), cold 0.05, maxrd 64, 10,000
 * requests, seed 1: rdscope-model(7)'s example (REUSE PROFILES). */
void mix_default(mix *m);

int mix_rows(const mix *m);

/* A row's label and value as shown. */
void mix_row(const mix *m, int row, char *label, size_t llen, char *value, size_t vlen);

/* Step a row's value (dir +1 or -1) to its next sensible one: 1 when it
 * changed, 0 at its limit. Positions stay within 0..maxrd. */
int mix_step(mix *m, int row, int dir);

/* Add a peak after the selected row's (or last), halfway between its
 * position and maxrd: the new peak's first row, or -1 when there are
 * MIX_PEAKS. Remove the selected row's peak (never the only one): the row
 * to select then, or -1. */
int mix_add(mix *m, int row);
int mix_remove(mix *m, int row);

/* The target profile, p[0] the cold share and p[1 + d] distance d's
 * (malloc'd, maxrd + 2 values), or NULL. */
double *mix_profile(const mix *m);

/* Its trace with index x at address x * line, one thread: NULL when out
 * of memory. *forced: fills forced beyond the cold share. */
rd_kernel *mix_kernel(const mix *m, uint32_t line, uint64_t *forced);

/* As an rp: mixture file's lines, joined by sep ("maxrd 64", "cold 0.05",
 * "peak 40 1 2"): rdscope run rp:FILE,length=N,seed=S gives the same trace. */
void mix_text(const mix *m, const char *sep, char *buf, size_t len);

#endif
