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

	layout lay;
	int utf8, color;
} explorer;

/* Is the final result of the current configuration on screen? */
static inline int x_settled(const explorer *x)
{
	return x->cur && !x->cur->partial;
}

/* ---- panes.c ---- */
/* Draw what flags name (R_*), then refresh the screen. */
void panes_draw(explorer *x, int flags);
/* Rows the parameters pane would like, frame included. */
int panes_params_rows(void);
/* Write the screen's text (UTF-8, trailing blanks trimmed) to f. */
void panes_dump(FILE *f);

#endif
