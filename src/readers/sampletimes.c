/* The sample placement's measured times (see sampletimes.h). */
#include "sampletimes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* One table for the names: parsing, the refusals and the man page's list. */
static const struct {
	const char *name;
	size_t off;
	int required;
} fields[] = {
	{"tcomp", offsetof(sample_times, tcomp), 1},
	{"tmem", offsetof(sample_times, tmem), 1},
	{"toverlap", offsetof(sample_times, toverlap), 1},
	{"inst_per_warp", offsetof(sample_times, inst_per_warp), 1},
	{"warps_per_sm", offsetof(sample_times, warps_per_sm), 1},
	{"wserial", offsetof(sample_times, wserial), 0},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int fail(char *err, size_t errlen, const char *shown, size_t line, const char *fmt,
		const char *a)
{
	char why[256];
	snprintf(why, sizeof why, fmt, a);
	if (line)
		snprintf(err, errlen, "%s:%zu: %s", shown, line, why);
	else
		snprintf(err, errlen, "%s: %s", shown, why);
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int sampletimes_parse(const char *text, size_t n, const char *shown, sample_times *out,
		      char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int seen[NFIELDS] = {0};
	size_t line = 0;
	const char *p = text, *end = text + n;
	while (p < end) {
		line++;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		char buf[256];
		size_t len = (size_t)(eol - p);
		const char *hash = memchr(p, '#', len);
		if (hash)
			len = (size_t)(hash - p);
		if (memchr(p, '\0', len))
			return fail(err, errlen, shown, line, "a NUL byte%s", "");
		if (len >= sizeof buf)
			return fail(err, errlen, shown, line, "a line longer than 255 bytes%s", "");
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = eol < end ? eol + 1 : end;
		char *s = buf;
		while (is_space(*s))
			s++;
		size_t l = strlen(s);
		while (l && is_space(s[l - 1]))
			s[--l] = '\0';
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq)
			return fail(err, errlen, shown, line, "expected NAME = VALUE, got '%s'", s);
		char *name_end = eq;
		while (name_end > s && is_space(name_end[-1]))
			name_end--;
		*name_end = '\0';
		char *v = eq + 1;
		while (is_space(*v))
			v++;
		size_t f = 0;
		while (f < NFIELDS && strcmp(fields[f].name, s))
			f++;
		if (f == NFIELDS)
			return fail(err, errlen, shown, line,
				    "unknown name '%s' (tcomp, tmem, toverlap, inst_per_warp, "
				    "warps_per_sm or wserial)",
				    s);
		if (seen[f])
			return fail(err, errlen, shown, line, "%s given twice", fields[f].name);
		seen[f] = 1;
		/* decimal only: strtod would take hex, inf and nan */
		if (!*v || strspn(v, "0123456789.eE+-") != strlen(v))
			return fail(err, errlen, shown, line, "expected a decimal number, got '%s'",
				    v);
		char *e;
		errno = 0;
		double x = strtod(v, &e);
		if (*e || errno == ERANGE || !isfinite(x) || x < 0)
			return fail(err, errlen, shown, line,
				    "expected a finite number >= 0, got '%s'", v);
		memcpy((char *)out + fields[f].off, &x, sizeof x);
	}
	for (size_t f = 0; f < NFIELDS; f++)
		if (fields[f].required && !seen[f])
			return fail(err, errlen, shown, 0, "%s is missing", fields[f].name);
	if (out->tmem <= 0)
		return fail(err, errlen, shown, 0, "tmem must be more than 0%s", "");
	if (out->inst_per_warp <= 0 || out->warps_per_sm <= 0)
		return fail(err, errlen, shown, 0,
			    "inst_per_warp and warps_per_sm must be more than 0%s", "");
	if (out->wserial >= out->tcomp)
		return fail(err, errlen, shown, 0,
			    "wserial must be less than tcomp (Eq. 2: tcomp includes it)%s", "");
	if (out->toverlap > out->tcomp || out->toverlap > out->tmem)
		return fail(err, errlen, shown, 0,
			    "toverlap cannot be more than tcomp or tmem (it is their overlap)%s",
			    "");
	return 0;
}

int sampletimes_read(const char *path, sample_times *out, char *err, size_t errlen)
{
	char *t;
	size_t n;
	int oom = 0;
	if (read_text_file(path, SAMPLETIMES_MAX_BYTES, &t, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? -2 : -1;
	int rc = sampletimes_parse(t, n, path, out, err, errlen);
	free(t);
	return rc;
}
