/*
 * The key table (see keys.h) and everything generated from it: lookup for
 * the dispatch, the help screen's lines and the man page's KEYS section.
 */
#include "keys.h"

#include <curses.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ui_key ui_keys[K_NKEYS] = {
#define KEY_ROW(id, scope, names, help, ...) {K_##id, scope, names, help, {__VA_ARGS__}},
	UI_KEYS(KEY_ROW)
#undef KEY_ROW
};

const char *keys_scope_title(enum key_scope s)
{
	static const char *const t[] = {"Everywhere",	     "Parameters pane", "Histogram pane",
					"Step-through view", "Profile generator",
					"Placement view",    "Prompts",		"Help screen"};
	return (unsigned)s < KS_NSCOPE ? t[s] : "?";
}

static const ui_key *find(enum key_scope scope, int code)
{
	for (int i = 0; i < K_NKEYS; i++) {
		if (ui_keys[i].scope != scope)
			continue;
		for (int j = 0; j < 4 && ui_keys[i].codes[j]; j++)
			if (ui_keys[i].codes[j] == code)
				return &ui_keys[i];
	}
	return NULL;
}

const ui_key *keys_lookup(enum key_scope scope, int code)
{
	if (code == 0)
		return NULL;
	const ui_key *k = find(scope, code);
	if (!k && (scope == KS_PARAMS || scope == KS_HIST || scope == KS_STEP ||
		   scope == KS_GEN || scope == KS_PLACE))
		k = find(KS_GLOBAL, code);
	return k;
}

void keys_names(const ui_key *k, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (const char *p = k->names; *p && o + 1 < len; p++) {
		if (*p == ' ') {
			if (o + 3 < len) {
				buf[o++] = ',';
				buf[o++] = ' ';
			}
			continue;
		}
		buf[o++] = *p;
	}
	buf[o < len ? o : len - 1] = '\0';
}

void keys_help_scope(enum key_scope s, void (*line)(void *ctx, const char *key, const char *text),
		     void *ctx)
{
	if (s)
		line(ctx, NULL, "");
	line(ctx, NULL, keys_scope_title(s));
	for (int i = 0; i < K_NKEYS; i++) {
		if (ui_keys[i].scope != s)
			continue;
		char names[64];
		keys_names(&ui_keys[i], names, sizeof names);
		line(ctx, names, ui_keys[i].help);
	}
}

void keys_help(void (*line)(void *ctx, const char *key, const char *text), void *ctx)
{
	for (int s = 0; s < KS_NSCOPE; s++)
		keys_help_scope((enum key_scope)s, line, ctx);
}

/* ---- man page ---- */

/* the model's growing string (rd_buf) */
typedef rd_buf sbuf;
#define sb_put(b, str, len) rd_buf_printf((b), "%.*s", (int)(len), (str))
#define sb_str(b, str) rd_buf_printf((b), "%s", (str))

void keys_roff(rd_buf *b, const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		sb_str(b, "\\&");
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			sb_str(b, "\\e");
		else if (s[i] == '-')
			sb_str(b, "\\-");
		else
			sb_put(b, &s[i], 1);
	}
}

char *keys_man_section(void)
{
	sbuf b = {0};
	sb_str(&b, ".SH KEYS\n"
		   ".\\\" Generated from the key table in ui/keys.h: edit the table, then run\n"
		   ".\\\" 'make man-keys'. A test fails when this section and the table differ.\n"
		   "The explorer's keys; the\n.B ?\nkey shows the same list.\n");
	for (int s = 0; s < KS_NSCOPE; s++) {
		sb_str(&b, ".SS ");
		sb_str(&b, keys_scope_title((enum key_scope)s));
		sb_str(&b, "\n");
		for (int i = 0; i < K_NKEYS; i++) {
			const ui_key *k = &ui_keys[i];
			if (k->scope != (enum key_scope)s)
				continue;
			sb_str(&b, ".TP\n");
			const char *p = k->names;
			int first = 1;
			while (*p) {
				size_t n = strcspn(p, " ");
				if (!first)
					sb_str(&b, "\\fR, ");
				sb_str(&b, "\\fB");
				keys_roff(&b, p, n);
				first = 0;
				p += n;
				while (*p == ' ')
					p++;
			}
			sb_str(&b, "\\fR\n");
			/* The help text as a sentence. */
			char c = (char)toupper((unsigned char)k->help[0]);
			sb_put(&b, &c, 1);
			sb_str(&b, k->help + 1);
			sb_str(&b, ".\n");
		}
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

char *keys_man_update(const char *man)
{
	const char *start = NULL;
	for (const char *p = man; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, ".SH KEYS\n", 9) == 0) {
			start = p;
			break;
		}
	if (!start)
		return NULL;
	const char *end = strstr(start + 8, "\n.SH "); /* from the line's newline */
	end = end ? end + 1 : start + strlen(start);
	return keys_man_splice(man, start, end, keys_man_section());
}

char *keys_man_splice(const char *man, const char *start, const char *end, char *sec)
{
	if (!sec)
		return NULL;
	sbuf b = {0};
	sb_put(&b, man, (size_t)(start - man));
	sb_str(&b, sec);
	sb_str(&b, end);
	free(sec);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
