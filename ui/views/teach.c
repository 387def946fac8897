/*
 * Class mode (`rdscope --teach`), the lessons' keys: n and p go through
 * the paper's tables (lessons.h), each opened in the step-through
 * (views/step.c draws a lesson's title and shows its keys) with its own
 * kernel and configuration through the state's explorer_lesson. No screen
 * of its own. May include and call the state (explorer/state.h) and
 * lessons.
 */
#include "explorer/state.h"
#include "lessons.h"
#include "view.h"

static int lesson_step(explorer *x, int dir)
{
	if (x->teach < 0) {
		explorer_message(x, 1, "n and p go through the paper's tables in class mode: "
				       "rdscope --teach");
		return R_STATUS;
	}
	int i = x->teach + dir;
	if (i < 0 || (size_t)i >= lessons_n) {
		explorer_message(x, 0, "%s is the %s table of the story", lessons[x->teach].title,
				 dir > 0 ? "last" : "first");
		return R_STATUS;
	}
	return explorer_lesson(x, i) < 0 ? R_STATUS : R_ALL | R_RERUN;
}

static int key(explorer *x, enum key_id id)
{
	if (id == K_NEXT_TABLE)
		return lesson_step(x, 1);
	if (id == K_PREV_TABLE)
		return lesson_step(x, -1);
	return -1;
}

const view_ops view_teach = {
	.name = "lessons",
	.desc = "class mode (--teach): the paper's tables one after another in the "
		"step-through, each with its own kernel and configuration",
	.key = key, /* no screen of its own */
};
