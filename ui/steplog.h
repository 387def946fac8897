/*
 * The step-through view's data: the first requests of a run, each with its
 * set's LRU stack as the lookup saw it (rd_callbacks.event_stacks), kept in
 * an immutable log the model thread builds and hands to the UI.
 *
 * The model reports the stack before each lookup; what the stack looks
 * like after a step is rebuilt here by replaying the log with the model's
 * landing rules (model/sim_paper.c): effects due at T land at the end of
 * step T in issue order, except that a miss fill of the looked-up line due
 * at T lands before a lookup that would otherwise miss. The replay is
 * checked against the model at every lookup (stack, distance, MSHRs in
 * use); the view shows replayed facts only while they agree (replay_ok).
 * Pure: no curses, no threads.
 */
#ifndef UI_STEPLOG_H
#define UI_STEPLOG_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

/* Requests kept: a teaching trace, or the first ones of any trace. */
#define STEP_MAX 2000
/* Lines of a stack kept per request for the screen (the model reports
 * up to 64; the replay compares all it reports). */
#define STEP_KEEP 32
#define STEP_NONE UINT32_MAX

typedef struct step_ev {
	rd_event ev;            /* .stack is NULL: the stacks are in lines[] */
	uint32_t before, nbefore; /* the set's stack at the lookup (model), most recent first */
	uint32_t after, nafter;   /* the set's stack at the end of the step (replayed) */
	uint32_t mshr_before;   /* MSHR entries in use at the lookup (replayed) */
	uint32_t early_by;      /* a fill that landed before request early_by's lookup */
	uint32_t prev;          /* the previous request of the same warp, or STEP_NONE */
	int last;               /* the warp's last request in the log */
} step_ev;

typedef struct steplog {
	rd_config cfg;
	uint32_t sets;
	size_t n, cap;
	step_ev *e;
	uint64_t *lines;        /* stack contents */
	size_t nlines, lcap;
	int truncated;          /* the run had more requests than were kept */
	int stacks;             /* the model reported stacks (the paper profile does) */
	int replay_ok;          /* the replay agreed with the model everywhere */
	size_t replay_bad;      /* the first request it disagreed on */
	int oom;
} steplog;

steplog *steplog_new(const rd_config *c);
void steplog_free(steplog *l);

/* Keep one event (its stack copied). 0; 1 when the log is full (the event
 * is dropped and the log marked truncated); -1 out of memory. */
int steplog_add(steplog *l, const rd_event *ev);

/* After the run: replay the log (after-stacks, MSHRs before, early fills)
 * and check it against the model. 0, or -1 out of memory. */
int steplog_finish(steplog *l);

/* A stack of request i: before (at the lookup) or after (end of its step). */
const uint64_t *steplog_stack(const steplog *l, size_t i, int after, uint32_t *len);

/* Requests in flight at request i's lookup (issued before it on its core,
 * their effect not landed yet), oldest first: up to max indices into out.
 * Returns how many there are in all. */
size_t steplog_inflight(const steplog *l, size_t i, size_t *out, size_t max);

/* The warp queue read ahead in the log: the next request of each warp of
 * i's core after request i, in issue order (indices; up to max). Returns
 * how many warps issue again within the log. */
size_t steplog_next_issues(const steplog *l, size_t i, size_t *out, size_t max);

/* Warps of i's core that issued at or before i and never again in the log
 * (finished, if the log is not truncated). Up to max warp ids; returns the
 * count. */
size_t steplog_finished(const steplog *l, size_t i, uint32_t *out, size_t max);

/* One line that says why request i came out as it did. */
void steplog_explain(const steplog *l, size_t i, char *buf, size_t len);

#endif
