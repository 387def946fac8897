/*
 * The explorer explains itself (see info.h). The sentences follow seed
 * 000 (Nugteren et al., HPCA 2014) §§3-4 and Hill's three Cs.
 */
#include "info.h"

#include <stdio.h>

const class_gloss class_glosses[RD_NCLASS + 1] = {
	{"hits", "in the cache",
	 "the line was in the cache: its reuse distance was below the ways."},
	[1 + RD_CLASS_COMPULSORY] = {"compulsory", "first use",
	 "the first request of a line: no cache of any size would have had it."},
	[1 + RD_CLASS_CAPACITY] = {"capacity", "cache too small",
	 "the line was used before, but more distinct lines than the whole cache holds came "
	 "in between, in the order requests arrived: a bigger cache or another order helps."},
	[1 + RD_CLASS_ASSOCIATIVITY] = {"assoc", "set conflict",
	 "a fully associative cache of the same size would have hit: lines that map to the "
	 "same set pushed it out (a conflict); more ways or another hash help."},
	[1 + RD_CLASS_LATENCY] = {"latency", "data in flight",
	 "the line had been requested and missed already, but its data was still on its way: "
	 "the request waits with the one before it (a hit in a cache without latency)."},
	[1 + RD_CLASS_MSHR] = {"mshr", "MSHRs full",
	 "misses there only because the MSHRs ran out: a warp that finds none free waits and "
	 "retries, and the requests reach the cache in another order."},
	/* Shown only when the configuration can have them (l1.stores=evict,
	 * l1.loads=bypass), so the paper's screens keep their five. */
	[1 + RD_CLASS_WRITE_EVICT] = {"write_evict", "a store evicted it",
	 "the line was in the cache until a store to it removed it, or cancelled its "
	 "insertion while in flight (l1.stores=evict, write-evict): the load fetches it again."},
	[1 + RD_CLASS_BYPASS] = {"bypass", "past the L1",
	 "the load was sent past the L1 (l1.loads=bypass): it never looks the cache up, so it "
	 "misses by configuration, not by distance."},
	[1 + RD_CLASS_SECTOR] = {"sector", "line here, sector not",
	 "the line was in the cache (a hit to its tag) but a sector the request needs "
	 "had not been fetched: today's L1s (l1.sector) fill only the sectors asked for, so a "
	 "line whose first request touched one sector misses again for the next. Nsight Compute "
	 "counts such a request as a sector miss; rdscope gives it a hit's time."},
};

int info_class_shown(const rd_config *c, int cls)
{
	return cls >= 0 && rd_class_possible(c, (enum rd_class)cls);
}

void info_inf_split(const rd_result *r, uint64_t *cold, uint64_t *removed, uint64_t *in_flight)
{
	/* Every first request of a line has an infinite distance: in both
	 * profiles the compulsory class counts them (the reference's as the
	 * infinite distances of its run without latency). */
	uint64_t c = r->cls[RD_CLASS_COMPULSORY];
	if (c > r->hist_inf)
		c = r->hist_inf;
	/* A load of a line a store removed (out of the stack), and a load
	 * past the L1, find no use of their line in the set either, though
	 * requested before: apart (0 unless l1.stores=evict or
	 * l1.loads=bypass). */
	uint64_t g = r->cls[RD_CLASS_WRITE_EVICT] + r->cls[RD_CLASS_BYPASS];
	if (g > r->hist_inf - c)
		g = r->hist_inf - c;
	*cold = c;
	*removed = g;
	*in_flight = r->hist_inf - c - g;
}

/* The L2's pane (2), first when it has the focus (issue 40 item 10: i
 * explained the L1 only). */
static void l2_paragraphs(const rd_config *c, const rd_result *r,
			  void (*para)(void *ctx, const char *heading, const char *text), void *ctx)
{
	char t[1024];
	para(ctx, "The L2 (in focus: 2 goes back to the L1)", NULL);
	snprintf(t, sizeof t,
		 "One L2 of %u bytes shared by every core (%u partition%s of %u bank%s, %u ways, "
		 "%u-byte lines): its requests are the L1s' misses that take a new MSHR entry (and "
		 "the stores that reach it), not the kernel's loads. Its reuse distance counts the "
		 "other lines of the same bank's set since the last use: below l2.ways (%u) a hit.",
		 c->l2_size, c->l2_partitions, c->l2_partitions == 1 ? "" : "s", c->l2_banks,
		 c->l2_banks == 1 ? "" : "s", c->l2_ways, c->l2_line, c->l2_ways);
	para(ctx, NULL, t);
	if (r && r->has_l2) {
		snprintf(t, sizeof t,
			 "Here: %llu requests, %llu hits, %llu misses (%.2f%%). Its classes are the "
			 "L1's, but latency is a request merged into an entry in flight, and it has "
			 "no MSHR class: a request that finds no entry is refused and retried "
			 "(%llu refusals here).",
			 (unsigned long long)r->l2.requests, (unsigned long long)r->l2.hits,
			 (unsigned long long)r->l2.misses, r->l2.miss_rate * 100,
			 (unsigned long long)r->l2.reservation_fails);
		para(ctx, NULL, t);
	}
	para(ctx, NULL,
	     "Its parameters are the L2 pane's rows (l2.*), then the DRAM's (dram.enable 1 models "
	     "the DRAM after it; M shows its rows, delays and AMAT). m maps its load per partition "
	     "and bank.");
}

void info_paragraphs(const rd_config *c, const rd_result *r, const char *try_hint, int level,
		     double est, void (*para)(void *ctx, const char *heading, const char *text),
		     void *ctx)
{
	char t[1024];
	if (try_hint) {
		para(ctx, "What to try with this sample", NULL);
		para(ctx, NULL, try_hint);
	}
	if (level == 2 && c->l2_size)
		l2_paragraphs(c, r, para, ctx);
	uint32_t sets = rd_config_sets(c);
	uint64_t cut = c->model == RD_PROFILE_REF2013 ? (uint64_t)c->l1_ways + 1 : c->l1_ways;
	para(ctx, "On this screen", NULL);
	/* The kinds of miss on screen: the paper's five, and write_evict and
	 * bypass where the configuration has them. */
	static const char *const kinds[] = {"five", "six", "seven", "eight"};
	int nk = 0;
	for (int k = 0; k < RD_NCLASS; k++)
		nk += info_class_shown(c, k);
	snprintf(t, sizeof t,
		 "Left: the L1 cache of one GPU core, its parameters (Up/Down choose one, Left/Right "
		 "change it; every change reruns the model). Right, top: what each request of the "
		 "kernel's warps to the L1 did, a hit or one of %s kinds of miss%s. Right, bottom: "
		 "each request's reuse distance%s.",
		 nk >= 5 && nk <= 8 ? kinds[nk - 5] : "several",
		 c->stores != RD_STORES_IGNORE ? ", loads only (the stores' own line under them)" : "",
		 c->stores != RD_STORES_IGNORE ? ", the loads'" : "");
	para(ctx, NULL, t);
	snprintf(t, sizeof t,
		 "Reuse distance: how many other lines of the same set were used since this line's "
		 "last use. LRU keeps the %u most recently used lines of each of the %u sets, so a "
		 "request hits when its distance is below %llu (left of the cut-off line) and "
		 "misses from %llu on.",
		 c->l1_ways, sets, (unsigned long long)cut, (unsigned long long)cut);
	para(ctx, NULL, t);
	if (r) {
		uint64_t cold, gone, fly;
		info_inf_split(r, &cold, &gone, &fly);
		char g[160] = "";
		if (c->loads == RD_LOADS_BYPASS)
			snprintf(g, sizeof g, " Bypassed: sent past the L1, never in its sets (%llu here).",
				 (unsigned long long)gone);
		else if (gone)
			snprintf(g, sizeof g, " Store-evicted: requested before, then removed by a "
					      "store (%llu here, the write_evict misses).",
				 (unsigned long long)gone);
		snprintf(t, sizeof t,
			 "The infinite distance (the bar apart, right): the line had no use in its set "
			 "yet. Cold: never requested before (%llu here).%s In flight: requested, but its "
			 "data had not arrived (%llu here). So the infinite bar can be taller than the "
			 "compulsory count.",
			 (unsigned long long)cold, g, (unsigned long long)fly);
	} else {
		snprintf(t, sizeof t,
			 "The infinite distance (the bar apart, right): the line had no use in its set "
			 "yet: cold (never requested before) or in flight (requested, its data not yet "
			 "arrived).");
	}
	para(ctx, NULL, t);
	if (c->l1_sector) {
		char n[200] = "";
		if (r && r->sector_lookups)
			snprintf(n, sizeof n, " Here %llu of %llu load sector lookups found their "
					      "sector: %.2f %%, the L1 hit rate Nsight Compute reports.",
				 (unsigned long long)r->sector_hits,
				 (unsigned long long)r->sector_lookups,
				 100.0 * (double)r->sector_hits / (double)r->sector_lookups);
		snprintf(t, sizeof t,
			 "Sectors (l1.sector = %u of %u-byte lines): a line is tagged whole but "
			 "filled only with the %u-byte sectors its requests ask for. A request whose "
			 "line is there but lacks a sector it asks for is a sector miss (a class of "
			 "its own, taking a hit's time), as a profiler counts it.%s Four-byte "
			 "loads walking a row miss once per line (96.9 %% hits) with whole lines, once "
			 "per sector (87.5 %%) with 32-byte ones: sample:effects/sectors.",
			 c->l1_sector, c->l1_line, c->l1_sector, n);
		para(ctx, "Sector misses", NULL);
		para(ctx, NULL, t);
	}
	if (est >= 0) {
		snprintf(t, sizeof t,
			 "est. %.2f%% (R): the miss rate the reuse profile measured by R estimates for "
			 "this geometry (one fully associative stack, binomial over the sets, "
			 "SDCM-style), without latency or MSHRs: beside the model's to compare; R "
			 "explains it.",
			 est * 100);
		para(ctx, NULL, t);
	}
	para(ctx, "The classes", NULL);
	for (int i = 0; i <= RD_NCLASS; i++) {
		if (i > 0 && !info_class_shown(c, i - 1))
			continue;
		snprintf(t, sizeof t, "%s: %s", class_glosses[i].name, class_glosses[i].text);
		para(ctx, NULL, t);
	}
	para(ctx, NULL,
	     c->classes == RD_CLASSES_PER_ACCESS
		     ? "Capacity and associativity are told apart per request (classes=per-access): "
		       "a shadow fully associative cache of the same size and policy takes the same requests at the same times; "
		       "a miss it would hit is associativity (Hill's three Cs)."
		     : "Capacity and associativity are told apart by difference (classes=difference, "
		       "the paper's): associativity is this cache's misses minus those of a fully "
		       "associative cache of the same size; the step-through (s) labels each request "
		       "per access. Set classes to per-access to count them that way.");
	para(ctx, NULL,
	     "Capacity misses follow the order in which the requests reach the cache, which the "
	     "MSHRs, the latency and even the hash change: on make run's fig3, l1.hash mod turns "
	     "MSHR misses into capacity misses, while a hash removes set conflicts where "
	     "associativity misses are (sample:effects/conflicts).");
	para(ctx, "Why fewer MSHRs can mean more hits", NULL);
	para(ctx, NULL,
	     "With few MSHRs, warps whose requests miss must wait for a free entry, while warps "
	     "whose requests hit keep running ahead. Requests to a line then come later, after "
	     "its data arrived, and hit instead of missing in flight or waiting for an entry "
	     "(seed 000 section 4.4, Figure 3). Set l1.mshrs from 64 to 16 and watch the hits "
	     "rise and the MSHR misses fall (and the latency misses, where there are any): "
	     "make run's fig3 has 13 hits with 64 MSHRs, 20974 with 16.");
	para(ctx, "Where to go next", NULL);
	para(ctx, NULL,
	     "? lists every key. s steps through the requests one by one; m maps the sets as a "
	     "heat map (a hash removing set conflicts: O opens sample:effects/conflicts, then "
	     "try l1.hash mod and fermi); g draws miss curves; c pins this result as a "
	     "baseline to compare the next change with; u undoes a change.");
}
