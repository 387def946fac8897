/*
 * The explorer's state and its operations (see state.h). Recent final
 * results are memoised (configuration -> result), so stepping back to a
 * value is instant; each change of the configuration bumps a generation,
 * which stops any run of an older one. Calls the worker, snap, params and
 * lessons, and the views only through explorer.views.
 */
#include "state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lessons.h"
#include "params.h"
#include "rprof.h"

/* ---------------------------------------------------------------- basics */


void explorer_message(explorer *x, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->msg, sizeof x->msg, fmt, ap);
	va_end(ap);
	/* One line: the first line of a multi-line error. */
	x->msg[strcspn(x->msg, "\n")] = '\0';
	x->msg_err = err;
}

int x_ready(const explorer *x)
{
	const view_ops *v = x_view(x);
	return x_settled(x) && !x->busy && (!v->ready || v->ready(x));
}

/* ---------------------------------------------------------------- memo */

/* Where c's final result is kept, or -1. */
static int memo_index(const explorer *x, const rd_config *c)
{
	for (int i = 0; i < MEMO_N && x->memo[i]; i++)
		if (rd_config_equal(&x->memo[i]->cfg, c))
			return i;
	return -1;
}

static snap *memo_find(explorer *x, const rd_config *c)
{
	int i = memo_index(x, c);
	if (i < 0)
		return NULL;
	snap *s = x->memo[i];
	/* Most recently used first. */
	memmove(&x->memo[1], &x->memo[0], (size_t)i * sizeof x->memo[0]);
	x->memo[0] = s;
	return s;
}

static void memo_put(explorer *x, snap *s)
{
	if (memo_index(x, &s->cfg) >= 0)
		return;
	snap_unref(x->memo[MEMO_N - 1]);
	memmove(&x->memo[1], &x->memo[0], (MEMO_N - 1) * sizeof x->memo[0]);
	x->memo[0] = snap_ref(s);
}

/* ---------------------------------------------------------------- edits */

/*
 * Let the model thread, when it has nothing else to do, compute the two
 * configurations one step of the selected parameter away: a step there is
 * then answered from the memo at once. (A typed value cannot be guessed;
 * a step is the explorer's most common edit.)
 */
void explorer_speculate(explorer *x)
{
	rd_config next[2];
	int n = 0;
	char msg[512];
	if (x->parts)
		return; /* each run takes seconds: only what is asked for */
	for (int dir = 1; dir >= -1; dir -= 2) {
		rd_config c = x->cfg;
		char note[256];
		int uh = x->hash_user; /* the step as step_value takes it */
		if (param_step_auto(&c, x->sel, dir, &uh, msg, sizeof msg, note, sizeof note) == 0 &&
		    !rd_config_equal(&c, &x->cfg) && memo_index(x, &c) < 0)
			next[n++] = c;
	}
	worker_speculate(x->w, x->gen, next, n);
}

void explorer_request(explorer *x)
{
	const view_ops *v = x_view(x);
	if (v->request)
		v->request(x);
}

int explorer_set_config(explorer *x, const rd_config *nc, int push_undo)
{
	if (rd_config_equal(nc, &x->cfg))
		return R_NONE;
	if (push_undo) {
		if (x->nundo == UNDO_N) {
			memmove(&x->undo[0], &x->undo[1], (UNDO_N - 1) * sizeof x->undo[0]);
			x->nundo--;
		}
		x->undo[x->nundo++] = x->cfg;
	}
	x->cfg = *nc;
	x->gen++;
	if (x->pin_pending) { /* it was for the configuration before */
		x->pin_pending = 0;
		explorer_message(x, 1, "compare: not pinned, the configuration changed before "
				       "its run finished");
	}
	snap_unref(x->cur);
	x->cur = NULL;
	x->progress = 0;
	snap *m = memo_find(x, nc);
	if (m) {
		x->cur = snap_ref(m);
		x->last_seconds = m->seconds;
	}
	/* The model thread hears of it in explorer_flush, once the keys in
	 * hand are read: a burst of a hundred steps asks for one run, not a
	 * hundred started and cancelled. */
	x->submit_pending = 1;
	return R_ALL | R_RERUN;
}

void explorer_flush(explorer *x)
{
	if (!x->submit_pending)
		return;
	x->submit_pending = 0;
	if (x->cur)
		worker_submit(x->w, x->gen, NULL, 0); /* from the memo: stop what runs */
	else
		worker_submit(x->w, x->gen, &x->cfg, 1);
	explorer_request(x);   /* the view's own run, after the breakdown */
	explorer_speculate(x); /* and, after all that, the next step's */
}

int explorer_apply_edit(explorer *x, const rd_config *nc, int hash_user, const char *note)
{
	/* The user's own choice of hash ends any automatic one. */
	x->hash_user = nc->l1_hash != x->cfg.l1_hash && !*note ? -1 : hash_user;
	int f = explorer_set_config(x, nc, 1);
	if (*note) {
		explorer_message(x, 0, "%s", note);
		f |= R_STATUS;
	}
	return f;
}

int explorer_undo(explorer *x)
{
	if (!x->nundo) {
		explorer_message(x, 1, "nothing to undo");
		return R_STATUS;
	}
	rd_config c = x->undo[--x->nundo];
	return explorer_set_config(x, &c, 0);
}

int explorer_toggle_view(explorer *x, int v)
{
	const char *no = explorer_view_unavailable(x, v);
	if (no && x->view != v) {
		explorer_message(x, 1, "%s", no);
		return R_STATUS;
	}
	x->view = x->view == v ? V_PANES : v;
	if (x_view(x)->params_focus)
		x->focus = F_PARAMS; /* its keys are the parameters pane's */
	explorer_request(x);
	return R_ALL;
}

void explorer_want_profile(explorer *x)
{
	if (x->parts)
		return; /* no accesses to profile */
	rd_config k;
	rprof_key(&x->cfg, &k);
	if ((x->prof && rd_config_equal(&x->prof->cfg, &k)) || x->prof_asked == x->gen)
		return;
	x->prof_asked = x->gen;
	worker_submit_job(x->w, JOB_PROFILE, x->gen, &k, NULL);
}

/* ---------------------------------------------------------------- pin */

/* Pin the current final result as the baseline. */
static int pin_now(explorer *x)
{
	x->pin_pending = 0;
	if (x->cur->status != RD_OK) {
		explorer_message(x, 1, "compare: no result to pin (the model failed)");
		return R_STATUS;
	}
	x->base = snap_ref(x->cur);
	explorer_message(x, 0, "baseline pinned: changes now show against it (c unpins)");
	return R_ALL;
}

int explorer_pin(explorer *x)
{
	if (x->base || x->pin_pending) {
		snap_unref(x->base);
		x->base = NULL;
		x->pin_pending = 0;
		explorer_message(x, 0, "baseline unpinned");
		return R_ALL;
	}
	if (!x_settled(x)) {
		/* The run going is for the configuration on screen: pin it when
		 * its final result is in. */
		x->pin_pending = 1;
		explorer_message(x, 0, "compare: the baseline is pinned when this run finishes");
		return R_STATUS;
	}
	return pin_now(x);
}

/* ---------------------------------------------------------------- results */

/* A view's result: only for the configuration on screen. */
static int view_result(explorer *x, snap *s)
{
	if (!s->any_cfg && !rd_config_equal(&s->cfg, &x->cfg))
		return R_NONE;
	int flags = R_NONE;
	for (const view_ops *const *v = x->views; *v; v++)
		if ((*v)->result)
			flags |= (*v)->result(x, s);
	return flags;
}

/* One result from the model thread. */
static int on_result(explorer *x, snap *s)
{
	int flags = R_NONE;
	if (s->kind == JOB_SPEC) { /* kept for a step there, never drawn */
		if (s->status == RD_OK && !s->partial)
			memo_put(x, s);
		snap_unref(s);
		return flags;
	}
	if (s->kind != JOB_BREAKDOWN) {
		flags = view_result(x, s);
		snap_unref(s);
		return flags;
	}
	if (s->status == RD_OK && !s->partial)
		memo_put(x, s);
	/* Only the newest configuration's results are ever drawn. */
	if (s->gen == x->gen && !x_settled(x)) {
		snap_unref(x->cur);
		x->cur = snap_ref(s);
		if (!s->partial)
			x->last_seconds = s->seconds;
		if (s->status != RD_OK)
			explorer_message(x, 1, "model: %s",
					 *s->err ? s->err : rd_strerror(s->status));
		if (x->pin_pending && !s->partial)
			pin_now(x);
		flags |= R_ALL;
	}
	snap_unref(s);
	return flags;
}

/* Results and progress from the model thread: one slot per kind. */
int explorer_take_results(explorer *x)
{
	unsigned long pg;
	double p;
	int flags = R_NONE;
	snap *s;
	while ((s = worker_take(x->w, &pg, &p)))
		flags |= on_result(x, s);
	if (pg == x->gen && !x_settled(x) && p != x->progress) {
		x->progress = p;
		flags |= R_STATUS;
	}
	return flags;
}

/* ---------------------------------------------------------------- kernel */

int explorer_views_start(explorer *x)
{
	for (int v = 0; v < V_NALL && x->views[v]; v++)
		if (x->views[v]->priv_size && !(x->priv[v] = calloc(1, x->views[v]->priv_size)))
			return -1;
	return 0;
}

void explorer_views_end(explorer *x)
{
	for (int v = 0; v < V_NALL; v++) {
		free(x->priv[v]);
		x->priv[v] = NULL;
	}
}

/* Everything that belongs to the kernel explored goes: its model thread
 * and every result of it (also the views', through their drop op). */
void explorer_free(explorer *x)
{
	worker_stop(x->w);
	x->w = NULL;
	snap_unref(x->cur);
	snap_unref(x->base);
	x->cur = x->base = NULL;
	for (int i = 0; i < MEMO_N; i++) {
		snap_unref(x->memo[i]);
		x->memo[i] = NULL;
	}
	for (const view_ops *const *v = x->views; *v; v++)
		if ((*v)->drop)
			(*v)->drop(x);
	rd_kernel_free(x->k);
	x->k = NULL;
	x->parts = 0;
}

int explorer_switch(explorer *x, rd_kernel *k, const char *input, const rd_config *c)
{
	return explorer_switch_parts(x, k, NULL, input, c);
}

const char *explorer_view_unavailable(const explorer *x, int v)
{
	static char why[400];
	if (!x->parts || v < 0 || v >= V_NALL || !x->views[v] || !x->views[v]->accesses)
		return NULL;
	snprintf(why, sizeof why,
		 "this kernel is modelled SM by SM: the %s view needs its accesses, which are never "
		 "in memory at once (past the load limit); its totals and histogram are exact",
		 x->views[v]->name);
	return why;
}

int explorer_switch_parts(explorer *x, rd_kernel *k, void *parts, const char *input,
			  const rd_config *c)
{
	char err[512];
	/* A trace names no arrays: find them by gaps as rdscope arrays and
	 * run do (the placement view's), now, before the model thread shares
	 * the kernel; only up to EXPLORER_ARRAYS_AUTO accesses (the time and
	 * memory it takes before the first result). */
	if (!parts && !k->arrays && k->nloads + k->nstores <= EXPLORER_ARRAYS_AUTO) {
		rd_arrays *as = rd_arrays_detect(k, RD_ARRAYS_GAP_DEFAULT);
		if (as && as->n)
			rd_kernel_set_arrays(k, as);
		else
			rd_arrays_free(as);
	}
	worker *w = parts ? worker_start_parts(k, x->opts->parts_run, x->opts->parts_free, parts,
					       err, sizeof err)
			  : worker_start(k, err, sizeof err);
	if (!w) {
		rd_kernel_free(k);
		explorer_message(x, 1, "%s", err);
		return -1;
	}
	/* Another input in a running explorer (O, a, the generator) brings
	 * no configuration of its own: r still goes back to the one the
	 * explorer started with, and u through the edits made before it.
	 * The first kernel's configuration is the start (a lesson sets its
	 * own: explorer_lesson). */
	int first = !x->k;
	explorer_free(x);
	x->k = k;
	x->parts = parts != NULL;
	x->w = w;
	x->input = input;
	x->try_hint = NULL; /* the opener sets the new input's */
	x->made = NULL;     /* and says when it made the kernel */
	x->typed_timing = 0;
	x->cfg = *c;
	if (first) {
		x->start_cfg = *c;
		x->nundo = 0;
	}
	x->hash_user = -1;
	x->pin_pending = 0;
	x->submit_pending = 0; /* submitted below */
	x->progress = 0;
	x->gen++;
	worker_submit(x->w, x->gen, &x->cfg, 1);
	explorer_request(x);
	explorer_speculate(x);
	return 0;
}

int explorer_lesson(explorer *x, int i)
{
	rd_kernel *k = lesson_kernel(&lessons[i]);
	if (!k) {
		explorer_message(x, 1, "out of memory");
		return -1;
	}
	rd_config c;
	lesson_config(&lessons[i], &c);
	x->teach = i;
	x->view = V_STEP;
	if (explorer_switch(x, k, lessons[i].sample, &c) < 0)
		return -1;
	/* the lesson's configuration is its start: r comes back to it */
	x->start_cfg = c;
	x->nundo = 0;
	return 0;
}
