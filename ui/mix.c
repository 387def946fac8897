/* The explorer's profile generator (see mix.h). Calls the model only. */
#include "mix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void mix_default(mix *m)
{
	m->maxrd = 64;
	m->cold = 0.05;
	m->n = 1;
	m->pos[0] = 40;
	m->ratio[0] = 1;
	m->sigma[0] = 2;
	m->length = 10000;
	m->seed = 1;
}

int mix_rows(const mix *m)
{
	return MIX_FIXED_ROWS + 3 * (int)m->n;
}

void mix_row(const mix *m, int row, char *label, size_t llen, char *value, size_t vlen)
{
	static const char *const fixed[] = {"maxrd", "cold share", "length", "seed"};
	if (row < MIX_FIXED_ROWS) {
		snprintf(label, llen, "%s", fixed[row]);
		if (row == MIX_ROW_MAXRD)
			snprintf(value, vlen, "%u lines", m->maxrd);
		else if (row == MIX_ROW_COLD)
			snprintf(value, vlen, "%.2f", m->cold);
		else if (row == MIX_ROW_LENGTH)
			snprintf(value, vlen, "%llu requests", (unsigned long long)m->length);
		else
			snprintf(value, vlen, "%llu", (unsigned long long)m->seed);
		return;
	}
	int k = (row - MIX_FIXED_ROWS) / 3, f = (row - MIX_FIXED_ROWS) % 3;
	if (f == 0) {
		snprintf(label, llen, "peak %d at", k + 1);
		snprintf(value, vlen, "%g lines", m->pos[k]);
	} else if (f == 1) {
		snprintf(label, llen, "  ratio");
		snprintf(value, vlen, "%g", m->ratio[k]);
	} else {
		snprintf(label, llen, "  sigma");
		snprintf(value, vlen, "%g", m->sigma[k]);
	}
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int memcmp_peaks(const mix *a, const mix *b)
{
	for (uint32_t k = 0; k < a->n; k++)
		if (a->pos[k] != b->pos[k] || a->ratio[k] != b->ratio[k] || a->sigma[k] != b->sigma[k])
			return 1;
	return 0;
}

int mix_step(mix *m, int row, int dir)
{
	mix o = *m;
	if (row == MIX_ROW_MAXRD) {
		uint32_t v = dir > 0 ? m->maxrd * 2 : m->maxrd / 2;
		m->maxrd = v < MIX_MIN_MAXRD ? MIX_MIN_MAXRD : v > MIX_MAX_MAXRD ? MIX_MAX_MAXRD : v;
		for (uint32_t k = 0; k < m->n; k++)
			m->pos[k] = clampd(m->pos[k], 0, m->maxrd);
	} else if (row == MIX_ROW_COLD) {
		double s = m->cold < 0.1 || (m->cold < 0.1 + 1e-9 && dir < 0) ? 0.01 : 0.05;
		m->cold = clampd(round((m->cold + dir * s) * 100) / 100, 0, 0.95);
	} else if (row == MIX_ROW_LENGTH) {
		uint64_t v = dir > 0 ? m->length * 2 : m->length / 2;
		m->length = v < MIX_MIN_LENGTH ? MIX_MIN_LENGTH : v > MIX_MAX_LENGTH ? MIX_MAX_LENGTH : v;
	} else if (row == MIX_ROW_SEED) {
		if (dir > 0 || m->seed > 0)
			m->seed += dir > 0 ? 1 : (uint64_t)-1;
	} else if (row < mix_rows(m)) {
		int k = (row - MIX_FIXED_ROWS) / 3, f = (row - MIX_FIXED_ROWS) % 3;
		if (f == 0) { /* one line at a time near 0, an eighth further out */
			double s = m->pos[k] < 16 || (m->pos[k] < 17 && dir < 0) ? 1 : floor(m->pos[k] / 8);
			m->pos[k] = clampd(m->pos[k] + dir * s, 0, m->maxrd);
		} else if (f == 1) {
			m->ratio[k] = clampd(m->ratio[k] + dir * 0.25, 0.25, 8);
		} else {
			double s = m->sigma[k] < 4 || (m->sigma[k] < 4.5 && dir < 0) ? 0.5
				   : m->sigma[k] < 16 || (m->sigma[k] < 17 && dir < 0) ? 1 : 4;
			m->sigma[k] = clampd(m->sigma[k] + dir * s, 0.5, m->maxrd);
		}
	}
	return o.maxrd != m->maxrd || o.cold != m->cold || o.length != m->length ||
	       o.seed != m->seed || memcmp_peaks(&o, m);
}

/* The peak of a row (the last for the fixed rows). */
static int peak_of(const mix *m, int row)
{
	return row < MIX_FIXED_ROWS ? (int)m->n - 1 : (row - MIX_FIXED_ROWS) / 3;
}

int mix_add(mix *m, int row)
{
	if (m->n == MIX_PEAKS)
		return -1;
	int k = peak_of(m, row);
	for (int j = (int)m->n; j > k + 1; j--) {
		m->pos[j] = m->pos[j - 1];
		m->ratio[j] = m->ratio[j - 1];
		m->sigma[j] = m->sigma[j - 1];
	}
	m->pos[k + 1] = floor((m->pos[k] + m->maxrd) / 2);
	m->ratio[k + 1] = 1;
	m->sigma[k + 1] = 2;
	m->n++;
	return MIX_FIXED_ROWS + 3 * (k + 1);
}

int mix_remove(mix *m, int row)
{
	if (m->n == 1 || row < MIX_FIXED_ROWS)
		return -1;
	int k = peak_of(m, row);
	for (uint32_t j = (uint32_t)k; j + 1 < m->n; j++) {
		m->pos[j] = m->pos[j + 1];
		m->ratio[j] = m->ratio[j + 1];
		m->sigma[j] = m->sigma[j + 1];
	}
	m->n--;
	return MIX_FIXED_ROWS + 3 * (k < (int)m->n ? k : (int)m->n - 1);
}

double *mix_profile(const mix *m)
{
	double *p = malloc(((size_t)m->maxrd + 2) * sizeof *p);
	if (p)
		rd_rp_mixture(m->pos, m->ratio, m->sigma, m->n, m->cold, m->maxrd, p);
	return p;
}

rd_kernel *mix_kernel(const mix *m, uint32_t line, uint64_t *forced)
{
	double *p = mix_profile(m);
	uint64_t cold;
	rd_kernel *k = p ? rd_rp_kernel(p, m->maxrd, m->length, m->seed, 1, line, &cold, forced)
			 : NULL;
	free(p);
	return k;
}

void mix_text(const mix *m, const char *sep, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "maxrd %u%scold %g", m->maxrd, sep, m->cold);
	for (uint32_t k = 0; k < m->n && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%speak %g %g %g", sep, m->pos[k], m->ratio[k],
				      m->sigma[k]);
}
