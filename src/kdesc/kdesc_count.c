/*
 * Kernel descriptions, counted (see kdesc.h, kdesc_count): every launch
 * run as one serial program into a miss counter (model/count.c) instead of
 * a kernel: no trace in memory, no load limit. kdesc_run.c runs the
 * launches (its kd_count_loop runs affine loops by lines); this file is
 * the family's public face for counting.
 */
#include "kdesc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- public */

int kdesc_nrefs(const trace_reader *r)
{
	return ((const kdesc *)r)->nrefs;
}

const char *kdesc_param(const trace_reader *rr, int i, int64_t *value)
{
	const kdesc *d = (const kdesc *)rr;
	for (int k = 0, n = 0; k < d->nsyms; k++) {
		if (d->syms[k].kind != SYM_PARAM)
			continue;
		if (n++ == i) {
			*value = d->init[d->syms[k].slot];
			return d->syms[k].name;
		}
	}
	return NULL;
}

void kdesc_ref(const trace_reader *rr, int i, kdesc_ref_info *out)
{
	const kdesc *d = (const kdesc *)rr;
	memset(out, 0, sizeof *out);
	const kd_ref *R = &d->refs[i];
	snprintf(out->text, sizeof out->text, "%.*s", (int)R->text_len, R->text);
	out->array = d->arrays[R->array].name;
	/* its statement: the one whose references hold it */
	for (int k = 0; k < d->nstmts; k++) {
		const kd_stmt *st = &d->stmts[k];
		if ((st->kind == ST_LOAD || st->kind == ST_STORE) && i >= st->l1 && i < st->l1 + st->n1) {
			out->line = st->line;
			out->store = st->kind == ST_STORE;
			break;
		}
	}
}

int kdesc_count(trace_reader *rr, rd_count *c, uint32_t line, int skip_stores,
		int (*progress)(void *ctx, double f), void *ctx, uint64_t *fast,
		kdesc_flat_info *flat)
{
	kdesc *d = (kdesc *)rr;
	memset(fast, 0, (size_t)(d->nrefs ? d->nrefs : 1) * sizeof *fast);
	if (flat) {
		flat->used = 0;
		snprintf(flat->why, sizeof flat->why, "%s",
			 flat->off ? "--stream" : "the program is not one thread of one launch");
		if (flat->acc)
			memset(flat->acc, 0, (size_t)(d->nrefs ? d->nrefs : 1) * sizeof *flat->acc);
	}
	run r = {.d = d, .count = c, .line = line, .skip_stores = skip_stores, .fast = fast,
		 .progress = progress, .pctx = ctx, .max_steps = UINT64_MAX,
		 .flat = d->nlaunches == 1 && flat && !flat->off ? flat : NULL,
		 .flat_body = kd_flat_body};
	for (size_t i = 0; i < d->nlaunches; i++) {
		r.base = (double)i / (double)d->nlaunches;
		r.span = 1.0 / (double)d->nlaunches;
		if (progress && progress(ctx, r.base))
			return kd_fail(d, 0, "stopped");
		if (kd_run_launch(&r, &d->launches[i]) < 0)
			return -1;
	}
	return 0;
}
