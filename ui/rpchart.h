/*
 * A reuse profile drawn as bars in log2 buckets (rprof.h's: cold, 0, 1,
 * 2-3, 4-7, ...) with the cache's lines marked: the profile view's
 * measured profile and the generator's target. UI thread only (curses).
 */
#ifndef UI_RPCHART_H
#define UI_RPCHART_H

#include <stdint.h>

/* Bucket b's label in at most 4 columns: the infinity glyph for cold, 0,
 * 1, 2, 4, ..., 1K, 2M (its first distance). */
void rpchart_label(int b, char *buf, int len);

/* Buckets 0..nb-1 of shares v[] (of all requests) as bars of h rows from
 * row y, labels below (h + 1 rows in all), in w columns from x0; the cut
 * after the last bucket a fully associative cache of `lines` lines hits
 * in whole. */
void rpchart_draw(const double *v, int nb, uint64_t lines, int y, int x0, int w, int h);

#endif
