/*
 * The step-through view's data: a window of STEP_MAX requests of a run
 * (the first ones, or those around any request), each with its set's LRU
 * stack as the lookup saw it, kept in an immutable log the model thread
 * builds and hands to the UI; and the whole cache (sets x ways) at any
 * request of the window.
 *
 * It records what the model reports (rd_callbacks with event_stacks, the
 * events and the landings, steplog_add and steplog_land): each set as the
 * model last listed it, and which requests' effects have landed. Before
 * the window it keeps only the first `ways` entries of every set and the
 * requests still in flight; at the window's start, a copy of them, from
 * which, with the changes reported in the window, steplog_grid rebuilds
 * the cache at any request of the window. Pure: no curses, no threads.
 */
#ifndef UI_STEPLOG_H
#define UI_STEPLOG_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

/* Requests kept: a teaching trace, or a window of any trace. */
#define STEP_MAX 2000
/* Entries of a stack kept per request for the screen (the model lists as
 * many in the window: rd_callbacks.stack_depth). */
#define STEP_KEEP 32
#define STEP_NONE UINT32_MAX

typedef struct step_ev {
	rd_event ev;            /* .stack is NULL: the stacks are in lines[] */
	uint32_t before, nbefore; /* the set's stack at the lookup, most recent first */
	uint32_t after, nafter;   /* the set's stack at the end of the step */
	uint32_t mshr_before;   /* MSHR entries in use at the lookup */
	uint32_t early_by;      /* a fill that landed before request early_by's lookup */
	uint32_t landed;        /* its effect landed before request landed's lookup
				 * (STEP_NONE: not within the log) */
	uint32_t prev;          /* the previous request of the same warp, or STEP_NONE */
	int last;               /* the warp's last request in the log */
} step_ev;

/* A set as the model reported it in the window (the grid's changes): after
 * the log's requests e[0 .. pos), set `set` of core `core` held the n
 * entries at lines[off]. */
typedef struct step_chg {
	uint32_t pos, core, set, off, n;
} step_chg;

typedef struct steplog {
	rd_config cfg;
	uint32_t sets;
	uint64_t first;         /* request number (0-based, issue order) of e[0] */
	uint64_t seen;          /* requests the model reported so far */
	int complete;           /* the run ended (steplog_end): seen is the total */
	uint64_t want;          /* the request the window was asked around (jobs.h) */
	size_t n, cap;
	step_ev *e;
	uint64_t *lines;        /* stack contents */
	size_t nlines, lcap;
	/* Requests before the window whose effect had not landed at its
	 * start (early_by: a request of the window). */
	step_ev *pre;
	size_t npre;
	/* The cache at the window's start: its sets that hold lines (core,
	 * set, count), each with its first cways (= ways) lines, most recent
	 * first, in snap_lines[k * cways ...]. */
	uint32_t ncores, cways;
	int have_snap;
	size_t nsnap;
	uint32_t *snap_core, *snap_set, *snap_n;
	uint64_t *snap_lines;
	/* ... and the changes of the sets in the window, in order */
	step_chg *chg;
	size_t nchg, cchg;
	int truncated;          /* the run had requests after the window */
	int tail_done;          /* ... and the step of the last kept one has ended
				 * (so that its stacks after are whole) */
	int stacks;             /* the model reported stacks (not reference-2013) */
	uint32_t depth;         /* the entries of a set the log needs the model to list
				 * now (rd_callbacks.stack_depth): the ways before
				 * the window, then keep */
	uint32_t keep;          /* entries of a set kept per change in the window:
				 * STEP_KEEP, or the ways where more (the whole
				 * cache's sets whole), at most RD_EVENT_STACK */
	int oom;
	void *rec;              /* the recording while requests come in */
} steplog;

/* A log of the first STEP_MAX requests (steplog_new), or of the STEP_MAX
 * from request number first on. NULL: out of memory. */
steplog *steplog_new(const rd_config *c);
steplog *steplog_new_at(const rd_config *c, uint64_t first);
void steplog_free(steplog *l);

/* Record one event, and keep it (its stack copied) when it is in the
 * window. 0; 1 when it is past the window (dropped, the log marked
 * truncated; the rest of the last kept request's step still recorded:
 * the run may stop once tail_done is set too); -1 out of memory. */
int steplog_add(steplog *l, const rd_event *ev);
/* Record one landing: 0, 1 once tail_done, -1 out of memory. */
int steplog_land(steplog *l, const rd_landing *ld);

/* After the run (complete: the model reported every request): the stacks
 * after the last steps, the warps' links. 0, or -1 out of memory. */
int steplog_finish(steplog *l);
int steplog_end(steplog *l, int complete);

/*
 * Under l1.stores=evict a store removes its line and leaves its way empty
 * (the model's hole): the stacks and the grid's sets then hold an empty
 * way where the line was (rd_is_hole), counted in the distances like a
 * line. A store's stack "before" is its set as it found it (the line
 * still there); its "after", the way empty.
 */

/* A stack of request i: before (at the lookup) or after (end of its step). */
const uint64_t *steplog_stack(const steplog *l, size_t i, int after, uint32_t *len);

/* Requests in flight at request i's lookup (issued before it on its core,
 * before the window too, their effect not landed yet), oldest first: up
 * to max of them into out. Returns how many there are in all. */
size_t steplog_inflight(const steplog *l, size_t i, const step_ev **out, size_t max);

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

/* The whole cache of request i's core as i's lookup saw it. */
typedef struct step_grid {
	uint32_t core, sets, ways;
	size_t nfly;            /* fills in flight (a line once, oldest first) */
	uint64_t *fly_line;
	uint32_t *fly_set;
	uint64_t *lines;        /* sets x ways */
	uint32_t *n;            /* per set: entries in its ways */
} step_grid;

/* 0, or -1 out of memory (or no cache copy: g zeroed). Set s holds the
 * entries (lines, or empty ways: rd_is_hole) in its ways. */
int steplog_grid(const steplog *l, size_t i, step_grid *g);
void step_grid_free(step_grid *g);
/* Set s of g: its lines in the ways, most recent first (*n of them). */
const uint64_t *step_grid_set(const step_grid *g, uint32_t s, uint32_t *n);
/* Is line in flight in g? */
int step_grid_flying(const step_grid *g, uint64_t line);

/* The line's tag: its address bits that are neither offset nor index
 * (addrbits.h), packed; for an index by modulo, line / modulus. */
uint64_t steplog_tag(const rd_config *c, uint32_t sets, uint64_t line);

/*
 * A place in the run typed at the step-through's jump prompt: "N" (a
 * request number as the status line counts them, from 1) or "tN" / "t=N"
 * (the first request issued at or after time step N). 0 with *is_time
 * and *v (a request number from 0, or a time), or -1 with the reason.
 */
int steplog_parse_goal(const char *text, int *is_time, uint64_t *v, char *err, size_t len);

#endif
