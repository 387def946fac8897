/* The built-in lessons of class mode (see lessons.h). */
#include "lessons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* presets/toy-table2.cfg .. toy-table5.cfg, key by key. */
static const char *const toy2[] = {
	"model=paper", "seed=1", "l1.size=32", "l1.line=16", "l1.ways=2", "l1.hash=mod",
	"l1.mshrs=0", "l1.mshr_per_warp=0", "latency.hit=0", "latency.miss=0",
	"latency.stddev=0", "latency.clip=0", "gpu.divergence=0", "gpu.warp_size=1",
	"gpu.cores=1", "gpu.max_threads=0", NULL};
static const char *const toy3[] = {
	"model=paper", "seed=1", "l1.size=32", "l1.line=16", "l1.ways=2", "l1.hash=mod",
	"l1.mshrs=0", "l1.mshr_per_warp=0", "latency.hit=2", "latency.miss=2",
	"latency.stddev=0", "latency.clip=0", "gpu.divergence=0", "gpu.warp_size=1",
	"gpu.cores=1", "gpu.max_threads=0", NULL};
static const char *const toy4[] = {
	"model=paper", "seed=1", "l1.size=32", "l1.line=16", "l1.ways=2", "l1.hash=mod",
	"l1.mshrs=0", "l1.mshr_per_warp=0", "latency.hit=0", "latency.miss=2",
	"latency.stddev=0", "latency.clip=0", "gpu.divergence=0", "gpu.warp_size=1",
	"gpu.cores=1", "gpu.max_threads=0", NULL};
static const char *const toy5[] = {
	"model=paper", "seed=1", "l1.size=32", "l1.line=16", "l1.ways=2", "l1.hash=mod",
	"l1.mshrs=1", "l1.mshr_per_warp=0", "latency.hit=0", "latency.miss=2",
	"latency.stddev=0", "latency.clip=0", "gpu.divergence=0", "gpu.warp_size=1",
	"gpu.cores=1", "gpu.max_threads=0", NULL};

/* samples/paper/table1.trc, table2.trc, table5.trc without comments. */
static const char table1[] = "blocksize: 1 1 1\n"
			     "0 0 0 4\n0 0 20 4\n0 0 12 4\n0 0 36 4\n0 0 12 4\n0 0 12 4\n"
			     "0 0 20 4\n";
static const char table2[] = "blocksize: 4 1 1\n"
			     "0 0 0 4\n0 0 4 4\n1 0 8 4\n1 0 12 4\n2 0 16 4\n2 0 20 4\n"
			     "3 0 24 4\n3 0 28 4\n";
static const char table5[] = "blocksize: 4 1 1\n"
			     "0 0 0 4\n0 0 4 4\n2 0 16 4\n2 0 20 4\n";

const lesson lessons[] = {
	{"Table 1", "toy-table2", "samples/paper/table1.trc",
	 "reuse distance of one thread's loads; a 2-line cache hits below 2",
	 4, table1, toy2},
	{"Table 2", "toy-table2", "samples/paper/table2.trc",
	 "4 one-thread warps take turns, round-robin; no latency yet",
	 4, table2, toy2},
	{"Table 3", "toy-table3", "samples/paper/table2.trc",
	 "every request takes effect 2 steps later; in flight = latency miss",
	 4, table2, toy3},
	{"Table 4", "toy-table4", "samples/paper/table2.trc",
	 "hits take 0 steps, misses 2; effects due together land in order",
	 4, table2, toy4},
	{"Table 5", "toy-table5", "samples/paper/table5.trc",
	 "one MSHR: a miss that finds it taken is cancelled, retried later",
	 4, table5, toy5},
};
const size_t lessons_n = sizeof lessons / sizeof lessons[0];

rd_kernel *lesson_kernel(const lesson *l)
{
	unsigned bx = 1, by = 1, bz = 1;
	sscanf(l->trace, "blocksize: %u %u %u", &bx, &by, &bz);
	/* The name input_load gives the sample file: its base name. */
	const char *base = strrchr(l->sample, '/') ? strrchr(l->sample, '/') + 1 : l->sample;
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
	rd_kernel_builder *b = rd_kernel_builder_new(name, bx, by, bz);
	if (!b)
		return NULL;
	const char *p = strchr(l->trace, '\n');
	while (p && *++p) {
		unsigned tid, dir, bytes;
		unsigned long long addr;
		if (sscanf(p, "%u %u %llu %u", &tid, &dir, &addr, &bytes) == 4 &&
		    rd_kernel_builder_add(b, tid, (int)dir, addr, bytes) < 0) {
			rd_kernel_builder_free(b);
			return NULL;
		}
		p = strchr(p, '\n');
	}
	return rd_kernel_builder_finish(b);
}

void lesson_config(const lesson *l, rd_config *c)
{
	rd_config_default(c);
	for (const char *const *s = l->settings; *s; s++) {
		char key[64], err[256];
		size_t n = strcspn(*s, "=");
		snprintf(key, sizeof key, "%.*s", (int)n, *s);
		rd_config_set(c, key, *s + n + 1, err, sizeof err);
	}
}
