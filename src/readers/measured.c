/* Measured hit rates per kernel (see measured.h). */
#include "measured.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int fail(char *err, size_t errlen, const char *shown, unsigned line, const char *why,
		const char *a)
{
	char w[320];
	snprintf(w, sizeof w, why, a);
	snprintf(err, errlen, "%s:%u: %s", shown, line, w);
	return -1;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
		s[--l] = '\0';
	return s;
}

/* A rate: 0..1, or 0..100 with %. 0, or -1 with the reason in why. */
static int rate(const char *s, double *out, const char **why)
{
	size_t l = strlen(s);
	int pct = l && s[l - 1] == '%';
	char buf[64];
	if (!l || l - (size_t)pct >= sizeof buf) {
		*why = "expected a hit rate, got '%s'";
		return -1;
	}
	memcpy(buf, s, l - (size_t)pct);
	buf[l - (size_t)pct] = '\0';
	if (!buf[0] || strspn(buf, "0123456789.eE+-") != strlen(buf)) {
		*why = "expected a hit rate (0 to 1, or 0% to 100%), got '%s'";
		return -1;
	}
	char *e;
	errno = 0;
	double x = strtod(buf, &e);
	if (*e || errno || !isfinite(x) || x < 0 || x > (pct ? 100 : 1)) {
		*why = "a hit rate must be from 0 to 1 (or 0% to 100%), got '%s'";
		return -1;
	}
	*out = pct ? x / 100 : x;
	return 0;
}

int measured_parse(const char *text, size_t n, const char *shown, measured_set *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof *out);
	size_t cap = 0;
	unsigned line = 0;
	int seen_data = 0;
	const char *p = text, *end = text + n;
	while (p < end) {
		line++;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		size_t len = (size_t)(eol - p);
		char buf[1024];
		if (memchr(p, '\0', len)) {
			measured_free(out);
			return fail(err, errlen, shown, line, "a NUL byte%s", "");
		}
		if (len >= sizeof buf) {
			measured_free(out);
			return fail(err, errlen, shown, line, "a line longer than 1023 bytes%s", "");
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = eol < end ? eol + 1 : end;
		char *s = trim(buf);
		if (!*s || *s == '#')
			continue;
		if (!seen_data++ && !strncmp(s, "kernel,", 7))
			continue; /* the header */
		char *f[4] = {s, NULL, NULL, NULL};
		int nf = 1;
		for (char *c = s; *c; c++)
			if (*c == ',') {
				if (nf == 3) {
					measured_free(out);
					return fail(err, errlen, shown, line,
						    "more than 3 fields (kernel,l1_hit_rate,l2_hit_rate)%s",
						    "");
				}
				*c = '\0';
				f[nf++] = c + 1;
			}
		if (nf < 2) {
			measured_free(out);
			return fail(err, errlen, shown, line,
				    "expected kernel,l1_hit_rate[,l2_hit_rate], got '%s'", s);
		}
		char *k = trim(f[0]);
		if (!*k || strlen(k) > 255 || strpbrk(k, "\"'")) {
			measured_free(out);
			return fail(err, errlen, shown, line,
				    "a kernel name of 1 to 255 bytes without quotes expected, got '%s'",
				    k);
		}
		for (const char *c = k; *c; c++)
			if ((unsigned char)*c < 32 || *c == 127) {
				measured_free(out);
				return fail(err, errlen, shown, line,
					    "a control character in the kernel name%s", "");
			}
		measured_row r = {.l2 = NAN, .line = line};
		const char *why;
		if (rate(trim(f[1]), &r.l1, &why) < 0) {
			measured_free(out);
			return fail(err, errlen, shown, line, why, trim(f[1]));
		}
		if (nf == 3 && *trim(f[2]) && rate(trim(f[2]), &r.l2, &why) < 0) {
			measured_free(out);
			return fail(err, errlen, shown, line, why, trim(f[2]));
		}
		if (measured_find(out, k)) {
			measured_free(out);
			return fail(err, errlen, shown, line, "kernel '%s' measured twice", k);
		}
		if (out->n == MEASURED_MAX) {
			measured_free(out);
			return fail(err, errlen, shown, line, "more than 10000 kernels%s", "");
		}
		if (out->n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			measured_row *nr = realloc(out->rows, nc * sizeof *nr);
			if (!nr) {
				measured_free(out);
				return -2;
			}
			out->rows = nr;
			cap = nc;
		}
		if (!(r.kernel = strdup(k))) {
			measured_free(out);
			return -2;
		}
		out->rows[out->n++] = r;
	}
	if (!out->n) {
		snprintf(err, errlen, "%s: no measurement (kernel,l1_hit_rate[,l2_hit_rate] lines)",
			 shown);
		measured_free(out);
		return -1;
	}
	return 0;
}

int measured_read(const char *path, measured_set *out, char *err, size_t errlen)
{
	char *t;
	size_t n;
	int oom = 0;
	memset(out, 0, sizeof *out);
	if (read_text_file(path, MEASURED_MAX_BYTES, &t, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? -2 : -1;
	int rc = measured_parse(t, n, path, out, err, errlen);
	free(t);
	return rc;
}

const measured_row *measured_find(const measured_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++) /* a few kernels: a scan is enough */
		if (!strcmp(s->rows[i].kernel, name))
			return &s->rows[i];
	return NULL;
}

void measured_free(measured_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->rows[i].kernel);
	free(s->rows);
	memset(s, 0, sizeof *s);
}
