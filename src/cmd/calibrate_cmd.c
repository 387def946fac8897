/*
 * rdscope calibrate (see calibrate_cmd.h). The grid is a sweep plan
 * (sweep.h) over one --vary string per fitted key, so values, relative
 * values and invalid points are treated as sweep treats them. Each kernel
 * is loaded once (batch_each_shape) and its points run on worker
 * threads, each with its own rd_model, or, where run would model it in
 * parts, one point after another, each in parts on the -j threads; the L1
 * hit rate of every (kernel, point) is kept and the statistics are
 * computed at the end, as validate computes them (the same kernels in the
 * same order, rd_compare_stats).
 */
#include "calibrate_cmd.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preset/preset.h"
#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"
#include "batch.h"
#include "progress.h"
#include "samefile.h"
#include "sweep.h"
#include "validate_cmd.h"

#define CAL_MAX_KEYS 64

/* A fitted key: its name and its values as one --vary string. */
typedef struct cal_key {
	char name[64];
	const rd_key *k;     /* NULL: a mem.NAME placement */
	const char *range;   /* the --range values, NULL: the default grid */
	char *vary;          /* "KEY=V1,V2,..." */
	unsigned long nvalues;
} cal_key;

/* One kernel of the inputs. */
typedef struct ckernel {
	const char *input;
	char *name;
	const measured_row *m; /* its measurement, or NULL */
	double *hit;           /* [npts] L1 hit rates (NAN: skipped or no requests);
				  NULL: not modelled (no L1 measurement) */
} ckernel;

typedef struct cctx {
	const cli *c;
	const measured_set *ms;
	measured_match *match;  /* the inputs' kernels, in order, with the launches */
	vsel sel;               /* the input's kernels --kernel leaves out */
	const sweep_plan *plan;
	unsigned long npts; /* the plan's points and the baseline (the last) */
	unsigned jobs;
	ckernel *ks;
	size_t n, cap;
	progress prog;
	int input; /* the input being modelled, for the progress */
} cctx;

/* The points of one kernel, shared by its workers. */
typedef struct cjob {
	const rd_kernel *k;
	const cctx *x;
	rd_model *m0; /* the caller's model, taken by the first worker */
	double *hit;
	unsigned long next, done, n;
	int status, model_threads;
	unsigned long fail;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} cjob;

static const rd_config *point_config(const cctx *x, unsigned long p)
{
	return p < x->plan->npoints ? &x->plan->configs[p] : &x->c->config;
}

static int point_skipped(const cctx *x, unsigned long p)
{
	return p < x->plan->npoints && x->plan->skip[p];
}

static void *cal_worker(void *arg)
{
	cjob *j = arg;
	pthread_mutex_lock(&j->mu);
	rd_model *m = j->m0;
	j->m0 = NULL;
	pthread_mutex_unlock(&j->mu);
	int own = !m;
	if (own)
		m = rd_model_new(j->k);
	if (m)
		rd_model_set_threads(m, j->model_threads);
	for (;;) {
		pthread_mutex_lock(&j->mu);
		if (j->status != RD_OK || j->next == j->n) {
			pthread_mutex_unlock(&j->mu);
			break;
		}
		unsigned long p = j->next++;
		pthread_mutex_unlock(&j->mu);
		double h = NAN;
		int st = RD_OK;
		if (!point_skipped(j->x, p)) {
			if (!m) {
				st = RD_ENOMEM;
			} else {
				/* as validate: the configured case, the hardware view */
				rd_result r;
				memset(&r, 0, sizeof r);
				rd_callbacks none = {0};
				st = rd_model_run(m, point_config(j->x, p), 1 << RD_CASE_FULL, &none, &r);
				if (st == RD_OK)
					h = rd_result_l1_hit_rate(&r);
				rd_result_free(&r);
			}
		}
		pthread_mutex_lock(&j->mu);
		j->hit[p] = h;
		if (st != RD_OK && j->status == RD_OK) {
			j->status = st;
			j->fail = p;
		}
		j->done++;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
	if (own)
		rd_model_free(m);
	return NULL;
}

/* Every point of kernel k into hit[], on up to x->jobs threads. */
static int run_points(cctx *x, const char *spec, const rd_kernel *k, rd_model *m, double *hit)
{
	unsigned workers = x->jobs < x->npts ? x->jobs : (unsigned)x->npts;
	unsigned per = workers ? x->jobs / workers : 1;
	cjob j = {.k = k, .x = x, .m0 = m, .hit = hit, .n = x->npts, .status = RD_OK,
		  .model_threads = per > 4 ? 4 : (int)per};
	pthread_t *th = calloc(workers ? workers : 1, sizeof *th);
	if (!th)
		return RD_ENOMEM;
	pthread_mutex_init(&j.mu, NULL);
	pthread_cond_init(&j.cv, NULL);
	unsigned started = 0;
	while (started < workers && pthread_create(&th[started], NULL, cal_worker, &j) == 0)
		started++;
	int st = RD_OK;
	if (!started) {
		msg_error("cannot start a worker thread");
		st = RD_ENOMEM;
	} else {
		pthread_mutex_lock(&j.mu);
		while (j.done < j.n && j.status == RD_OK) {
			pthread_cond_wait(&j.cv, &j.mu);
			progress_update(&x->prog, ((double)x->input + (double)j.done / (double)j.n) /
							  (double)x->c->ninputs);
		}
		pthread_mutex_unlock(&j.mu);
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	if (started && j.status != RD_OK) {
		st = j.status;
		progress_done(&x->prog);
		msg_error("%s: point %lu (%s)", spec, j.fail,
			  j.fail < x->plan->npoints ? x->plan->labels[j.fail] : "the baseline");
	}
	pthread_cond_destroy(&j.cv);
	pthread_mutex_destroy(&j.mu);
	free(th);
	return st;
}

/* Kernel k's record among x's kernels: RD_OK with *hit its points' hit
 * rates to fill in, or NULL where it is not modelled. */
static int kernel_slot(cctx *x, const char *spec, const rd_kernel *k, double **hit)
{
	*hit = NULL;
	if (x->n == x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 16;
		ckernel *nk = realloc(x->ks, nc * sizeof *nk);
		if (!nk)
			return RD_ENOMEM;
		x->ks = nk;
		x->cap = nc;
	}
	ckernel *w = &x->ks[x->n];
	memset(w, 0, sizeof *w);
	w->input = spec;
	if (!(w->name = strdup(k->name ? k->name : "")))
		return RD_ENOMEM;
	x->n++;
	if (vsel_match(&x->sel, x->match, w->name, &w->m) < 0)
		return RD_ENOMEM;
	if (!w->m || isnan(w->m->l1))
		return RD_OK; /* nothing to fit it to: not modelled */
	if (!(w->hit = malloc(x->npts * sizeof *w->hit)))
		return RD_ENOMEM;
	for (unsigned long p = 0; p < x->npts; p++)
		w->hit[p] = NAN;
	*hit = w->hit;
	return RD_OK;
}

static int one_kernel(void *ctx, const char *spec, const rd_kernel *k, rd_model *m)
{
	cctx *x = ctx;
	double *hit;
	int st = kernel_slot(x, spec, k, &hit);
	return st != RD_OK || !hit ? st : run_points(x, spec, k, m, hit);
}

/* Every point of a kernel in parts into hit[], one after another, each on
 * the -j threads (its parts depend on its cores and schedule). EXIT_OK,
 * or the exit status after saying why. */
static int run_points_parts(cctx *x, const char *spec, const batch_parts *bp, double *hit)
{
	for (unsigned long p = 0; p < x->npts; p++) {
		if (!point_skipped(x, p)) {
			rd_result r;
			char err[1024];
			int rc = batch_parts_result(bp, point_config(x, p), 1 << RD_CASE_FULL, &r, err,
						    sizeof err);
			if (rc != EXIT_OK) {
				progress_done(&x->prog);
				msg_error("%s", err);
				msg_error("%s: point %lu (%s)", spec, p,
					  p < x->plan->npoints ? x->plan->labels[p] : "the baseline");
				return rc;
			}
			hit[p] = rd_result_l1_hit_rate(&r);
			rd_result_free(&r);
		}
		progress_update(&x->prog, ((double)x->input + (double)(p + 1) / (double)x->npts) /
						  (double)x->c->ninputs);
	}
	return EXIT_OK;
}

/* A kernel whole (m) or in parts (bp), as batch_each_shape gives it. */
static int one_shape(void *ctx, const char *spec, const rd_kernel *k, rd_model *m,
		     const batch_parts *bp)
{
	cctx *x = ctx;
	int st;
	if (!bp) {
		st = one_kernel(ctx, spec, k, m);
	} else {
		double *hit;
		st = kernel_slot(x, spec, k, &hit);
		if (st == RD_OK && hit)
			return run_points_parts(x, spec, bp, hit);
	}
	if (st == RD_OK)
		return EXIT_OK;
	msg_error("%s: %s", spec, rd_strerror(st));
	return st == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

/* The kernels in parts where run would model each point so
 * (batch_parts_config), the baseline too. */
static int parts_wanted(const cctx *x)
{
	for (unsigned long p = 0; p < x->npts; p++)
		if (!point_skipped(x, p) && !batch_parts_config(x->c, point_config(x, p)))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ the grid */

/* Append "," (unless first) and s to the growing string *buf. */
static int append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s), add = *len ? n + 1 : n;
	char *b = realloc(*buf, *len + add + 1);
	if (!b)
		return -1;
	if (*len)
		b[(*len)++] = ',';
	memcpy(b + *len, s, n + 1);
	*len += n;
	*buf = b;
	return 0;
}

/* A whole number written as it reads ("300", not "3e+02"). */
static int is_whole(double v)
{
	return v >= 0 && v < 1.8e19 && v == floor(v);
}

/*
 * key's values from --range spec: a list (checked later, value by value,
 * by the sweep plan), or LO:HI:STEP for a number key. 0, or -1 with
 * err. The values go to key->vary without the "KEY=".
 */
static int range_values(cal_key *key, const char *spec, char **vals, size_t *len, char *err,
			size_t errlen)
{
	const char *c1 = strchr(spec, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	int numeric = key->k && (key->k->type == RD_KEY_UINT || key->k->type == RD_KEY_DOUBLE);
	if (!*spec) {
		snprintf(err, errlen, "--range %.63s=: no values", key->name);
		return -1;
	}
	if (!numeric || !c2 || strchr(c2 + 1, ':') || strchr(spec, ',')) {
		/* a list: its values counted here, checked by the plan */
		key->nvalues = 1;
		for (const char *p = spec; *p; p++)
			key->nvalues += *p == ',';
		return append(vals, len, spec) < 0 ? (snprintf(err, errlen, "out of memory"), -1) : 0;
	}
	double v[3];
	const char *part[3] = {spec, c1 + 1, c2 + 1};
	size_t plen[3] = {(size_t)(c1 - spec), (size_t)(c2 - c1 - 1), strlen(c2 + 1)};
	for (int i = 0; i < 3; i++) {
		char num[64], *end;
		if (plen[i] == 0 || plen[i] >= sizeof num)
			goto bad;
		memcpy(num, part[i], plen[i]);
		num[plen[i]] = '\0';
		v[i] = strtod(num, &end);
		if (*end || !isfinite(v[i]))
			goto bad;
	}
	if (!(v[2] > 0) || v[1] < v[0] || v[0] < 0)
		goto bad;
	if (key->k->type == RD_KEY_UINT && (!is_whole(v[0]) || !is_whole(v[2]))) {
		snprintf(err, errlen, "--range %.63s=%.200s: %.63s takes whole numbers (LO and STEP whole)",
			 key->name, spec, key->name);
		return -1;
	}
	double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
	if (count > (double)CALIBRATE_MAX_POINTS) {
		char num[32]; /* whole, or 1e+300 (not 301 digits) */
		snprintf(num, sizeof num, count < 1e15 ? "%.0f" : "%.3g", count);
		snprintf(err, errlen,
			 "--range %.63s=%.200s: %s values, more than a grid may have (%lu); use a "
			 "larger STEP",
			 key->name, spec, num, CALIBRATE_MAX_POINTS);
		return -1;
	}
	key->nvalues = (unsigned long)count;
	for (unsigned long i = 0; i < key->nvalues; i++) {
		char s[64];
		double x = v[0] + (double)i * v[2];
		if (key->k->type == RD_KEY_UINT)
			snprintf(s, sizeof s, "%.0f", x);
		else
			snprintf(s, sizeof s, "%.15g", x);
		if (append(vals, len, s) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--range %.63s=%.200s: expected V1,V2,... or LO:HI:STEP (numbers, 0 <= LO <= HI, "
		 "STEP > 0)",
		 key->name, spec);
	return -1;
}

/*
 * The default grid of key over base: both values of a 0|1 key, every
 * choice of an enumeration (one that takes ":N" only at base's value), a
 * power-of-two key's value x 1/4 .. 4 within its bounds. 0, or -1 with
 * err (no grid: --range needed).
 */
static int default_values(cal_key *key, const rd_config *base, char **vals, size_t *len,
			  char *err, size_t errlen)
{
	const rd_key *k = key->k;
	char cur[128] = "";
	if (k)
		rd_config_get(base, k->name, cur, sizeof cur);
	int rc = 0;
	key->nvalues = 0;
	if (k && k->type == RD_KEY_BOOL) {
		rc = append(vals, len, "0,1");
		key->nvalues = 2;
	} else if (k && k->type == RD_KEY_ENUM) {
		for (int i = 0; i < k->nnames && rc == 0; i++) {
			const char *v = k->names[i];
			if (k->arg_name && i == k->arg_choice) {
				size_t n = strlen(v);
				if (strncmp(cur, v, n) != 0 || cur[n] != ':')
					continue; /* "smod:N": only the base's N */
				v = cur;
			}
			rc = append(vals, len, v);
			key->nvalues++;
		}
	} else if (k && k->type == RD_KEY_UINT && (k->flags & RD_KEY_POW2) &&
		   strtoull(cur, NULL, 10) > 0) {
		unsigned long long b = strtoull(cur, NULL, 10);
		unsigned long long top = k->max ? k->max : k->size == 4 ? 0xffffffffull : ~0ull;
		static const int shift[5] = {-2, -1, 0, 1, 2};
		for (int i = 0; i < 5 && rc == 0; i++) {
			unsigned long long v = shift[i] < 0 ? b >> -shift[i] : b << shift[i];
			if ((shift[i] < 0 && v << -shift[i] != b) ||
			    (shift[i] > 0 && v >> shift[i] != b) || v < k->min || v < 1 || v > top)
				continue;
			char s[32];
			snprintf(s, sizeof s, "%llu", v);
			rc = append(vals, len, s);
			key->nvalues++;
		}
	} else {
		snprintf(err, errlen,
			 "--fit %.63s: no default grid for this key; give --range %.63s=V1,V2,... or "
			 "--range %.63s=LO:HI:STEP",
			 key->name, key->name, key->name);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* --fit's keys (comma-separated, repeatable) with their --range. Problems
 * are said; 0 or an exit status. */
static int parse_keys(const cli *c, cal_key *keys, int *nkeys)
{
	char err[1024];
	*nkeys = 0;
	for (int i = 0; i < c->nfit; i++) {
		for (const char *p = c->fit[i];;) {
			size_t n = strcspn(p, ",");
			if (n == 0 || n >= sizeof keys[0].name) {
				msg_error("--fit: empty or overlong key in '%s'", c->fit[i]);
				return EXIT_USAGE;
			}
			if (*nkeys == CAL_MAX_KEYS) {
				msg_error("--fit: more than %d keys", CAL_MAX_KEYS);
				return EXIT_USAGE;
			}
			cal_key *key = &keys[(*nkeys)++];
			memset(key, 0, sizeof *key);
			memcpy(key->name, p, n);
			key->name[n] = '\0';
			key->k = rd_key_find(key->name);
			if (!key->k && strncmp(key->name, "mem.", 4) != 0) {
				const char *hint = suggest_key(key->name);
				if (hint)
					msg_error("--fit %s: unknown key; did you mean '%s'?", key->name,
						  hint);
				else
					msg_error("--fit %s: unknown key (see 'rdscope keys')", key->name);
				return EXIT_USAGE;
			}
			for (int b = 0; b < *nkeys - 1; b++)
				if (!strcmp(keys[b].name, key->name)) {
					msg_error("--fit %s: given twice", key->name);
					return EXIT_USAGE;
				}
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	for (int r = 0; r < c->nranges; r++) {
		const char *eq = strchr(c->ranges[r], '=');
		size_t n = eq ? (size_t)(eq - c->ranges[r]) : 0;
		cal_key *key = NULL;
		for (int i = 0; i < *nkeys && n; i++)
			if (strlen(keys[i].name) == n && !strncmp(keys[i].name, c->ranges[r], n))
				key = &keys[i];
		if (!eq || !n) {
			msg_error("--range: expected KEY=V1,V2,... or KEY=LO:HI:STEP, got '%s'",
				  c->ranges[r]);
			return EXIT_USAGE;
		}
		if (!key) {
			msg_error("--range %.*s: not a key of --fit", (int)n, c->ranges[r]);
			return EXIT_USAGE;
		}
		if (key->range) {
			msg_error("--range %s: given twice", key->name);
			return EXIT_USAGE;
		}
		key->range = eq + 1;
	}
	unsigned long total = 1;
	for (int i = 0; i < *nkeys; i++) {
		cal_key *key = &keys[i];
		char *vals = NULL;
		size_t len = 0;
		int rc = key->range ? range_values(key, key->range, &vals, &len, err, sizeof err)
				    : !key->k ? (snprintf(err, sizeof err,
							  "--fit %.63s: a placement needs --range %.63s=SPACE,...",
							  key->name, key->name),
						 -1)
					      : default_values(key, &c->config, &vals, &len, err,
							       sizeof err);
		if (rc == 0) {
			size_t need = strlen(key->name) + 1 + len + 1;
			if ((key->vary = malloc(need)))
				snprintf(key->vary, need, "%s=%s", key->name, vals);
			else
				snprintf(err, sizeof err, "out of memory"), rc = -1;
		}
		free(vals);
		if (rc < 0) {
			msg_error("%s", err);
			return strcmp(err, "out of memory") ? EXIT_USAGE : EXIT_RUNTIME;
		}
		if (key->nvalues == 0) {
			msg_error("--fit %s: no value of its default grid fits its bounds; give --range",
				  key->name);
			return EXIT_USAGE;
		}
		total = total > CALIBRATE_MAX_POINTS ? total : total * key->nvalues;
	}
	if (total > CALIBRATE_MAX_POINTS) {
		char sizes[512] = "";
		size_t used = 0;
		for (int i = 0; i < *nkeys && used < sizeof sizes; i++) {
			int w = snprintf(sizes + used, sizeof sizes - used, "%s%s: %lu", i ? " x " : "",
					 keys[i].name, keys[i].nvalues);
			used += w > 0 ? (size_t)w : 0;
		}
		msg_error("calibrate: the grid has more than %lu points (%s); narrow a --range (a "
			  "larger STEP, fewer values) or fit fewer keys at once",
			  CALIBRATE_MAX_POINTS, sizes);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The sweep plan's problems, said as --range's (they name --vary). */
static void print_plan_errors(const char *errs)
{
	while (*errs) {
		const char *nl = strchr(errs, '\n');
		int n = nl ? (int)(nl - errs) : (int)strlen(errs);
		if (n >= 6 && !strncmp(errs, "--vary", 6))
			msg_error("--range%.*s", n - 6, errs + 6);
		else
			msg_error("%.*s", n, errs);
		errs += n + (nl != NULL);
	}
}

/* ------------------------------------------------------------ the fit */

/* Kernel i's absolute error at point p (NAN: none). */
static double kerr(const ckernel *w, unsigned long p)
{
	return w->hit ? fabs(w->hit[p] - w->m->l1) : NAN;
}

/* The MAE at p over the kernels with an error there, kernel `leave` left
 * out (leave >= n: none); *cnt how many. NAN when none. */
static double point_mae(const cctx *x, unsigned long p, size_t leave, size_t *cnt)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < x->n; i++) {
		double e = kerr(&x->ks[i], p);
		if (i == leave || isnan(e))
			continue;
		sum += e;
		n++;
	}
	*cnt = n;
	return n ? sum / (double)n : NAN;
}

/* The grid's best point, kernel leave left out: the most kernels with an
 * error, then the least MAE, then the first in grid order. -1: none. */
static long best_point(const cctx *x, size_t leave, double *mae)
{
	long best = -1;
	size_t bn = 0;
	double bm = NAN;
	for (unsigned long p = 0; p < x->plan->npoints; p++) {
		if (x->plan->skip[p])
			continue;
		size_t n;
		double m = point_mae(x, p, leave, &n);
		if (!n)
			continue;
		if (best < 0 || n > bn || (n == bn && m < bm)) {
			best = (long)p;
			bn = n;
			bm = m;
		}
	}
	*mae = bm;
	return best;
}

/* validate's statistics at point p. -1: out of memory. */
static int point_stats(const cctx *x, unsigned long p, rd_stats *st)
{
	double *y = malloc((x->n ? x->n : 1) * sizeof *y);
	double *yh = malloc((x->n ? x->n : 1) * sizeof *yh);
	size_t n = 0;
	int rc = -1;
	if (y && yh) {
		for (size_t i = 0; i < x->n; i++) {
			const ckernel *w = &x->ks[i];
			if (!w->hit || isnan(w->hit[p]))
				continue;
			y[n] = w->m->l1;
			yh[n++] = w->hit[p];
		}
		memset(st, 0, sizeof *st);
		rc = n ? rd_compare_stats(y, yh, n, st) : 0;
		st->n = n;
	}
	free(y);
	free(yh);
	return rc;
}

typedef struct cfit {
	long best;
	rd_stats sbest, sbase;
	long *loo;       /* [x->n] the point best without kernel i (-1: none) */
	double loo_mae;  /* NAN: fewer than two kernels */
	size_t loo_n;
} cfit;

static int fit(const cctx *x, cfit *f)
{
	memset(f, 0, sizeof *f);
	double m;
	f->best = best_point(x, (size_t)-1, &m);
	f->loo = malloc((x->n ? x->n : 1) * sizeof *f->loo);
	if (!f->loo || (f->best >= 0 && point_stats(x, (unsigned long)f->best, &f->sbest) < 0) ||
	    point_stats(x, x->npts - 1, &f->sbase) < 0)
		return -1;
	size_t matched = 0;
	for (size_t i = 0; i < x->n; i++)
		matched += x->ks[i].hit != NULL;
	double sum = 0;
	for (size_t i = 0; i < x->n; i++) {
		f->loo[i] = -1;
		if (!x->ks[i].hit || matched < 2)
			continue;
		f->loo[i] = best_point(x, i, &m);
		double e = f->loo[i] >= 0 ? kerr(&x->ks[i], (unsigned long)f->loo[i]) : NAN;
		if (!isnan(e)) {
			sum += e;
			f->loo_n++;
		}
	}
	f->loo_mae = f->loo_n ? sum / (double)f->loo_n : NAN;
	return 0;
}

/* ------------------------------------------------------------ output */

/* Axis a's value at point p (the last axis varies fastest). */
static const char *axis_value(const sweep_plan *plan, unsigned long p, int a)
{
	for (int b = plan->naxes - 1; b > a; b--)
		p /= (unsigned long)plan->axes[b].nvalues;
	return plan->axes[a].values[p % (unsigned long)plan->axes[a].nvalues];
}

/* The fitted keys' values at point p (p = npoints: the baseline's). */
static void point_label(const cctx *x, unsigned long p, char *buf, size_t len)
{
	if (p < x->plan->npoints) {
		snprintf(buf, len, "%s", x->plan->labels[p]);
		return;
	}
	size_t used = 0;
	buf[0] = '\0';
	for (int a = 0; a < x->plan->naxes && used < len; a++) {
		char v[128];
		if (rd_config_get(&x->c->config, x->plan->axes[a].key, v, sizeof v) < 0)
			snprintf(v, sizeof v, "-");
		int w = snprintf(buf + used, len - used, "%s%s=%s", a ? " " : "",
				 x->plan->axes[a].key, v);
		used += w > 0 ? (size_t)w : 0;
	}
}

static void json_values(FILE *f, const cctx *x, unsigned long p)
{
	putc('{', f);
	for (int a = 0; a < x->plan->naxes; a++) {
		char v[128];
		const char *s = v;
		if (p < x->plan->npoints)
			s = axis_value(x->plan, p, a);
		else if (rd_config_get(&x->c->config, x->plan->axes[a].key, v, sizeof v) < 0)
			v[0] = '\0';
		if (a)
			putc(',', f);
		output_json_quote(f, x->plan->axes[a].key);
		putc(':', f);
		output_json_quote(f, s);
	}
	putc('}', f);
}


/* The fit: output_doc_item's one record. */
typedef struct cal_rec {
	const cctx *x;
	const cfit *fit;
} cal_rec;

static int write_json(output_doc *d, const void *rec)
{
	FILE *f = d->f;
	const cctx *x = ((const cal_rec *)rec)->x;
	const cfit *fit = ((const cal_rec *)rec)->fit;
	const sweep_plan *plan = x->plan;
	unsigned long base = x->npts - 1;
	fputs("{\"format\":\"rdscope-calibrate\",\"version\":1,\"measured\":", f);
	output_json_quote(f, x->c->measured);
	fputs(",\"fit\":[", f);
	sweep_plan_json_axes(f, plan);
	fprintf(f, "],\"points\":%lu,\"skipped\":%lu,\n\"baseline\":{\"values\":", plan->npoints,
		plan->nskip);
	json_values(f, x, base);
	putc(',', f);
	output_json_stats(f, &fit->sbase);
	fputs("},\n\"best\":{\"point\":", f);
	if (fit->best >= 0) {
		fprintf(f, "%ld,\"values\":", fit->best);
		json_values(f, x, (unsigned long)fit->best);
	} else {
		fputs("null,\"values\":null", f);
	}
	putc(',', f);
	output_json_stats(f, &fit->sbest);
	fprintf(f, "},\n\"loo\":{\"n\":%zu,\"mae\":", fit->loo_n);
	output_json_double(f, fit->loo_mae);
	fputs("},\n\"kernels\":[", f);
	for (size_t i = 0; i < x->n; i++) {
		const ckernel *w = &x->ks[i];
		fputs(i ? ",\n{\"input\":" : "\n{\"input\":", f);
		output_json_quote(f, w->input);
		fputs(",\"kernel\":", f);
		output_json_quote(f, w->name);
		fputs(",\"measured\":", f);
		output_json_double(f, w->m ? w->m->l1 : NAN);
		fputs(",\"baseline\":", f);
		output_json_double(f, w->hit ? w->hit[base] : NAN);
		double b = w->hit && fit->best >= 0 ? w->hit[fit->best] : NAN;
		fputs(",\"best\":", f);
		output_json_double(f, b);
		fputs(",\"error\":", f);
		output_json_double(f, w->hit ? fabs(b - w->m->l1) : NAN);
		long lp = fit->loo[i];
		if (lp >= 0)
			fprintf(f, ",\"loo_point\":%ld,\"loo_model\":", lp);
		else
			fputs(",\"loo_point\":null,\"loo_model\":", f);
		output_json_double(f, lp >= 0 ? w->hit[lp] : NAN);
		fputs(",\"loo_error\":", f);
		output_json_double(f, lp >= 0 ? kerr(w, (unsigned long)lp) : NAN);
		putc('}', f);
	}
	fputs("\n],\n\"grid\":[", f);
	for (unsigned long p = 0; p < plan->npoints; p++) {
		rd_stats st;
		if (point_stats(x, p, &st) < 0)
			return -1;
		fprintf(f, "%s{\"point\":%lu,\"values\":", p ? ",\n" : "\n", p);
		json_values(f, x, p);
		putc(',', f);
		output_json_stats(f, &st);
		fputs(",\"skipped\":", f);
		if (plan->skip[p])
			output_json_quote(f, plan->skip[p]);
		else
			fputs("null", f);
		putc('}', f);
	}
	fputs("\n]}\n", f);
	return 0;
}

static void csv_num(FILE *f, double v)
{
	isnan(v) ? fputs(",", f) : fprintf(f, ",%.17g", v);
}

/* A row per point of the grid: the error surface. */
static int write_csv(output_doc *d, const void *rec)
{
	FILE *f = d->f;
	const cctx *x = ((const cal_rec *)rec)->x;
	const cfit *fit = ((const cal_rec *)rec)->fit;
	const sweep_plan *plan = x->plan;
	fputs("point", f);
	for (int a = 0; a < plan->naxes; a++) {
		putc(',', f);
		output_csv_field(f, plan->axes[a].key);
	}
	fputs(",kernels,mae_l1,r2_l1,spearman_l1,best,skipped\n", f);
	for (unsigned long p = 0; p < plan->npoints; p++) {
		rd_stats st;
		if (point_stats(x, p, &st) < 0)
			return -1;
		fprintf(f, "%lu", p);
		for (int a = 0; a < plan->naxes; a++) {
			putc(',', f);
			output_csv_field(f, axis_value(plan, p, a));
		}
		fprintf(f, ",%zu", st.n);
		csv_num(f, st.n ? st.mae : NAN);
		csv_num(f, st.n ? st.r2 : NAN);
		csv_num(f, st.n ? st.spearman : NAN);
		fprintf(f, ",%d,", fit->best == (long)p);
		if (plan->skip[p])
			output_csv_field(f, plan->skip[p]);
		putc('\n', f);
	}
	return 0;
}

static void err_cell(FILE *f, double x)
{
	if (isnan(x))
		fprintf(f, " %7s", "-");
	else
		fprintf(f, " %7.2f", 100 * x);
}

static void stats_line(FILE *f, const char *what, const rd_stats *st)
{
	fprintf(f, "%-24s", what);
	if (!st->n) {
		fputs("no kernel with both a measurement and a modelled rate\n", f);
		return;
	}
	fprintf(f, "MAE %6.2f points over %zu kernel%s", 100 * st->mae, st->n,
		st->n == 1 ? "" : "s");
	output_text_stats_tail(f, st);
}

static int write_text(output_doc *d, const void *rec)
{
	FILE *f = d->f;
	const cctx *x = ((const cal_rec *)rec)->x;
	const cfit *fit = ((const cal_rec *)rec)->fit;
	const sweep_plan *plan = x->plan;
	unsigned long base = x->npts - 1;
	char label[1024];
	fputs("measured: ", f);
	fputs_safe(x->c->measured, f);
	fputs("\nfitted: ", f);
	for (int a = 0; a < plan->naxes; a++)
		fprintf(f, "%s%s (%d value%s)", a ? " x " : "", plan->axes[a].key,
			plan->axes[a].nvalues, plan->axes[a].nvalues == 1 ? "" : "s");
	fprintf(f, ": %lu point%s", plan->npoints, plan->npoints == 1 ? "" : "s");
	if (plan->nskip)
		fprintf(f, " (%lu skipped: invalid configurations)", plan->nskip);
	fputs("\nL1 hit rates, the hardware view (latency misses are not misses, as the paper "
	      "counts them)\n\n",
	      f);
	point_label(x, base, label, sizeof label);
	fputs("baseline: ", f);
	fputs_safe(label, f);
	fputs(" (as given)\n", f);
	if (fit->best >= 0) {
		fputs("best:     ", f);
		fputs_safe(plan->labels[fit->best], f);
		fprintf(f, " (point %ld)\n", fit->best);
	} else {
		fputs("best:     none (no point has a kernel with a modelled rate)\n", f);
	}
	putc('\n', f);
	stats_line(f, "baseline", &fit->sbase);
	stats_line(f, "best point, fitted", &fit->sbest);
	fprintf(f, "%-24s", "leave-one-out");
	if (isnan(fit->loo_mae))
		fputs("needs two kernels with a measurement\n", f);
	else
		fprintf(f, "MAE %6.2f points over %zu kernels (each kernel at the point best on "
			"the others)\n",
			100 * fit->loo_mae, fit->loo_n);
	fprintf(f, "\n%-30s %9s %9s %9s %7s %9s %7s  %s\n", "kernel", "measured", "baseline",
		"best", "error", "LOO", "error", "LOO point");
	for (size_t i = 0; i < x->n; i++) {
		const ckernel *w = &x->ks[i];
		char name[40];
		snprintf(name, sizeof name, "%.30s", w->name);
		fputs_safe(name, f);
		for (size_t q = strlen(name); q < 30; q++)
			putc(' ', f);
		if (!w->hit) {
			fputs("  (no measurement)\n", f);
			continue;
		}
		double b = fit->best >= 0 ? w->hit[fit->best] : NAN;
		long lp = fit->loo[i];
		output_text_rate_cell(f, w->m->l1);
		output_text_rate_cell(f, w->hit[base]);
		output_text_rate_cell(f, b);
		err_cell(f, fabs(b - w->m->l1));
		output_text_rate_cell(f, lp >= 0 ? w->hit[lp] : NAN);
		err_cell(f, lp >= 0 ? kerr(w, (unsigned long)lp) : NAN);
		fputs("  ", f);
		fputs_safe(lp >= 0 ? plan->labels[lp] : "-", f);
		putc('\n', f);
	}
	putc('\n', f);
	return 0;
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.item = write_csv};
static const output_doc_ops json_ops = {.item = write_json};
static const output_doc_formats calibrate_formats = {&text_ops, &csv_ops, &json_ops};

int calibrate_check(const cli *c)
{
	if (!c->measured)
		return cli_command_error(c, "%s: --measured FILE expected");
	if (c->nfit == 0)
		return cli_command_error(c, "%s: --fit KEY[,KEY...] expected (the keys to fit)");
	if (c->ninputs == 0)
		return cli_command_error(c, "%s: no INPUT given");
	if (c->output && !strcmp(c->output, "-"))
		return cli_usage_error("%s -: the report is on standard output; -o takes the "
				       "fitted preset's FILE", "-o", NULL);
	return 0;
}

int calibrate_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	static cal_key keys[CAL_MAX_KEYS];
	static char err[16384];
	int nkeys = 0;
	int rc = parse_keys(c, keys, &nkeys);
	const char *vary[CAL_MAX_KEYS];
	for (int i = 0; i < nkeys; i++)
		vary[i] = keys[i].vary;
	sweep_plan plan;
	memset(&plan, 0, sizeof plan);
	if (rc == EXIT_OK && sweep_plan_build(&plan, &c->config, vary, nkeys, err, sizeof err) < 0) {
		print_plan_errors(err);
		rc = EXIT_USAGE;
	}
	for (int i = 0; i < nkeys; i++)
		free(keys[i].vary);
	if (rc != EXIT_OK)
		return rc;
	/* invalid points are skipped (sweep's rule), the first few said */
	unsigned long said = 0;
	for (unsigned long p = 0; p < plan.npoints; p++)
		if (plan.skip[p] && ++said <= 8)
			msg_error("warning: point %lu (%s) skipped: %s", p, plan.labels[p], plan.skip[p]);
	if (said > 8)
		msg_error("warning: %lu more points skipped", said - 8);
	measured_set ms;
	int r = measured_read(c->measured, &ms, err, sizeof err);
	if (r < 0) {
		msg_error("%s", r == -2 ? "out of memory" : err);
		sweep_plan_free(&plan);
		return r == -2 ? EXIT_RUNTIME : EXIT_USAGE;
	}
	measured_match match;
	cctx x = {.c = c, .ms = &ms, .match = &match, .plan = &plan, .npts = plan.npoints + 1,
		  .jobs = c->jobs ? c->jobs : util_online_cpus()};
	input_opts opts = cli_input_opts(c);
	rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	if (measured_match_init(&match, &ms) < 0) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
	}
	/* a preset that cannot be written fails before the grid, not after */
	if (rc == EXIT_OK && c->output) {
		outfile probe = {0};
		if (outfile_open(&probe, c->output, err, sizeof err) < 0) {
			msg_error("%s", err);
			rc = EXIT_RUNTIME;
		}
		outfile_abort(&probe);
	}
	progress_init(&x.prog, !c->quiet, "calibrate");
	for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++) {
		x.input = i;
		rc = vsel_begin(&x.sel, c, c->inputs[i]);
		if (rc == EXIT_OK)
			rc = batch_each_shape(c, c->inputs[i], parts_wanted(&x), one_shape, &x);
		vsel_end(&x.sel);
	}
	progress_done(&x.prog);
	/* a measurement fitted twice (an input given twice) would weigh twice,
	 * and leak into its own leave-one-out */
	for (size_t i = 0; i < x.n && rc == EXIT_OK; i++)
		for (size_t j = i + 1; j < x.n && rc == EXIT_OK; j++)
			if (x.ks[i].m && x.ks[i].m == x.ks[j].m) {
				msg_error("kernel '%s' of %s and of %s match the same measurement "
					  "(%s:%u): give each kernel once", x.ks[j].name, x.ks[i].input,
					  x.ks[j].input, c->measured, x.ks[i].m->line);
				rc = EXIT_USAGE;
			}
	size_t matched = 0;
	for (size_t i = 0; i < x.n; i++)
		matched += x.ks[i].hit != NULL;
	if (rc == EXIT_OK) {
		/* values clamped, the L1 metric used, launches and kernels
		 * unmatched: said, not fatal */
		measured_match_notes(&match, c->measured, "calibrate");
		if (!matched) {
			msg_error("calibrate: no kernel of the inputs has an L1 measurement in %s "
				  "(kernels are matched by name)",
				  c->measured);
			rc = EXIT_USAGE;
		}
	}
	cfit f;
	memset(&f, 0, sizeof f);
	if (rc == EXIT_OK && fit(&x, &f) < 0) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
	}
	if (rc == EXIT_OK && f.best < 0) {
		msg_error("calibrate: no point of the grid gives a modelled L1 hit rate");
		rc = EXIT_RUNTIME;
	}
	/* the fitted preset first: the report says what was written */
	if (rc == EXIT_OK && c->output) {
		char desc[1024], loo[96];
		/* one kernel has no leave-one-out (the description said "nan") */
		if (isnan(f.loo_mae))
			snprintf(loo, sizeof loo, "no leave-one-out: it needs two kernels with a "
						  "measurement");
		else
			snprintf(loo, sizeof loo, "leave-one-out %.2f over %zu kernels", 100 * f.loo_mae,
				 f.loo_n);
		snprintf(desc, sizeof desc,
			 "rdscope calibrate: %.600s fitted to %.200s (L1 MAE %.2f points over %zu "
			 "kernel%s; %s)",
			 plan.labels[f.best], c->measured, 100 * f.sbest.mae, f.sbest.n,
			 f.sbest.n == 1 ? "" : "s", loo);
		str_make_safe(desc);
		if (preset_save(c->output, &plan.configs[f.best], "calibrated", desc, err,
				sizeof err) < 0) {
			msg_error("%s", err);
			rc = EXIT_RUNTIME;
		}
	}
	if (rc == EXIT_OK) {
		output_doc d;
		output_doc_begin(&d, stdout, c->format, &calibrate_formats, NULL);
		int wr = output_doc_item(&d, &(cal_rec){&x, &f});
		output_doc_end(&d, NULL);
		if (wr < 0) {
			msg_error("out of memory");
			rc = EXIT_RUNTIME;
		}
	}
	free(f.loo);
	for (size_t i = 0; i < x.n; i++) {
		free(x.ks[i].name);
		free(x.ks[i].hit);
	}
	free(x.ks);
	measured_match_free(&match);
	measured_free(&ms);
	sweep_plan_free(&plan);
	return rc;
}
