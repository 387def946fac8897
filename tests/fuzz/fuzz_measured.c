/* Fuzz harness: validate --measured FILE (src/readers/measured.c), every
 * format (plain CSV, Nsight Compute's metrics, details, raw and text
 * pages, nvprof's metrics and events). A parsed file holds named kernels
 * with hit rates in [0, 1] or NAN (values out of range clamped: the plain
 * CSV: an L1 rate always, each name once, launch 0); each launch 0 is
 * found by its name, each later launch N by "NAME#N"; the rows' names
 * given to the matcher in row order match the rows themselves (the k-th
 * of a name its launch k); every note and refusal names the file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "readers/measured.h"

static int rate_ok(double x)
{
	return isnan(x) || (x >= 0 && x <= 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	measured_set s;
	char err[512];
	int rc = measured_parse((const char *)data, size, "fuzz.csv", &s, err, sizeof err);
	if (rc == 0) {
		int plain = !strcmp(s.format, "plain CSV"), hashes = 0;
		if (!s.n)
			__builtin_trap();
		for (size_t i = 0; i < s.n; i++)
			hashes |= strchr(s.rows[i].kernel, '#') ||
				  (s.rows[i].base && strchr(s.rows[i].base, '#'));
		for (size_t i = 0; i < s.n; i++) {
			const measured_row *r = &s.rows[i];
			if (!r->kernel[0] || !rate_ok(r->l1) || !rate_ok(r->l2))
				__builtin_trap();
			if (plain && (strchr(r->kernel, ',') || isnan(r->l1) || r->launch || r->base))
				__builtin_trap();
			if (!r->launch && measured_find(&s, r->kernel) != r)
				__builtin_trap();
			if (r->launch && !hashes) {
				char name[1100];
				snprintf(name, sizeof name, "%s#%u", r->kernel, r->launch);
				const measured_row *q = measured_find(&s, name);
				if (!q || q->launch != r->launch ||
				    (strcmp(q->kernel, r->kernel) &&
				     (!q->base || strcmp(q->base, r->kernel))))
					__builtin_trap();
			}
		}
		for (size_t i = 0; i < s.nnotes; i++)
			if (strncmp(s.notes[i], "fuzz.csv", 8))
				__builtin_trap();
		if (s.clamped && !s.nnotes)
			__builtin_trap();
		measured_match m;
		if (measured_match_init(&m, &s) == 0) {
			for (size_t i = 0; i < s.n; i++) {
				const measured_row *q;
				if (measured_match_next(&m, s.rows[i].kernel, &q) < 0)
					break;
				if (q != &s.rows[i])
					__builtin_trap();
			}
			measured_match_free(&m);
		}
		measured_free(&s);
	} else if (rc == -1 && strncmp(err, "fuzz.csv", 8) != 0) {
		__builtin_trap();
	}
	return 0;
}
