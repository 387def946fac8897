/*
 * The teaching views' state: which view is on screen, asking the model
 * thread for the runs a view needs (once per configuration), keeping the
 * results that are for the screen, their keys, and class mode's lessons.
 * Drawing is in view_step.c, view_heat.c and view_curves.c.
 */
#include <string.h>

#include "curves.h"
#include "keys.h"
#include "lessons.h"
#include "params.h"
#include "steplog.h"
#include "xstate.h"

/* The parameter the curves sweep: the one selected ("" for the derived
 * sets row). */
static const char *sweep_key(const explorer *x)
{
	const char *k = param_fields[x->sel].key;
	return k ? k : "";
}

static int steps_fit(const explorer *x)
{
	return x->steps && explorer_cfg_same(&x->steps->cfg, &x->cfg);
}

static int curves_fit(const explorer *x)
{
	return x->curves && explorer_cfg_same(&x->curves->cfg, &x->cfg) &&
	       strcmp(x->curves->key, sweep_key(x)) == 0;
}

int x_ready(const explorer *x)
{
	if (!x_settled(x))
		return 0;
	if (x->view == V_STEP)
		return steps_fit(x);
	if (x->view == V_CURVES)
		return curves_fit(x) && (x->curves->status != RD_OK || x->curves->curves->done);
	return 1;
}

void views_request(explorer *x)
{
	if (x->view == V_STEP && !steps_fit(x) && x->asked[JOB_STEPS] != x->gen) {
		x->asked[JOB_STEPS] = x->gen;
		worker_submit_job(x->w, JOB_STEPS, x->gen, &x->cfg, NULL);
	}
	if (x->view == V_CURVES && !curves_fit(x) &&
	    (x->asked[JOB_CURVES] != x->gen || strcmp(x->asked_key, sweep_key(x)) != 0)) {
		x->asked[JOB_CURVES] = x->gen;
		snprintf(x->asked_key, sizeof x->asked_key, "%s", sweep_key(x));
		worker_submit_job(x->w, JOB_CURVES, x->gen, &x->cfg, x->asked_key);
	}
}

int views_result(explorer *x, snap *s)
{
	if (!explorer_cfg_same(&s->cfg, &x->cfg))
		return R_NONE; /* for a configuration no longer on screen */
	if (s->kind == JOB_STEPS) {
		snap_unref(x->steps);
		x->steps = snap_ref(s);
		if (s->status != RD_OK)
			explorer_message(x, 1, "step-through: %s", rd_strerror(s->status));
		else if (x->step >= s->steps->n)
			x->step = s->steps->n ? s->steps->n - 1 : 0;
		return x->view == V_STEP ? R_ALL : R_NONE;
	}
	if (s->kind == JOB_CURVES && strcmp(s->key, sweep_key(x)) == 0) {
		snap_unref(x->curves);
		x->curves = snap_ref(s);
		if (s->status != RD_OK)
			explorer_message(x, 1, "curves: %s", rd_strerror(s->status));
		return x->view == V_CURVES ? R_BARS | R_HIST : R_NONE;
	}
	return R_NONE;
}

/* Show view v, or the panes when it is shown already. */
static int toggle(explorer *x, int v)
{
	x->view = x->view == v ? V_PANES : v;
	if (x->view == V_HEAT || x->view == V_CURVES)
		x->focus = F_PARAMS; /* their keys are the parameters pane's */
	views_request(x);
	return R_ALL;
}

int key_STEPS(explorer *x)
{
	return toggle(x, V_STEP);
}

int key_HEAT(explorer *x)
{
	return toggle(x, V_HEAT);
}

int key_CURVES(explorer *x)
{
	return toggle(x, V_CURVES);
}

int key_BACK(explorer *x)
{
	if (x->view == V_PANES)
		return R_NONE;
	x->view = V_PANES;
	return R_ALL;
}

int views_lesson(explorer *x, int i)
{
	rd_kernel *k = lesson_kernel(&lessons[i]);
	if (!k) {
		explorer_message(x, 1, "out of memory");
		return R_STATUS;
	}
	rd_config c;
	lesson_config(&lessons[i], &c);
	x->teach = i;
	x->view = V_STEP;
	if (explorer_switch(x, k, lessons[i].sample, &c) < 0)
		return R_STATUS;
	return R_ALL | R_RERUN;
}

static int lesson_step(explorer *x, int dir)
{
	if (x->teach < 0) {
		explorer_message(x, 1, "n and p go through the paper's tables in class mode: "
				       "rdscope --teach");
		return R_STATUS;
	}
	int i = x->teach + dir;
	if (i < 0 || (size_t)i >= lessons_n) {
		explorer_message(x, 0, "%s is the %s table of the story",
				 lessons[x->teach].title, dir > 0 ? "last" : "first");
		return R_STATUS;
	}
	return views_lesson(x, i);
}

int key_NEXT_TABLE(explorer *x)
{
	return lesson_step(x, 1);
}

int key_PREV_TABLE(explorer *x)
{
	return lesson_step(x, -1);
}

/* Move the step-through by d requests (clamped to the log). */
static int step_by(explorer *x, long d)
{
	if (!steps_fit(x) || !x->steps->steps || !x->steps->steps->n)
		return R_NONE;
	long n = (long)x->steps->steps->n, i = (long)x->step + d;
	i = i < 0 ? 0 : i >= n ? n - 1 : i;
	if ((size_t)i == x->step)
		return R_NONE;
	x->step = (size_t)i;
	return R_ALL;
}

int key_STEP_NEXT(explorer *x)
{
	return step_by(x, 1);
}

int key_STEP_PREV(explorer *x)
{
	return step_by(x, -1);
}

int key_STEP_FWD10(explorer *x)
{
	return step_by(x, 10);
}

int key_STEP_BACK10(explorer *x)
{
	return step_by(x, -10);
}

int key_STEP_FIRST(explorer *x)
{
	return step_by(x, -(long)STEP_MAX);
}

int key_STEP_LAST(explorer *x)
{
	return step_by(x, STEP_MAX);
}
