/*
 * Sweep plans (see sweep.h). Every value and every point is checked before
 * anything runs: a typo in the 60th point of an overnight sweep should be
 * reported at once, not after an hour.
 */
#include "sweep.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "writers/writers.h"

/* Collected problems, one per line; the count goes on past a full buffer. */
typedef struct problems {
	char *buf;
	size_t len, used;
	int n;
} problems;

static void problem(problems *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems *pr, const char *fmt, ...)
{
	pr->n++;
	if (pr->used + 1 >= pr->len)
		return;
	char *p = pr->buf + pr->used;
	size_t room = pr->len - pr->used;
	int n = 0;
	if (pr->used)
		p[n++] = '\n';
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(p + n, room - (size_t)n, fmt, ap);
	va_end(ap);
	n = m < 0 ? n : n + m;
	pr->used = (size_t)n >= room ? pr->len - 1 : pr->used + (size_t)n;
}

/*
 * A "NUMx" value resolved against the base configuration into out.
 * Returns 1 if value is relative (out set, or a problem reported and out
 * empty), 0 if it is a plain value.
 */
static int resolve_relative(problems *pr, const rd_config *base, const rd_key *k,
			    const char *value, char *out, size_t len)
{
	size_t n = strlen(value);
	if (n < 2 || value[n - 1] != 'x')
		return 0;
	char *end;
	double factor = strtod(value, &end);
	if (end != value + n - 1 || !(factor >= 0) || !isfinite(factor))
		return 0;
	out[0] = '\0';
	char basev[64];
	if ((k->type != RD_KEY_UINT && k->type != RD_KEY_DOUBLE) ||
	    rd_config_get(base, k->name, basev, sizeof basev) < 0) {
		problem(pr, "--vary %s=%s: relative values are for numeric keys", k->name, value);
		return 1;
	}
	double v = factor * strtod(basev, NULL);
	if (k->type == RD_KEY_DOUBLE) {
		snprintf(out, len, "%.17g", v);
		return 1;
	}
	double r = nearbyint(v);
	/* Sizes and counts are whole: say so rather than round silently. */
	if (!(fabs(v) < 18446744073709549568.0)) {
		problem(pr, "--vary %s=%s: %.*s x %s = %.6g, more than %s takes", k->name, value,
			(int)strlen(value) - 1, value, basev, v, k->name);
		return 1;
	}
	if (fabs(v - r) > 1e-9 * (fabs(v) > 1 ? fabs(v) : 1)) {
		problem(pr, "--vary %s=%s: %.*s x %s = %.15g is not a whole number", k->name, value,
			(int)strlen(value) - 1, value, basev, v);
		return 1;
	}
	snprintf(out, len, "%.0f", r);
	return 1;
}

/* Parse one "KEY=V1,V2,..." into axis; problems are reported. */
static void axis_parse(problems *pr, sweep_axis *axis, const rd_config *base, const char *spec)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof axis->key) {
		problem(pr, "--vary expects KEY=V1,V2,..., got '%s'", spec);
		return;
	}
	snprintf(axis->key, sizeof axis->key, "%.*s", (int)(eq - spec), spec);
	const rd_key *k = rd_key_find(axis->key);
	/* mem.NAME (a placement) is no row of the key table: rd_config_set
	 * checks its name and values */
	if (!k && strncmp(axis->key, "mem.", 4) != 0) {
		const char *hint = suggest_key(axis->key);
		if (hint)
			problem(pr, "--vary %s: unknown key; did you mean '%s'?", axis->key, hint);
		else
			problem(pr, "--vary %s: unknown key (see 'rdscope keys')", axis->key);
		return;
	}
	for (const char *p = eq + 1;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char raw[128], resolved[128], err[512];
		if (n == 0 || n >= sizeof raw) {
			problem(pr, "--vary %s: empty or overlong value in '%s'", axis->key, eq + 1);
			return;
		}
		memcpy(raw, p, n);
		raw[n] = '\0';
		const char *value = raw;
		if (k && resolve_relative(pr, base, k, raw, resolved, sizeof resolved)) {
			if (!resolved[0])
				return;
			value = resolved;
		}
		rd_config probe = *base;
		if (rd_config_set(&probe, axis->key, value, err, sizeof err) < 0) {
			problem(pr, "--vary %s=%s: %s", axis->key, raw, err);
			return;
		}
		char **vals = realloc(axis->values, ((size_t)axis->nvalues + 1) * sizeof *vals);
		if (!vals || !(vals[axis->nvalues] = strdup(value))) {
			if (vals)
				axis->values = vals;
			problem(pr, "out of memory");
			return;
		}
		axis->values = vals;
		axis->nvalues++;
		if (!comma)
			break;
		p = comma + 1;
	}
}

/* The configuration and label of point i (the last axis varies fastest). */
static int point_build(const sweep_plan *p, const rd_config *base, unsigned long i,
		       rd_config *cfg, char *label, size_t len)
{
	int idx[64];
	for (int a = p->naxes - 1; a >= 0; a--) {
		idx[a] = (int)(i % (unsigned long)p->axes[a].nvalues);
		i /= (unsigned long)p->axes[a].nvalues;
	}
	*cfg = *base;
	size_t used = 0;
	label[0] = '\0';
	for (int a = 0; a < p->naxes; a++) {
		char err[256];
		const char *v = p->axes[a].values[idx[a]];
		/* Values were checked one by one: only the placements' bound
		 * (mem.* axes adding more than RD_MEM_MAX together) can fail. */
		if (rd_config_set(cfg, p->axes[a].key, v, err, sizeof err) < 0) {
			snprintf(label, len, "%s", err);
			return -2;
		}
		int n = snprintf(label + used, len - used, "%s%s=%s", a ? " " : "", p->axes[a].key, v);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += (size_t)n;
	}
	return 0;
}

int sweep_plan_build(sweep_plan *p, const rd_config *base, const char *const *vary, int nvary,
		     char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	problems pr = {.buf = err, .len = errlen};
	if (errlen)
		err[0] = '\0';
	if (nvary > 64) {
		problem(&pr, "--vary: more than 64 keys");
		return -1;
	}
	p->axes = calloc((size_t)nvary, sizeof *p->axes);
	if (!p->axes && nvary) {
		problem(&pr, "out of memory");
		return -1;
	}
	p->naxes = nvary;
	p->npoints = 1;
	for (int a = 0; a < nvary; a++) {
		axis_parse(&pr, &p->axes[a], base, vary[a]);
		for (int b = 0; b < a; b++)
			if (p->axes[a].key[0] && strcmp(p->axes[a].key, p->axes[b].key) == 0)
				problem(&pr, "--vary %s: given twice; list all its values in one --vary",
					p->axes[a].key);
		unsigned long nv = (unsigned long)p->axes[a].nvalues;
		if (nv && p->npoints <= SWEEP_MAX_POINTS)
			p->npoints *= nv;
	}
	if (pr.n)
		goto fail;
	if (p->npoints > SWEEP_MAX_POINTS) {
		problem(&pr, "--vary: more than %lu points", SWEEP_MAX_POINTS);
		goto fail;
	}
	p->configs = calloc(p->npoints, sizeof *p->configs);
	p->labels = calloc(p->npoints, sizeof *p->labels);
	p->skip = calloc(p->npoints, sizeof *p->skip);
	if (!p->configs || !p->labels || !p->skip) {
		problem(&pr, "out of memory");
		goto fail;
	}
	int invalid = 0;
	for (unsigned long i = 0; i < p->npoints; i++) {
		char label[1024], msg[512];
		int built = point_build(p, base, i, &p->configs[i], label, sizeof label);
		if (built == -2) {
			problem(&pr, "--vary: point %lu: %s", i, label);
			goto fail;
		}
		if (built < 0 || !(p->labels[i] = strdup(label))) {
			problem(&pr, "--vary: point %lu: label too long or out of memory", i);
			goto fail;
		}
		if (rd_config_check(&p->configs[i], msg, sizeof msg) < 0) {
			/* Skipped, not fatal: a grid over ways and sizes has
			 * points the hash cannot take. Where it is only the
			 * hash, say which one can. */
			char fix[96] = "";
			int h = rd_config_hash_fallback(&p->configs[i]);
			if (h >= 0)
				snprintf(fix, sizeof fix, "; l1.hash=%s takes %u sets",
					 rd_hash_name((enum rd_hash)h), rd_config_sets(&p->configs[i]));
			size_t n = strlen(msg) + strlen(fix) + 1;
			if (!(p->skip[i] = malloc(n))) {
				problem(&pr, "out of memory");
				goto fail;
			}
			snprintf(p->skip[i], n, "%s%s", msg, fix);
			p->nskip++;
			if (++invalid <= 8)
				problem(&pr, "--vary: point %lu (%s): %s", i, label, p->skip[i]);
		}
	}
	if (invalid > 8)
		problem(&pr, "--vary: %d more invalid points", invalid - 8);
	if ((unsigned long)invalid < p->npoints) {
		if (errlen)
			err[0] = '\0';
		return 0;
	}
	problem(&pr, "--vary: no point of the sweep is a valid configuration");
fail:
	sweep_plan_free(p);
	return -1;
}

void sweep_plan_free(sweep_plan *p)
{
	for (int a = 0; a < p->naxes; a++) {
		for (int v = 0; v < p->axes[a].nvalues; v++)
			free(p->axes[a].values[v]);
		free(p->axes[a].values);
	}
	for (unsigned long i = 0; p->labels && i < p->npoints; i++)
		free(p->labels[i]);
	for (unsigned long i = 0; p->skip && i < p->npoints; i++)
		free(p->skip[i]);
	free(p->skip);
	free(p->axes);
	free(p->configs);
	free(p->labels);
	memset(p, 0, sizeof *p);
}

void sweep_plan_json_axes(FILE *f, const sweep_plan *p)
{
	for (int a = 0; a < p->naxes; a++) {
		fputs(a ? ",{\"key\":" : "{\"key\":", f);
		output_json_quote(f, p->axes[a].key);
		fputs(",\"values\":[", f);
		for (int v = 0; v < p->axes[a].nvalues; v++) {
			if (v)
				putc(',', f);
			output_json_quote(f, p->axes[a].values[v]);
		}
		fputs("]}", f);
	}
}
