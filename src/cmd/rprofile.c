/*
 * Reuse profiles measured by the model (see rprofile.h).
 */
#include "rprofile.h"

#include <stdlib.h>
#include <string.h>

typedef struct pctx {
	unsigned long interval;
	progress *prog;
	rp_counts *v;            /* the whole stream's per core, then the intervals' */
	size_t n, cap;
	int failed;
	/* the current core's whole-stream profile and interval */
	long long cur_core;
	size_t whole, inter;
} pctx;

static int on_progress(void *ctx, double f)
{
	pctx *x = ctx;
	if (x->prog)
		progress_update(x->prog, f);
	return x->failed;
}

static rp_counts *prof_new(pctx *x, uint32_t core, long long interval)
{
	if (x->n == x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 16;
		rp_counts *v = realloc(x->v, nc * sizeof *v);
		if (!v)
			return NULL;
		x->v = v;
		x->cap = nc;
	}
	rp_counts *p = &x->v[x->n++];
	memset(p, 0, sizeof *p);
	p->core = core;
	p->interval = interval;
	return p;
}

static int prof_add(rp_counts *p, int64_t d)
{
	p->requests++;
	if (d < 0) {
		p->cold++;
		return 0;
	}
	return rd_hist_add(&p->hist, &p->len, &p->cap, (uint64_t)d);
}

/* Each load request of the latency-free run, in each core's issue order
 * (cores one after the other). */
static void on_event(void *ctx, const rd_event *ev)
{
	pctx *x = ctx;
	if (x->failed || ev->store || ev->level != 1 ||
	    (ev->outcome != RD_OUT_HIT && ev->outcome != RD_OUT_MISS))
		return;
	if ((long long)ev->core != x->cur_core) {
		rp_counts *w = prof_new(x, ev->core, -1);
		if (!w) {
			x->failed = 1;
			return;
		}
		x->cur_core = ev->core;
		x->whole = x->n - 1;
		x->inter = (size_t)-1;
	}
	rp_counts *w = &x->v[x->whole];
	if (x->interval && w->requests % x->interval == 0) {
		rp_counts *p = prof_new(x, ev->core, (long long)(w->requests / x->interval));
		if (!p) {
			x->failed = 1;
			return;
		}
		x->inter = x->n - 1;
		w = &x->v[x->whole]; /* (the array moved) */
	}
	if (prof_add(w, ev->distance) < 0 ||
	    (x->interval && prof_add(&x->v[x->inter], ev->distance) < 0))
		x->failed = 1;
}

int rprofile_measure(rd_model *m, const rd_config *cfg, unsigned long interval, progress *prog,
		     rp_counts **out, size_t *n)
{
	pctx x = {.interval = interval, .prog = prog, .cur_core = -1};
	rd_callbacks cb = {.progress = on_progress, .event = on_event, .ctx = &x};
	rd_result r;
	int rc = rd_model_run(m, cfg, 1 << RD_CASE_FULL, &cb, &r);
	if (rc == RD_OK)
		rd_result_free(&r);
	if (rc == RD_OK && x.failed)
		rc = RD_ENOMEM;
	if (rc != RD_OK) {
		rp_counts_free(x.v, x.n);
		return rc;
	}
	*out = x.v;
	*n = x.n;
	return RD_OK;
}

void rp_counts_free(rp_counts *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].hist);
	free(v);
}
