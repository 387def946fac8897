/*
 * What the explorer's screen means, in words (the `i` key): one table of
 * the outcome classes (hits and the five miss classes) with a short gloss
 * for the breakdown's legend and a sentence for the info screen, and the
 * info screen's paragraphs, numbers filled in from the result on screen.
 * Pure: no curses.
 */
#ifndef UI_INFO_H
#define UI_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

/* Row 0 is the hits, row 1 + c miss class c (enum rd_class). */
typedef struct class_gloss {
	const char *name;  /* as the breakdown labels the row */
	const char *gloss; /* a few words, for the legend beside the bars */
	const char *text;  /* one sentence, for the info screen */
} class_gloss;

extern const class_gloss class_glosses[RD_NCLASS + 1];

/* Does the configuration show miss class cls (enum rd_class)? Those it
 * can give (rd_class_possible: the paper's five always, write_evict,
 * bypass and sector only where configured, so the paper's screens keep
 * their rows); no class for cls < 0. */
int info_class_shown(const rd_config *c, int cls);

/* The requests of infinite distance, split: cold (first request of the
 * line; also a load of a line a store removed, or one past the L1) and in
 * flight (requested before, its data not yet arrived). */
void info_inf_split(const rd_result *r, uint64_t *cold, uint64_t *removed, uint64_t *in_flight);

/* The info screen as paragraphs: para(ctx, heading, text) for each; a
 * heading alone (text NULL) starts a section. r: the result on screen (or
 * NULL while modelling), c its configuration; try_hint: what to try with
 * the sample on screen, or NULL; level: the level in focus (2: the L2's
 * pane, explained first); est: the breakdown's "est." (the reuse
 * profile's estimate, in [0, 1]), or < 0 when it shows none. */
void info_paragraphs(const rd_config *c, const rd_result *r, const char *try_hint, int level,
		     double est, void (*para)(void *ctx, const char *heading, const char *text),
		     void *ctx);

#endif
