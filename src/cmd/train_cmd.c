/*
 * rdscope train (see train_cmd.h). Profiles are labelled on worker
 * threads, each profile from its own seeded streams (the data do not
 * depend on -j); the fit is one thread.
 */
#include "train_cmd.h"
#include "batch.h"
#include "samefile.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "rprofile.h"
#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"

#define TRAIN_LENGTH 10000

/* The paper's grid (Fig. 5) and --quick's. */
static const uint32_t grid_maxrd[] = {16, 128, 1024, 4096};
static const uint32_t quick_maxrd[] = {16, 128};
/* Geometries: every sets x ways x line. */
static const uint32_t grid_sets[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
static const uint32_t grid_ways[] = {1, 2, 4, 8, 16, 32};
static const uint32_t grid_line[] = {32, 128};
static const uint32_t quick_sets[] = {1, 8, 32};
static const uint32_t quick_ways[] = {1, 4};
static const uint32_t quick_line[] = {128};

#define N(a) (sizeof(a) / sizeof(a)[0])

typedef struct plan {
	uint32_t peak_lo, peak_hi;
	const uint32_t *maxrd, *sets, *ways, *line;
	size_t nmaxrd, nsets, nways, nline;
	uint32_t samples, length;
	uint64_t seed;
	size_t nprof, ngeo; /* profiles; geometries per profile */
} plan;

typedef struct job {
	const plan *p;
	const rd_config *base;
	double *x, *y;      /* [nprof * ngeo][features / outputs] */
	double *binomial;   /* [nprof * ngeo]: the binomial estimate's miss rate */
	size_t next, done;
	int failed;
	pthread_mutex_t mu;
	progress prog;
	double label_s;     /* seconds in the detailed model (all workers) */
} job;

static void geometry(const plan *p, size_t g, uint32_t *sets, uint32_t *ways, uint32_t *line)
{
	*line = p->line[g / (p->nsets * p->nways)];
	*sets = p->sets[g / p->nways % p->nsets];
	*ways = p->ways[g % p->nways];
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Profile i: draw, generate, measure, label every geometry. */
static int label_profile(job *j, size_t i, double *label_s)
{
	const plan *p = j->p;
	size_t cell = i / p->samples;
	uint32_t npeaks = p->peak_lo + (uint32_t)(cell / p->nmaxrd);
	uint32_t maxrd = p->maxrd[cell % p->nmaxrd];
	double *prof = malloc(((size_t)maxrd + 2) * sizeof *prof), pos[16], ratio[16], sigma[16], cold;
	if (!prof)
		return RD_ENOMEM;
	rd_rp_random(p->seed, i, npeaks, maxrd, prof, pos, ratio, sigma, &cold);
	int rc = RD_OK;
	for (size_t li = 0; li < p->nline && rc == RD_OK; li++) {
		uint32_t line = p->line[li];
		uint64_t ncold, forced;
		rd_kernel *k = rd_rp_kernel(prof, maxrd, p->length, p->seed + i, 1, line, &ncold, &forced);
		if (!k) {
			rc = RD_ENOMEM;
			break;
		}
		rd_model *m = rd_model_new(k);
		rd_config cfg = *j->base, pc;
		cfg.l1_line = line;
		cfg.l1_ways = 1;
		cfg.l1_size = line;
		cfg.l1_hash = RD_HASH_MOD;
		rd_config_profile(&cfg, &pc);
		rp_counts *pv = NULL;
		size_t pn = 0;
		rc = m ? rprofile_measure(m, &pc, 0, NULL, &pv, &pn) : RD_ENOMEM;
		/* one thread: one core, one whole-stream profile */
		const rp_counts *rp = rc == RD_OK && pn ? &pv[0] : NULL;
		for (size_t g = li * p->nsets * p->nways; rc == RD_OK && g < (li + 1) * p->nsets * p->nways;
		     g++) {
			uint32_t sets, ways, gl;
			geometry(p, g, &sets, &ways, &gl);
			cfg.l1_ways = ways;
			cfg.l1_size = sets * ways * line;
			rd_result r;
			double t0 = now();
			rc = rd_model_run(m, &cfg, 1 << RD_CASE_FULL, &(rd_callbacks){0}, &r);
			*label_s += now() - t0;
			if (rc != RD_OK)
				break;
			rd_metrics mt;
			rd_metrics_of(&r, NULL, &mt);
			size_t row = i * p->ngeo + g;
			j->y[row * RD_LEARN_NOUT] = r.miss_rate;
			j->y[row * RD_LEARN_NOUT + 1] = mt.merge_rate;
			rd_result_free(&r);
			static const uint64_t none = 0;
			const uint64_t *h = rp ? rp->hist : &none;
			uint32_t hl = rp ? rp->len : 0;
			uint64_t hc = rp ? rp->cold : 0;
			rd_learn_features(h, hl, hc, sets, ways, line, j->x + row * RD_LEARN_NFEAT);
			j->binomial[row] =
				1.0 - rd_profile_estimate(h, hl, hc, ways, (uint64_t)sets * ways);
		}
		rp_counts_free(pv, pn);
		rd_model_free(m);
		rd_kernel_free(k);
	}
	free(prof);
	return rc;
}

static void *worker(void *arg)
{
	job *j = arg;
	double label_s = 0;
	for (;;) {
		pthread_mutex_lock(&j->mu);
		size_t i = j->next++;
		int stop = j->failed;
		pthread_mutex_unlock(&j->mu);
		if (stop || i >= j->p->nprof)
			break;
		int rc = label_profile(j, i, &label_s);
		pthread_mutex_lock(&j->mu);
		if (rc != RD_OK)
			j->failed = rc;
		j->done++;
		progress_update(&j->prog, (double)j->done / (double)j->p->nprof);
		pthread_mutex_unlock(&j->mu);
	}
	pthread_mutex_lock(&j->mu);
	j->label_s += label_s;
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* --layers "64,32": the hidden widths into sizes[1..], the whole shape's
 * length into *n. */
static int parse_layers(const char *s, uint32_t *sizes, uint32_t *n)
{
	uint32_t k = 0;
	sizes[k++] = RD_LEARN_NFEAT;
	while (s && *s) {
		char *end;
		unsigned long v = *s >= '1' && *s <= '9' ? strtoul(s, &end, 10) : 0;
		if (!v || v > RD_MLP_MAX_WIDTH || (*end && *end != ',') || k + 1 >= RD_MLP_MAX_LAYERS + 1)
			return -1;
		sizes[k++] = (uint32_t)v;
		s = *end ? end + 1 : end;
	}
	sizes[k++] = RD_LEARN_NOUT;
	*n = k;
	return 0;
}

typedef struct fitlog {
	progress *prog;
	uint32_t epochs;
	double first_train, first_val;
} fitlog;

static int on_epoch(void *ctx, uint32_t e, double tr, double va)
{
	fitlog *f = ctx;
	if (e == 0) {
		f->first_train = tr;
		f->first_val = va;
	}
	progress_update(f->prog, (double)(e + 1) / (double)f->epochs);
	return 0;
}

/* Mean absolute errors of the model (both outputs) and of the binomial
 * estimate (miss rate) over the rows [from, to) of a split. */
static void maes(const rd_mlp *m, const double *x, const double *y, const double *bin, size_t n,
		 double *miss, double *merge, double *bmiss)
{
	*miss = *merge = *bmiss = 0;
	for (size_t r = 0; r < n; r++) {
		double p[RD_LEARN_NOUT];
		rd_mlp_predict(m, x + r * RD_LEARN_NFEAT, p);
		*miss += fabs(p[0] - y[r * RD_LEARN_NOUT]);
		*merge += fabs(p[1] - y[r * RD_LEARN_NOUT + 1]);
		*bmiss += fabs(bin[r] - y[r * RD_LEARN_NOUT]);
	}
	if (n) {
		*miss /= (double)n;
		*merge /= (double)n;
		*bmiss /= (double)n;
	}
}

int train_check(const cli *c)
{
	if (c->format != OUTPUT_TEXT)
		return cli_usage_error("%s: train writes a weights file (text)", "-f", NULL);
	if (c->ninputs)
		return cli_usage_error("train: unexpected argument '%s' (it generates its own "
				       "profiles)", c->inputs[0], NULL);
	return 0;
}

int train_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	plan p = {.peak_lo = 2, .peak_hi = 12, .maxrd = grid_maxrd, .nmaxrd = N(grid_maxrd),
		  .sets = grid_sets, .nsets = N(grid_sets), .ways = grid_ways, .nways = N(grid_ways),
		  .line = grid_line, .nline = N(grid_line), .samples = 50, .length = TRAIN_LENGTH,
		  .seed = c->train_seed};
	uint32_t epochs = 60;
	if (c->quick) {
		p = (plan){.peak_lo = 2, .peak_hi = 3, .maxrd = quick_maxrd, .nmaxrd = N(quick_maxrd),
			   .sets = quick_sets, .nsets = N(quick_sets), .ways = quick_ways,
			   .nways = N(quick_ways), .line = quick_line, .nline = N(quick_line),
			   .samples = 5, .length = 2000, .seed = c->train_seed};
		epochs = 40;
	}
	if (c->samples)
		p.samples = c->samples;
	if (c->epochs)
		epochs = c->epochs;
	p.ngeo = p.nsets * p.nways * p.nline;
	p.nprof = (size_t)(p.peak_hi - p.peak_lo + 1) * p.nmaxrd * p.samples;
	uint32_t sizes[RD_MLP_MAX_LAYERS + 1], nsizes;
	if (parse_layers(c->layers ? c->layers : "64,32", sizes, &nsizes) < 0) {
		msg_error("--layers: expected up to %d hidden widths from 1 to %d, like 64,32 or "
			  "1024,128,32, got '%s'", RD_MLP_MAX_LAYERS - 1, RD_MLP_MAX_WIDTH, c->layers);
		return EXIT_USAGE;
	}
	char err[1024];
	outfile out;
	if (batch_output_begin(c, &out) != EXIT_OK)
		return EXIT_RUNTIME;
	/* the labels' configuration */
	rd_config base;
	rd_config_default(&base);
	char keys[] = TRAIN_LABEL_KEYS;
	for (char *kv = strtok(keys, " "); kv; kv = strtok(NULL, " ")) {
		char *eq = strchr(kv, '=');
		*eq = '\0';
		rd_config_set(&base, kv, eq + 1, err, sizeof err);
	}
	size_t rows = p.nprof * p.ngeo;
	job j = {.p = &p, .base = &base};
	j.x = malloc(rows * RD_LEARN_NFEAT * sizeof *j.x);
	j.y = malloc(rows * RD_LEARN_NOUT * sizeof *j.y);
	j.binomial = malloc(rows * sizeof *j.binomial);
	/* validation: every fifth profile (all its geometries) */
	double *tx = malloc(rows * RD_LEARN_NFEAT * sizeof *tx), *ty = malloc(rows * RD_LEARN_NOUT * sizeof *ty);
	double *vx = malloc(rows * RD_LEARN_NFEAT * sizeof *vx), *vy = malloc(rows * RD_LEARN_NOUT * sizeof *vy);
	double *tb = malloc(rows * sizeof *tb), *vb = malloc(rows * sizeof *vb);
	rd_mlp *m = rd_mlp_new(sizes, nsizes, c->train_seed);
	int rc = EXIT_OK;
	if (!j.x || !j.y || !j.binomial || !tx || !ty || !vx || !vy || !tb || !vb || !m ||
	    pthread_mutex_init(&j.mu, NULL)) {
		msg_error("train: out of memory");
		rc = EXIT_RUNTIME;
		goto done;
	}
	unsigned jobs = c->jobs ? c->jobs : util_online_cpus();
	if (jobs > p.nprof)
		jobs = (unsigned)p.nprof;
	progress_init(&j.prog, !c->quiet, "train: labelling");
	double t0 = now();
	pthread_t th[64];
	unsigned started = 0;
	for (; started < jobs && started < 64; started++)
		if (pthread_create(&th[started], NULL, worker, &j))
			break;
	if (!started)
		worker(&j);
	for (unsigned t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	progress_done(&j.prog);
	pthread_mutex_destroy(&j.mu);
	double label_wall = now() - t0;
	if (j.failed) {
		msg_error("train: %s", rd_strerror(j.failed));
		rc = EXIT_RUNTIME;
		goto done;
	}
	size_t nt = 0, nv = 0;
	for (size_t i = 0; i < p.nprof; i++) {
		int val = i % 5 == 4;
		for (size_t g = 0; g < p.ngeo; g++) {
			size_t r = i * p.ngeo + g, d = val ? nv++ : nt++;
			memcpy((val ? vx : tx) + d * RD_LEARN_NFEAT, j.x + r * RD_LEARN_NFEAT,
			       RD_LEARN_NFEAT * sizeof *tx);
			memcpy((val ? vy : ty) + d * RD_LEARN_NOUT, j.y + r * RD_LEARN_NOUT,
			       RD_LEARN_NOUT * sizeof *ty);
			(val ? vb : tb)[d] = j.binomial[r];
		}
	}
	progress fprog;
	progress_init(&fprog, !c->quiet, "train: fitting");
	fitlog fl = {.prog = &fprog, .epochs = epochs};
	rd_mlp_fit fit = {.epochs = epochs, .batch = 256, .lr = 1e-3, .seed = c->train_seed,
			  .epoch = on_epoch, .ctx = &fl};
	double t1 = now(), tr, va;
	if (rd_mlp_train(m, tx, ty, nt, vx, vy, nv, &fit, &tr, &va) != RD_OK) {
		progress_done(&fprog);
		msg_error("train: out of memory");
		rc = EXIT_RUNTIME;
		goto done;
	}
	progress_done(&fprog);
	double fit_s = now() - t1;
	double miss, merge, bmiss, tmiss, tmerge, tbmiss;
	maes(m, vx, vy, vb, nv, &miss, &merge, &bmiss);
	maes(m, tx, ty, tb, nt, &tmiss, &tmerge, &tbmiss);
	char shape[128] = "";
	for (uint32_t i = 0, k = 0; i < nsizes; i++)
		k += (uint32_t)snprintf(shape + k, sizeof shape - k, "%s%u", i ? "-" : "", sizes[i]);
	char note[2048];
	snprintf(note, sizeof note,
		 "rdscope train%s --samples %u --seed %llu --epochs %u --layers %s\n"
		 "data: %zu profiles (%u-%u peaks x %zu MaxRD x %u samples, length %u) x %zu "
		 "geometries = %zu rows; validation every fifth profile (%zu rows)\n"
		 "labels: the detailed model, paper profile, defaults with %s, l1.hash=mod\n"
		 "shape: %s (%zu parameters), Adam lr 0.001, batch 256\n"
		 "loss (mse per output): train %.6g -> %.6g, validation %.6g -> %.6g\n"
		 "validation mae: miss rate %.4f (binomial estimate %.4f), merge rate %.4f\n"
		 "training mae: miss rate %.4f (binomial estimate %.4f), merge rate %.4f",
		 c->quick ? " --quick" : "", p.samples, (unsigned long long)c->train_seed, epochs,
		 c->layers ? c->layers : "64,32", p.nprof, p.peak_lo, p.peak_hi, p.nmaxrd, p.samples,
		 p.length, p.ngeo, rows, nv, TRAIN_LABEL_KEYS, shape, rd_mlp_params(m),
		 fl.first_train, tr, fl.first_val, va, miss, bmiss, merge, tmiss, tbmiss, tmerge);
	if (!c->no_timing) /* without: the file the same to the byte for the same options */
		snprintf(note + strlen(note), sizeof note - strlen(note),
			 "\ntime: labelling %.1f s (%.1f s in the detailed model), fitting %.1f s",
			 label_wall, j.label_s, fit_s);
	char *text = rd_mlp_format(m, note);
	if (!text) {
		msg_error("train: out of memory");
		rc = EXIT_RUNTIME;
		goto done;
	}
	fputs(text, out.f);
	free(text);
	for (const char *s = note; !c->quiet && *s;) { /* the summary on standard error */
		size_t k = strcspn(s, "\n");
		msg_error("train: %.*s", (int)k, s);
		s += k + (s[k] == '\n');
	}
done:
	rc = batch_output_end(&out, rc);
	rd_mlp_free(m);
	free(j.x);
	free(j.y);
	free(j.binomial);
	free(tx);
	free(ty);
	free(vx);
	free(vy);
	free(tb);
	free(vb);
	return rc;
}
