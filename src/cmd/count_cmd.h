/*
 * rdscope count: the exact compulsory and capacity misses of fully
 * associative LRU caches for a kernel description run as one serial
 * program (seed 004, HayStack), without a trace.
 */
#ifndef COUNT_CMD_H
#define COUNT_CMD_H

#include "cli.h"
#include "kdesc/kdesc.h"

/* Run the parsed `count` command line; returns the exit status. */
int count_run(const cli *c);

/* One description counted (count_kdesc): its input (kept open: the
 * references' texts point into it), the counter and each reference's
 * description and repeated accesses; totals. */
typedef struct counted {
	input *in;
	trace_reader *r;
	rd_count *cnt;
	int nrefs;
	kdesc_ref_info *info;
	uint64_t *fast;
	uint64_t accesses, compulsory, capacity[RD_COUNT_MAX_LEVELS], repeated;
	kdesc_flat_info flat;  /* the flat path: taken, or why not */
	uint64_t *flat_acc;    /* [nrefs] accesses the flat path added */
	uint64_t flat_total;
	double seconds;
} counted;

/* count_kdesc's flags */
enum { COUNT_SKIP_STORES = 1, COUNT_STREAM = 2 };

/* Count spec (a description, opts its -D) with nlv levels of bytes[]
 * (whole lines of `line` bytes; flags COUNT_*): EXIT_OK with *out
 * (counted_free it), or
 * an exit status with the reason in err. progress (may be NULL) hears the
 * fraction done and stops the count by returning nonzero. */
int count_kdesc(const char *spec, const input_opts *opts, uint32_t line, const uint64_t *bytes,
		int nlv, int flags, int (*progress)(void *ctx, double f), void *ctx,
		counted *out, char *err, size_t errlen);
void counted_free(counted *c);

#endif
