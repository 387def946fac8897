/* Measured hit rates per kernel (see measured.h). */
#include "measured.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PROF_MAX_LINE 65536
#define PROF_MAX_FIELDS 4096
#define PROF_MAX_NAME 1023

enum mformat { MF_PLAIN, MF_NCU, MF_NCU_RAW, MF_NVPROF_METRICS, MF_NVPROF_EVENTS };
static const char *const format_names[] = {"plain CSV", "Nsight Compute CSV",
					   "Nsight Compute raw CSV", "nvprof metrics CSV",
					   "nvprof events CSV"};

/* The metrics read, best first. */
static const char *const ncu_l1[] = {"l1tex__t_sector_hit_rate.pct",
				     "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
				     "L1/TEX Hit Rate", NULL};
static const char *const ncu_l2[] = {"lts__t_sector_hit_rate.pct", "L2 Hit Rate", NULL};
static const char *const nvp_l1[] = {"global_hit_rate", "l1_cache_global_hit_rate", NULL};
static const char *const nvp_l2[] = {"l2_l1_read_hit_rate", "l2_read_hit_rate", "l2_hit_rate",
				     NULL};

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

/* The lines of the text, numbered from 1. */
typedef struct lines {
	const char *p, *end;
	unsigned line;
} lines;

/* The next line into buf (room for max bytes with the NUL): 1, 0 at the
 * end, -1 with the reason in err. */
static int next_line(lines *L, char *buf, size_t max, const char *shown, char *err, size_t errlen)
{
	if (L->p >= L->end)
		return 0;
	L->line++;
	const char *eol = memchr(L->p, '\n', (size_t)(L->end - L->p));
	if (!eol)
		eol = L->end;
	size_t len = (size_t)(eol - L->p);
	if (memchr(L->p, '\0', len))
		return fail(err, errlen, shown, L->line, "a NUL byte%s", "");
	if (len >= max) {
		char why[64];
		snprintf(why, sizeof why, "a line longer than %zu bytes%%s", max - 1);
		return fail(err, errlen, shown, L->line, why, "");
	}
	memcpy(buf, L->p, len);
	buf[len] = '\0';
	L->p = eol < L->end ? eol + 1 : L->end;
	return 1;
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
		*why = "expected a hit rate (0 to 1, or 0%% to 100%%), got '%s'";
		return -1;
	}
	char *e;
	errno = 0;
	double x = strtod(buf, &e);
	if (*e || errno || !isfinite(x) || x < 0 || x > (pct ? 100 : 1)) {
		*why = "a hit rate must be from 0 to 1 (or 0%% to 100%%), got '%s'";
		return -1;
	}
	*out = pct ? x / 100 : x;
	return 0;
}

/* A profiler's number: thousands separators (1,234.5) and a trailing %
 * dropped. 1 with *out; 0 when absent ("", "n/a"); -1 when not a number. */
static int prof_number(const char *s, double *out)
{
	char buf[64];
	size_t n = 0;
	while (*s == ' ')
		s++;
	if (!*s || !strcmp(s, "n/a") || !strcmp(s, "N/A"))
		return 0;
	for (; *s; s++) {
		if (*s == ',')
			continue;
		if (n + 1 >= sizeof buf)
			return -1;
		buf[n++] = *s;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	if (n && buf[n - 1] == '%')
		n--;
	buf[n] = '\0';
	if (!n || strspn(buf, "0123456789.eE+-") != n)
		return -1;
	char *e;
	errno = 0;
	double x = strtod(buf, &e);
	if (*e || errno || !isfinite(x))
		return -1;
	*out = x;
	return 1;
}

/*
 * Split a CSV line in place: fields separated by commas, each unquoted or
 * in double quotes ("" a quote inside). The number of fields, or -1 (bad
 * quoting), -2 (more than maxf).
 */
static int csv_split(char *s, char **f, int maxf)
{
	int n = 0;
	char *w = s, *r = s;
	for (;;) {
		if (n == maxf)
			return -2;
		while (*r == ' ' || *r == '\t')
			r++;
		f[n++] = w;
		if (*r == '"') {
			r++;
			for (;;) {
				if (!*r)
					return -1;
				if (*r == '"') {
					if (r[1] == '"') {
						*w++ = '"';
						r += 2;
						continue;
					}
					r++;
					break;
				}
				*w++ = *r++;
			}
			while (*r == ' ' || *r == '\t' || *r == '\r')
				r++;
			if (*r && *r != ',')
				return -1;
		} else {
			while (*r && *r != ',') {
				if (*r == '"')
					return -1;
				*w++ = *r++;
			}
		}
		if (!*r) {
			*w = '\0';
			break;
		}
		r++;
		*w++ = '\0';
	}
	for (int i = 0; i < n; i++)
		f[i] = trim(f[i]);
	return n;
}

static int column(char **f, int nf, const char *name)
{
	for (int i = 0; i < nf; i++)
		if (!strcmp(f[i], name))
			return i;
	return -1;
}

/* Where name is in list, or -1. */
static int metric_rank(const char *const *list, const char *name)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], name))
			return i;
	return -1;
}

/* ------------------------------------------------------------ rows kept */

typedef struct ent {
	measured_row r;
	unsigned long long id;  /* ncu's ID */
	double hit, miss;       /* nvprof's events (NAN: not seen) */
	int l1rank, l2rank;     /* which metric gave the rate (INT_MAX-ish: none) */
} ent;

typedef struct ents {
	ent *e;
	size_t n, cap;
} ents;

static void ents_free(ents *E)
{
	for (size_t i = 0; i < E->n; i++) {
		free(E->e[i].r.kernel);
		free(E->e[i].r.base);
	}
	free(E->e);
	memset(E, 0, sizeof *E);
}

/* The name before '(' (a leading "void " dropped), or NULL. */
static char *base_of(const char *k, int *oom)
{
	const char *open = strchr(k, '(');
	*oom = 0;
	if (!open)
		return NULL;
	const char *s = k;
	if (!strncmp(s, "void ", 5))
		s += 5;
	while (*s == ' ')
		s++;
	size_t l = s < open ? (size_t)(open - s) : 0;
	while (l && s[l - 1] == ' ')
		l--;
	if (!l)
		return NULL;
	char *b = malloc(l + 1);
	if (!b) {
		*oom = 1;
		return NULL;
	}
	memcpy(b, s, l);
	b[l] = '\0';
	return b;
}

/* A profiler's kernel name: NULL, or why it is refused. */
static const char *name_bad(const char *k)
{
	if (!*k || strlen(k) > PROF_MAX_NAME)
		return "a kernel name of 1 to 1023 bytes expected%s";
	for (const char *c = k; *c; c++)
		if ((unsigned char)*c < 32 || *c == 127)
			return "a control character in the kernel name%s";
	return NULL;
}

/* A new row for kernel k at line: its index, -1 too many, -2 no memory. */
static long ents_add(ents *E, const char *k, unsigned line)
{
	if (E->n == MEASURED_MAX)
		return -1;
	if (E->n == E->cap) {
		size_t nc = E->cap ? 2 * E->cap : 16;
		ent *ne = realloc(E->e, nc * sizeof *ne);
		if (!ne)
			return -2;
		E->e = ne;
		E->cap = nc;
	}
	ent *e = &E->e[E->n];
	memset(e, 0, sizeof *e);
	e->r.l1 = e->r.l2 = NAN;
	e->r.line = line;
	e->hit = e->miss = NAN;
	e->l1rank = e->l2rank = 1000;
	int oom;
	e->r.kernel = strdup(k);
	e->r.base = e->r.kernel ? base_of(k, &oom) : NULL;
	if (!e->r.kernel || oom) {
		free(e->r.kernel);
		return -2;
	}
	return (long)E->n++;
}

static int by_id(const void *a, const void *b)
{
	const ent *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* ------------------------------------------------------------- the plain */

static int parse_plain(lines *L, char *buf, const char *shown, measured_set *out, char *err,
		       size_t errlen)
{
	size_t cap = 0;
	int seen_data = 0, got;
	while ((got = next_line(L, buf, 1024, shown, err, errlen)) > 0) {
		unsigned line = L->line;
		char *s = trim(buf);
		if (!*s || *s == '#')
			continue;
		if (!seen_data++ && !strncmp(s, "kernel,", 7))
			continue; /* the header */
		char *f[4] = {s, NULL, NULL, NULL};
		int nf = 1;
		for (char *c = s; *c; c++)
			if (*c == ',') {
				if (nf == 3)
					return fail(err, errlen, shown, line,
						    "more than 3 fields (kernel,l1_hit_rate,l2_hit_rate)%s",
						    "");
				*c = '\0';
				f[nf++] = c + 1;
			}
		if (nf < 2)
			return fail(err, errlen, shown, line,
				    "expected kernel,l1_hit_rate[,l2_hit_rate], got '%s'", s);
		char *k = trim(f[0]);
		if (!*k || strlen(k) > 255 || strpbrk(k, "\"'"))
			return fail(err, errlen, shown, line,
				    "a kernel name of 1 to 255 bytes without quotes expected, got '%s'",
				    k);
		for (const char *c = k; *c; c++)
			if ((unsigned char)*c < 32 || *c == 127)
				return fail(err, errlen, shown, line,
					    "a control character in the kernel name%s", "");
		measured_row r = {.l2 = NAN, .line = line};
		const char *why;
		if (rate(trim(f[1]), &r.l1, &why) < 0)
			return fail(err, errlen, shown, line, why, trim(f[1]));
		if (nf == 3 && *trim(f[2]) && rate(trim(f[2]), &r.l2, &why) < 0)
			return fail(err, errlen, shown, line, why, trim(f[2]));
		for (size_t i = 0; i < out->n; i++)
			if (!strcmp(out->rows[i].kernel, k))
				return fail(err, errlen, shown, line, "kernel '%s' measured twice", k);
		if (out->n == MEASURED_MAX)
			return fail(err, errlen, shown, line, "more than 10000 kernels%s", "");
		if (out->n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			measured_row *nr = realloc(out->rows, nc * sizeof *nr);
			if (!nr)
				return -2;
			out->rows = nr;
			cap = nc;
		}
		if (!(r.kernel = strdup(k)))
			return -2;
		out->rows[out->n++] = r;
	}
	if (got < 0)
		return -1;
	if (!out->n) {
		snprintf(err, errlen, "%s: no measurement (kernel,l1_hit_rate[,l2_hit_rate] lines)",
			 shown);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- the profilers */

/* The columns of a profiler's header. */
typedef struct cols {
	int id, kernel, metric, value, unit, event, avg, total;
	int raw_l1, raw_l2; /* ncu raw: the metric columns */
} cols;

/* The format of a header's fields, MF_PLAIN when none. */
static enum mformat detect(char **f, int nf, cols *c)
{
	memset(c, 0, sizeof *c);
	c->id = column(f, nf, "ID");
	c->kernel = column(f, nf, "Kernel Name");
	c->metric = column(f, nf, "Metric Name");
	c->value = column(f, nf, "Metric Value");
	c->unit = column(f, nf, "Metric Unit");
	c->event = column(f, nf, "Event Name");
	c->avg = column(f, nf, "Avg");
	c->total = column(f, nf, "Total");
	c->raw_l1 = c->raw_l2 = -1;
	if (c->id >= 0 && c->kernel >= 0) {
		if (c->metric >= 0 && c->value >= 0)
			return MF_NCU;
		if (c->metric < 0) {
			for (int i = 0; ncu_l1[i] && c->raw_l1 < 0; i++)
				c->raw_l1 = column(f, nf, ncu_l1[i]);
			for (int i = 0; ncu_l2[i] && c->raw_l2 < 0; i++)
				c->raw_l2 = column(f, nf, ncu_l2[i]);
			return MF_NCU_RAW;
		}
		return MF_PLAIN;
	}
	c->kernel = column(f, nf, "Kernel");
	if (c->kernel >= 0 && column(f, nf, "Invocations") >= 0) {
		if (c->metric >= 0 && c->avg >= 0)
			return MF_NVPROF_METRICS;
		if (c->event >= 0 && c->total >= 0)
			return MF_NVPROF_EVENTS;
	}
	return MF_PLAIN;
}

static int max_of(const int *v, int n)
{
	int m = -1;
	for (int i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* A percent from a field into *rate (0..1): 0, or -1 refused. */
static int pct_field(const char *s, double *rate_out, int *present)
{
	double x;
	int r = prof_number(s, &x);
	*present = r > 0;
	if (r < 0 || (r > 0 && (x < 0 || x > 100)))
		return -1;
	if (r > 0)
		*rate_out = x / 100;
	return 0;
}

static int parse_prof(lines *L, char *buf, enum mformat fmt, cols *c, const char *shown,
		      measured_set *out, char *err, size_t errlen)
{
	ents E = {0};
	char **f = malloc(PROF_MAX_FIELDS * sizeof *f);
	int rc = -2, got, first_row = 1;
	if (!f)
		return -2;
	int need[] = {c->id, c->kernel, c->metric, c->value, c->unit, c->event, c->avg, c->total,
		      c->raw_l1, c->raw_l2};
	int nneed = max_of(need, (int)(sizeof need / sizeof need[0])) + 1;
	if (fmt == MF_NCU_RAW && c->raw_l1 < 0 && c->raw_l2 < 0) {
		rc = fail(err, errlen, shown, L->line,
			  "Nsight Compute raw CSV without a %s or lts__t_sector_hit_rate.pct column",
			  ncu_l1[0]);
		goto done;
	}
	while ((got = next_line(L, buf, PROF_MAX_LINE, shown, err, errlen)) > 0) {
		unsigned line = L->line;
		char *s = trim(buf);
		if (!*s || *s == '#' || !strncmp(s, "==", 2))
			continue;
		int nf = csv_split(s, f, PROF_MAX_FIELDS);
		if (nf == -1) {
			rc = fail(err, errlen, shown, line, "a field with unbalanced quotes%s", "");
			goto done;
		}
		if (nf == -2) {
			rc = fail(err, errlen, shown, line, "more than 4096 fields%s", "");
			goto done;
		}
		int units_row = first_row && fmt == MF_NCU_RAW && !*f[c->id < nf ? c->id : 0];
		first_row = 0;
		if (units_row)
			continue; /* the raw page's units */
		if (nf < nneed) {
			char why[96];
			snprintf(why, sizeof why, "%d fields, expected at least %d (the columns read)%%s", nf, nneed);
			rc = fail(err, errlen, shown, line, why, "");
			goto done;
		}
		const char *k = f[c->kernel], *why = name_bad(k);
		if (why) {
			rc = fail(err, errlen, shown, line, why, "");
			goto done;
		}
		long at = -1;
		if (fmt == MF_NCU || fmt == MF_NCU_RAW) {
			const char *ids = f[c->id];
			if (!*ids || strlen(ids) > 18 || strspn(ids, "0123456789") != strlen(ids)) {
				rc = fail(err, errlen, shown, line,
					  "expected a launch ID (a whole number), got '%s'", ids);
				goto done;
			}
			unsigned long long id = strtoull(ids, NULL, 10);
			if (fmt == MF_NCU) {
				/* the launch's rows are together: the last one first */
				for (size_t i = E.n; i-- > 0;)
					if (E.e[i].id == id) {
						at = (long)i;
						break;
					}
			} else {
				for (size_t i = 0; i < E.n; i++)
					if (E.e[i].id == id) {
						rc = fail(err, errlen, shown, line,
							  "launch ID %s twice", ids);
						goto done;
					}
			}
			if (at >= 0 && strcmp(E.e[at].r.kernel, k)) {
				rc = fail(err, errlen, shown, line, "launch ID %s names two kernels",
					  ids);
				goto done;
			}
			if (at < 0) {
				at = ents_add(&E, k, line);
				if (at >= 0)
					E.e[at].id = id;
			}
		} else {
			for (size_t i = 0; i < E.n; i++)
				if (!strcmp(E.e[i].r.kernel, k)) {
					at = (long)i;
					break;
				}
			if (at < 0)
				at = ents_add(&E, k, line);
		}
		if (at == -1) {
			rc = fail(err, errlen, shown, line, "more than 10000 kernel launches%s", "");
			goto done;
		}
		if (at == -2)
			goto done; /* rc is -2 */
		ent *e = &E.e[at];
		if (fmt == MF_NCU_RAW) {
			int present;
			for (int l = 0; l < 2; l++) {
				int col = l ? c->raw_l2 : c->raw_l1;
				if (col >= 0 && pct_field(f[col], l ? &e->r.l2 : &e->r.l1, &present) < 0) {
					rc = fail(err, errlen, shown, line,
						  "a hit rate must be a percent from 0 to 100, got '%s'",
						  f[col]);
					goto done;
				}
			}
			continue;
		}
		if (fmt == MF_NVPROF_EVENTS) {
			const char *ev = f[c->event];
			int hit = !strcmp(ev, "l1_global_load_hit");
			if (!hit && strcmp(ev, "l1_global_load_miss"))
				continue;
			double x;
			int r = prof_number(f[c->total], &x);
			if (r < 0 || (r > 0 && x < 0)) {
				rc = fail(err, errlen, shown, line,
					  "expected an event count (Total), got '%s'", f[c->total]);
				goto done;
			}
			double *slot = hit ? &e->hit : &e->miss;
			if (!isnan(*slot)) {
				rc = fail(err, errlen, shown, line,
					  "%s twice for this kernel (two devices? profile one)", ev);
				goto done;
			}
			if (r > 0)
				*slot = x;
			continue;
		}
		/* one metric a row: ncu's or nvprof's */
		const char *m = f[c->metric];
		const char *const *l1s = fmt == MF_NCU ? ncu_l1 : nvp_l1;
		const char *const *l2s = fmt == MF_NCU ? ncu_l2 : nvp_l2;
		int r1 = metric_rank(l1s, m), r2 = metric_rank(l2s, m);
		if (r1 < 0 && r2 < 0)
			continue;
		if (fmt == MF_NCU && c->unit >= 0 && *f[c->unit] && strcmp(f[c->unit], "%") &&
		    strcmp(f[c->unit], "pct")) {
			char why[160];
			snprintf(why, sizeof why, "%.100s: expected the unit %%%%, got '%%s'", m);
			rc = fail(err, errlen, shown, line, why, f[c->unit]);
			goto done;
		}
		int *rank = r1 >= 0 ? &e->l1rank : &e->l2rank, mr = r1 >= 0 ? r1 : r2;
		if (*rank == mr) {
			rc = fail(err, errlen, shown, line,
				  fmt == MF_NCU ? "%s twice for this launch"
						: "%s twice for this kernel (two devices? profile one)",
				  m);
			goto done;
		}
		double x = NAN;
		int present;
		const char *vs = f[fmt == MF_NCU ? c->value : c->avg];
		if (pct_field(vs, &x, &present) < 0) {
			rc = fail(err, errlen, shown, line,
				  "a hit rate must be a percent from 0 to 100, got '%s'", vs);
			goto done;
		}
		if (mr < *rank) {
			*rank = mr;
			*(r1 >= 0 ? &e->r.l1 : &e->r.l2) = present ? x : NAN;
		}
	}
	if (got < 0) {
		rc = -1;
		goto done;
	}
	int any = 0;
	for (size_t i = 0; i < E.n; i++) {
		ent *e = &E.e[i];
		if (fmt == MF_NVPROF_EVENTS) {
			if (isnan(e->hit) != isnan(e->miss)) {
				rc = fail(err, errlen, shown, e->r.line,
					  isnan(e->hit) ? "l1_global_load_miss without l1_global_load_hit%s"
							: "l1_global_load_hit without l1_global_load_miss%s",
					  "");
				goto done;
			}
			if (!isnan(e->hit) && e->hit + e->miss > 0)
				e->r.l1 = e->hit / (e->hit + e->miss);
		}
		any |= !isnan(e->r.l1) || !isnan(e->r.l2);
	}
	if (!any) {
		snprintf(err, errlen, "%s: no measurement (%s without %s)", shown, format_names[fmt],
			 fmt == MF_NVPROF_EVENTS   ? "l1_global_load_hit and l1_global_load_miss"
			 : fmt == MF_NVPROF_METRICS ? "global_hit_rate or l2_l1_read_hit_rate"
						   : "l1tex__t_sector_hit_rate.pct or "
						     "lts__t_sector_hit_rate.pct");
		rc = -1;
		goto done;
	}
	if (fmt == MF_NCU || fmt == MF_NCU_RAW)
		qsort(E.e, E.n, sizeof *E.e, by_id); /* IDs are distinct */
	/* launches numbered per kernel */
	for (size_t i = 0; i < E.n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(E.e[j].r.kernel, E.e[i].r.kernel))
				E.e[i].r.launch++;
	out->rows = malloc(E.n * sizeof *out->rows);
	if (!out->rows)
		goto done;
	for (size_t i = 0; i < E.n; i++)
		out->rows[i] = E.e[i].r;
	out->n = E.n;
	free(E.e);
	memset(&E, 0, sizeof E);
	rc = 0;
done:
	ents_free(&E);
	free(f);
	return rc;
}

int measured_parse(const char *text, size_t n, const char *shown, measured_set *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->format = format_names[MF_PLAIN];
	char *buf = malloc(PROF_MAX_LINE);
	char **f = malloc(PROF_MAX_FIELDS * sizeof *f);
	int rc = -2;
	if (!buf || !f)
		goto done;
	/* A UTF-8 byte order mark (spreadsheets write one) is no content. */
	if (n >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		n -= 3;
	}
	/* The first line that is not blank or a comment tells the format. */
	lines L = {text, text + n, 0};
	enum mformat fmt = MF_PLAIN;
	cols c;
	for (;;) {
		int got = next_line(&L, buf, PROF_MAX_LINE, shown, err, errlen);
		if (got <= 0)
			break; /* the plain reader says what is wrong */
		char *s = trim(buf);
		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "==", 2))
			continue; /* a profiler's ==PROF== or ==PID== line */
		int nf = csv_split(s, f, PROF_MAX_FIELDS);
		fmt = nf > 0 ? detect(f, nf, &c) : MF_PLAIN;
		break;
	}
	out->format = format_names[fmt];
	if (fmt == MF_PLAIN) {
		/* from the top, so that its line limit and messages hold */
		L = (lines){text, text + n, 0};
		rc = parse_plain(&L, buf, shown, out, err, errlen);
	} else {
		rc = parse_prof(&L, buf, fmt, &c, shown, out, err, errlen);
	}
done:
	if (rc < 0)
		measured_free(out);
	free(buf);
	free(f);
	return rc;
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

/* Is the row kernel (or its base name) name[0..len)? */
static int named(const measured_row *r, const char *name, size_t len)
{
	return (strlen(r->kernel) == len && !memcmp(r->kernel, name, len)) ||
	       (r->base && strlen(r->base) == len && !memcmp(r->base, name, len));
}

const measured_row *measured_find(const measured_set *s, const char *name)
{
	/* a few kernels: scans are enough */
	for (size_t i = 0; i < s->n; i++)
		if (!s->rows[i].launch && !strcmp(s->rows[i].kernel, name))
			return &s->rows[i];
	for (size_t i = 0; i < s->n; i++)
		if (!s->rows[i].launch && s->rows[i].base && !strcmp(s->rows[i].base, name))
			return &s->rows[i];
	const char *h = strrchr(name, '#');
	if (!h || !h[1] || strlen(h + 1) > 9 || strspn(h + 1, "0123456789") != strlen(h + 1))
		return NULL;
	unsigned long want = strtoul(h + 1, NULL, 10);
	size_t len = (size_t)(h - name);
	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].launch == want && named(&s->rows[i], name, len))
			return &s->rows[i];
	return NULL;
}

void measured_free(measured_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->rows[i].kernel);
		free(s->rows[i].base);
	}
	free(s->rows);
	const char *fmt = s->format;
	memset(s, 0, sizeof *s);
	s->format = fmt;
}
