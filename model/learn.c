/*
 * The learned estimator (seed 003 §IV, MLCRP): a profile's features, a
 * small multi-layer perceptron (ReLU hidden layers, sigmoid outputs)
 * fitted by Adam on the mean squared error, its forward pass, its weights
 * as text, and Algorithm 1's random draws of a training profile. Seeded
 * (splitmix64, model/rng.c), no globals, no printing: every function
 * works on what it is given.
 */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- draws */

static double unit(rd_rng *r) /* [0, 1) */
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

static double gauss(rd_rng *r)
{
	double u1 = ((double)(rng_next(r) >> 11) + 1.0) / 9007199254740992.0, u2 = unit(r);
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void rd_rp_random(uint64_t seed, uint64_t stream, uint32_t npeaks, uint32_t maxrd, double *p,
		  double *pos, double *ratio, double *sigma, double *cold)
{
	rd_rng r;
	rng_seed(&r, seed, stream);
	double sum = 0;
	for (uint32_t i = 0; i < npeaks; i++) {
		pos[i] = (double)(rng_next(&r) % ((uint64_t)maxrd + 1)); /* RND_i(0, MaxRD) */
		ratio[i] = unit(&r);                                       /* RND_f(0, 1) */
		sigma[i] = 2.0 * (1.0 - unit(&r));                        /* (0, 2] */
		sum += ratio[i];
	}
	double c = unit(&r); /* the cold ratio, RND_f(0, 1) too */
	sum += c;
	if (!(sum > 0)) { /* every draw 0: an even mix */
		for (uint32_t i = 0; i < npeaks; i++)
			ratio[i] = 1;
		c = 1;
		sum = npeaks + 1.0;
	}
	for (uint32_t i = 0; i < npeaks; i++)
		ratio[i] /= sum;
	*cold = c / sum;
	rd_rp_mixture(pos, ratio, sigma, npeaks, *cold, maxrd, p);
}

/* ---------------------------------------------------------------- features */

static const char *const feature_names[RD_LEARN_NFEAT] = {
	"cold", "rd0", "rd1", "rd2-3", "rd4-7", "rd8-15", "rd16-31", "rd32-63", "rd64-127",
	"rd128-255", "rd256-511", "rd512-1023", "rd1024-2047", "rd2048-4095", "rd4096+",
	"log2sets/16", "log2ways/16", "log2line/16", "peaks/16",
};

const char *rd_learn_feature_name(uint32_t i)
{
	return i < RD_LEARN_NFEAT ? feature_names[i] : NULL;
}

void rd_learn_features(const uint64_t *hist, uint32_t len, uint64_t cold, uint32_t sets,
		       uint32_t ways, uint32_t line, double *x)
{
	memset(x, 0, RD_LEARN_NFEAT * sizeof *x);
	uint64_t total = cold;
	/* bucket b holds 2^(b-1) <= d < 2^b (bucket 0: d = 0), the last one
	 * everything from 2^(RD_LEARN_BUCKETS-2) on */
	for (uint32_t b = 0, lo = 0; b < RD_LEARN_BUCKETS && lo < len; b++) {
		uint32_t hi = b + 1 < RD_LEARN_BUCKETS ? 1u << b : len;
		uint64_t n = 0;
		for (uint32_t d = lo; d < hi && d < len; d++)
			n += hist[d];
		x[1 + b] = (double)n;
		total += n;
		lo = hi;
	}
	x[0] = (double)cold;
	for (uint32_t i = 0; i <= RD_LEARN_BUCKETS; i++)
		x[i] = total ? x[i] / (double)total : 0.0;
	x[RD_LEARN_BUCKETS + 1] = log2(sets ? (double)sets : 1.0) / 16.0;
	x[RD_LEARN_BUCKETS + 2] = log2(ways ? (double)ways : 1.0) / 16.0;
	x[RD_LEARN_BUCKETS + 3] = log2(line ? (double)line : 1.0) / 16.0;
	x[RD_LEARN_BUCKETS + 4] = (double)rd_profile_peaks(hist, len) / 16.0;
}

/* ---------------------------------------------------------------- the MLP */

struct rd_mlp {
	uint32_t nl;                         /* layers of weights */
	uint32_t size[RD_MLP_MAX_LAYERS + 1]; /* widths: inputs, hidden..., outputs */
	double *w[RD_MLP_MAX_LAYERS];        /* layer l: size[l+1] rows of 1 + size[l] (bias first) */
};

static size_t layer_params(const rd_mlp *m, uint32_t l)
{
	return (size_t)m->size[l + 1] * (m->size[l] + 1);
}

size_t rd_mlp_params(const rd_mlp *m)
{
	size_t n = 0;
	for (uint32_t l = 0; l < m->nl; l++)
		n += layer_params(m, l);
	return n;
}

uint32_t rd_mlp_layers(const rd_mlp *m, uint32_t *sizes)
{
	if (sizes)
		memcpy(sizes, m->size, (m->nl + 1) * sizeof *sizes);
	return m->nl + 1;
}

static rd_mlp *mlp_alloc(const uint32_t *sizes, uint32_t n)
{
	if (n < 2 || n > RD_MLP_MAX_LAYERS + 1)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		if (!sizes[i] || sizes[i] > RD_MLP_MAX_WIDTH)
			return NULL;
	rd_mlp *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->nl = n - 1;
	memcpy(m->size, sizes, n * sizeof *sizes);
	for (uint32_t l = 0; l < m->nl; l++) {
		if (!(m->w[l] = calloc(layer_params(m, l), sizeof *m->w[l]))) {
			rd_mlp_free(m);
			return NULL;
		}
	}
	return m;
}

rd_mlp *rd_mlp_new(const uint32_t *sizes, uint32_t n, uint64_t seed)
{
	rd_mlp *m = mlp_alloc(sizes, n);
	if (!m)
		return NULL;
	rd_rng r;
	rng_seed(&r, seed, 0x6d6c70); /* "mlp" */
	for (uint32_t l = 0; l < m->nl; l++) {
		/* He initialisation for the ReLU layers, Glorot for the output */
		double s = l + 1 < m->nl ? sqrt(2.0 / m->size[l]) : sqrt(1.0 / m->size[l]);
		for (uint32_t o = 0; o < m->size[l + 1]; o++) {
			double *row = m->w[l] + (size_t)o * (m->size[l] + 1);
			row[0] = 0;
			for (uint32_t i = 0; i < m->size[l]; i++)
				row[1 + i] = s * gauss(&r);
		}
	}
	return m;
}

void rd_mlp_free(rd_mlp *m)
{
	if (!m)
		return;
	for (uint32_t l = 0; l < m->nl; l++)
		free(m->w[l]);
	free(m);
}

static double sigmoid(double v)
{
	return 1.0 / (1.0 + exp(-v));
}

/* Layer l from in into out (ReLU, or the sigmoid at the last layer). */
static void layer_forward(const rd_mlp *m, uint32_t l, const double *in, double *out)
{
	uint32_t ni = m->size[l];
	for (uint32_t o = 0; o < m->size[l + 1]; o++) {
		const double *row = m->w[l] + (size_t)o * (ni + 1);
		double s = row[0];
		for (uint32_t i = 0; i < ni; i++)
			s += row[1 + i] * in[i];
		out[o] = l + 1 == m->nl ? sigmoid(s) : (s > 0 ? s : 0);
	}
}

void rd_mlp_predict(const rd_mlp *m, const double *x, double *y)
{
	double a[RD_MLP_MAX_WIDTH], b[RD_MLP_MAX_WIDTH];
	const double *in = x;
	for (uint32_t l = 0; l < m->nl; l++) {
		double *out = l + 1 == m->nl ? y : (l % 2 ? b : a);
		layer_forward(m, l, in, out);
		in = out;
	}
}

/* ---------------------------------------------------------------- training */

typedef struct trainer {
	rd_mlp *m;
	double *g[RD_MLP_MAX_LAYERS], *mom[RD_MLP_MAX_LAYERS], *vel[RD_MLP_MAX_LAYERS];
	double *act;   /* every layer's outputs of one sample, inputs first */
	double *delta; /* the same shape: dLoss/d(pre-activation) */
	size_t off[RD_MLP_MAX_LAYERS + 1];
} trainer;

static void trainer_free(trainer *t)
{
	for (uint32_t l = 0; l < RD_MLP_MAX_LAYERS; l++) {
		free(t->g[l]);
		free(t->mom[l]);
		free(t->vel[l]);
	}
	free(t->act);
	free(t->delta);
}

static int trainer_init(trainer *t, rd_mlp *m)
{
	memset(t, 0, sizeof *t);
	t->m = m;
	size_t n = 0;
	for (uint32_t l = 0; l <= m->nl; l++) {
		t->off[l] = n;
		n += m->size[l];
	}
	t->act = calloc(n, sizeof *t->act);
	t->delta = calloc(n, sizeof *t->delta);
	if (!t->act || !t->delta)
		goto oom;
	for (uint32_t l = 0; l < m->nl; l++) {
		size_t p = layer_params(m, l);
		if (!(t->g[l] = calloc(p, sizeof(double))) || !(t->mom[l] = calloc(p, sizeof(double))) ||
		    !(t->vel[l] = calloc(p, sizeof(double))))
			goto oom;
	}
	return 0;
oom:
	trainer_free(t);
	return -1;
}

/* One sample: forward, then its squared error's gradient added to g.
 * Returns the sample's squared error summed over the outputs. */
static double sample_grad(trainer *t, const double *x, const double *y)
{
	rd_mlp *m = t->m;
	memcpy(t->act, x, m->size[0] * sizeof *x);
	for (uint32_t l = 0; l < m->nl; l++)
		layer_forward(m, l, t->act + t->off[l], t->act + t->off[l + 1]);
	uint32_t L = m->nl, no = m->size[L];
	double *out = t->act + t->off[L], *dout = t->delta + t->off[L], se = 0;
	for (uint32_t o = 0; o < no; o++) {
		double e = out[o] - y[o];
		se += e * e;
		dout[o] = 2.0 * e / no * out[o] * (1.0 - out[o]); /* through the sigmoid */
	}
	for (uint32_t l = L; l-- > 0;) {
		uint32_t ni = m->size[l], nout = m->size[l + 1];
		const double *in = t->act + t->off[l], *d = t->delta + t->off[l + 1];
		double *din = t->delta + t->off[l];
		if (l)
			memset(din, 0, ni * sizeof *din);
		for (uint32_t o = 0; o < nout; o++) {
			double *g = t->g[l] + (size_t)o * (ni + 1);
			const double *row = m->w[l] + (size_t)o * (ni + 1);
			double dv = d[o];
			if (dv == 0)
				continue;
			g[0] += dv;
			for (uint32_t i = 0; i < ni; i++)
				g[1 + i] += dv * in[i];
			if (l)
				for (uint32_t i = 0; i < ni; i++)
					din[i] += dv * row[1 + i];
		}
		if (l) /* through the ReLU */
			for (uint32_t i = 0; i < ni; i++)
				if (in[i] <= 0)
					din[i] = 0;
	}
	return se;
}

double rd_mlp_mse(const rd_mlp *m, const double *x, const double *y, size_t n)
{
	uint32_t ni = m->size[0], no = m->size[m->nl];
	double se = 0, p[RD_MLP_MAX_WIDTH];
	for (size_t s = 0; s < n; s++) {
		rd_mlp_predict(m, x + s * ni, p);
		for (uint32_t o = 0; o < no; o++)
			se += (p[o] - y[s * no + o]) * (p[o] - y[s * no + o]);
	}
	return n ? se / (double)(n * no) : 0.0;
}

int rd_mlp_train(rd_mlp *m, const double *x, const double *y, size_t n, const double *vx,
		 const double *vy, size_t nv, const rd_mlp_fit *o, double *train_mse, double *val_mse)
{
	trainer t;
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	if (!order || trainer_init(&t, m) < 0) {
		free(order);
		return RD_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	rd_rng r;
	rng_seed(&r, o->seed, 0x747261696e); /* "train" */
	uint32_t ni = m->size[0], no = m->size[m->nl], batch = o->batch ? o->batch : 256;
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	double lr = o->lr > 0 ? o->lr : 1e-3;
	uint64_t step = 0;
	int rc = RD_OK;
	double tr = 0, va = 0;
	for (uint32_t e = 0; e < o->epochs; e++) {
		for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
			size_t j = (size_t)(rng_next(&r) % i), tmp = order[i - 1];
			order[i - 1] = order[j];
			order[j] = tmp;
		}
		double se = 0;
		for (size_t b0 = 0; b0 < n; b0 += batch) {
			size_t bn = n - b0 < batch ? n - b0 : batch;
			for (uint32_t l = 0; l < m->nl; l++)
				memset(t.g[l], 0, layer_params(m, l) * sizeof(double));
			for (size_t s = b0; s < b0 + bn; s++)
				se += sample_grad(&t, x + order[s] * ni, y + order[s] * no);
			step++;
			double c1 = 1.0 - pow(b1, (double)step), c2 = 1.0 - pow(b2, (double)step);
			for (uint32_t l = 0; l < m->nl; l++) {
				size_t p = layer_params(m, l);
				for (size_t k = 0; k < p; k++) {
					double g = t.g[l][k] / (double)bn;
					t.mom[l][k] = b1 * t.mom[l][k] + (1 - b1) * g;
					t.vel[l][k] = b2 * t.vel[l][k] + (1 - b2) * g * g;
					m->w[l][k] -= lr * (t.mom[l][k] / c1) / (sqrt(t.vel[l][k] / c2) + eps);
				}
			}
		}
		tr = n ? se / (double)(n * no) : 0;
		va = rd_mlp_mse(m, vx, vy, nv);
		if (o->epoch && o->epoch(o->ctx, e, tr, va)) {
			rc = RD_ECANCELED;
			break;
		}
	}
	if (train_mse)
		*train_mse = tr;
	if (val_mse)
		*val_mse = va;
	trainer_free(&t);
	free(order);
	return rc;
}

/* ---------------------------------------------------------------- text */


char *rd_mlp_format(const rd_mlp *m, const char *comment)
{
	rd_buf b = {0};
	rd_buf_printf(&b, "%s %d\n", RD_MLP_MAGIC, RD_MLP_VERSION);
	for (const char *c = comment; c && *c;) { /* each line a comment */
		size_t k = strcspn(c, "\n");
		rd_buf_printf(&b, "# %.*s\n", (int)k, c);
		c += k + (c[k] == '\n');
	}
	rd_buf_printf(&b, "features %d", RD_LEARN_NFEAT);
	for (uint32_t i = 0; i < RD_LEARN_NFEAT; i++)
		rd_buf_printf(&b, " %s", feature_names[i]);
	rd_buf_printf(&b, "\noutputs %d miss_rate merge_rate\nlayers %u", RD_LEARN_NOUT, m->nl + 1);
	for (uint32_t l = 0; l <= m->nl; l++)
		rd_buf_printf(&b, " %u", m->size[l]);
	rd_buf_printf(&b, "\n");
	for (uint32_t l = 0; l < m->nl; l++) {
		rd_buf_printf(&b, "layer %u\n", l + 1);
		for (uint32_t o = 0; o < m->size[l + 1]; o++) {
			const double *row = m->w[l] + (size_t)o * (m->size[l] + 1);
			for (uint32_t i = 0; i <= m->size[l]; i++)
				rd_buf_printf(&b, "%s%.17g", i ? " " : "", row[i]);
			rd_buf_printf(&b, "\n");
		}
	}
	rd_buf_printf(&b, "end\n");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* The next line of a parse (NUL-terminated in place), '#' comments and
 * blank lines skipped; NULL at the end. */
typedef struct lines {
	char *p, *end;
	uint32_t no;
} lines;

static char *next_line(lines *ls)
{
	while (ls->p < ls->end) {
		char *s = ls->p, *nl = memchr(s, '\n', (size_t)(ls->end - s));
		if (nl) {
			*nl = '\0';
			ls->p = nl + 1;
		} else {
			ls->p = ls->end;
		}
		ls->no++;
		size_t k = strlen(s);
		while (k && (s[k - 1] == '\r' || s[k - 1] == ' ' || s[k - 1] == '\t'))
			s[--k] = '\0';
		s += strspn(s, " \t");
		if (*s && *s != '#')
			return s;
	}
	return NULL;
}

/* A whole word of s that is a number from 1 to max, advancing s. */
static int read_count(char **s, unsigned long max, uint32_t *v)
{
	char *p = *s + strspn(*s, " \t"), *end;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	unsigned long x = strtoul(p, &end, 10);
	if (errno || x < 1 || x > max || (*end && *end != ' ' && *end != '\t'))
		return -1;
	*v = (uint32_t)x;
	*s = end;
	return 0;
}

/* Does the line, after its first word, read exactly like want? */
static int words_are(const char *s, const char *want)
{
	for (;;) {
		s += strspn(s, " \t");
		want += strspn(want, " ");
		size_t a = strcspn(s, " \t"), b = strcspn(want, " ");
		if (a != b || strncmp(s, want, a))
			return 0;
		if (!a)
			return 1;
		s += a;
		want += b;
	}
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		goto fail;                                                                         \
	} while (0)

int rd_mlp_parse(const char *text, size_t len, rd_mlp **out, char *err, size_t errlen)
{
	*out = NULL;
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "1: a NUL byte: not a text file");
		return -1;
	}
	char *buf = malloc(len + 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	lines ls = {buf, buf + len, 0};
	rd_mlp *m = NULL;
	char want[1024];
	char *s = next_line(&ls);
	size_t ml = strlen(RD_MLP_MAGIC);
	if (!s || strncmp(s, RD_MLP_MAGIC, ml) || (s[ml] != ' ' && s[ml] != '\t'))
		FAIL("%u: not an rdscope learned-estimator file (expected '%s %d' first)",
		     ls.no ? ls.no : 1, RD_MLP_MAGIC, RD_MLP_VERSION);
	if (!words_are(s + ml, "1"))
		FAIL("%u: version %.20s: this rdscope reads version %d", ls.no,
		     s + ml + strspn(s + ml, " \t"), RD_MLP_VERSION);
	s = next_line(&ls);
	int k = snprintf(want, sizeof want, "%d", RD_LEARN_NFEAT);
	for (uint32_t i = 0; i < RD_LEARN_NFEAT; i++)
		k += snprintf(want + k, sizeof want - (size_t)k, " %s", feature_names[i]);
	if (!s || strncmp(s, "features", 8) || (s[8] != ' ' && s[8] != '\t'))
		FAIL("%u: expected 'features ...' (the features the weights were fitted on)", ls.no);
	if (!words_are(s + 8, want))
		FAIL("%u: the weights were fitted on other features than this rdscope computes "
		     "(features %.200s)", ls.no, want);
	s = next_line(&ls);
	if (!s || strncmp(s, "outputs", 7) || !words_are(s + 7, "2 miss_rate merge_rate"))
		FAIL("%u: expected 'outputs 2 miss_rate merge_rate'", ls.no);
	s = next_line(&ls);
	uint32_t nsz, sizes[RD_MLP_MAX_LAYERS + 1];
	if (!s || strncmp(s, "layers", 6) || (s[6] != ' ' && s[6] != '\t'))
		FAIL("%u: expected 'layers N WIDTH...'", ls.no);
	s += 6;
	if (read_count(&s, RD_MLP_MAX_LAYERS + 1, &nsz) < 0 || nsz < 2)
		FAIL("%u: layers: from 2 to %d widths (inputs, hidden layers, outputs)", ls.no,
		     RD_MLP_MAX_LAYERS + 1);
	for (uint32_t i = 0; i < nsz; i++)
		if (read_count(&s, RD_MLP_MAX_WIDTH, &sizes[i]) < 0)
			FAIL("%u: layers: %u widths from 1 to %d expected", ls.no, nsz, RD_MLP_MAX_WIDTH);
	if (*(s + strspn(s, " \t")))
		FAIL("%u: layers: %u widths expected, more given", ls.no, nsz);
	if (sizes[0] != RD_LEARN_NFEAT || sizes[nsz - 1] != RD_LEARN_NOUT)
		FAIL("%u: layers: %d inputs and %d outputs expected, got %u and %u", ls.no,
		     RD_LEARN_NFEAT, RD_LEARN_NOUT, sizes[0], sizes[nsz - 1]);
	if (!(m = mlp_alloc(sizes, nsz))) {
		snprintf(err, errlen, "out of memory");
		free(buf);
		return -2;
	}
	for (uint32_t l = 0; l < m->nl; l++) {
		s = next_line(&ls);
		uint32_t li;
		if (!s || strncmp(s, "layer", 5) || (s[5] != ' ' && s[5] != '\t') ||
		    (s += 5, read_count(&s, RD_MLP_MAX_LAYERS, &li) < 0) || li != l + 1 ||
		    *(s + strspn(s, " \t")))
			FAIL("%u: expected 'layer %u'", ls.no, l + 1);
		for (uint32_t o = 0; o < m->size[l + 1]; o++) {
			s = next_line(&ls);
			if (!s)
				FAIL("%u: layer %u: %u rows of weights expected, the file ends after %u",
				     ls.no, l + 1, m->size[l + 1], o);
			double *row = m->w[l] + (size_t)o * (m->size[l] + 1);
			for (uint32_t i = 0; i <= m->size[l]; i++) {
				char *end;
				s += strspn(s, " \t");
				errno = 0;
				double v = *s ? strtod(s, &end) : 0;
				if (!*s || end == s || errno || !isfinite(v) || fabs(v) > 1e6 ||
				    (*end && *end != ' ' && *end != '\t'))
					FAIL("%u: layer %u row %u: %u numbers expected (a bias, then a "
					     "weight per input; finite, at most 1e6 in size)", ls.no, l + 1,
					     o + 1, m->size[l] + 1);
				row[i] = v;
				s = end;
			}
			if (*(s + strspn(s, " \t")))
				FAIL("%u: layer %u row %u: more than %u numbers", ls.no, l + 1, o + 1,
				     m->size[l] + 1);
		}
	}
	s = next_line(&ls);
	if (!s || strcmp(s, "end"))
		FAIL("%u: expected 'end' after the last layer", ls.no);
	if (next_line(&ls))
		FAIL("%u: text after 'end'", ls.no);
	free(buf);
	*out = m;
	return 0;
fail:
	free(buf);
	rd_mlp_free(m);
	return -1;
}
