/* Fuzz harness: counting's flat path (src/kdesc/kdesc_flat.c) against
 * counting every access. A description the flat path takes must give the
 * same counts, reference by reference and level by level, and the same
 * reuse sets, as count --stream; a description either both count or both
 * refuse. Counts running longer than a moment are stopped (not compared). */
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "count_cmd.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int stop_late(void *ctx, double f)
{
	(void)f;
	return now() > *(double *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".kdesc");
	if (!path)
		return 0;
	input_opts o = {.format = "kdesc", .line = 16};
	static const uint64_t bytes[3] = {64, 256, 2048};
	counted a, b;
	char ea[512], eb[512];
	double until = now() + 0.3;
	int ra = count_kdesc(path, &o, 16, bytes, 3, 0, stop_late, &until, &a, ea, sizeof ea);
	until = now() + 0.3;
	int rb = count_kdesc(path, &o, 16, bytes, 3, COUNT_STREAM, stop_late, &until, &b, eb,
			     sizeof eb);
	int stopped = (ra && strstr(ea, "stopped")) || (rb && strstr(eb, "stopped"));
	if (!stopped) {
		if ((ra == 0) != (rb == 0))
			__builtin_trap(); /* one counts what the other refuses */
		if (ra == 0) {
			if (a.nrefs != b.nrefs || a.accesses != b.accesses)
				__builtin_trap();
			const rd_count_ref *x = rd_count_refs(a.cnt), *y = rd_count_refs(b.cnt);
			for (int i = 0; i < a.nrefs; i++) {
				if (x[i].accesses != y[i].accesses || x[i].compulsory != y[i].compulsory)
					__builtin_trap();
				for (int k = 0; k < 3; k++)
					if (x[i].capacity[k] != y[i].capacity[k])
						__builtin_trap();
				for (int p = 0; p < a.nrefs; p++)
					if (rd_count_reused(a.cnt, (uint32_t)i, (uint32_t)p) !=
					    rd_count_reused(b.cnt, (uint32_t)i, (uint32_t)p))
						__builtin_trap();
			}
			if (rd_count_lines(a.cnt) != rd_count_lines(b.cnt))
				__builtin_trap();
		}
	}
	if (ra == 0)
		counted_free(&a);
	if (rb == 0)
		counted_free(&b);
	return 0;
}
