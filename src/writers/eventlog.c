/*
 * The event log of case 0 (--log FILE: rd_callbacks.event), as CSV, one
 * row per request.
 */
#include "output.h"

void output_log_header(FILE *f)
{
	fputs("time,core,block,warp,thread,nthreads,instr,addr,line,set,distance,outcome,class,"
	      "latency,effect_at,mshrs,access\n",
	      f);
}

void output_log_event(FILE *f, const rd_event *ev)
{
	static const char *const outcomes[] = {"hit", "miss", "cancel", "evict", "bypass"};
	fprintf(f, "%llu,%u,%u,%u,%u,%u,%u,%llu,%llu,%u,", (unsigned long long)ev->time, ev->core,
		ev->block, ev->warp, ev->thread, ev->nthreads, ev->instr,
		(unsigned long long)ev->addr, (unsigned long long)ev->line, ev->set);
	if (ev->distance < 0)
		fputs("inf", f);
	else
		fprintf(f, "%lld", (long long)ev->distance);
	fprintf(f, ",%s,%s,%u,%llu,%u,%s\n",
		(unsigned)ev->outcome < sizeof outcomes / sizeof *outcomes ? outcomes[ev->outcome] : "?",
		ev->cls >= 0 && ev->cls < RD_NCLASS ? rd_class_name((enum rd_class)ev->cls) : "",
		ev->latency, (unsigned long long)ev->effect_at, ev->mshrs_used,
		ev->store ? "store" : "load");
}
