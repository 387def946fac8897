/*
 * The explorer's state, shared by its loop (explorer.c) and its panes
 * (panes.c). Owned and touched by the UI thread only.
 */
#ifndef UI_XSTATE_H
#define UI_XSTATE_H

#include <stdio.h>

#include "layout.h"
#include "rdscope.h"
#include "worker.h"

/* What a key handler asks for (htop's reactions): panes to redraw, a new
 * model run, leaving. */
enum {
	R_NONE = 0,
	R_TITLE = 1 << 0,
	R_PARAMS = 1 << 1,
	R_BARS = 1 << 2,
	R_HIST = 1 << 3,
	R_STATUS = 1 << 4,
	R_ALL = R_TITLE | R_PARAMS | R_BARS | R_HIST | R_STATUS,
	R_RESIZE = 1 << 5, /* recompute the layout, then redraw all */
	R_RERUN = 1 << 6,  /* the configuration changed */
	R_QUIT = 1 << 7,
};

enum prompt_kind { P_NONE = 0, P_VALUE, P_EXPORT, P_OPEN };
enum focus { F_PARAMS = 0, F_HIST };
/* What the screen shows: the panes, or a teaching view (the heat map and
 * the curves beside the parameters pane, the step-through on its own). */
enum view { V_PANES = 0, V_STEP, V_HEAT, V_CURVES };

#define MEMO_N 16
#define UNDO_N 64

typedef struct explorer {
	const char *input;     /* as given (INPUT or builtin:fig3) */
	rd_kernel *k;
	worker *w;
	int no_timing;

	rd_config cfg;         /* the configuration on screen */
	rd_config start_cfg;
	rd_config undo[UNDO_N];
	int nundo;
	unsigned long gen;     /* bumped by every change of cfg */

	snap *cur;             /* result of cfg (gen), partial or final; or NULL */
	snap *base;            /* pinned baseline, or NULL */
	int pin_pending;       /* pin the current run's result when it is final */
	snap *memo[MEMO_N];    /* recent final results, most recent first */
	double progress;       /* of the run for gen, while one is going */
	double last_seconds;   /* model time of the last final result */

	int focus;
	size_t sel;            /* selected parameter field */
	size_t params_top;     /* first field shown (the pane scrolls) */
	size_t hist_first;     /* first histogram bin shown */
	int hist_log;          /* counts on a log scale */
	int help;              /* help screen shown */
	int help_top;          /* first help line shown */

	int prompt;            /* enum prompt_kind */
	char pbuf[512];
	int pfresh;            /* the text is the offered one: typing replaces it */
	char plabel[64];

	char msg[1024];        /* status-line message, until the next key */
	int msg_err;

	int view;              /* enum view */
	snap *steps;           /* JOB_STEPS result of cfg, or NULL (views.c) */
	size_t step;           /* the request shown */
	snap *curves;          /* JOB_CURVES result of cfg (partial or final), or NULL */
	unsigned long asked[JOB_NKINDS]; /* generation each view's run was asked for */
	char asked_key[32];    /* the parameter the curves were asked to sweep */
	int teach;             /* class mode: the lesson on screen, or -1 */
	char input_buf[256];   /* input of a lesson (x->input points here) */

	layout lay;
	int utf8, color;
} explorer;

/* Is the final result of the current configuration on screen? */
static inline int x_settled(const explorer *x)
{
	return x->cur && !x->cur->partial;
}

/* Is everything the screen is waiting for in (the breakdown, and the
 * view's own run)? The script's wait and dump-screen wait for it. */
int x_ready(const explorer *x);

/* ---- explorer.c ---- */
/* Same configuration (every key's value)? */
int explorer_cfg_same(const rd_config *a, const rd_config *b);
/* React to one key code (the keyboard's or a script's). */
int explorer_key(explorer *x, int ch);
/* Make nc the configuration on screen (push_undo: remember the old one). */
int explorer_set_config(explorer *x, const rd_config *nc, int push_undo);
/* Replace the kernel (and the model thread) with k named input, under
 * configuration c; the memo, baseline and undo history go. 0, or -1 with
 * the reason on the status line (the old kernel stays). */
int explorer_switch(explorer *x, rd_kernel *k, const char *input, const rd_config *c);
void explorer_message(explorer *x, int err, const char *fmt, ...);

/* ---- views.c: the teaching views' state and keys ---- */
/* The keys of keys.h whose handlers (key_ID) views.c has. */
#define VIEW_KEYS(X) X(STEPS) X(HEAT) X(CURVES) X(BACK) X(NEXT_TABLE) X(PREV_TABLE) \
	X(STEP_NEXT) X(STEP_PREV) X(STEP_FWD10) X(STEP_BACK10) X(STEP_FIRST) X(STEP_LAST)
/* Ask the model thread for what the current view needs and is not there. */
void views_request(explorer *x);
/* A JOB_STEPS or JOB_CURVES result came: keep it if it is for the screen. */
int views_result(explorer *x, snap *s);
/* Open lesson i of class mode. */
int views_lesson(explorer *x, int i);

/* ---- panes.c ---- */
/* Draw what flags name (R_*), then refresh the screen. */
void panes_draw(explorer *x, int flags);
/* Rows the parameters pane would like, frame included. */
int panes_params_rows(void);
/* Write the screen's text (UTF-8, trailing blanks trimmed) to f. */
void panes_dump(FILE *f);
/* Title and status lines (shared with the views). */
void panes_title(explorer *x);
void panes_status(explorer *x);

/* ---- view_step.c, view_heat.c, view_curves.c ---- */
void view_step_draw(explorer *x, const rect *r);
void view_heat_draw(explorer *x, const rect *r);
void view_curves_draw(explorer *x, const rect *r);

#endif
