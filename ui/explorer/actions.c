/*
 * Key actions (see actions.h): the handlers of the explorer's own keys
 * (help, quit, focus, compare, undo, reset, export, open, redraw, the
 * parameters pane's selection and steps) and the dispatch of every key.
 */
#include "actions.h"

#include <curses.h>

#include "keys.h"
#include "params.h"
#include "prompt.h"

/* Up/Down among the focused level's rows (params.h: param_visible). */
static int step_sel(explorer *x, int dir)
{
	size_t rows[PARAM_ROWS_MAX];
	size_t n = param_visible(&x->cfg, x->level == 2 ? 2 : 1, rows, PARAM_ROWS_MAX), k = 0;
	while (k < n && rows[k] != x->sel)
		k++;
	if (k == n)
		return R_NONE;
	for (;;) {
		if (dir < 0 && k == 0)
			return R_NONE;
		if (dir > 0 && k + 1 >= n)
			return R_NONE;
		k = dir > 0 ? k + 1 : k - 1;
		if (param_editable(rows[k]))
			break;
	}
	x->sel = rows[k];
	explorer_speculate(x); /* the new parameter's neighbours instead */
	return R_PARAMS;
}

static int step_value(explorer *x, int dir)
{
	rd_config c = x->cfg;
	char err[512], note[256];
	int uh = x->hash_user;
	if (param_step_auto(&c, x->sel, dir, &uh, err, sizeof err, note, sizeof note) < 0) {
		explorer_message(x, 1, "%s", err);
		return R_STATUS;
	}
	return explorer_apply_edit(x, &c, uh, note);
}

static int key_help(explorer *x)
{
	x->help = 1;
	x->help_top = 0;
	return R_ALL;
}

static int key_info(explorer *x)
{
	x->help = 2;
	x->help_top = 0;
	return R_ALL;
}

static int key_quit(explorer *x)
{
	(void)x;
	return R_QUIT;
}

static int key_focus(explorer *x)
{
	x->focus = x->focus == F_PARAMS ? F_HIST : F_PARAMS;
	return R_PARAMS | R_HIST;
}

static int key_reset(explorer *x)
{
	rd_config c = x->start_cfg;
	x->hash_user = -1;
	int f = explorer_set_config(x, &c, 1);
	if (!f)
		explorer_message(x, 0, "already the starting configuration");
	return f | R_STATUS;
}

static int key_redraw(explorer *x)
{
	(void)x;
	clearok(curscr, TRUE);
	return R_ALL | R_RESIZE;
}

static int key_back(explorer *x)
{
	if (x->view == V_PANES)
		return R_NONE;
	x->view = V_PANES;
	return R_ALL;
}

static int key_up(explorer *x)
{
	return step_sel(x, -1);
}

static int key_down(explorer *x)
{
	return step_sel(x, 1);
}

static int key_dec(explorer *x)
{
	return step_value(x, -1);
}

static int key_inc(explorer *x)
{
	return step_value(x, 1);
}

/* Scroll the help dir lines (-1, 1), or a page (its rows less one kept
 * for context) for PageUp, PageDown and Space (issue 40 item 10: they
 * moved 5 lines, as the arrows did). */
static int help_scroll(explorer *x, int dir, int page)
{
	int n = 1;
	if (page) {
		n = x->lay.rows - 5; /* the help's frame, the title and status lines, one kept */
		if (n < 1)
			n = 1;
	}
	if (dir < 0)
		x->help_top -= x->help_top > n ? n : x->help_top;
	else
		x->help_top += n; /* clamped when drawn */
	return R_ALL;
}

static int key_help_up(explorer *x)
{
	return help_scroll(x, -1, 0);
}

static int key_help_down(explorer *x)
{
	return help_scroll(x, 1, 0);
}

/* The explorer's own keys; the others are the views' (their key op). */
static int (*const handlers[K_NKEYS])(explorer *) = {
	[K_HELP] = key_help,	   [K_INFO] = key_info,	    [K_QUIT] = key_quit,	    [K_FOCUS] = key_focus,
	[K_PIN] = explorer_pin,	   [K_UNDO] = explorer_undo, [K_RESET] = key_reset,
	[K_EXPORT] = prompt_export, [K_OPEN] = prompt_preset, [K_SVG] = prompt_svg, [K_REDRAW] = key_redraw,
	[K_BACK] = key_back,	   [K_UP] = key_up,	    [K_DOWN] = key_down,
	[K_DEC] = key_dec,	   [K_INC] = key_inc,	    [K_EDIT] = prompt_value,
	[K_HELP_UP] = key_help_up, [K_HELP_DOWN] = key_help_down,
	[K_INPUT] = prompt_input,  [K_TYPED] = prompt_typed,  [K_STEP_GOTO] = prompt_goto,
};

/* Key id: the explorer's handler, or the view on screen's key op, then
 * the other views'. */
static int run_key(explorer *x, enum key_id id)
{
	if (handlers[id])
		return handlers[id](x);
	const view_ops *on = x_view(x);
	int f = on->key ? on->key(x, id) : -1;
	for (const view_ops *const *v = x->views; f < 0 && *v; v++)
		if (*v != on && (*v)->key)
			f = (*v)->key(x, id);
	return f < 0 ? R_NONE : f;
}

int explorer_key(explorer *x, int ch)
{
	if (ch == KEY_RESIZE)
		return R_RESIZE;
	if (x->help) {
		const ui_key *k = keys_lookup(KS_HELP, ch);
		if (k && (k->id == K_HELP_UP || k->id == K_HELP_DOWN) &&
		    (ch == KEY_NPAGE || ch == KEY_PPAGE || ch == ' '))
			return help_scroll(x, k->id == K_HELP_DOWN ? 1 : -1, 1);
		if (k)
			return run_key(x, k->id);
		x->help = 0;
		return R_ALL;
	}
	if (x->prompt)
		return prompt_key(x, ch);
	int flags = R_NONE;
	if (*x->msg) { /* a message lasts until the next key */
		x->msg[0] = '\0';
		/* A wrapped one covered the panes' last rows. */
		flags |= x->msg_rows > 1 ? R_ALL : R_STATUS;
	}
	if (x->busy) { /* a preset being opened or exported: Esc stops waiting */
		const ui_key *c = keys_lookup(KS_PROMPT, ch);
		if (c && c->id == K_CANCEL)
			return flags | prompt_busy_cancel(x);
	}
	enum key_scope scope = x_view(x)->scope != KS_GLOBAL ? x_view(x)->scope
			       : x->focus == F_HIST	     ? KS_HIST
							     : KS_PARAMS;
	const ui_key *k = keys_lookup(scope, ch);
	if (!k) {
		if (ch >= 32 && ch < 127) {
			explorer_message(x, 1, "no key '%c' here (? shows the keys)", ch);
			flags |= R_STATUS;
		}
		return flags;
	}
	flags |= run_key(x, k->id);
	explorer_request(x); /* e.g. the curves follow the selected parameter */
	return flags;
}
