/*
 * rdscope placements (see placements_cmd.h). One model per kernel: a
 * placement changes only the spaces and what follows them, so the stages
 * before are kept between placements. Outputs are committed only when
 * everything succeeded.
 */
#include "placements_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"
#include "batch.h"
#include "samefile.h"

/* One modelled placement: what the outputs print of it. */
typedef struct row {
	uint8_t space[RD_MEM_MAX]; /* of each placed array */
	int sample;                /* the configuration's own placement */
	rd_space_stats sp[RD_NSPACES];
	int has_l2;
	uint64_t l2_requests, l2_misses;
	double l2_miss_rate;
	rd_dram dram;
	int64_t issued_delta; /* Eq. 3 against all-global (the model's) */
	uint64_t warps;
	double tx_per_sm;   /* 32-byte transactions per SM */
	double miss_ratio;  /* Eq. 5's (row_from) */
	double dram_latency; /* Eq. 7's, or with saturated banks ours (row_from) */
	double amat;        /* Eq. 5 with those two */
	double tmem;        /* tx_per_sm * amat */
	double inst_delta;  /* issued instructions per warp, against the sample */
	/* --sample: Eqs. 2, 4, 12 and 1 */
	double p_tcomp, p_tmem, p_toverlap, p_t;
} row;

typedef struct refusal {
	uint32_t array; /* index into the placed names */
	int space;
	char why[256];
} refusal;

typedef struct plan {
	const char *spec;
	const rd_kernel *k;
	uint32_t n;                       /* placed arrays */
	const char *name[RD_MEM_MAX];     /* their names (the kernel's arrays') */
	uint64_t loads[RD_MEM_MAX], stores[RD_MEM_MAX];
	uint8_t base[RD_MEM_MAX];         /* the sample's space of each */
	uint8_t allowed[RD_MEM_MAX][RD_NSPACES];
	uint32_t nallowed[RD_MEM_MAX];
	refusal *refused;
	size_t nrefused;
	row *rows;
	size_t nrows;
	const row *sample;
	int dram_on;                      /* DRAM turned on here for the AMAT */
	rd_config cfg;                    /* the sample's configuration */
} plan;

static const char *const by_names[] = {"mem", "inst"};

/* ---------------------------------------------------------------- model */

/* The transactions one request of space sp takes, in 32-byte units [ours]:
 * a global or texture request a line; a constant or shared request one. */
static double tx_per_request(const rd_config *c, int sp)
{
	uint32_t line = sp == RD_SPACE_GLOBAL ? c->l1_line
			: sp == RD_SPACE_TEXTURE || sp == RD_SPACE_TEXTURE2D ? c->tex_line
									     : 32;
	return line <= 32 ? 1.0 : (double)((line + 31) / 32);
}

static void row_from(row *w, const rd_config *c, const rd_result *r)
{
	memcpy(w->sp, r->spaces, sizeof w->sp);
	if (!r->has_spaces) { /* every array global: the L1's requests */
		memset(w->sp, 0, sizeof w->sp);
		w->sp[RD_SPACE_GLOBAL].requests = r->requests;
		w->sp[RD_SPACE_GLOBAL].hits = r->hits;
		w->sp[RD_SPACE_GLOBAL].misses = r->misses;
	}
	w->has_l2 = r->has_l2;
	if (r->has_l2) {
		w->l2_requests = r->l2.requests;
		w->l2_misses = r->l2.misses;
		w->l2_miss_rate = r->l2.miss_rate;
	}
	w->dram = r->dram;
	w->issued_delta = r->issued_delta;
	w->warps = r->warps;
	double tx = 0;
	for (int s = 0; s < RD_NSPACES; s++)
		tx += (double)w->sp[s].requests * tx_per_request(c, s);
	w->tx_per_sm = tx / (double)(c->cores ? c->cores : 1);
	const rd_dram *d = &r->dram;
	/* Eq. 5's miss_ratio: the reads reaching DRAM per request of every
	 * space [ours: the paper's "L2 misses for global, constant and
	 * texture data" leaves the denominator open; over every request,
	 * Tmem = requests x AMAT counts each DRAM read once, and a texture or
	 * constant cache that filters requests is not charged for it] */
	uint64_t all = 0;
	for (int s = 0; s < RD_NSPACES; s++)
		all += w->sp[s].requests;
	w->miss_ratio = all ? (double)d->reads / (double)all : 0;
	double lat = d->latency;
	if (d->saturated) /* no finite queueing delay: the service alone [ours] */
		lat = d->service_time;
	w->dram_latency = d->requests ? lat : 0;
	/* Eq. 5 with its hit latency charged to the cache requests only [ours:
	 * as printed it charges shared-memory requests both latencies, so an
	 * all-shared placement would rank below ones that reach DRAM] */
	w->amat = rd_amat(w->dram_latency, w->miss_ratio,
			  c->dram_cache_hit * (1.0 - d->shmem_ratio), c->smem_latency, d->shmem_ratio);
	w->tmem = w->tx_per_sm * w->amat;
}

/* Set array i's space in cfg (explicitly, global too: every placement's
 * run then counts by space alike). */
static int place(rd_config *cfg, const char *name, int space, char *err, size_t errlen)
{
	char key[RD_MEM_NAME_MAX + 8];
	snprintf(key, sizeof key, "mem.%s", name);
	return rd_config_set(cfg, key, rd_space_name((enum rd_space)space), err, errlen);
}

/* The arrays to place and their allowed spaces; the refusals. EXIT_*. */
static int plan_arrays(const cli *c, plan *p)
{
	const rd_arrays *as = p->k->arrays;
	rd_array_counts n = {0};
	if (rd_arrays_count(as, p->k, &n) < 0) {
		msg_error("%s: out of memory", p->spec);
		return EXIT_RUNTIME;
	}
	int rc = EXIT_OK;
	if (c->only) {
		const char *s = c->only;
		while (*s && rc == EXIT_OK) {
			size_t len = strcspn(s, ",");
			char name[RD_MEM_NAME_MAX];
			snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : 0), s);
			int64_t i = len && len < sizeof name ? rd_arrays_named(as, name) : -1;
			if (i < 0) {
				msg_error("%s: --only: the kernel has no array '%.*s' (rdscope arrays "
					  "lists them)",
					  p->spec, (int)len, s);
				rc = EXIT_USAGE;
			} else if (p->n >= RD_MEM_MAX) {
				msg_error("--only: at most %d arrays", RD_MEM_MAX);
				rc = EXIT_USAGE;
			} else {
				for (uint32_t j = 0; j < p->n; j++)
					if (!strcmp(p->name[j], name)) {
						msg_error("--only: '%s' named twice", name);
						rc = EXIT_USAGE;
					}
				p->loads[p->n] = n.loads[i];
				p->stores[p->n] = n.stores[i];
				p->name[p->n++] = as->a[i].name;
			}
			s += len;
			if (*s == ',')
				s++;
		}
	} else {
		for (uint32_t i = 0; i < as->n && rc == EXIT_OK; i++) {
			if (!n.loads[i])
				continue; /* stores keep the global path: nothing to move */
			if (p->n >= RD_MEM_MAX) {
				msg_error("%s: more than %d arrays with accesses: name the ones to "
					  "place with --only",
					  p->spec, RD_MEM_MAX);
				rc = EXIT_USAGE;
				break;
			}
			p->loads[p->n] = n.loads[i];
			p->stores[p->n] = n.stores[i];
			p->name[p->n++] = as->a[i].name;
		}
	}
	rd_array_counts_free(&n);
	if (rc != EXIT_OK)
		return rc;
	if (p->n == 0) {
		msg_error("%s: no array with a load to place (stores keep the global path)",
			  p->spec);
		return EXIT_USAGE;
	}
	/* Each array's spaces, tried one at a time on the sample. */
	p->refused = calloc((size_t)p->n * RD_NSPACES, sizeof *p->refused);
	if (!p->refused) {
		msg_error("%s: out of memory", p->spec);
		return EXIT_RUNTIME;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		p->base[i] = (uint8_t)rd_config_space(&p->cfg, p->name[i]);
		for (int s = 0; s < RD_NSPACES; s++) {
			rd_config t = p->cfg;
			char err[256];
			if (place(&t, p->name[i], s, err, sizeof err) == 0 &&
			    rd_spaces_check(&t, p->k, err, sizeof err) == 0) {
				p->allowed[i][p->nallowed[i]++] = (uint8_t)s;
				continue;
			}
			refusal *f = &p->refused[p->nrefused++];
			f->array = i;
			f->space = s;
			/* "mem.NAME: why" -> "why" */
			const char *why = strstr(err, ": ");
			snprintf(f->why, sizeof f->why, "%s", why ? why + 2 : err);
		}
	}
	return EXIT_OK;
}

/* Every allowed placement, modelled. EXIT_*. */
static int plan_run(const cli *c, plan *p, rd_model *m)
{
	double total = 1;
	for (uint32_t i = 0; i < p->n; i++)
		total *= p->nallowed[i];
	if (total > PLACEMENTS_MAX) {
		char tot[32]; /* whole, or 1.2e+40 (not 41 digits) */
		if (isinf(total))
			snprintf(tot, sizeof tot, "over 1e+308");
		else
			snprintf(tot, sizeof tot, total < 1e15 ? "%.0f" : "%.3g", total);
		msg_error("%s: %s placements of %u arrays: more than %d; name the arrays to "
			  "place with --only A,B",
			  p->spec, tot, p->n, PLACEMENTS_MAX);
		return EXIT_USAGE;
	}
	p->nrows = (size_t)total;
	p->rows = calloc(p->nrows, sizeof *p->rows);
	if (!p->rows) {
		msg_error("%s: out of memory", p->spec);
		return EXIT_RUNTIME;
	}
	int tty = !c->quiet && isatty(STDERR_FILENO);
	for (size_t r = 0; r < p->nrows; r++) {
		row *w = &p->rows[r];
		rd_config cfg = p->cfg;
		size_t rest = r;
		w->sample = 1;
		for (uint32_t i = p->n; i-- > 0;) { /* the last array varies fastest */
			w->space[i] = p->allowed[i][rest % p->nallowed[i]];
			rest /= p->nallowed[i];
			w->sample &= w->space[i] == p->base[i];
			char err[256];
			if (place(&cfg, p->name[i], w->space[i], err, sizeof err) < 0) {
				msg_error("%s: %s", p->spec, err);
				return EXIT_USAGE;
			}
		}
		if (tty)
			fprintf(stderr, "\rplacements: %zu/%zu", r + 1, p->nrows);
		rd_result res;
		memset(&res, 0, sizeof res);
		rd_callbacks none = {0};
		int rc = rd_model_run(m, &cfg, 1 << RD_CASE_FULL, &none, &res);
		if (rc != RD_OK) {
			if (tty)
				fputc('\n', stderr);
			msg_error("%s: %s", p->spec, rd_strerror(rc));
			rd_result_free(&res);
			return rc == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
		row_from(w, &cfg, &res);
		rd_result_free(&res);
		if (w->sample)
			p->sample = w;
	}
	if (tty)
		fputs("\r\033[K", stderr);
	return EXIT_OK;
}

/* Against the sample: instructions per warp; with --sample the times. */
static void plan_compare(plan *p, const sample_times *st)
{
	const row *s = p->sample;
	for (size_t r = 0; r < p->nrows; r++) {
		row *w = &p->rows[r];
		w->inst_delta = w->warps ? (double)(w->issued_delta - s->issued_delta) /
						   (double)w->warps
					 : 0;
		if (!st)
			continue;
		/* Eq. 2 with the sample's EffInstThroughput and Wserial */
		double eff = (st->tcomp - st->wserial) / (st->inst_per_warp * st->warps_per_sm);
		double inst = st->inst_per_warp + w->inst_delta;
		/* fewer than none: the sample's count and the model's disagree */
		w->p_tcomp = inst < 0 ? NAN : inst * st->warps_per_sm * eff + st->wserial;
		/* Eq. 4 scaled by the model's Tmem against the sample's */
			w->p_tmem = s->tmem > 0 ? st->tmem * w->tmem / s->tmem : st->tmem;
		/* Eq. 12 with the sample's Toverlap ratio (Eq. 11's
		 * coefficients are not published) */
		w->p_toverlap = st->toverlap / st->tmem * w->p_tmem;
		w->p_t = w->p_tcomp + w->p_tmem - w->p_toverlap; /* Eq. 1 */
	}
}

static int by_rank;

static int cmp_key(double a, double b)
{
	if (isnan(a) || isnan(b)) /* saturated last */
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static int cmp_rows(const void *pa, const void *pb)
{
	const row *a = pa, *b = pb;
	int k = by_rank ? cmp_key(a->inst_delta, b->inst_delta) : cmp_key(a->tmem, b->tmem);
	if (!k)
		k = by_rank ? cmp_key(a->tmem, b->tmem) : cmp_key(a->inst_delta, b->inst_delta);
	if (!k)
		k = memcmp(a->space, b->space, sizeof a->space); /* stable across libcs */
	return k;
}

static void plan_rank(plan *p, int inst)
{
	by_rank = inst;
	qsort(p->rows, p->nrows, sizeof *p->rows, cmp_rows);
	for (size_t r = 0; r < p->nrows; r++)
		if (p->rows[r].sample)
			p->sample = &p->rows[r];
}

/* ---------------------------------------------------------------- writers */

static void placement_text(const plan *p, const row *w, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < p->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", i ? " " : "", p->name[i],
				      rd_space_name((enum rd_space)w->space[i]));
}

/* A row's rank (* for the sample) and placement, padded to pad columns. */
static void row_label(FILE *f, const plan *p, const row *w, size_t rank, size_t pad)
{
	char pl[1024];
	placement_text(p, w, pl, sizeof pl);
	fprintf(f, "%c%3zu  ", w->sample ? '*' : ' ', rank);
	fputs_safe(pl, f);
	for (size_t q = strlen(pl); q < pad; q++)
		fputc(' ', f);
}

/* " +12.3%", or " -" where the change is undefined, in 9 columns. */
static void delta_cell(FILE *f, double d)
{
	if (isnan(d))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %+7.1f%%", d);
}

static double pct(double a, double b)
{
	return b > 0 && !isnan(a) && !isnan(b) ? 100.0 * (a - b) / b : NAN;
}


/* One kernel's placements: output_doc_item's record. */
typedef struct placements_rec {
	const plan *p;
	const cli *c;
	const sample_times *st;
} placements_rec;

static int write_text(output_doc *d, const void *rec)
{
	const placements_rec *pr = rec;
	FILE *f = d->f;
	const plan *p = pr->p;
	const cli *c = pr->c;
	const sample_times *st = pr->st;
	fputs("input:   ", f);
	fputs_safe(p->spec, f);
	fputs("\nkernel:  ", f);
	fputs_safe(p->k->name, f);
	fprintf(f, ", %u array%s placed, %zu placement%s\n", p->n, p->n == 1 ? "" : "s",
		p->nrows, p->nrows == 1 ? "" : "s");
	fputs("arrays: ", f);
	for (uint32_t i = 0; i < p->n; i++) {
		fputc(' ', f);
		fputs_safe(p->name[i], f);
		fprintf(f, " (%llu loads, %llu stores)%s", (unsigned long long)p->loads[i],
			(unsigned long long)p->stores[i], i + 1 < p->n ? "," : "\n");
	}
	for (size_t i = 0; i < p->nrefused; i++) {
		const refusal *r = &p->refused[i];
		fputs("refused: ", f);
		fputs_safe(p->name[r->array], f);
		fprintf(f, " to %s: ", rd_space_name((enum rd_space)r->space));
		fputs_safe(r->why, f);
		fputc('\n', f);
	}
	if (p->cfg.dram_cache_hit == 0)
		fputs("note:    dram.cache_hit is 0, so cache hits cost nothing in the AMAT: set it "
		      "(and smem.latency) to your GPU's latencies in ns\n",
		      f);
	size_t nsat = 0, nnan = 0;
	for (size_t r = 0; r < p->nrows; r++) {
		nsat += p->rows[r].dram.saturated != 0;
		nnan += st && isnan(p->rows[r].p_t);
	}
	if (nsat == p->nrows)
		fputs("note:    DRAM is saturated in every placement (requests arrive faster than "
		      "dram.ns_per_step lets the banks serve them): Tmem ranks by the row service "
		      "time alone, without queueing\n",
		      f);
	if (nnan)
		fprintf(f, "note:    %zu placement%s remove%s more instructions per warp than the "
			   "sample's inst_per_warp (%g): no time predicted for %s (-)\n",
			nnan, nnan == 1 ? "" : "s", nnan == 1 ? "s" : "", st->inst_per_warp,
			nnan == 1 ? "it" : "them");
	if (p->dram_on)
		fputs("note:    dram.enable was off: turned on (with the configuration's dram.* "
		      "keys) for the AMAT\n",
		      f);
	fprintf(f,
		"ranked by %s; Tmem = 32-byte transactions per SM x AMAT (Eqs. 4-5 with ITMLP = 1: "
		"relative, approximate); inst/warp = issued instructions per warp against the "
		"sample (Eq. 3); * the sample (the configuration's placement); ! DRAM saturated "
		"(utilisation >= 1): its AMAT leaves the queueing out, counting the row service "
		"alone (ours)\n\n",
		c->rank_inst ? "inst/warp" : "Tmem");
	fprintf(f, "   #  %-40s %10s %10s %13s %8s %9s", "placement", "trans/SM", "AMAT ns", "Tmem",
		"vs *", "inst/warp");
	if (st)
		fprintf(f, " %12s %8s", "T approx.", "vs *");
	fputc('\n', f);
	for (size_t r = 0; r < p->nrows; r++) {
		const row *w = &p->rows[r];
		row_label(f, p, w, r + 1, 40);
		fprintf(f, " %10.1f %9.1f%c %13.1f", w->tx_per_sm, w->amat,
			w->dram.saturated ? '!' : ' ', w->tmem);
		delta_cell(f, pct(w->tmem, p->sample->tmem));
		fprintf(f, " %+9.2f", w->inst_delta);
		if (st) {
			if (isnan(w->p_t))
				fprintf(f, " %12s", "-");
			else
				fprintf(f, " %12.4g", w->p_t);
			delta_cell(f, pct(w->p_t, p->sample->p_t));
		}
		fputc('\n', f);
	}
	fputs("\nper placement (requests, hits, misses, replays, addressing instructions by "
	      "space; L2; DRAM):\n",
	      f);
	for (size_t r = 0; r < p->nrows; r++) {
		const row *w = &p->rows[r];
		row_label(f, p, w, r + 1, 0);
		fputc('\n', f);
		for (int s = 0; s < RD_NSPACES; s++) {
			const rd_space_stats *x = &w->sp[s];
			if (!x->requests && !x->instructions)
				continue;
			fprintf(f, "        %-9s requests %llu, hits %llu, misses %llu, replays %llu, "
				   "address instructions %llu\n",
				rd_space_name((enum rd_space)s), (unsigned long long)x->requests,
				(unsigned long long)x->hits, (unsigned long long)x->misses,
				(unsigned long long)x->replays,
				(unsigned long long)x->address_instructions);
		}
		if (w->has_l2)
			fprintf(f, "        L2        requests %llu, misses %llu (%.2f%%)\n",
				(unsigned long long)w->l2_requests, (unsigned long long)w->l2_misses,
				100.0 * w->l2_miss_rate);
		const rd_dram *d = &w->dram;
		fprintf(f, "        DRAM      requests %llu: row hits %llu, misses %llu, conflicts "
			   "%llu; ",
			(unsigned long long)d->requests, (unsigned long long)d->row_hits,
			(unsigned long long)d->row_misses, (unsigned long long)d->row_conflicts);
		if (d->saturated)
			fprintf(f, "saturated (%llu bank%s at utilisation >= 1)\n",
				(unsigned long long)d->saturated, d->saturated == 1 ? "" : "s");
		else
			fprintf(f, "queue %.1f ns, latency %.1f ns\n", d->queue_delay, d->latency);
		if (st && !isnan(w->p_t))
			fprintf(f, "        predicted Tcomp %.4g + Tmem %.4g - Toverlap %.4g = T %.4g "
				   "(approximate)\n",
				w->p_tcomp, w->p_tmem, w->p_toverlap, w->p_t);
	}
	fputc('\n', f);
	return 0;
}

static void json_num(FILE *f, const char *name, double v)
{
	fprintf(f, ",\"%s\":", name);
	output_json_double(f, v);
}

static void json_begin(output_doc *d, const void *head)
{
	(void)head;
	output_doc_json_open(d, "rdscope-placements");
	fputs("\"kernels\":[", d->f);
}

static int write_json(output_doc *d, const void *rec)
{
	const placements_rec *pr = rec;
	FILE *f = d->f;
	const plan *p = pr->p;
	const cli *c = pr->c;
	const sample_times *st = pr->st;
	output_doc_json_next(d);
	fputs("{\"input\":", f);
	output_json_quote(f, p->spec);
	fputs(",\"kernel\":", f);
	output_json_quote(f, p->k->name);
	fprintf(f, ",\"by\":\"%s\",\"dram_turned_on\":%s,\"arrays\":[", by_names[c->rank_inst],
		p->dram_on ? "true" : "false");
	for (uint32_t i = 0; i < p->n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		output_json_quote(f, p->name[i]);
		fprintf(f, ",\"loads\":%llu,\"stores\":%llu,\"sample\":\"%s\"}",
			(unsigned long long)p->loads[i], (unsigned long long)p->stores[i],
			rd_space_name((enum rd_space)p->base[i]));
	}
	fputs("],\"refused\":[", f);
	for (size_t i = 0; i < p->nrefused; i++) {
		const refusal *r = &p->refused[i];
		fputs(i ? ",{\"array\":" : "{\"array\":", f);
		output_json_quote(f, p->name[r->array]);
		fprintf(f, ",\"space\":\"%s\",\"why\":", rd_space_name((enum rd_space)r->space));
		output_json_quote(f, r->why);
		fputc('}', f);
	}
	fputs("],\"placements\":[", f);
	for (size_t r = 0; r < p->nrows; r++) {
		const row *w = &p->rows[r];
		fprintf(f, "%s\n {\"rank\":%zu,\"sample\":%s,\"placement\":{", r ? "," : "", r + 1,
			w->sample ? "true" : "false");
		for (uint32_t i = 0; i < p->n; i++) {
			if (i)
				fputc(',', f);
			output_json_quote(f, p->name[i]);
			fprintf(f, ":\"%s\"", rd_space_name((enum rd_space)w->space[i]));
		}
		fputc('}', f);
		json_num(f, "transactions_per_sm", w->tx_per_sm);
		json_num(f, "miss_ratio", w->miss_ratio);
		json_num(f, "dram_latency", w->dram_latency);
		json_num(f, "amat", w->amat);
		json_num(f, "tmem", w->tmem);
		json_num(f, "tmem_vs_sample", pct(w->tmem, p->sample->tmem) / 100.0);
		json_num(f, "inst_delta_per_warp", w->inst_delta);
		fputs(",\"spaces\":{", f);
		int any = 0;
		for (int s = 0; s < RD_NSPACES; s++) {
			const rd_space_stats *x = &w->sp[s];
			if (!x->requests && !x->instructions)
				continue;
			fprintf(f, "%s\"%s\":{\"requests\":%llu,\"hits\":%llu,\"misses\":%llu,"
				   "\"replays\":%llu,\"address_instructions\":%llu}",
				any++ ? "," : "", rd_space_name((enum rd_space)s),
				(unsigned long long)x->requests, (unsigned long long)x->hits,
				(unsigned long long)x->misses, (unsigned long long)x->replays,
				(unsigned long long)x->address_instructions);
		}
		fputc('}', f);
		if (w->has_l2) {
			fprintf(f, ",\"l2\":{\"requests\":%llu,\"misses\":%llu",
				(unsigned long long)w->l2_requests, (unsigned long long)w->l2_misses);
			json_num(f, "miss_rate", w->l2_miss_rate);
			fputc('}', f);
		} else {
			fputs(",\"l2\":null", f);
		}
		const rd_dram *d = &w->dram;
		fprintf(f, ",\"dram\":{\"requests\":%llu,\"row_hits\":%llu,\"row_misses\":%llu,"
			   "\"row_conflicts\":%llu,\"saturated\":%s",
			(unsigned long long)d->requests, (unsigned long long)d->row_hits,
			(unsigned long long)d->row_misses, (unsigned long long)d->row_conflicts,
			d->saturated ? "true" : "false");
		json_num(f, "queue_delay", d->queue_delay);
		json_num(f, "latency", d->latency);
		json_num(f, "amat", d->amat);
		fputc('}', f);
		if (st) {
			fputs(",\"predicted\":{\"approximate\":true", f);
			json_num(f, "tcomp", w->p_tcomp);
			json_num(f, "tmem", w->p_tmem);
			json_num(f, "toverlap", w->p_toverlap);
			json_num(f, "t", w->p_t);
			json_num(f, "t_vs_sample", pct(w->p_t, p->sample->p_t) / 100.0);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputs("]}", f);
	return 0;
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputc(',', f);
	else
		fprintf(f, ",%.17g", v);
}

/* head: the --sample times, or NULL (their columns then left out). */
static void csv_begin(output_doc *d, const void *head)
{
	FILE *f = d->f;
	const sample_times *st = head;
	fputs("input,kernel,rank,sample,placement,transactions_per_sm,miss_ratio,dram_latency,amat,"
	      "tmem,tmem_vs_sample,inst_delta_per_warp",
	      f);
	for (int s = 0; s < RD_NSPACES; s++) {
		const char *n = rd_space_name((enum rd_space)s);
		fprintf(f, ",%s_requests,%s_hits,%s_misses,%s_replays,%s_address_instructions", n, n,
			n, n, n);
	}
	fputs(",l2_requests,l2_misses,dram_requests,dram_row_hits,dram_row_misses,"
	      "dram_row_conflicts,dram_saturated,dram_queue_delay,dram_run_latency",
	      f);
	if (st)
		fputs(",predicted_tcomp,predicted_tmem,predicted_toverlap,predicted_t", f);
	fputc('\n', f);
}

static int write_csv(output_doc *d, const void *rec)
{
	const placements_rec *pr = rec;
	FILE *f = d->f;
	const plan *p = pr->p;
	const sample_times *st = pr->st;
	for (size_t r = 0; r < p->nrows; r++) {
		const row *w = &p->rows[r];
		char pl[1024];
		placement_text(p, w, pl, sizeof pl);
		output_csv_field(f, p->spec);
		fputc(',', f);
		output_csv_field(f, p->k->name);
		fprintf(f, ",%zu,%d,", r + 1, w->sample);
		output_csv_field(f, pl);
		csv_num(f, w->tx_per_sm);
		csv_num(f, w->miss_ratio);
		csv_num(f, w->dram_latency);
		csv_num(f, w->amat);
		csv_num(f, w->tmem);
		csv_num(f, pct(w->tmem, p->sample->tmem) / 100.0);
		csv_num(f, w->inst_delta);
		for (int s = 0; s < RD_NSPACES; s++) {
			const rd_space_stats *x = &w->sp[s];
			fprintf(f, ",%llu,%llu,%llu,%llu,%llu", (unsigned long long)x->requests,
				(unsigned long long)x->hits, (unsigned long long)x->misses,
				(unsigned long long)x->replays,
				(unsigned long long)x->address_instructions);
		}
		if (w->has_l2)
			fprintf(f, ",%llu,%llu", (unsigned long long)w->l2_requests,
				(unsigned long long)w->l2_misses);
		else
			fputs(",,", f);
		const rd_dram *d = &w->dram;
		fprintf(f, ",%llu,%llu,%llu,%llu,%d", (unsigned long long)d->requests,
			(unsigned long long)d->row_hits, (unsigned long long)d->row_misses,
			(unsigned long long)d->row_conflicts, d->saturated ? 1 : 0);
		csv_num(f, d->queue_delay);
		csv_num(f, d->latency);
		if (st) {
			csv_num(f, w->p_tcomp);
			csv_num(f, w->p_tmem);
			csv_num(f, w->p_toverlap);
			csv_num(f, w->p_t);
		}
		fputc('\n', f);
	}
	return 0;
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.begin = csv_begin, .item = write_csv};
static const output_doc_ops json_ops = {.begin = json_begin, .item = write_json,
					.end = output_doc_json_list_end};
static const output_doc_formats placements_formats = {&text_ops, &csv_ops, &json_ops};

/* ---------------------------------------------------------------- driver */

/* One kernel: arrays, placements, output. Frees k. EXIT_*. */
static int placements_kernel(const cli *c, const char *spec, rd_kernel *k, const sample_times *st,
			     output_doc *d)
{
	char err[1024];
	if (memcheck_model(spec, k, err, sizeof err) < 0) {
		msg_error("%s", err);
		rd_kernel_free(k);
		return EXIT_RUNTIME;
	}
	/* the arrays: --arrays, the description's, or found by gaps */
	int arc = batch_arrays_attach(c, spec, k);
	if (arc != EXIT_OK) {
		rd_kernel_free(k);
		return arc;
	}
	plan p = {.spec = spec, .k = k, .cfg = c->config};
	if (!p.cfg.dram_enable) { /* the AMAT needs DRAM */
		p.cfg.dram_enable = 1;
		p.dram_on = 1;
	}
	int rc = EXIT_OK;
	if (rd_spaces_check(&p.cfg, k, err, sizeof err) < 0) {
		msg_error("%s: the sample placement: %s", spec, err);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK)
		rc = plan_arrays(c, &p);
	rd_model *m = NULL;
	if (rc == EXIT_OK && !(m = rd_model_new(k))) {
		msg_error("%s: out of memory", spec);
		rc = EXIT_RUNTIME;
	}
	if (rc == EXIT_OK)
		rc = plan_run(c, &p, m);
	if (rc == EXIT_OK) {
		plan_compare(&p, st);
		plan_rank(&p, c->rank_inst);
		output_doc_item(d, &(placements_rec){&p, c, st});
	}
	rd_model_free(m);
	free(p.rows);
	free(p.refused);
	rd_kernel_free(k);
	return rc;
}

int placements_check(const cli *c)
{
	return c->ninputs == 1 ? 0 : cli_command_error(c, "%s: one INPUT expected");
}

int placements_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	sample_times st;
	char err[1024];
	if (c->sample_times) {
		int r = sampletimes_read(c->sample_times, &st, err, sizeof err);
		if (r < 0) {
			msg_error("%s", r == -2 ? "out of memory" : err);
			return r == -2 ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	input_opts opts = cli_input_opts(c);
	int rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	if (rc != EXIT_OK)
		return rc;
	outfile out;
	if (batch_output_begin(c, &out))
		return EXIT_RUNTIME;
	const sample_times *stp = c->sample_times ? &st : NULL;
	output_doc d;
	output_doc_begin(&d, out.f, c->format, &placements_formats, stp);
	const char *spec = c->inputs[0];
	input *in;
	int s = input_open(spec, &opts, &in, err, sizeof err);
	while (s == INPUT_OK && rc == EXIT_OK) {
		rd_kernel *k;
		s = input_next(in, &k, err, sizeof err);
		if (s != INPUT_OK)
			break;
		rc = placements_kernel(c, spec, k, stp, &d);
	}
	if (rc == EXIT_OK)
		rc = batch_input_end(in, s, err);
	else if (in)
		input_close(in);
	output_doc_end(&d, NULL);
	return batch_output_end(&out, rc);
}
