/*
 * The table of views (see view.h): the one place that names them all,
 * and the lists made from it: the help screen's (views_help, the screen
 * hands it explorer.views) and the man page's VIEWS (views_man_section).
 * The loop hands the table to the state. Refers to the views' ops; calls
 * only keys (the help screen's keys around the views).
 */
#include "view.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_ROW(e, ops) [e] = &ops,
const view_ops *const view_table[] = {
	VIEW_LIST(VIEW_ROW)[V_TEACH] = &view_teach,
	[V_NALL] = NULL,
};
#undef VIEW_ROW

void views_list(const view_ops *const *views,
		void (*line)(void *ctx, const char *key, const char *text), void *ctx)
{
	line(ctx, NULL, "");
	line(ctx, NULL, VIEWS_HEADING);
	for (const view_ops *const *v = views; *v; v++)
		line(ctx, (*v)->name, (*v)->desc);
}

void views_help(const view_ops *const *views,
		void (*line)(void *ctx, const char *key, const char *text), void *ctx)
{
	for (int s = 0; s < KS_NSCOPE; s++) {
		keys_help_scope((enum key_scope)s, line, ctx);
		if (s == KS_GLOBAL) /* after the keys that open them */
			views_list(views, line, ctx);
	}
}

/* ---- man page ---- */

/* the model's growing string (rd_buf) */
typedef rd_buf sbuf;
#define sb_put(b, str, len) rd_buf_printf((b), "%.*s", (int)(len), (str))
#define sb_str(b, str) rd_buf_printf((b), "%s", (str))

char *views_man_section(void)
{
	sbuf b = {0};
	sb_str(&b, ".SH VIEWS\n"
		   ".\\\" Generated from the table of views in ui/views/table.c: edit a view's\n"
		   ".\\\" name and desc, then run 'make man-gen'. A test fails when they differ.\n"
		   "What the explorer shows, one view at a time; the\n.B ?\nkey lists the same.\n");
	for (const view_ops *const *v = view_table; *v; v++) {
		sb_str(&b, ".TP\n\\fB");
		keys_roff(&b, (*v)->name, strlen((*v)->name));
		sb_str(&b, "\\fR\n");
		/* The description as a sentence. */
		char c = (char)toupper((unsigned char)(*v)->desc[0]);
		sb_put(&b, &c, 1);
		keys_roff(&b, (*v)->desc + 1, strlen((*v)->desc + 1));
		sb_str(&b, ".\n");
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* The start of the line ".SH NAME\n" in man, or NULL. */
static const char *section(const char *man, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = man; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, ".SH ", 4) == 0 && strncmp(p + 4, name, n) == 0 && p[4 + n] == '\n')
			return p;
	return NULL;
}

char *views_man_update(const char *man)
{
	const char *start = section(man, "VIEWS"), *end;
	if (start) {
		end = strstr(start + 4, "\n.SH "); /* from the line's newline */
		end = end ? end + 1 : start + strlen(start);
	} else {
		start = end = section(man, "KEYS"); /* a new section goes before it */
		if (!start)
			return NULL;
	}
	return keys_man_splice(man, start, end, views_man_section());
}
