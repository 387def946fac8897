/*
 * GPGPU-Sim cache strings (see preset_gpgpusim.h). Field meanings follow
 * GPGPU-Sim's cache_config::init (src/gpgpu-sim/gpu-cache.h); the parser
 * here is our own and stricter: it names the field that is wrong.
 */
#include "preset_gpgpusim.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A policy letter and what GPGPU-Sim calls it. */
typedef struct letter {
	char c;
	const char *meaning;
} letter;

static const letter replacement[] = {{'L', "LRU"}, {'F', "FIFO"}, {0, NULL}};
static const letter write_policy[] = {{'R', "read-only"},
				      {'B', "write-back"},
				      {'T', "write-through"},
				      {'E', "write-evict"},
				      {'L', "write-back for local, write-through for global"},
				      {0, NULL}};
static const letter allocation[] = {
	{'m', "allocate on miss"}, {'f', "allocate on fill"}, {'s', "streaming"}, {0, NULL}};
static const letter write_alloc[] = {{'N', "no write-allocate"},
				     {'W', "write-allocate"},
				     {'F', "fetch-on-write"},
				     {'L', "lazy fetch-on-read"},
				     {0, NULL}};
static const letter set_index[] = {{'L', "linear"},
				   {'X', "bitwise XOR"},
				   {'H', "Fermi hash"},
				   {'P', "IPOLY hash"},
				   {'C', "custom"},
				   {0, NULL}};
static const letter mshr_type[] = {{'A', "associative"},
				   {'S', "sector associative"},
				   {'F', "texture FIFO"},
				   {'T', "sector texture FIFO"},
				   {0, NULL}};

static const char *letter_meaning(const letter *t, char c)
{
	for (; t->c; t++)
		if (t->c == c)
			return t->meaning;
	return NULL;
}

static void notef(gpgpusim_note_fn note, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void notef(gpgpusim_note_fn note, void *ctx, const char *fmt, ...)
{
	if (!note)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	note(ctx, msg);
}

/* A cursor over the string, naming the field being read for errors. */
typedef struct scan {
	const char *p;
	char *err;
	size_t errlen;
	int failed;
} scan;

static void scan_fail(scan *s, const char *what)
{
	if (!s->failed)
		snprintf(s->err, s->errlen, "gpgpusim: expected %s at '%.20s'", what,
			 *s->p ? s->p : "(end)");
	s->failed = 1;
}

static unsigned scan_uint(scan *s, const char *what)
{
	if (s->failed || !isdigit((unsigned char)*s->p)) {
		scan_fail(s, what);
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(s->p, &end, 10);
	if (errno || v > 0xFFFFFFFFul) {
		scan_fail(s, what);
		return 0;
	}
	s->p = end;
	return (unsigned)v;
}

static char scan_letter(scan *s, const letter *t, const char *what)
{
	char c = s->failed ? 0 : *s->p;
	if (!c || !letter_meaning(t, c)) {
		scan_fail(s, what);
		return 0;
	}
	s->p++;
	return c;
}

static int scan_sep(scan *s, char sep)
{
	if (!s->failed && *s->p == sep) {
		s->p++;
		return 1;
	}
	return 0;
}

static void scan_expect(scan *s, char sep)
{
	char what[4] = {'\'', sep, '\'', 0};
	if (!scan_sep(s, sep))
		scan_fail(s, what);
}

static int set_key(rd_config *cfg, const char *key, unsigned long long v, char *err,
		   size_t errlen)
{
	char text[32], msg[256];
	snprintf(text, sizeof text, "%llu", v);
	if (rd_config_set(cfg, key, text, msg, sizeof msg) == 0)
		return 0;
	snprintf(err, errlen, "gpgpusim: %s", msg);
	return -1;
}

int gpgpusim_import(const char *str, rd_config *cfg, gpgpusim_note_fn note, void *ctx,
		    char *err, size_t errlen)
{
	if (strcmp(str, "none") == 0) {
		snprintf(err, errlen, "gpgpusim: 'none' disables the L1: there is no cache to model");
		return -1;
	}
	scan s = {.p = str, .err = err, .errlen = errlen};
	char type = 'N';
	if ((str[0] == 'N' || str[0] == 'S') && str[1] == ':') {
		type = str[0];
		s.p += 2;
	}
	unsigned nsets = scan_uint(&s, "the number of sets");
	scan_expect(&s, ':');
	unsigned line = scan_uint(&s, "the line size");
	scan_expect(&s, ':');
	unsigned ways = scan_uint(&s, "the associativity");
	scan_expect(&s, ',');
	char rp = scan_letter(&s, replacement, "a replacement policy (L or F)");
	scan_expect(&s, ':');
	char wp = scan_letter(&s, write_policy, "a write policy (R, B, T, E or L)");
	scan_expect(&s, ':');
	char ap = scan_letter(&s, allocation, "an allocation policy (m, f or s)");
	scan_expect(&s, ':');
	char wap = scan_letter(&s, write_alloc, "a write-allocate policy (N, W, F or L)");
	/* GPGPU-Sim added the set-index letter in 2014; older strings lack it. */
	int have_sif = scan_sep(&s, ':');
	char sif = have_sif ? scan_letter(&s, set_index, "a set index (L, X, H, P or C)") : 'L';
	scan_expect(&s, ',');
	char mt = scan_letter(&s, mshr_type, "an MSHR type (A, S, F or T)");
	scan_expect(&s, ':');
	unsigned entries = scan_uint(&s, "the MSHR entries");
	scan_expect(&s, ':');
	unsigned merge = scan_uint(&s, "the MSHR merges");
	int have_mq = scan_sep(&s, ','), have_rf = 0, have_dpw = 0;
	unsigned mq = have_mq ? scan_uint(&s, "the miss queue size") : 0, rf = 0, dpw = 0;
	if (have_mq && (have_rf = scan_sep(&s, ':')))
		rf = scan_uint(&s, "the result FIFO size");
	if (have_mq && (have_dpw = scan_sep(&s, ',')))
		dpw = scan_uint(&s, "the data port width");
	if (!s.failed && *s.p)
		scan_fail(&s, "the end of the string");
	if (s.failed)
		return -1;

	if (nsets == 0 || ways == 0 || line == 0) {
		snprintf(err, errlen, "gpgpusim: sets, line size and ways must be at least 1");
		return -1;
	}
	rd_config c = *cfg;
	if (set_key(&c, "l1.line", line, err, errlen) < 0 ||
	    set_key(&c, "l1.ways", ways, err, errlen) < 0 ||
	    set_key(&c, "l1.size", (unsigned long long)nsets * line * ways, err, errlen) < 0)
		return -1;
	const char *hash = sif == 'H' ? "fermi" : sif == 'X' ? "xor" : "mod";
	char msg[256];
	rd_config_set(&c, "l1.hash", hash, msg, sizeof msg);
	c.l1_mshrs = entries;
	int lowered = 0;
	if (c.l1_mshr_per_warp > entries && entries) {
		notef(note, ctx, "l1.mshr_per_warp lowered from %u to the string's %u MSHRs",
		      c.l1_mshr_per_warp, entries);
		c.l1_mshr_per_warp = entries;
		lowered = 1;
	}
	if (!entries)
		notef(note, ctx, "0 MSHR entries: rdscope's l1.mshrs=0 is unlimited (GPGPU-Sim "
				 "would take no miss)");

	/* Everything that does not carry over, one line each. */
	if (type == 'S')
		notef(note, ctx, "S (sector cache): modelled as whole %u-byte lines, "
				 "sectors are not modelled", line);
	c.replacement = rp == 'F' ? RD_REPL_FIFO : RD_REPL_LRU;
	/* Stores: write-evict and write-allocate carry over; a store that
	 * keeps the line it hits and goes past on a miss (no write-allocate)
	 * has no rdscope form: its nearest, ignore, leaves the set's order as
	 * loads made it. A read-only cache sees no stores. */
	if (wp == 'E') {
		c.stores = RD_STORES_EVICT;
		if (wap != 'N')
			notef(note, ctx, "write-evict with write-allocate policy %c (%s): modelled as "
					 "l1.stores=evict", wap, letter_meaning(write_alloc, wap));
	} else if (wp == 'R') {
		c.stores = RD_STORES_IGNORE;
	} else if (wap != 'N') {
		c.stores = RD_STORES_ALLOCATE;
		notef(note, ctx, "write policy %c (%s) with write-allocate policy %c (%s): modelled "
				 "as l1.stores=allocate (write-back and write-through are alike to hits "
				 "and misses)", wp, letter_meaning(write_policy, wp), wap,
		      letter_meaning(write_alloc, wap));
	} else {
		c.stores = RD_STORES_IGNORE;
		notef(note, ctx, "write policy %c (%s) without write-allocate: a store keeps the line "
				 "it hits and goes past on a miss; modelled as l1.stores=ignore (stores "
				 "do not reorder the set)", wp, letter_meaning(write_policy, wp));
	}
	if (c.loads == RD_LOADS_BYPASS && c.stores == RD_STORES_ALLOCATE) {
		c.loads = RD_LOADS_CACHE;
		notef(note, ctx, "l1.loads=bypass dropped: the string caches stores, so it caches loads");
	}
	/* Allocation: on miss or on fill (l1.allocate, model=paper), not
	 * with write-evict; streaming is not modelled. */
	c.l1_allocate = RD_ALLOC_FILL;
	if (ap == 'm' && c.model == RD_PROFILE_PAPER && c.stores != RD_STORES_EVICT)
		c.l1_allocate = RD_ALLOC_MISS;
	else if (ap != 'f')
		notef(note, ctx, "allocation policy %c (%s) is not modelled%s: l1.allocate=fill", ap,
		      letter_meaning(allocation, ap),
		      ap == 's'		       ? ""
		      : c.stores == RD_STORES_EVICT ? " with write-evict"
						 : " outside model=paper");
	if (!have_sif)
		notef(note, ctx, "no set-index letter (a pre-2014 string): linear (mod) assumed");
	if (sif == 'P' || sif == 'C')
		notef(note, ctx, "set index %c (%s) is not modelled: using mod (linear)", sif,
		      letter_meaning(set_index, sif));
	if (mt != 'A')
		notef(note, ctx, "MSHR type %c (%s) is modelled as %u associative MSHRs", mt,
		      letter_meaning(mshr_type, mt), entries);
	if (!lowered)
		notef(note, ctx, "l1.mshr_per_warp is not in the string: kept at %u",
		      c.l1_mshr_per_warp);
	notef(note, ctx, "MSHR merges (%u per entry) are not modelled: merging is unlimited", merge);
	if (have_mq)
		notef(note, ctx, "miss queue (%u entries) is not modelled", mq);
	if (have_rf)
		notef(note, ctx, "result FIFO (%u entries) is not modelled", rf);
	if (have_dpw)
		notef(note, ctx, "data port width (%u bytes) is not modelled", dpw);
	*cfg = c;
	return 0;
}

int gpgpusim_export(const rd_config *cfg, enum gpgpusim_form form, char *buf, size_t len,
		    gpgpusim_note_fn note, void *ctx)
{
	char sif = 'L';
	if (cfg->l1_hash == RD_HASH_FERMI)
		sif = 'H';
	else if (cfg->l1_hash == RD_HASH_XOR)
		sif = 'X';
	else if (cfg->l1_hash != RD_HASH_MOD)
		notef(note, ctx, "l1.hash=%s has no GPGPU-Sim set index: wrote L (linear)",
		      rd_hash_name(cfg->l1_hash));
	if (cfg->l1_mshrs == 0)
		notef(note, ctx, "l1.mshrs=0 (unlimited) has no GPGPU-Sim form: wrote 0 entries, "
				 "set a real count before use");
	char rp = cfg->replacement == RD_REPL_FIFO ? 'F' : 'L';
	if (cfg->replacement != RD_REPL_LRU && cfg->replacement != RD_REPL_FIFO)
		notef(note, ctx, "l1.replacement=%s has no GPGPU-Sim letter: wrote L (LRU)",
		      rd_replacement_name(cfg->replacement));
	/* ignore: GPGPU-Sim's Fermi default (a store keeps the line it hits) */
	const char *wp = cfg->stores == RD_STORES_EVICT	     ? "E"
			 : cfg->stores == RD_STORES_ALLOCATE ? "B"
							     : "L";
	char ap = cfg->l1_allocate == RD_ALLOC_MISS ? 'm' : 'f';
	const char *wap = cfg->stores == RD_STORES_ALLOCATE ? "W" : "N";
	/* model=rdgc's merge limit is the string's; elsewhere GPGPU-Sim's 8 */
	unsigned merges = cfg->model == RD_PROFILE_RDGC && cfg->l1_max_merges ? cfg->l1_max_merges : 8;
	int n = snprintf(buf, len, "%s%u:%u:%u,%c:%s:%c:%s:%c,A:%u:%u,8",
			 form == GPGPUSIM_4X ? "N:" : "", rd_config_sets(cfg), cfg->l1_line,
			 cfg->l1_ways, rp, wp, ap, wap, sif, cfg->l1_mshrs, merges);
	if (cfg->stores == RD_STORES_IGNORE)
		notef(note, ctx, "l1.stores=ignore has no GPGPU-Sim form: wrote L:%c:N (local "
				 "write-back/global write-through, no write-allocate: Fermi's default)",
		      ap);
	if (cfg->loads == RD_LOADS_BYPASS)
		notef(note, ctx, "l1.loads=bypass is not in the cache string: set "
				 "-gpgpu_gmem_skip_L1D 1");
	notef(note, ctx, "policies rdscope does not model written as GPGPU-Sim's defaults: "
			 "%smiss queue 8",
	      cfg->model == RD_PROFILE_RDGC ? "" : "8 merges per MSHR, ");
	notef(note, ctx, "not in the cache string: l1.mshr_per_warp=%u, latency.hit=%u, "
			 "latency.miss=%u, latency.stddev=%g, gpu.cores=%u",
	      cfg->l1_mshr_per_warp, cfg->latency_hit, cfg->latency_miss, cfg->latency_stddev,
	      cfg->cores);
	notef(note, ctx, "set these with other GPGPU-Sim options: -gpgpu_shader_core_pipeline %u:%u "
			 "-gpgpu_shader_cta %u -gpgpu_scheduler %s",
	      cfg->max_active_threads, cfg->warp_size, cfg->max_active_blocks,
	      cfg->scheduler_policy == RD_SCHED_GTO ? "gto" : "lrr");
	if (cfg->model == RD_PROFILE_RDGC)
		notef(note, ctx, "not in the cache string (model=rdgc): l1.banks=%u, l1.ports=%u, "
				 "l1.mshr_sets=%u, gpu.schedulers=%u (-gpgpu_num_sched_per_core), "
				 "latency.model=%s",
		      cfg->l1_banks, cfg->l1_ports, cfg->l1_mshr_sets, cfg->schedulers,
		      rd_latency_model_name(cfg->latency_model));
	if (cfg->l2_size)
		notef(note, ctx, "the L2 is another option: -gpgpu_cache:dl2 %s%u:%u:%u,%c:B:m:W:L,A:%u:%u,"
				 "4:0,32 per bank, with -gpgpu_n_mem %u and "
				 "-gpgpu_n_sub_partition_per_mchannel %u (l2.ports=%u, l2.mshr_sets=%u, "
				 "l2.interleave=%u and latency.l2=%u have no GPGPU-Sim form)",
		      form == GPGPUSIM_4X ? "N:" : "", rd_config_l2_sets(cfg), cfg->l2_line, cfg->l2_ways,
		      cfg->l2_replacement == RD_REPL_FIFO ? 'F' : 'L', cfg->l2_mshrs,
		      cfg->l2_max_merges ? cfg->l2_max_merges : 8, cfg->l2_partitions, cfg->l2_banks,
		      cfg->l2_ports, cfg->l2_mshr_sets, rd_config_l2_interleave(cfg), cfg->latency_l2);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
