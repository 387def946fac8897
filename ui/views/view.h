/*
 * The explorer's views behind one ops table (after tig's struct view_ops):
 * each view -- the breakdown panes, the step-through, the heat map, the
 * curves, and class mode's lessons -- is one file of ui/views/ holding its
 * drawing, its keys, its model requests and its private state (a struct
 * the file defines, kept in explorer.priv: no other file sees it), and
 * exports only its ops. The explorer never calls a view by name: the loop
 * hands the table (views/table.c) to the state as explorer.views, and the
 * state, the key dispatch, the prompts and the screen go through it. So a
 * view may call the explorer's state (explorer/state.h) and the drawing
 * helpers below it, never the screen, the key dispatch, the prompts or
 * the loop: what it needs of them it asks through explorer.calls (a call
 * off the UI thread, whose result comes back through its took op) or
 * gets through its ops (a prompt's text: answer).
 */
#ifndef UI_VIEWS_VIEW_H
#define UI_VIEWS_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "keys.h"
#include "layout.h"
#include "snap.h"

struct explorer;

/* The views, in order, each its index and its ops (its file's): the one
 * list that makes the enum below, view_table (views/table.c), the help
 * screen's list and the man page's VIEWS. After them V_TEACH, the
 * teaching module: keys, no screen of its own. */
#define VIEW_LIST(X)                                                                        \
	X(V_PANES, view_breakdown) X(V_STEP, view_step) X(V_HEAT, view_heat)                \
	X(V_CURVES, view_curves) X(V_SOURCES, view_sources) X(V_PROFILE, view_profile)      \
	X(V_GEN, view_gen) X(V_COUNT, view_count) X(V_PLACE, view_place)

/* What the screen shows (an index into the table): the panes, or a
 * teaching view (the heat map and the curves beside the parameters pane,
 * the step-through on its own). */
#define VIEW_ENUM(e, ops) e,
enum view { VIEW_LIST(VIEW_ENUM) V_NVIEWS, V_TEACH = V_NVIEWS, V_NALL };
#undef VIEW_ENUM

typedef struct view_ops {
	/* Its name and a line on what it shows (the help screen's list of
	 * views and the man page's VIEWS: views_help, views_man_section). */
	const char *name;
	const char *desc;
	/* Bytes of the view's private state: a struct its file defines, kept
	 * zeroed from the explorer's start to its end in explorer.priv[] (by
	 * its enum view) and touched by that file alone (0: none). */
	size_t priv_size;
	/* Drawn on the whole body between the title and status lines (the
	 * step-through), or beside the parameters pane (layout.side). */
	int body;
	/* Its keys are the parameters pane's: the focus moves there when the
	 * view opens. */
	int params_focus;
	/* It needs the kernel's accesses: not offered for a kernel modelled
	 * SM by SM (explorer_view_unavailable says why). */
	int accesses;
	/* Key scope while the view is shown (KS_STEP), or KS_GLOBAL: the
	 * focused pane's. */
	enum key_scope scope;
	/* Draw into r what the reaction flags (R_*) ask for. NULL: no screen. */
	void (*draw)(struct explorer *x, const rect *r, int flags);
	/* A key: the reaction flags, or -1 when it is not the view's. Offered
	 * to the view on screen first, then to the others. */
	int (*key)(struct explorer *x, enum key_id id);
	/* Ask the model thread for what the view needs and is not there
	 * (called while the view is on screen). */
	void (*request)(struct explorer *x);
	/* A result of the configuration on screen, of a kind other than the
	 * breakdown: keep it if it is the view's (reaction flags, or R_NONE). */
	int (*result)(struct explorer *x, snap *s);
	/* Is the view's own run in (the script's wait)? NULL: nothing to wait for. */
	int (*ready)(const struct explorer *x);
	/* Its part of the status line (buf "" for none), and a hint of its keys
	 * for the status line's right end (NULL for none). */
	void (*status)(const struct explorer *x, char *buf, size_t len);
	const char *(*hint)(const struct explorer *x);
	/* Forget the view's results (a new kernel, the explorer's end). */
	void (*drop)(struct explorer *x);
	/* A call off the UI thread that the view asked for (explorer.calls)
	 * ended: kind (enum prompt_kind), and *res its result (NULL when it
	 * failed or was stopped: explorer.call_err says why, "" when
	 * stopped), the view's to keep by setting *res NULL.
	 * Reaction flags, or -1 when the call is not the view's. */
	int (*took)(struct explorer *x, int kind, void **res);
	/* The text accepted at a prompt of kind (enum prompt_kind) that the
	 * explorer opened for the view: reaction flags, or -1 when the prompt
	 * is not the view's. */
	int (*answer)(struct explorer *x, int kind, const char *text);
	/* Write the view's data as CSV (the script's dump-curves): 0, or -1
	 * when it holds none (nothing written). */
	int (*csv)(const struct explorer *x, FILE *f);
} view_ops;

/* The table, V_PANES .. V_TEACH, NULL-terminated (views/table.c). */
extern const view_ops *const view_table[];

/* The views' ops (one file each). */
/* The list of views, from a table such as view_table (explorer.views):
 * line(ctx, NULL, ""), line(ctx, NULL, VIEWS_HEADING), then
 * line(ctx, name, desc) for each view. */
#define VIEWS_HEADING "Views"
void views_list(const view_ops *const *views,
		void (*line)(void *ctx, const char *key, const char *text), void *ctx);
/* The help screen's lines (the ? key): the keys scope by scope
 * (keys_help_scope), the list of views after the keys that open them
 * (KS_GLOBAL's). */
void views_help(const view_ops *const *views,
		void (*line)(void *ctx, const char *key, const char *text), void *ctx);

/* The man page's VIEWS section (".SH VIEWS" up to the next .SH), in roff,
 * from view_table: a new string (malloc), or NULL when memory ran out. */
char *views_man_section(void);

/* man_text with its VIEWS section replaced by views_man_section(), or,
 * when it has none, the section inserted before ".SH KEYS": a new string
 * (malloc), or NULL when it has neither or memory ran out. Equal to
 * man_text when the page is up to date. */
char *views_man_update(const char *man_text);

#define VIEW_EXTERN(e, ops) extern const view_ops ops;
VIEW_LIST(VIEW_EXTERN)
#undef VIEW_EXTERN
extern const view_ops view_teach;

#endif
