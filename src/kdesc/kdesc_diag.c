/*
 * Kernel descriptions' errors and line numbers, shared by the opener
 * (kdesc.c), the compiler (kdesc_compile.c) and the runner (kdesc_run.c),
 * beneath all three: "file:line: message" into the description's error
 * buffer, the line of a setting or of a string in the text, and unknown
 * settings with a suggestion. Calls nothing of theirs.
 */
#include "kdesc_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---------------------------------------------------------------- errors */

int kd_fail(kdesc *d, unsigned line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	textin_locate(d->base.err, d->base.errlen, d->shown, line, msg);
	return -1;
}

int kd_oom(kdesc *d)
{
	d->oom = 1;
	return kd_fail(d, 0, "out of memory");
}

unsigned kd_sline(const config_setting_t *s)
{
	return config_setting_source_line(s);
}

/* The line of a string element: libconfig's, or a line or two before it
 * where the string actually is. */
unsigned kd_line(kdesc *d, const config_setting_t *s)
{
	unsigned line = kd_sline(s);
	const char *str = config_setting_type(s) == CONFIG_TYPE_STRING ? config_setting_get_string(s)
									   : NULL;
	if (!str || !*str || !d->text)
		return line;
	char key[24];
	size_t n = strcspn(str, "\"\\\n");
	if (n > 20)
		n = 20;
	snprintf(key, sizeof key, "%.*s", (int)n, str);
	for (unsigned back = 0; back < 3 && back < line; back++) {
		unsigned want = line - back, cur = 1;
		const char *p = d->text;
		while (cur < want && (p = strchr(p, '\n')))
			p++, cur++;
		if (!p)
			break;
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		for (size_t i = 0; i + n <= len; i++)
			if (p[i] == '"' && strncmp(p + i + 1, key, n) == 0)
				return want;
	}
	return line;
}

/* Every member of group s must be one of names. */
int kd_known_keys(kdesc *d, const config_setting_t *s, const char *what,
		      const char *const *names, size_t n)
{
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *m = config_setting_get_elem(s, (unsigned)i);
		const char *name = config_setting_name(m);
		size_t k = 0;
		while (k < n && strcmp(name, names[k]) != 0)
			k++;
		if (k < n)
			continue;
		const char *hint = suggest_closest(name, names, n);
		if (hint)
			return kd_fail(d, kd_sline(m), "%s: unknown setting '%s'; did you mean '%s'?", what,
				       name, hint);
		return kd_fail(d, kd_sline(m), "%s: unknown setting '%s'", what, name);
	}
	return 0;
}
