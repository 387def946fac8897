/*
 * The shared L2 (seed 001) as the explorer's panes read it: its counts as
 * an rd_result (so that the breakdown, the histogram and the comparison
 * draw either level with one code), the configuration that says how to
 * read them (the L2's ways, policy and stores), which miss classes it
 * can have, RDGC's six metrics in one line, and the load per partition
 * and bank. Pure: no curses, unit-tested.
 */
#ifndef UI_LEVEL_H
#define UI_LEVEL_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

/* r's L2 as a result (r->has_l2): counts, classes, histograms, miss rates
 * (as the L1's: without merged misses, and with), its reads' sectors; the
 * pointers are r's (never free out). Without an L2, out is zeroed. */
void level_as_result(const rd_result *r, rd_result *out);

/* How the panes read the L2's result of configuration c: its ways (the
 * histogram's cut-off), replacement policy and stores (the stores line
 * when stores reach it), its sectors (l2.sector as l1_sector: the sectors
 * line), loads cached. */
void level_config(const rd_config *c, rd_config *out);

/* Does the level's breakdown have a row for miss class cls? The L1: as
 * info_class_shown. The L2: compulsory, capacity, associativity, latency
 * (merged into an entry in flight) and, under l2.stores=evict,
 * write_evict; never mshr (a request without an entry is a reservation
 * fail, retried) nor bypass. */
int level_class_shown(const rd_config *c, int level, int cls);

/* What the metrics line knows of the L1B pair. */
enum { L1B_OFF = 0, L1B_RUNNING, L1B_DONE, L1B_NONE /* its run gave no L2 */ };

/* RDGC's six metrics (seed 001 section 5) in one line of at most width
 * columns (ASCII): the L1B pair when l1b is L1B_DONE, else what to press
 * or that it runs. */
void level_metrics_line(const rd_metrics *m, int l1b, int width, char *buf, size_t len);

/* The busiest bank of the L2 by requests (partition *p, bank *b within
 * it) and how uneven the load is: the busiest bank's requests over the
 * mean (1.0: even; 0 without requests). */
double level_bank_imbalance(const rd_level *l, uint32_t *p, uint32_t *b);

#endif
