/* Measured hit rates per kernel (see measured.h). */
#include "measured.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PROF_MAX_LINE 65536
#define PROF_MAX_FIELDS 4096
/* A profiler's kernel name: as long as its record allows (C++ template
 * signatures pass 1 KB; one such name refused the whole file). */
#define PROF_MAX_NAME (PROF_MAX_LINE - 1)

enum mformat { MF_PLAIN, MF_NCU, MF_NCU_RAW, MF_NVPROF_METRICS, MF_NVPROF_EVENTS, MF_NCU_TEXT };
static const char *const format_names[] = {"plain CSV", "Nsight Compute CSV",
					   "Nsight Compute raw CSV", "nvprof metrics CSV",
					   "nvprof events CSV", "Nsight Compute text page"};

/* The metrics read, best first: the L1's global loads (the model's
 * quantity) before every L1 access (stores, local memory). */
static const char *const ncu_l1[] = {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
				     "l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate", NULL};
static const char *const ncu_l2[] = {"lts__t_sector_hit_rate.pct", "L2 Hit Rate", NULL};
/* ... and better than those, the L2's hits on what the L1s read (the
 * requests the model's L2 takes; lts__t_sector_hit_rate counts every
 * source: stores, atomics, copies), from two sector counts: hits, reads */
static const char *const ncu_l2_reads[] = {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
					   "lts__t_sectors_srcunit_tex_op_read.sum", NULL};
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

/* A note kept in the set (the first MEASURED_MAX_NOTES): 0, or -2 out of
 * memory. */
static int note(measured_set *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int note(measured_set *s, const char *fmt, ...)
{
	if (s->nnotes >= MEASURED_MAX_NOTES + 1)
		return 0;
	if (!s->notes && !(s->notes = calloc(MEASURED_MAX_NOTES + 1, sizeof *s->notes)))
		return -2;
	char buf[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(s->notes[s->nnotes] = strdup(buf)))
		return -2;
	s->nnotes++;
	return 0;
}

/* A value out of 0..100 % clamped: counted, the first ones named. */
static int clamp_note(measured_set *s, const char *shown, unsigned line, const char *kernel,
		      const char *id, const char *what, const char *as_written, double to)
{
	if (++s->clamped > MEASURED_MAX_NOTES - 2)
		return 0; /* the total is said at the end */
	return note(s, "%s:%u: kernel '%.200s'%s: %.120s is %s, out of 0 to 100 %%: taken as %g %%",
		    shown, line, kernel, id, what, as_written, to);
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

/* The next CSV record into buf, as next_line, but a quoted field may hold
 * newlines (RFC 4180): while a quote is open at the end of a line, the
 * next line is part of the record, after a '\n' (not in a comment or a
 * profiler's "==" line). *first is the record's first line (L->line its
 * last). */
static int next_record(lines *L, char *buf, size_t max, unsigned *first, const char *shown,
		       char *err, size_t errlen)
{
	int got = next_line(L, buf, max, shown, err, errlen);
	*first = L->line;
	if (got <= 0)
		return got;
	const char *t = buf + strspn(buf, " \t");
	if (*t == '#' || !strncmp(t, "==", 2))
		return 1; /* a comment, a profiler's ==PROF== line: its quotes are text */
	size_t len = strlen(buf);
	for (;;) {
		int open = 0;
		for (const char *c = buf; *c; c++)
			open ^= *c == '"';
		if (!open || L->p >= L->end)
			return 1; /* an unclosed quote at the end: csv_split says so */
		if (len + 1 >= max)
			return fail(err, errlen, shown, *first, "a record longer than %s bytes",
				    max == PROF_MAX_LINE ? "65535" : "its limit of");
		buf[len++] = '\n';
		got = next_line(L, buf + len, max - len, shown, err, errlen);
		if (got < 0) {
			if (strstr(err, "a line longer than")) /* the record is too long */
				return fail(err, errlen, shown, *first,
					    "a record longer than %s bytes", "65535");
			return got;
		}
		len += strlen(buf + len);
	}
}

/* A rate: 0..1, or a percent with % (out of 0..100: clamped). 0, 1
 * clamped (to *out), or -1 with the reason in why. */
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
	if (*e || errno || !isfinite(x)) {
		*why = "expected a hit rate (0 to 1, or 0%% to 100%%), got '%s'";
		return -1;
	}
	if (!pct && (x < 0 || x > 1)) {
		*why = "a hit rate without %% must be from 0 to 1 (a percent is written 96.5%%), got '%s'";
		return -1;
	}
	int clamped = pct && (x < 0 || x > 100);
	if (clamped)
		x = x < 0 ? 0 : 100;
	*out = pct ? x / 100 : x;
	return clamped;
}

/* A profiler's number: thousands separators (1,234.5) and a trailing %
 * dropped. Separators only where they belong: between groups of three
 * digits before the point, the first group of one to three ("0,96",
 * "9,6.87", ",,,96.87" and "1,2345" are not numbers). 1 with *out; 0
 * when absent ("", "n/a"); -1 when not a number. */
static int prof_number(const char *s, double *out)
{
	char buf[64];
	size_t n = 0;
	while (*s == ' ')
		s++;
	if (!*s || !strcmp(s, "n/a") || !strcmp(s, "N/A") || !strcmp(s, "no data"))
		return 0;
	if (*s == '-' || *s == '+')
		buf[n++] = *s++;
	/* the digits before the point, with or without separators */
	size_t run = 0, groups = 0;
	for (; *s && !(*s == '.' || *s == 'e' || *s == 'E' || *s == '%' || *s == ' '); s++) {
		if (*s == ',') {
			if (!run || (groups && run != 3) || (!groups && run > 3))
				return -1;
			groups++;
			run = 0;
			continue;
		}
		if (n + 1 >= sizeof buf)
			return -1;
		buf[n++] = *s;
		run += *s >= '0' && *s <= '9';
	}
	if (groups && run != 3)
		return -1;
	for (; *s; s++) { /* the fraction, exponent, % */
		if (*s == ',' || n + 1 >= sizeof buf)
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

/* Where name is in list, or -1; "LABEL (NAME)" (ncu's
 * --print-metric-name label-name) by either. */
static int metric_rank(const char *const *list, const char *name)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], name))
			return i;
	size_t l = strlen(name);
	const char *open = l && name[l - 1] == ')' ? strrchr(name, '(') : NULL;
	if (!open || open == name || open[-1] != ' ')
		return -1;
	size_t il = (size_t)(name + l - 1 - (open + 1)), ll = (size_t)(open - 1 - name);
	for (int i = 0; list[i]; i++)
		if ((strlen(list[i]) == il && !memcmp(list[i], open + 1, il)) ||
		    (strlen(list[i]) == ll && !memcmp(list[i], name, ll)))
			return i;
	return -1;
}

/* ------------------------------------------------------------ rows kept */

typedef struct ent {
	measured_row r;
	unsigned long long id;  /* ncu's ID */
	double hit, miss;       /* nvprof's events (NAN: not seen) */
	double l2sum[2];        /* ncu: ncu_l2_reads' counts (NAN: not seen) */
	int l1rank, l2rank;     /* which metric gave the rate (1000: none) */
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

/* A long name (C++ signatures run to kilobytes) for a message: its start
 * and end around "..." in buf, its length in size (" (N bytes)"); a short
 * one as it is. */
static const char *short_name(const char *k, char *buf, size_t len, char *size, size_t slen)
{
	size_t n = strlen(k);
	*size = '\0';
	if (n <= 160)
		return k;
	snprintf(buf, len, "%.100s...%s", k, k + n - 40);
	snprintf(size, slen, " (%zu bytes)", n);
	return buf;
}

/* A profiler's kernel name: NULL, or why it is refused. */
static const char *name_bad(const char *k)
{
	if (!*k || strlen(k) > PROF_MAX_NAME)
		return "a kernel name of 1 to 65535 bytes expected%s";
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
	e->l2sum[0] = e->l2sum[1] = NAN;
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
		int cl = rate(trim(f[1]), &r.l1, &why);
		if (cl < 0)
			return fail(err, errlen, shown, line, why, trim(f[1]));
		if (cl &&
		    clamp_note(out, shown, line, k, "", "the L1 hit rate", trim(f[1]), 100 * r.l1) < 0)
			return -2;
		if (nf == 3 && *trim(f[2])) {
			if ((cl = rate(trim(f[2]), &r.l2, &why)) < 0)
				return fail(err, errlen, shown, line, why, trim(f[2]));
			if (cl && clamp_note(out, shown, line, k, "", "the L2 hit rate", trim(f[2]),
					     100 * r.l2) < 0)
				return -2;
		}
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
	int nfields; /* the header's, which every row has */
	int id, kernel, metric, value, unit, event, avg, total, section;
	int raw_l1, raw_l2;  /* ncu raw: the metric columns */
	int raw_reads[2];    /* ... and ncu_l2_reads' (-1: none) */
	int raw_l1_rank;     /* ... and which of ncu_l1 the first is */
} cols;

/* The format of a header's fields, MF_PLAIN when none. */
static enum mformat detect(char **f, int nf, cols *c)
{
	memset(c, 0, sizeof *c);
	c->nfields = nf;
	c->id = column(f, nf, "ID");
	c->kernel = column(f, nf, "Kernel Name");
	c->metric = column(f, nf, "Metric Name");
	c->value = column(f, nf, "Metric Value");
	c->unit = column(f, nf, "Metric Unit");
	c->event = column(f, nf, "Event Name");
	c->avg = column(f, nf, "Avg");
	c->total = column(f, nf, "Total");
	c->section = column(f, nf, "Section Name");
	c->raw_l1 = c->raw_l2 = c->raw_reads[0] = c->raw_reads[1] = -1;
	c->raw_l1_rank = 1000;
	if (c->id >= 0 && c->kernel >= 0) {
		if (c->metric >= 0 && c->value >= 0)
			return MF_NCU;
		if (c->metric < 0) {
			for (int i = 0; ncu_l1[i] && c->raw_l1 < 0; i++)
				if ((c->raw_l1 = column(f, nf, ncu_l1[i])) >= 0)
					c->raw_l1_rank = i;
			for (int i = 0; ncu_l2[i] && c->raw_l2 < 0; i++)
				c->raw_l2 = column(f, nf, ncu_l2[i]);
			for (int i = 0; i < 2; i++)
				c->raw_reads[i] = column(f, nf, ncu_l2_reads[i]);
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

/* A percent from a field into *rate_out (0..1): 1 clamped into 0..100 %,
 * 0 (*present says whether there was a value), -1 not a number. */
static int pct_field(const char *s, double *rate_out, int *present)
{
	double x;
	int r = prof_number(s, &x);
	*present = r > 0;
	if (r <= 0)
		return r;
	int clamped = x < 0 || x > 100;
	if (clamped)
		x = x < 0 ? 0 : 100;
	*rate_out = x / 100;
	return clamped;
}

/* A profiler's hit rate (metric, of launch e at line) into *slot: 0, -1
 * refused (err), -2 out of memory. */
static int prof_rate(const char *vs, double *slot, int *present, const ent *e, const char *metric,
		     const char *shown, unsigned line, measured_set *out, char *err, size_t errlen)
{
	int r = pct_field(vs, slot, present);
	if (r < 0)
		return fail(err, errlen, shown, line,
			    strchr(vs, ',') ? "a hit rate must be a percent (a thousands separator "
					      "only between groups of three digits before the point), "
					      "got '%s'"
					    : "a hit rate must be a percent, got '%s'",
			    vs);
	if (r > 0) {
		char id[40], as[96];
		snprintf(id, sizeof id, " (ID %llu)", e->id);
		snprintf(as, sizeof as, "%.60s %%", vs);
		/* "kernel 'NAME' (ID 17): METRIC is 104.17 %, ..." */
		if (clamp_note(out, shown, line, e->r.kernel, id, metric, as, 100 * *slot) < 0)
			return -2;
	}
	return 0;
}

/* Distinct section names, for saying what a file without hit rates has. */
static void add_section(char *secs, size_t cap, const char *name)
{
	if (!*name || strlen(name) > 80)
		return;
	for (const char *p = secs; (p = strstr(p, name)); p++)
		if ((p == secs || p[-1] == '|') && (p[strlen(name)] == '|' || !p[strlen(name)]))
			return;
	size_t l = strlen(secs);
	if (l + strlen(name) + 2 < cap)
		snprintf(secs + l, cap - l, "%s%s", l ? "|" : "", name);
}

/* The kept launches numbered and moved into out: 0, -1 (err), -2 out of
 * memory. secs: the sections seen (MF_NCU), '|'-separated. */
static int ents_finish(ents *E, enum mformat fmt, const char *secs, const char *shown,
		       measured_set *out, char *err, size_t errlen)
{
	int any = 0, ncu = fmt == MF_NCU || fmt == MF_NCU_RAW || fmt == MF_NCU_TEXT;
	unsigned long by_rank[3] = {0, 0, 0}; /* launches whose L1 rate is ncu_l1[i] */
	unsigned long reads = 0;              /* ... whose L2 rate is the L1s' reads' */
	for (size_t i = 0; i < E->n; i++) {
		ent *e = &E->e[i];
		if (fmt == MF_NVPROF_EVENTS) {
			if (isnan(e->hit) != isnan(e->miss))
				return fail(err, errlen, shown, e->r.line,
					    isnan(e->hit) ? "l1_global_load_miss without l1_global_load_hit%s"
							  : "l1_global_load_hit without l1_global_load_miss%s",
					    "");
			if (!isnan(e->hit) && e->hit + e->miss > 0)
				e->r.l1 = e->hit / (e->hit + e->miss);
		}
		if (ncu && !isnan(e->l2sum[0]) && !isnan(e->l2sum[1]) && e->l2sum[1] > 0 &&
		    e->l2sum[0] <= e->l2sum[1]) {
			e->r.l2 = e->l2sum[0] / e->l2sum[1]; /* the L1s' reads' */
			reads++;
		}
		if (ncu && !isnan(e->r.l1) && e->l1rank < 3)
			by_rank[e->l1rank]++;
		any |= !isnan(e->r.l1) || !isnan(e->r.l2);
	}
	if (!any) {
		char tail[400] = "";
		if (fmt == MF_NCU && secs && *secs) {
			size_t t = (size_t)snprintf(tail, sizeof tail, "; its sections: ");
			for (const char *p = secs; *p && t + 3 < sizeof tail; p++) {
				if (*p == '|')
					tail[t++] = ',', tail[t++] = ' ';
				else
					tail[t++] = *p;
			}
			tail[t] = '\0';
		}
		if (ncu)
			snprintf(err, errlen,
				 "%s: no measurement: none of its %zu launch%s has a hit rate (%s, "
				 "%s, %s; the details page's \"L1/TEX Hit Rate\" and \"L2 Hit Rate\" are "
				 "ncu's --section MemoryWorkloadAnalysis)%s",
				 shown, E->n, E->n == 1 ? "" : "es", ncu_l1[0], ncu_l1[1], ncu_l2[0], tail);
		else
			snprintf(err, errlen, "%s: no measurement (%s without %s)", shown,
				 format_names[fmt],
				 fmt == MF_NVPROF_EVENTS ? "l1_global_load_hit and l1_global_load_miss"
							 : "global_hit_rate or l2_l1_read_hit_rate");
		return -1;
	}
	if (fmt == MF_NCU || fmt == MF_NCU_RAW)
		qsort(E->e, E->n, sizeof *E->e, by_id); /* IDs are distinct */
	for (size_t i = 0; i < E->n; i++)
		E->e[i].r.id = E->e[i].id; /* launches are numbered by index_rows */
	if (reads &&
	    note(out,
		 "%s: the L2 hit rate of %lu launch%s is that of the L1s' reads (%s over %s, what the "
		 "model's L2 takes), not %s (every source: stores, atomics, copies)",
		 shown, reads, reads == 1 ? "" : "es", ncu_l2_reads[0], ncu_l2_reads[1],
		 ncu_l2[0]) < 0)
		return -2;
	for (int k = 1; k < 3; k++)
		if (by_rank[k] &&
		    note(out,
			 "%s: the L1 hit rate of %lu launch%s is %s (every L1 access: stores and "
			 "local memory too), not %s (global loads, what the model counts), which %s",
			 shown, by_rank[k], by_rank[k] == 1 ? "" : "es", ncu_l1[k], ncu_l1[0],
			 by_rank[0] ? "the other launches have" : "the file lacks") < 0)
			return -2;
	out->rows = malloc((E->n ? E->n : 1) * sizeof *out->rows);
	if (!out->rows)
		return -2;
	for (size_t i = 0; i < E->n; i++)
		out->rows[i] = E->e[i].r;
	out->n = E->n;
	free(E->e);
	memset(E, 0, sizeof *E);
	return 0;
}

/* What one profiler row needs besides its fields. */
typedef struct prow {
	enum mformat fmt;
	const cols *c;
	const char *shown;
	unsigned line;
	measured_set *out;
	char *err;
	size_t errlen;
} prow;

/* The launch (ncu: by ID) or kernel (nvprof: by name) row f speaks of,
 * found or added: its index, or -1 (err), -2 out of memory. */
static long prof_ent(const prow *pr, ents *E, char **f)
{
	const char *k = f[pr->c->kernel];
	long at = -1;
	if (pr->fmt == MF_NCU || pr->fmt == MF_NCU_RAW) {
		const char *ids = f[pr->c->id];
		if (!*ids || strlen(ids) > 18 || strspn(ids, "0123456789") != strlen(ids))
			return fail(pr->err, pr->errlen, pr->shown, pr->line,
				    "expected a launch ID (a whole number), got '%s'", ids);
		unsigned long long id = strtoull(ids, NULL, 10);
		if (pr->fmt == MF_NCU) {
			/* the launch's rows are together: the last one first */
			for (size_t i = E->n; i-- > 0;)
				if (E->e[i].id == id) {
					at = (long)i;
					break;
				}
		} else {
			for (size_t i = 0; i < E->n; i++)
				if (E->e[i].id == id)
					return fail(pr->err, pr->errlen, pr->shown, pr->line,
						    "launch ID %s twice", ids);
		}
		if (at >= 0 && strcmp(E->e[at].r.kernel, k))
			return fail(pr->err, pr->errlen, pr->shown, pr->line,
				    "launch ID %s names two kernels", ids);
		if (at < 0) {
			at = ents_add(E, k, pr->line);
			if (at >= 0)
				E->e[at].id = id;
		}
	} else {
		for (size_t i = 0; i < E->n; i++)
			if (!strcmp(E->e[i].r.kernel, k)) {
				at = (long)i;
				break;
			}
		if (at < 0)
			at = ents_add(E, k, pr->line);
	}
	if (at == -1)
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    "more than 10000 kernel launches%s", "");
	return at; /* (or -2) */
}

/* Sector count vs of ncu_l2_reads[i] for launch e: 0, or -1 (err). */
static int prof_l2_sum(const prow *pr, ent *e, const char *vs, int i)
{
	double x;
	int r = prof_number(vs, &x);
	if (r < 0 || (r > 0 && (x < 0 || x != floor(x))))
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    "expected a count of sectors, got '%s'", vs);
	if (!isnan(e->l2sum[i])) {
		char why[160];
		snprintf(why, sizeof why, "%.100s twice for this launch", ncu_l2_reads[i]);
		return fail(pr->err, pr->errlen, pr->shown, pr->line, "%s", why);
	}
	if (r > 0)
		e->l2sum[i] = x;
	return 0;
}

/* ncu's raw page: the row is the launch, its L1 and L2 columns. */
static int prof_raw_row(const prow *pr, ent *e, char **f)
{
	const cols *c = pr->c;
	for (int l = 0; l < 2; l++) {
		int col = l ? c->raw_l2 : c->raw_l1, present, rc;
		if (col < 0)
			continue;
		if ((rc = prof_rate(f[col], l ? &e->r.l2 : &e->r.l1, &present, e,
				    l ? ncu_l2[0] : ncu_l1[c->raw_l1_rank], pr->shown, pr->line,
				    pr->out, pr->err, pr->errlen)) < 0)
			return rc;
		if (!l && present)
			e->l1rank = c->raw_l1_rank;
	}
	for (int i = 0; i < 2; i++) {
		int rc;
		if (c->raw_reads[i] >= 0 && (rc = prof_l2_sum(pr, e, f[c->raw_reads[i]], i)) < 0)
			return rc;
	}
	return 0;
}

/* nvprof's events: an event a row, the L1's hits and misses counted. */
static int prof_event_row(const prow *pr, ent *e, char **f)
{
	const cols *c = pr->c;
	const char *ev = f[c->event];
	int hit = !strcmp(ev, "l1_global_load_hit");
	if (!hit && strcmp(ev, "l1_global_load_miss"))
		return 0;
	double x;
	int r = prof_number(f[c->total], &x);
	if (r < 0 || (r > 0 && x < 0))
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    "expected an event count (Total), got '%s'", f[c->total]);
	double *slot = hit ? &e->hit : &e->miss;
	if (!isnan(*slot))
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    "%s twice for this kernel (two devices? profile one)", ev);
	if (r > 0)
		*slot = x;
	return 0;
}

/* One metric a row (ncu's details page, nvprof's metrics): the best ranked
 * L1 and L2 hit rates kept. nf: the row's fields; secs: the sections seen. */
static int prof_metric_row(const prow *pr, ent *e, char **f, int nf, char *secs, size_t cap)
{
	const cols *c = pr->c;
	enum mformat fmt = pr->fmt;
	if (fmt == MF_NCU && c->section >= 0 && c->section < nf)
		add_section(secs, cap, f[c->section]);
	const char *m = f[c->metric];
	for (int i = 0; fmt == MF_NCU && i < 2; i++)
		if (!strcmp(m, ncu_l2_reads[i]))
			return prof_l2_sum(pr, e, f[c->value], i);
	const char *const *l1s = fmt == MF_NCU ? ncu_l1 : nvp_l1;
	const char *const *l2s = fmt == MF_NCU ? ncu_l2 : nvp_l2;
	int r1 = metric_rank(l1s, m), r2 = metric_rank(l2s, m);
	if (r1 < 0 && r2 < 0)
		return 0;
	if (fmt == MF_NCU && c->unit >= 0 && *f[c->unit] && strcmp(f[c->unit], "%") &&
	    strcmp(f[c->unit], "pct")) {
		char why[200];
		snprintf(why, sizeof why, "%.100s: expected the unit %%, got '%.40s'", m, f[c->unit]);
		return fail(pr->err, pr->errlen, pr->shown, pr->line, "%s", why);
	}
	int *rank = r1 >= 0 ? &e->l1rank : &e->l2rank, mr = r1 >= 0 ? r1 : r2;
	if (*rank == mr)
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    fmt == MF_NCU ? "%s twice for this launch"
					  : "%s twice for this kernel (two devices? profile one)",
			    m);
	double x = NAN;
	int present, rc;
	const char *vs = f[fmt == MF_NCU ? c->value : c->avg];
	if ((rc = prof_rate(vs, &x, &present, e, m, pr->shown, pr->line, pr->out, pr->err,
			    pr->errlen)) < 0)
		return rc;
	if (mr < *rank) {
		*rank = mr;
		*(r1 >= 0 ? &e->r.l1 : &e->r.l2) = present ? x : NAN;
	}
	return 0;
}

/* Split record s into f, checking its fields against the header's: nf,
 * or -1 (err). */
static int prof_fields(const prow *pr, char *s, char **f)
{
	int nf = csv_split(s, f, PROF_MAX_FIELDS);
	if (nf == -1)
		return fail(pr->err, pr->errlen, pr->shown, pr->line,
			    "a field with unbalanced quotes%s", "");
	if (nf == -2)
		return fail(pr->err, pr->errlen, pr->shown, pr->line, "more than 4096 fields%s", "");
	/* No row has more fields than the header: the columns are read by
	 * place, and a field more (nvprof's unquoted 1,234.5%) would shift
	 * them. Fewer are ncu's rows without the trailing rule columns; they
	 * must still hold every column read (prof_row). */
	if (nf > pr->c->nfields) {
		char why[160];
		snprintf(why, sizeof why, "%d fields, the header has %d (a number with an "
					  "unquoted thousands separator?)%%s", nf, pr->c->nfields);
		return fail(pr->err, pr->errlen, pr->shown, pr->line, why, "");
	}
	return nf;
}

/* The profilers' CSV layouts (ncu's details and raw pages, nvprof's
 * metrics and events), a record at a time into launches: 0, -1 (err), -2
 * out of memory. */
static int parse_prof(lines *L, char *buf, enum mformat fmt, cols *c, const char *shown,
		      measured_set *out, char *err, size_t errlen)
{
	ents E = {0};
	char **f = malloc(PROF_MAX_FIELDS * sizeof *f);
	char secs[320] = "";
	int rc = 0, got, first_row = 1;
	if (!f)
		return -2;
	int need[] = {c->id,	 c->kernel, c->metric, c->value,	  c->unit,
		      c->event,	 c->avg,    c->total,  c->raw_l1,	  c->raw_l2,
		      c->raw_reads[0], c->raw_reads[1]};
	int nneed = max_of(need, (int)(sizeof need / sizeof need[0])) + 1;
	prow pr = {fmt, c, shown, L->line, out, err, errlen};
	if (fmt == MF_NCU_RAW && c->raw_l1 < 0 && c->raw_l2 < 0) {
		rc = fail(err, errlen, shown, L->line,
			  "Nsight Compute raw CSV without a %s, l1tex__t_sector_hit_rate.pct or "
			  "lts__t_sector_hit_rate.pct column",
			  ncu_l1[0]);
		goto done;
	}
	while (rc == 0 &&
	       (got = next_record(L, buf, PROF_MAX_LINE, &pr.line, shown, err, errlen)) > 0) {
		char *s = trim(buf);
		if (!*s || *s == '#' || !strncmp(s, "==", 2))
			continue;
		int nf = prof_fields(&pr, s, f);
		if (nf < 0) {
			rc = nf;
			break;
		}
		int units_row = first_row && fmt == MF_NCU_RAW && !*f[c->id < nf ? c->id : 0];
		first_row = 0;
		if (units_row)
			continue; /* the raw page's units */
		if (nf < nneed) {
			char why[96];
			snprintf(why, sizeof why, "%d fields, expected at least %d (the columns read)%%s", nf, nneed);
			rc = fail(err, errlen, shown, pr.line, why, "");
			break;
		}
		const char *why = name_bad(f[c->kernel]);
		if (why) {
			rc = fail(err, errlen, shown, pr.line, why, "");
			break;
		}
		long at = prof_ent(&pr, &E, f);
		if (at < 0) {
			rc = (int)at;
			break;
		}
		ent *e = &E.e[at];
		rc = fmt == MF_NCU_RAW	      ? prof_raw_row(&pr, e, f)
		     : fmt == MF_NVPROF_EVENTS ? prof_event_row(&pr, e, f)
					       : prof_metric_row(&pr, e, f, nf, secs, sizeof secs);
	}
	if (rc == 0)
		rc = got < 0 ? -1 : ents_finish(&E, fmt, secs, shown, out, err, errlen);
done:
	ents_free(&E);
	free(f);
	return rc;
}

/* ------------------------------------------------- ncu's text page */

/* "[PID] PROCESS@HOST": the text page's process line. */
static int is_proc_line(const char *s)
{
	if (s[0] != '[' || s[1] < '0' || s[1] > '9')
		return 0;
	s++;
	while (*s >= '0' && *s <= '9')
		s++;
	return s[0] == ']' && s[1] == ' ' && s[2] && s[2] != ' ';
}

/* A launch line, "  NAME (GRID)x(BLOCK), Context C, Stream S, Device D,
 * CC X.Y" (older ncu: "  NAME, DATE, Context C, Stream S"): 1 with the
 * name cut in place, else 0. */
static int text_kernel_line(char *s, char **name)
{
	s += strspn(s, " \t");
	char *ctx = NULL;
	for (char *p = s; (p = strstr(p, ", Context ")); p++)
		ctx = p;
	if (!ctx || ctx == s || ctx[10] < '0' || ctx[10] > '9' || !strstr(ctx, ", Stream "))
		return 0;
	*ctx = '\0';
	char *x = NULL;
	for (char *p = s; (p = strstr(p, ")x(")); p++)
		x = p;
	if (x && ctx[-1] == ')') {
		char *g = x;
		while (g > s && *g != '(')
			g--;
		if (*g == '(' && g > s && g[-1] == ' ')
			g[-1] = '\0';
	} else {
		/* "NAME, 2020-Dec-03 10:08:28": the date dropped */
		for (char *p = s; (p = strstr(p, ", ")); p++)
			if (strspn(p + 2, "0123456789") == 4 && p[6] == '-') {
				*p = '\0';
				break;
			}
	}
	*name = trim(s);
	return **name != '\0';
}

/* A line of dashes framing a table ("---- ---- ----"): the start of each
 * run in start[] (at most max), their number; 0 when not such a line. */
static int dash_runs(const char *s, int *start, int max)
{
	const char *t = s + strspn(s, " \t");
	if (*t != '-' || t[strspn(t, "- ")])
		return 0;
	int n = 0;
	for (const char *p = t; *p;) {
		if (*p == '-') {
			if (n == max)
				return 0;
			start[n++] = (int)(p - s);
			p += strspn(p, "-");
		} else {
			p++;
		}
	}
	return n;
}

/* Column [from, to) of line s (length l) trimmed into out (cap bytes). */
static char *cell(const char *s, size_t l, int from, int to, char *out, size_t cap)
{
	size_t a = (size_t)from < l ? (size_t)from : l, b = to < 0 || (size_t)to > l ? l : (size_t)to;
	size_t n = b > a ? b - a : 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s + a, n);
	out[n] = '\0';
	return trim(out);
}

/* A table row whose columns do not fall where the dashes are (a pasted
 * page, its spaces changed): the value is the last word ("no data" two),
 * a "%" before it the unit, the rest the name. */
static void split_words(char *t, char **name, char **unit, char **value)
{
	t = trim(t);
	char *v = strrchr(t, ' ');
	size_t l = strlen(t);
	if (l > 8 && !strcmp(t + l - 8, " no data"))
		v = t + l - 8;
	*unit = (char *)"";
	if (!v) {
		*name = t;
		*value = (char *)"";
		return;
	}
	*v = '\0';
	*value = trim(v + 1);
	char *u = strrchr(t, ' ');
	if (u && !strcmp(trim(u + 1), "%")) {
		*u = '\0';
		*unit = (char *)"%";
	}
	*name = trim(t);
}

static int parse_text(lines *L, char *buf, const char *shown, measured_set *out, char *err,
		      size_t errlen)
{
	ents E = {0};
	int rc = -2, got, ncols = 0, start[16] = {0}, runs[16];
	enum { T_NONE, T_TOP, T_HEADER, T_ROWS } st = T_NONE;
	long cur = -1;
	while ((got = next_line(L, buf, PROF_MAX_LINE, shown, err, errlen)) > 0) {
		unsigned line = L->line;
		size_t l = strlen(buf);
		while (l && (buf[l - 1] == '\r' || buf[l - 1] == ' ' || buf[l - 1] == '\t'))
			buf[--l] = '\0';
		const char *t = buf + strspn(buf, " \t");
		if (!*t || !strncmp(t, "==", 2))
			continue;
		int nd = dash_runs(buf, runs, 16);
		if (nd) {
			if (st == T_HEADER) {
				st = T_ROWS;
				ncols = nd;
				memcpy(start, runs, sizeof start);
			} else {
				st = st == T_ROWS ? T_NONE : T_TOP;
			}
			continue;
		}
		if (st == T_TOP) {
			st = T_HEADER; /* "Metric Name  Metric Unit  Metric Value" */
			continue;
		}
		if (st == T_HEADER)
			st = T_NONE; /* not a table after all */
		if (st == T_ROWS) {
			if (cur < 0)
				continue; /* a table before any launch: not one of ncu's */
			char nb[320], ub[64], vb[80], *name, *unit, *value;
			name = cell(buf, l, start[0], ncols > 1 ? start[1] : -1, nb, sizeof nb);
			unit = ncols > 2 ? cell(buf, l, start[1], start[ncols - 1], ub, sizeof ub)
					 : (char *)"";
			value = ncols > 1 ? cell(buf, l, start[ncols - 1], -1, vb, sizeof vb)
					  : (char *)"";
			int r1 = metric_rank(ncu_l1, name), r2 = metric_rank(ncu_l2, name);
			if (r1 < 0 && r2 < 0) {
				char wb[512];
				snprintf(wb, sizeof wb, "%s", t);
				split_words(wb, &name, &unit, &value);
				r1 = metric_rank(ncu_l1, name), r2 = metric_rank(ncu_l2, name);
				if (r1 < 0 && r2 < 0)
					continue;
				snprintf(nb, sizeof nb, "%s", name);
				snprintf(ub, sizeof ub, "%s", unit);
				snprintf(vb, sizeof vb, "%s", value);
				name = nb, unit = ub, value = vb;
			}
			if (*unit && strcmp(unit, "%")) {
				char why[200];
				snprintf(why, sizeof why, "%.100s: expected the unit %%, got '%.40s'", name,
					 unit);
				rc = fail(err, errlen, shown, line, "%s", why);
				goto done;
			}
			ent *e = &E.e[cur];
			int *rank = r1 >= 0 ? &e->l1rank : &e->l2rank, mr = r1 >= 0 ? r1 : r2;
			if (*rank == mr) {
				char why[200];
				snprintf(why, sizeof why, "%.100s twice for this launch", name);
				rc = fail(err, errlen, shown, line, "%s", why);
				goto done;
			}
			double x = NAN;
			int present;
			if ((rc = prof_rate(value, &x, &present, e, name, shown, line, out, err,
					    errlen)) < 0)
				goto done;
			rc = -2;
			if (mr < *rank) {
				*rank = mr;
				*(r1 >= 0 ? &e->r.l1 : &e->r.l2) = present ? x : NAN;
			}
			continue;
		}
		char *name;
		if (!text_kernel_line(buf, &name))
			continue; /* a process line, "Section: ...", a rule's text, the program's output */
		const char *why = name_bad(name);
		if (why) {
			rc = fail(err, errlen, shown, line, why, "");
			goto done;
		}
		cur = ents_add(&E, name, line);
		if (cur == -1) {
			rc = fail(err, errlen, shown, line, "more than 10000 kernel launches%s", "");
			goto done;
		}
		if (cur == -2)
			goto done;
		E.e[cur].id = (unsigned long long)cur;
	}
	if (got < 0) {
		rc = -1;
		goto done;
	}
	if (!E.n) {
		snprintf(err, errlen,
			 "%s: no launch (Nsight Compute text page without a line \"NAME (GRID)x(BLOCK), "
			 "Context C, Stream S, ...\")",
			 shown);
		rc = -1;
		goto done;
	}
	rc = ents_finish(&E, MF_NCU_TEXT, NULL, shown, out, err, errlen);
done:
	ents_free(&E);
	return rc;
}

/* Is the text, from L on, ncu's text page after other output (a process
 * line followed by a launch line)? */
static int text_page_ahead(lines L, char *buf)
{
	char err[8];
	int proc = 0, got;
	while ((got = next_line(&L, buf, PROF_MAX_LINE, "", err, sizeof err)) > 0) {
		char *s = trim(buf), *name;
		if (!*s || !strncmp(s, "==", 2))
			continue;
		if (proc && text_kernel_line(s, &name))
			return 1;
		proc = is_proc_line(s);
	}
	return 0;
}

/* ---------------------------------------------------------- the index */

typedef struct named {
	const char *name;
	size_t i;
} named;

static int by_name(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static const char *base_key(const measured_row *r)
{
	return r->base ? r->base : r->kernel;
}

/* s's rows sorted by name (base: by base_key) into *out, and each row's
 * launch (blaunch) numbered in its name's run: 0, or -2 out of memory. */
static int index_by(measured_set *s, int base, size_t **out)
{
	size_t n = s->n ? s->n : 1;
	named *v = malloc(n * sizeof *v);
	*out = malloc(n * sizeof **out);
	if (!v || !*out) {
		free(v);
		return -2;
	}
	for (size_t i = 0; i < s->n; i++)
		v[i] = (named){base ? base_key(&s->rows[i]) : s->rows[i].kernel, i};
	qsort(v, s->n, sizeof *v, by_name);
	unsigned k = 0;
	for (size_t j = 0; j < s->n; j++) {
		k = j && !strcmp(v[j].name, v[j - 1].name) ? k + 1 : 0;
		measured_row *r = &s->rows[v[j].i];
		if (base)
			r->blaunch = k;
		else
			r->launch = k;
		(*out)[j] = v[j].i;
	}
	free(v);
	return 0;
}

/* The run of idx (sorted by name) named name[0..len): its start and
 * length. */
static size_t run_of(const measured_set *s, const size_t *idx, int base, const char *name,
		     size_t len, size_t *start)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) { /* the first not below name */
		size_t mid = lo + (hi - lo) / 2;
		const measured_row *r = &s->rows[idx[mid]];
		const char *k = base ? base_key(r) : r->kernel;
		if (strncmp(k, name, len) < 0) /* (k below name: only then) */
			lo = mid + 1;
		else
			hi = mid;
	}
	*start = lo;
	for (hi = s->n; lo < hi;) { /* the first above name */
		size_t mid = lo + (hi - lo) / 2;
		const measured_row *r = &s->rows[idx[mid]];
		const char *k = base ? base_key(r) : r->kernel;
		if (!strncmp(k, name, len) && !k[len])
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - *start;
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
	cols c = {0};
	for (;;) {
		unsigned first;
		int got = next_record(&L, buf, PROF_MAX_LINE, &first, shown, err, errlen);
		if (got <= 0)
			break; /* the plain reader says what is wrong */
		char *s = trim(buf);
		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "==", 2))
			continue; /* a profiler's ==PROF== or ==PID== line */
		if (is_proc_line(s)) {
			fmt = MF_NCU_TEXT;
			break;
		}
		int nf = csv_split(s, f, PROF_MAX_FIELDS);
		fmt = nf > 0 ? detect(f, nf, &c) : MF_PLAIN;
		break;
	}
	if (fmt == MF_PLAIN && text_page_ahead((lines){text, text + n, 0}, buf))
		fmt = MF_NCU_TEXT; /* after the program's own output */
	out->format = format_names[fmt];
	if (fmt == MF_PLAIN || fmt == MF_NCU_TEXT) {
		/* from the top, so that line limits and messages hold */
		L = (lines){text, text + n, 0};
		rc = fmt == MF_PLAIN ? parse_plain(&L, buf, shown, out, err, errlen)
				     : parse_text(&L, buf, shown, out, err, errlen);
	} else {
		rc = parse_prof(&L, buf, fmt, &c, shown, out, err, errlen);
	}
	if (rc == 0 && (index_by(out, 0, &out->by_kernel) < 0 ||
			index_by(out, 1, &out->by_base) < 0))
		rc = -2;
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

/* ---------------------------------------------------------- matching */

static int eqn(const char *a, const char *b, size_t len)
{
	return a && strlen(a) == len && !memcmp(a, b, len);
}

/* Is any row named name[0..len), whole or before its '('? */
static int has_name(const measured_set *s, const char *name, size_t len)
{
	size_t at;
	return run_of(s, s->by_kernel, 0, name, len, &at) || run_of(s, s->by_base, 1, name, len, &at);
}

/* Launch k of the kernel named key[0..len): among the rows so named
 * whole, else among those so named before '(' (counted by blaunch; when
 * no row is named key whole, every row whose base key is key has that
 * base). */
static const measured_row *launch_of(const measured_set *s, const char *key, size_t len,
				     unsigned long k)
{
	size_t at, n = run_of(s, s->by_kernel, 0, key, len, &at);
	if (n)
		return k < n ? &s->rows[s->by_kernel[at + k]] : NULL;
	n = run_of(s, s->by_base, 1, key, len, &at);
	return k < n ? &s->rows[s->by_base[at + k]] : NULL;
}

/* "#K" at the end of name[0..*len): K, with *len cut before '#'; or -1. */
static long hash_launch(const char *name, size_t *len)
{
	const char *h = NULL;
	for (size_t i = *len; i-- > 0;)
		if (name[i] == '#') {
			h = name + i;
			break;
		}
	size_t dl = h ? *len - (size_t)(h - name) - 1 : 0;
	if (!h || !dl || dl > 9 || strspn(h + 1, "0123456789") < dl)
		return -1;
	*len = (size_t)(h - name);
	return strtol(h + 1, NULL, 10);
}

/* A description's launch tag "[VAR=N,...]" at the end of name[0..len)
 * dropped: the length left. */
static size_t drop_tag(const char *name, size_t len)
{
	if (len < 3 || name[len - 1] != ']')
		return len;
	size_t i = len - 1;
	while (i > 0 && name[i] != '[')
		i--;
	if (!i || name[i] != '[' || !memchr(name + i, '=', len - i))
		return len;
	return i;
}

const measured_row *measured_find(const measured_set *s, const char *name)
{
	size_t len = strlen(name);
	if (has_name(s, name, len))
		return launch_of(s, name, len, 0);
	long k = hash_launch(name, &len);
	return k < 0 ? NULL : launch_of(s, name, len, (unsigned long)k);
}

int measured_match_init(measured_match *m, const measured_set *s)
{
	memset(m, 0, sizeof *m);
	m->s = s;
	m->used = calloc(s->n ? s->n : 1, 1);
	m->nslots = 16;
	m->slots = calloc(m->nslots, sizeof *m->slots);
	if (m->used && m->slots)
		return 0;
	free(m->used);
	free(m->slots);
	memset(m, 0, sizeof *m);
	return -2;
}

/* FNV-1a of name[0..len) */
static size_t name_hash(const char *name, size_t len)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211u;
	return (size_t)(h ^ h >> 29);
}

/* The key of a modelled kernel's name (name[0..*len) after dropping
 * "#K", with *k = K, and a launch tag), made when new: NULL out of
 * memory. */
static measured_key *match_key(measured_match *m, const char *name, long *k)
{
	const measured_set *s = m->s;
	size_t len = strlen(name);
	*k = -1;
	if (!has_name(s, name, len)) {
		size_t l2 = len;
		*k = hash_launch(name, &l2);
		if (*k >= 0)
			len = l2;
		len = drop_tag(name, len);
	}
	size_t h = name_hash(name, len), mask = m->nslots - 1;
	for (size_t j = h & mask; m->slots[j]; j = (j + 1) & mask)
		if (eqn(m->keys[m->slots[j] - 1].name, name, len))
			return &m->keys[m->slots[j] - 1];
	if (m->nkeys == m->cap) {
		size_t nc = m->cap ? 2 * m->cap : 16;
		measured_key *nk = realloc(m->keys, nc * sizeof *nk);
		if (!nk)
			return NULL;
		m->keys = nk;
		m->cap = nc;
	}
	if (2 * (m->nkeys + 1) > m->nslots) { /* at most half full */
		size_t ns = 2 * m->nslots, *sl = calloc(ns, sizeof *sl);
		if (!sl)
			return NULL;
		for (size_t i = 0; i < m->nkeys; i++) {
			size_t j = name_hash(m->keys[i].name, strlen(m->keys[i].name)) & (ns - 1);
			while (sl[j])
				j = (j + 1) & (ns - 1);
			sl[j] = i + 1;
		}
		free(m->slots);
		m->slots = sl;
		m->nslots = ns;
		mask = ns - 1;
	}
	measured_key *key = &m->keys[m->nkeys];
	memset(key, 0, sizeof *key);
	if (!(key->name = malloc(len + 1)))
		return NULL;
	memcpy(key->name, name, len);
	key->name[len] = '\0';
	size_t j = h & mask;
	while (m->slots[j])
		j = (j + 1) & mask;
	m->slots[j] = ++m->nkeys;
	return key;
}

int measured_match_next(measured_match *m, const char *name, const measured_row **row)
{
	long k;
	measured_key *key = match_key(m, name, &k);
	*row = NULL;
	if (!key)
		return -2;
	key->modelled++;
	*row = launch_of(m->s, key->name, strlen(key->name),
			 k >= 0 ? (unsigned long)k : key->turn++);
	if (*row) {
		key->matched++;
		m->used[*row - m->s->rows] = 1;
	}
	return 0;
}

int measured_match_skip(measured_match *m, const char *name)
{
	long k;
	measured_key *key = match_key(m, name, &k);
	if (!key)
		return -2;
	if (k < 0)
		key->turn++;
	return 0;
}

void measured_match_notes(const measured_match *m, const char *shown, const char *cmd)
{
	const measured_set *s = m->s;
	for (size_t i = 0; i < s->nnotes; i++)
		msg_error("%s", s->notes[i]);
	if (s->clamped)
		msg_error("%s: %lu value%s out of 0 to 100 %% clamped%s", shown, s->clamped,
			  s->clamped == 1 ? "" : "s",
			  s->clamped > MEASURED_MAX_NOTES - 2 ? " (the first ones named above)" : "");
	/* measured launches no kernel matched: a line per kernel */
	for (size_t i = 0; i < s->n; i++) {
		const measured_row *r = &s->rows[i];
		if (r->launch)
			continue; /* its first launch speaks for it */
		size_t total = 0, left = 0, first = 0, at;
		char which[96] = "";
		size_t runlen = run_of(s, s->by_kernel, 0, r->kernel, strlen(r->kernel), &at);
		for (size_t q = 0; q < runlen; q++) { /* its launches, in order */
			size_t j = s->by_kernel[at + q];
			total++;
			if (m->used[j])
				continue;
			if (!left++)
				first = j;
			size_t l = strlen(which);
			if (left <= 4)
				snprintf(which + l, sizeof which - l, "%s%u", left > 1 ? ", " : "",
					 s->rows[j].launch);
			else if (left == 5)
				snprintf(which + l, sizeof which - l, ", ...");
		}
		if (!left)
			continue;
		char sb[200], size[32];
		const char *kn = short_name(r->kernel, sb, sizeof sb, size, sizeof size);
		if (left == total)
			msg_error("%s:%u: no kernel named '%s'%s among the inputs%s", shown, r->line,
				  kn, size, total > 1 ? " (any of its launches)" : "");
		else
			msg_error("%s:%u: %zu of the %zu measured launches of '%s'%s have no kernel "
				  "among the inputs (launch%s %s, from 0): left out",
				  shown, s->rows[first].line, left, total, kn, size, left > 1 ? "es" : "",
				  which);
	}
	/* kernels of the inputs no launch matched */
	size_t none = 0;
	char names[240] = "";
	for (size_t i = 0; i < m->nkeys; i++) {
		const measured_key *k = &m->keys[i];
		if (k->matched == k->modelled)
			continue;
		if (k->matched) {
			msg_error("%s: %u of the %u kernels (launches) named '%s' among the inputs have "
				  "no measured launch in %s: left out",
				  cmd, k->modelled - k->matched, k->modelled, k->name, shown);
			continue;
		}
		size_t l = strlen(names);
		if (none++ < 4)
			snprintf(names + l, sizeof names - l, "%s'%.40s'", none > 1 ? ", " : "", k->name);
		else if (none == 5)
			snprintf(names + l, sizeof names - l, ", ...");
	}
	if (none)
		msg_error("%s: %zu kernel name%s among the inputs %s no measurement in %s (%s)", cmd,
			  none, none == 1 ? "" : "s", none == 1 ? "has" : "have", shown, names);
}

void measured_match_free(measured_match *m)
{
	for (size_t i = 0; i < m->nkeys; i++)
		free(m->keys[i].name);
	free(m->keys);
	free(m->used);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void measured_free(measured_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->rows[i].kernel);
		free(s->rows[i].base);
	}
	free(s->rows);
	free(s->by_kernel);
	free(s->by_base);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	const char *fmt = s->format;
	memset(s, 0, sizeof *s);
	s->format = fmt;
}
