/*
 * The event log of case 0 (--log FILE: rd_callbacks.event), as CSV, one
 * row per request (and, under model=rdgc and at the L2, per reservation
 * fail and per fill), the L1's and the L2's in the model's order. The
 * columns after access came with the L2 (seed 001): the level (1 or 2),
 * the request's partition, bank and port, and the free entries of its
 * MSHR set (empty when unlimited).
 */
#include "output.h"

#include <stdint.h>

void output_log_header(FILE *f)
{
	fputs("time,core,block,warp,thread,nthreads,instr,addr,line,set,distance,outcome,class,"
	      "latency,effect_at,mshrs,access,level,partition,bank,port,mshrs_free\n",
	      f);
}

void output_log_event(FILE *f, const rd_event *ev)
{
	static const char *const outcomes[] = {"hit",    "miss", "cancel", "evict",
						    "bypass", "rf",   "merge",  "fill"};
	fprintf(f, "%llu,%u,%u,%u,%u,%u,%u,%llu,%llu,%u,", (unsigned long long)ev->time, ev->core,
		ev->block, ev->warp, ev->thread, ev->nthreads, ev->instr,
		(unsigned long long)ev->addr, (unsigned long long)ev->line, ev->set);
	if (ev->distance < 0)
		fputs("inf", f);
	else
		fprintf(f, "%lld", (long long)ev->distance);
	/* Engines of one level (paper, reference-2013) leave level 0: their
	 * rows are the L1's. */
	/* a sector miss: a miss in the counts (its line hit) */
	int smiss = ev->outcome == RD_OUT_HIT && ev->cls == RD_CLASS_SECTOR;
	fprintf(f, ",%s,%s,%u,%llu,%u,%s,%d,%u,%u,%u,",
		smiss ? "miss"
		: (unsigned)ev->outcome < sizeof outcomes / sizeof *outcomes ? outcomes[ev->outcome]
									     : "?",
		ev->cls >= 0 && ev->cls < RD_NCLASS ? rd_class_name((enum rd_class)ev->cls) : "",
		ev->latency, (unsigned long long)ev->effect_at, ev->mshrs_used,
		ev->store ? "store" : "load", ev->level ? ev->level : 1, ev->partition, ev->bank,
		ev->port);
	/* unlimited MSHRs (UINT32_MAX free): empty */
	if (ev->mshrs_free != UINT32_MAX)
		fprintf(f, "%u", ev->mshrs_free);
	putc('\n', f);
}
