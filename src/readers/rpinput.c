/*
 * The rp: input (see rpinput.h).
 */
#include "rpinput.h"
#include "input.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RP_MAX_PEAKS 4096

static int num(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) ? -1 : 0;
}

int rp_parse(const char *text, size_t len, double **pout, uint32_t *maxrd_out, char *err,
	     size_t errlen)
{
	double *csv = NULL, pos[RP_MAX_PEAKS], ratio[RP_MAX_PEAKS], sig[RP_MAX_PEAKS];
	uint32_t npeak = 0, csv_max = 0, lineno = 0;
	long long maxrd = -1;
	double cold = -1;
	int kind = 0; /* 1 csv, 2 mixture */
	const char *p = text, *end = text + len;
	char buf[256];
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		if (n >= sizeof buf) {
			snprintf(err, errlen, "%u: line too long", lineno);
			goto fail;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (nl ? 1 : 0);
		if (strlen(buf) != n) {
			snprintf(err, errlen, "%u: a NUL byte", lineno);
			goto fail;
		}
		char *h = strchr(buf, '#');
		if (h)
			*h = '\0';
		char *s = buf + strspn(buf, " \t\r");
		size_t l = strlen(s);
		while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
			s[--l] = '\0';
		if (!*s || !strcmp(s, "rd,fraction"))
			continue;
		char *comma = strchr(s, ',');
		if (comma) { /* rd,fraction */
			if (kind == 2) {
				snprintf(err, errlen, "%u: a CSV row in a mixture description", lineno);
				goto fail;
			}
			kind = 1;
			*comma = '\0';
			double rd, fr;
			if (num(s, &rd) < 0 || rd != floor(rd) || rd < -1 || rd > RP_MAX_RD ||
			    num(comma + 1, &fr) < 0 || fr < 0) {
				snprintf(err, errlen, "%u: expected rd,fraction with rd from -1 to %u and a "
						      "fraction >= 0", lineno, RP_MAX_RD);
				goto fail;
			}
			uint32_t need = (uint32_t)(rd + 2);
			if (need > csv_max) {
				double *c = realloc(csv, need * sizeof *c);
				if (!c) {
					snprintf(err, errlen, "%u: out of memory", lineno);
					goto fail;
				}
				memset(c + csv_max, 0, (need - csv_max) * sizeof *c);
				csv = c;
				csv_max = need;
			}
			csv[(uint32_t)(rd + 1)] += fr;
			continue;
		}
		if (kind == 1) {
			snprintf(err, errlen, "%u: expected rd,fraction", lineno);
			goto fail;
		}
		kind = 2;
		char w[16];
		double a, b, c;
		int k = 0;
		if (sscanf(s, "%15s %lf %lf %lf %n", w, &a, &b, &c, &k) == 4 && !strcmp(w, "peak") &&
		    !s[k]) {
			if (npeak == RP_MAX_PEAKS || !isfinite(a) || !isfinite(b) || !isfinite(c) ||
			    b < 0 || c <= 0 || c > 1e6 || a < -1e9 || a > 1e9) {
				snprintf(err, errlen, "%u: peak POSITION RATIO SIGMA: a ratio >= 0, a sigma "
						      "> 0, at most %u peaks", lineno, RP_MAX_PEAKS);
				goto fail;
			}
			pos[npeak] = a;
			ratio[npeak] = b;
			sig[npeak++] = c;
		} else if (sscanf(s, "%15s %lf %n", w, &a, &k) == 2 && !s[k] && !strcmp(w, "maxrd") &&
			   a == floor(a) && a >= 0 && a <= RP_MAX_RD) {
			maxrd = (long long)a;
		} else if (sscanf(s, "%15s %lf %n", w, &a, &k) == 2 && !s[k] && !strcmp(w, "cold") &&
			   a >= 0 && a <= 1) {
			cold = a;
		} else {
			snprintf(err, errlen, "%u: expected rd,fraction rows, or 'maxrd M', 'cold F' (0 to "
					      "1) and 'peak POSITION RATIO SIGMA' lines", lineno);
			goto fail;
		}
	}
	if (kind == 1) {
		double sum = 0;
		for (uint32_t i = 0; i < csv_max; i++)
			sum += csv[i];
		if (!(sum > 0)) {
			snprintf(err, errlen, "%u: the fractions sum to 0", lineno);
			goto fail;
		}
		if (csv_max < 2) { /* cold only: a profile of one distance bin */
			double *c = realloc(csv, 2 * sizeof *c);
			if (!c) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			csv = c;
			csv[1] = 0;
			csv_max = 2;
		}
		for (uint32_t i = 0; i < csv_max; i++)
			csv[i] /= sum;
		*pout = csv;
		*maxrd_out = csv_max - 2;
		return 0;
	}
	if (kind == 0 || maxrd < 0 || cold < 0 || !npeak) {
		snprintf(err, errlen, "%u: a profile needs rd,fraction rows, or 'maxrd', 'cold' and at "
				      "least one 'peak'", lineno);
		goto fail;
	}
	/* each peak is sampled at every distance: bound the work (2^26
	 * samples: well under a second) */
	if ((uint64_t)(maxrd + 1) * npeak > (1u << 26)) {
		snprintf(err, errlen, "%u: %u peaks x %lld distances is more than 2^26 samples", lineno,
			 npeak, maxrd + 1);
		goto fail;
	}
	double *m = malloc(((size_t)maxrd + 2) * sizeof *m);
	if (!m) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	rd_rp_mixture(pos, ratio, sig, npeak, cold, (uint32_t)maxrd, m);
	*pout = m;
	*maxrd_out = (uint32_t)maxrd;
	free(csv);
	return 0;
fail:
	free(csv);
	return -1;
}

/* Is this the first note about spec? Commands open an input more than
 * once (batch checks every input before it writes, then reads each; a
 * sweep reads it per point): the same spec makes the same kernel and the
 * same note, said once. The first RP_NOTED specs are remembered. */
#define RP_NOTED 64
static int first_note(const char *spec)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static char *noted[RP_NOTED];
	static int n;
	int first = 1;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < n && first; i++)
		first = strcmp(noted[i], spec) != 0;
	if (first && n < RP_NOTED && (noted[n] = strdup(spec)))
		n++;
	pthread_mutex_unlock(&mu);
	return first;
}

/* Options after PATH: ,length=N ,seed=S ,threads=T */
static int opt(const char *s, const char *name, unsigned long long max, unsigned long long *v)
{
	size_t n = strlen(name);
	if (strncmp(s, name, n) || s[n] != '=')
		return 0;
	char *end;
	errno = 0;
	unsigned long long x = s[n + 1] >= '0' && s[n + 1] <= '9' ? strtoull(s + n + 1, &end, 10) : 0;
	if (s[n + 1] < '0' || s[n + 1] > '9' || errno || (*end && *end != ',') || x > max)
		return -1;
	*v = x;
	return 1;
}

int rp_load(const char *spec, uint32_t line, rd_kernel **out, char *err, size_t errlen, char *note,
	    size_t notelen)
{
	char path[4096];
	const char *s = spec + strlen(RP_PREFIX), *c = strchr(s, ',');
	unsigned long long length = 10000, seed = 1, threads = 1;
	if (note && notelen)
		note[0] = '\0';
	snprintf(path, sizeof path, "%.*s", c ? (int)(c - s) : (int)strlen(s), s);
	static const char *const names[] = {"length", "seed", "threads"};
	unsigned long long *vals[] = {&length, &seed, &threads};
	const unsigned long long maxs[] = {RP_MAX_LENGTH, UINT64_MAX, RD_MAX_THREAD_ID + 1ull};
	const char *given[3] = {NULL, NULL, NULL};
	for (; c; c = strchr(c + 1, ',')) {
		int r = 0, i;
		for (i = 0; i < 3 && !r; i++)
			r = opt(c + 1, names[i], maxs[i], vals[i]);
		if (r <= 0 || !length || !threads) {
			snprintf(err, errlen, "%s: expected rp:PATH[,length=N][,seed=S][,threads=T] "
					      "(length 1 to 2^27, threads 1 to 2^26)", spec);
			return INPUT_EINPUT;
		}
		/* each option once: the last one was taken silently */
		i--;
		if (given[i]) {
			snprintf(err, errlen, "%s: %.*s and %.*s: %s given twice (give it once)", spec,
				 (int)strcspn(given[i], ","), given[i], (int)strcspn(c + 1, ","), c + 1,
				 names[i]);
			return INPUT_EINPUT;
		}
		given[i] = c + 1;
	}
	char *text;
	size_t n;
	int oom;
	if (read_text_file(path, 64u << 20, &text, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? INPUT_ENOMEM : INPUT_EINPUT;
	double *p;
	uint32_t maxrd;
	char why[256];
	int rc = rp_parse(text, n, &p, &maxrd, why, sizeof why);
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "%s:%s", path, why);
		return INPUT_EINPUT;
	}
	uint64_t cold, forced;
	*out = rd_rp_kernel(p, maxrd, length, seed, threads, line, &cold, &forced);
	if (*out && note && forced && first_note(spec))
		snprintf(note, notelen, "%s: %llu cold fills forced beyond the profile's cold share %.4f "
					"(realised %.4f: length x cold share is below the largest distance "
					"drawn + 1)", spec, (unsigned long long)forced, p[0],
			 (double)cold / (double)length);
	free(p);
	if (!*out) {
		snprintf(err, errlen, "%s: out of memory", spec);
		return INPUT_ENOMEM;
	}
	return INPUT_OK;
}
