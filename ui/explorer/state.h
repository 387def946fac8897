/*
 * The explorer's state: the configuration on screen and its results, the
 * memo of recent results, the undo history, the pinned baseline, the
 * status-line message, the view on screen and each view's private state
 * (held here, its struct known to the view's file alone); and the operations on it
 * (a new configuration, a new kernel, a result from the model thread, the
 * teardown). Owned and touched by the UI thread only; no curses.
 *
 * Everything in ui/explorer/ and ui/views/ may call this file; it calls
 * only what lies below (worker, snap, params, lessons, rprof) and reaches the
 * views through their ops table (explorer.views), never by name.
 */
#ifndef UI_EXPLORER_STATE_H
#define UI_EXPLORER_STATE_H

#include "bgcall.h"
#include "explorer.h"
#include "layout.h"
#include "rdscope.h"
#include "views/view.h"
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

/* P_CONFIRM: replace the existing file pfile with the export (y/n)? */
/* P_GOTO: a request or time for the step-through; P_INPUT: another input
 * to explore; P_TYPED: an address sequence to explore (typed.h). */
/* The prompt's text, at most PROMPT_MAX - 1 bytes: a typed address list
 * of TYPED_MAX loads written out in full ("1023:0xffffffffffff", 20 bytes
 * each) fits; what does not fit is dropped and said (pfull). */
#define PROMPT_MAX 16384

enum prompt_kind { P_NONE = 0, P_VALUE, P_EXPORT, P_OPEN, P_CONFIRM, P_GOTO, P_INPUT, P_TYPED,
		   P_SVG, P_SOURCE, P_COUNT };
enum focus { F_PARAMS = 0, F_HIST };

#define MEMO_N 16
#define UNDO_N 64

typedef struct explorer {
	const explorer_opts *opts; /* src/ services (preset files) */
	const view_ops *const *views; /* the views' table (views/table.c) */
	const char *input;     /* as given (INPUT, builtin:fig3, a lesson's sample) */
	const char *try_hint;  /* what to try with the input a sample opened, or NULL */
	/* The kernel on screen was made in the explorer, said as "the typed
	 * addresses" or "the generated trace's loads" (with "are"); input is
	 * then its label, not a name to read again (count, sources). NULL:
	 * read from input. */
	const char *made;
	/* Typed addresses whose answer latency changes (prompt.c): the
	 * step-through says latency 0 gives the textbook's distances while
	 * the configuration has latency. */
	int typed_timing;
	char input_buf[600];   /* an input opened or typed in the explorer (input) */
	rd_kernel *k;
	/* k is a shape modelled SM by SM (explorer_opts.parts_open): no
	 * accesses, so the views that need them are not offered */
	int parts;
	worker *w;
	int no_timing;

	rd_config cfg;         /* the configuration on screen */
	rd_config start_cfg;   /* r's: the first kernel's or the lesson's (explorer_switch) */
	rd_config undo[UNDO_N];
	int nundo;
	unsigned long gen;     /* bumped by every change of cfg */

	snap *cur;             /* result of cfg (gen), partial or final; or NULL */
	snap *base;            /* pinned baseline, or NULL */
	int pin_pending;       /* pin the current run's result when it is final */
	int submit_pending;    /* cfg changed; explorer_flush tells the model thread */
	snap *memo[MEMO_N];    /* recent final results, most recent first */
	double progress;       /* of the run for gen, while one is going */
	double last_seconds;   /* model time of the last final result */

	int focus;
	size_t sel;            /* selected parameter field */
	size_t params_top;     /* first field shown (the pane scrolls) */
	int level;             /* the focused level: 2 the shared L2, else the L1 (2 switches;
				  views/breakdown.c, views/heat.c) */
	int help;              /* help screen shown: 1 the keys, 2 the info (i) */
	int help_top;          /* first help line shown */

	int prompt;            /* enum prompt_kind */
	char pbuf[PROMPT_MAX]; /* what is typed (or pasted) at the prompt */
	int pfull;             /* a character did not fit into pbuf (dropped) */
	int pfresh;            /* the text is the offered one: typing replaces it */
	char plabel[64];
	char pfile[600];       /* P_CONFIRM: the file an export would replace */
	int pconfirm;          /* P_CONFIRM: what would replace it (P_EXPORT, P_SVG) */

	/* A preset being opened or exported off the UI thread (bgcall.h,
	 * prompt.c), or NULL; what the status line says meanwhile. */
	bgcall *busy;
	char busy_what[700];
	/* Why the last call a view asked for (explorer.calls) failed, for its
	 * took op to show (*res NULL); "" when it was stopped. */
	char call_err[1024];

	/* The hash a geometry edit switched away from because it could not
	 * take the new set count (params.h, param_step_auto), to go back to
	 * when it can; -1: none (the user's own hash is on). */
	int hash_user;

	char msg[1024];        /* status-line message, until the next key */
	int msg_err;
	int msg_rows;          /* rows the message took when drawn (wrapped above
				  the status line when wider than it) */

	int view;              /* enum view (views/view.h) */
	/* Each view's private state (view_ops.priv_size), by enum view: the
	 * view's file alone knows its struct (explorer_views_start). */
	void *priv[V_NALL];
	/* What the views ask of the explorer off the UI thread (prompt.c's
	 * calls, handed over by the loop): a view never names the prompt. */
	const struct explorer_calls *calls;
	/* Shared by several views, so kept here: the reuse profile (the
	 * profile view's, and the breakdown's estimate line), JOB_PROFILE's
	 * result or NULL, and the generation it was asked for in
	 * (explorer_want_profile); class mode's lesson on screen or -1
	 * (views/teach.c goes through them, views/step.c heads the
	 * step-through with its title, explorer_lesson sets it, another
	 * input ends it). */
	snap *prof;
	unsigned long prof_asked;
	int teach;

	layout lay;
	int utf8, color;
} explorer;

/* The calls the views ask the explorer for (explorer.calls), each run off
 * the UI thread; each says on the status line why it could not start, and
 * hands its result to the views' took op. Reaction flags. */
typedef struct explorer_calls {
	/* The description text of the input on screen (opts->source_text):
	 * a malloc'ed char * for kind P_SOURCE. */
	int (*source)(struct explorer *x);
	/* The count of the input on screen (explorer_opts.count) with the -D
	 * settings defs, line and cache sizes bytes: a malloc'ed
	 * explorer_count * for kind P_COUNT. */
	int (*count)(struct explorer *x, const char (*defs)[48], int ndefs, uint32_t line,
		     const uint64_t *bytes, int nlevels);
} explorer_calls;

/* Is the final result of the current configuration on screen? */
static inline int x_settled(const explorer *x)
{
	return x->cur && !x->cur->partial;
}

/* The view on screen's ops. */
static inline const view_ops *x_view(const explorer *x)
{
	return x->views[x->view];
}

/* Is everything the screen is waiting for in (the breakdown, the view's
 * own run, a preset being opened or exported)? The script's wait and
 * dump-screen wait for it. */
int x_ready(const explorer *x);

/* The status-line message (one line: the first of a multi-line text),
 * until the next key; err: shown as an error. */
void explorer_message(explorer *x, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Make nc the configuration on screen, from the memo at once or by a run
 * (push_undo: remember the old one). Reaction flags. */
int explorer_set_config(explorer *x, const rd_config *nc, int push_undo);
/* Tell the model thread of the last explorer_set_config (the loop calls
 * it before it waits, so a burst of edits asks for one run). */
void explorer_flush(explorer *x);

/* An edit of the parameters pane: nc with undo; hash_user and note as
 * param_step_auto gives them (a hash switched by the edit is said on the
 * status line; undo restores the geometry and the hash together). */
int explorer_apply_edit(explorer *x, const rd_config *nc, int hash_user, const char *note);

/* Back to the configuration before the last change. Reaction flags. */
int explorer_undo(explorer *x);

/* Pin the current result as the baseline (when its run finishes if it is
 * still going), or unpin it. Reaction flags. */
int explorer_pin(explorer *x);

/* Let the model thread compute the selected parameter's neighbours while
 * it is idle (after a change of the selection or configuration). */
void explorer_speculate(explorer *x);

/* Ask for the view on screen's own run (views' request op). */
void explorer_request(explorer *x);

/* Show view v, or the panes when it is shown already. Reaction flags. */
int explorer_toggle_view(explorer *x, int v);

/* Inputs of at least this many loads get their reuse profile measured
 * after the breakdown without asking (views/breakdown.c): the breakdown
 * pane then estimates every later geometry edit at once. */
#define EXPLORER_PROFILE_AUTO_LOADS 2000000u

/* Kernels without arrays of their own (traces) of at most this many
 * accesses (loads and stores) get them found by gaps when opened
 * (explorer_switch; rd_arrays_detect: about 0.1 s and 75 MB for 1.6 M
 * accesses), for the placement view. */
#define EXPLORER_ARRAYS_AUTO 2000000u

/* Ask the model thread for the reuse profile of the configuration on
 * screen (rprof.h), unless the one held is its or it is asked for in this
 * generation already. */
void explorer_want_profile(explorer *x);

/* Results and progress from the model thread. Reaction flags. */
int explorer_take_results(explorer *x);

/* Explore kernel k named input (which must outlive the explorer) under
 * configuration c: a new model thread; the memo, baseline and the views'
 * results go. The first kernel's c is the starting configuration (r);
 * another input keeps the start and the undo history (an input brings no
 * configuration: r and u still reach the ones before it). 0, or -1 with
 * the reason as the message (k freed, the old kernel stays). */
int explorer_switch(explorer *x, rd_kernel *k, const char *input, const rd_config *c);
/* The same for a kernel modelled in parts: k its shape, parts the handle
 * for opts->parts_run (the model thread's, freed with it). */
int explorer_switch_parts(explorer *x, rd_kernel *k, void *parts, const char *input,
			  const rd_config *c);
/* Why view v cannot be shown for the kernel on screen (one modelled SM by
 * SM, where the view needs its accesses), or NULL: it can. */
const char *explorer_view_unavailable(const explorer *x, int v);

/* Class mode's lesson i (lessons.h) in the step-through: its kernel and
 * configuration through explorer_switch. 0, or -1 with the message. */
int explorer_lesson(explorer *x, int i);

/* Each view's private state (view_ops.priv_size), zeroed: 0, or -1 when
 * memory ran out. explorer_views_end frees it, after explorer_free. */
int explorer_views_start(explorer *x);
void explorer_views_end(explorer *x);

/* The one teardown: stop the model thread and free the kernel and every
 * result the explorer and its views hold (explorer_switch's first step,
 * and the loop's last). */
void explorer_free(explorer *x);

#endif
