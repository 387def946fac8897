/*
 * rdscope model library: the GPU L1 reuse-distance model of Nugteren et al.
 * (HPCA 2014), with the 2013 reference code's behaviour as a
 * second profile.
 *
 * Pure C11. No curses, no libconfig, no printing, no global mutable state:
 * every function is reentrant, so the explorer's worker thread and the tests
 * can run models at the same time on different rd_model objects.
 *
 * Pipeline:  kernel (trace) -> schedule -> coalesce -> set index
 *            -> timed per-set reuse distance -> classify.
 * An rd_model caches the output of each stage keyed by the parameters it
 * depends on, so a rerun after a parameter change starts from the first
 * stage that parameter affects.
 */
#ifndef RDSCOPE_H
#define RDSCOPE_H

#include <stddef.h>
#include <stdint.h>

#define RD_VERSION "0.1.0"

/* ---------------------------------------------------------------- config */

enum rd_profile {
	RD_PROFILE_PAPER = 0,   /* the paper as written (default) */
	RD_PROFILE_REF2013 = 1, /* the 2013 reference code, quirks included */
	RD_PROFILE_RDGC = 2,    /* RDGC (seed 001): banked, ported L1s issuing warp
				 * groups in Algorithm 2's order, reservation fails
				 * stalling the warp group, fixed or adaptive latency */
};

/* The miss latency of model=rdgc (seed 001 §4.4.1): fixed (latency.miss
 * steps), or adaptive: K1 + K2 * busy MSHR entries * active cores / L2P. */
enum rd_latency_model { RD_LATENCY_FIXED = 0, RD_LATENCY_ADAPTIVE };

enum rd_hash {
	RD_HASH_MOD = 0, /* line address mod sets */
	RD_HASH_XOR,     /* low log2(sets) line bits XOR the next log2(sets) */
	RD_HASH_FERMI,   /* Fermi GTX470 hash, Nugteren et al., HPCA 2014, §5.1 */
	RD_HASH_SMOD,    /* (line address >> shift) mod sets */
	RD_HASH_PRIME,   /* line address mod largest prime <= sets */
};

enum rd_mapping {
	RD_MAP_RR = 0,  /* block b -> core b mod cores */
	RD_MAP_BPART4,  /* groups of 4 consecutive blocks, round-robin */
	RD_MAP_BPART8,  /* groups of 8 consecutive blocks, round-robin */
	RD_MAP_RANDOM,  /* seeded shuffle, then round-robin (balanced) */
};

/* The L1's replacement policy (RDGC, seed 001; Dinero IV's -l1-drepl):
 * empty ways fill first (lowest index); FIFO evicts the line inserted
 * first, LFU the one with the fewest accesses since its insertion (ties:
 * the least recently used), random a way drawn from a generator of its
 * own per core and case. The reuse-distance histogram stays LRU's. */
enum rd_replacement { RD_REPL_LRU = 0, RD_REPL_FIFO, RD_REPL_LFU, RD_REPL_RANDOM };

/* What a store does at the L1 (RDGC, seed 001 §3-4; Dinero IV's -l1-dwalloc):
 *  ignore   - nothing: stores never reach the cache (the paper, seed 000);
 *  evict    - write-evict: a store goes past the L1 and takes no MSHR; a
 *             store that hits removes the line (its way is left empty), and
 *             a store to a line in flight cancels the insertion of the fills
 *             in flight then (RDGC's WON, every Maxwell-and-later L1);
 *  allocate - looked up and cached like a load; a store miss takes an MSHR
 *             (write-back, write-allocate: RDGC's OFF, Dinero IV's default).
 * Stores enter the pipeline in program order: warp instruction k is each
 * thread's k-th access, the lanes whose k-th access is a store forming its
 * store requests (coalesced like loads), issued after its loads. */
enum rd_stores { RD_STORES_IGNORE = 0, RD_STORES_EVICT, RD_STORES_ALLOCATE };

/* What a load does at the L1: cache (-dlcm=ca), or bypass (-dlcm=cg: every
 * load goes past the L1, a miss of class bypass, taking no MSHR; with
 * stores=evict RDGC's RWON; with stores=allocate refused). */
enum rd_loads { RD_LOADS_CACHE = 0, RD_LOADS_BYPASS };

/* When a load miss takes its way in the L1 (model=paper):
 *  fill - when its data arrives (the paper's: the LRU stack is updated at
 *         the fill, and a line in flight occupies no way);
 *  miss - when the miss issues (GPGPU-Sim's and Fermi's "allocate on
 *         miss"): the victim is chosen then and the way reserved until the
 *         fill; a reserved way is never a victim, and a miss whose set has
 *         every way reserved is refused (a reservation failure) and
 *         retried like a miss that found no MSHR. */
enum rd_allocate { RD_ALLOC_FILL = 0, RD_ALLOC_MISS };

/* What l1.mshr_per_warp counts (model=paper; seed 000 §5.2 measured "6"
 * with one line per load, which fits both readings):
 *  entries - MSHR entries the warp holds (the paper model's reading);
 *  loads   - the warp's load instructions with a miss in flight (§5.2's
 *            alternative: "a limit on the number of outstanding
 *            incomplete instructions"); an instruction's own misses are
 *            never refused by it, however many lines it touches. */
enum rd_warp_limit { RD_WARP_LIMIT_ENTRIES = 0, RD_WARP_LIMIT_LOADS };

/* Which ready warp a core issues next (model=paper):
 *  rr  - round-robin: the queue's front (the paper's, Tables 2-5);
 *  gto - greedy then oldest (GPGPU-Sim's -gpgpu_scheduler gto, the setting
 *        of its GTX 480 configuration): the warp issued last while it is
 *        ready, else the oldest ready warp. */
enum rd_sched_policy { RD_SCHED_RR = 0, RD_SCHED_GTO };

/* How misses that are neither compulsory nor latency nor MSHR misses are
 * split between capacity and associativity. */
enum rd_classes {
	RD_CLASSES_DIFFERENCE = 0, /* by difference with a fully associative run (the paper) */
	RD_CLASSES_PER_ACCESS,     /* each miss: would a fully associative cache of the
				    * same capacity and policy, fed the same requests with
				    * the same timing, hit it? (Hill's 3C, Dinero IV's
				    * -l1-dccc) */
};

/* Memory spaces per array (seed 002): mem.NAME=SPACE keys. */
enum rd_space {
	RD_SPACE_GLOBAL = 0,
	RD_SPACE_TEXTURE,
	RD_SPACE_TEXTURE2D,
	RD_SPACE_CONSTANT,
	RD_SPACE_SHARED,
	RD_NSPACES
};
#define RD_MEM_MAX 16      /* placements a configuration holds */
#define RD_MEM_NAME_MAX 64 /* an array name's bytes, NUL included */
/* One mem.NAME=SPACE setting (a configuration keeps them sorted by name). */
typedef struct rd_placement {
	char name[RD_MEM_NAME_MAX];
	enum rd_space space;
} rd_placement;

typedef struct rd_config {
	enum rd_profile model;
	uint32_t l1_size;          /* bytes */
	uint32_t l1_line;          /* bytes, power of two */
	uint32_t l1_ways;          /* >= 1, need not be a power of two */
	enum rd_hash l1_hash;
	uint32_t l1_hash_shift;    /* N of smod:N */
	uint32_t l1_mshrs;         /* per core, 0 = unlimited */
	uint32_t l1_mshr_per_warp; /* 0 = unlimited */
	uint32_t latency_hit;      /* model time steps */
	uint32_t latency_miss;     /* lambda_min */
	double latency_stddev;     /* sigma of the half-normal addition */
	int latency_clip;          /* clip effect-at to an in-flight request */
	int divergence;            /* warps re-enter the queue after their latency */
	uint32_t warp_size;
	uint32_t cores;
	uint32_t max_threads;      /* 0 = no cap */
	uint32_t sample_cores;     /* 0 = every core with blocks */
	uint32_t max_active_threads;
	uint32_t max_active_blocks;
	enum rd_mapping block_mapping;
	uint64_t seed;
	enum rd_classes classes;
	enum rd_replacement replacement;
	enum rd_stores stores;
	enum rd_loads loads;
	enum rd_allocate l1_allocate;
	enum rd_warp_limit l1_warp_limit; /* what l1_mshr_per_warp counts */
	enum rd_sched_policy scheduler_policy;
	/* L1 parallelism (model=rdgc; the other profiles refuse other than
	 * the defaults): banks (each its own sets and stack; sets per bank =
	 * sets / banks; bank = line mod banks), requests a bank accepts per
	 * step (0 = unlimited), MSHR sets (bank b uses set b * sets / banks;
	 * l1_mshrs entries each), merges per MSHR entry (0 = unlimited) */
	uint32_t l1_banks, l1_ports, l1_mshr_sets, l1_max_merges;
	uint32_t schedulers;       /* warps issued together per step per core */
	enum rd_latency_model latency_model;
	double latency_k1, latency_k2;
	/* The L2 shared by every core (l2_size 0: none). Sets per bank =
	 * l2_size / (l2_line * l2_ways * l2_partitions * l2_banks). */
	uint32_t l2_size, l2_line, l2_ways;
	enum rd_hash l2_hash;
	uint32_t l2_hash_shift;
	enum rd_replacement l2_replacement;
	enum rd_stores l2_stores;
	uint32_t l2_partitions, l2_banks; /* banks per partition */
	uint32_t l2_ports;         /* per bank per step, 0 = unlimited */
	uint32_t l2_interleave;    /* bytes per partition stripe, 0 = l2_line */
	uint32_t l2_mshrs;         /* entries per MSHR set, 0 = unlimited */
	uint32_t l2_mshr_sets;     /* partition p uses set p * sets / partitions */
	uint32_t l2_max_merges;    /* 0 = unlimited */
	uint32_t latency_l2;       /* steps: the fixed latency of an L2 miss */
	/* DRAM after the last cache level (seed 002 §B2-B3; off by default).
	 * An address's bank is its channel-mask bits then its bank-mask bits
	 * (channel-major, each mask's bits packed low to high), its row the
	 * row-mask bits; the column mask only has to be disjoint from the
	 * others. Latencies in ns; dram_ns_per_step converts the model's steps
	 * to ns; a row left idle longer than dram_row_timeout ns (0: never) is
	 * closed. dram_cache_hit is Eq. 5's hit_lat (ns). */
	int dram_enable;
	uint64_t dram_row_mask, dram_col_mask, dram_bank_mask, dram_channel_mask;
	double dram_row_hit, dram_row_miss, dram_row_conflict;
	double dram_ns_per_step, dram_row_timeout, dram_cache_hit;
	/* Memory spaces (seed 002): the texture cache and the constant cache
	 * (per core, LRU, set-associative), shared memory (bytes per block,
	 * banks of bank_width bytes), and the placements: mem[0 .. mem_n),
	 * sorted by name, each name once. Arrays not named are global. */
	uint32_t tex_size, tex_line, tex_ways;
	uint32_t const_size, const_line, const_ways;
	uint32_t smem_size, smem_banks, smem_bank_width;
	double smem_latency; /* Eq. 5's shmem_lat (ns) */
	/* Today's GPUs: the L1's sectors (bytes; 0: whole lines, the paper's) */
	uint32_t l1_sector;
	/* an L1 sharing one array with shared memory (bytes; 0: not unified),
	 * and the shared-memory configuration size taken from it: the L1 is
	 * the rest (l1_size follows, rd_config_set) */
	uint32_t l1_unified, l1_carveout;
	/* the L2's sectors (bytes; 0: whole lines), as l1_sector, and the
	 * aligned block a read miss fills around each sector asked (0: the
	 * sectors asked only) */
	uint32_t l2_sector, l2_fetch;
	uint32_t mem_n;
	rd_placement mem[RD_MEM_MAX];
} rd_config;

/* The paper's Fermi 16 KB configuration. */
void rd_config_default(rd_config *c);

/*
 * The shared-memory configuration sizes a unified L1 of that many bytes
 * offers (Volta 128 KB, Ampere 192 KB, Hopper 256 KB, as the CUDA tuning
 * guides list them): their number, written to out (up to max); 0 for a
 * size not in the table (any carve-out below it is taken).
 */
int rd_l1_carveouts(uint32_t unified, uint32_t *out, int max);

/* Number of sets, l1_size / (l1_line * l1_ways); 0 if not whole. */
uint32_t rd_config_sets(const rd_config *c);
/* Sets per L2 bank; 0 if not whole (or no L2). */
uint32_t rd_config_l2_sets(const rd_config *c);
/* The L2's bytes per partition stripe (l2_interleave, or l2_line if 0). */
uint32_t rd_config_l2_interleave(const rd_config *c);
/* RDGC's L1B runs (seed 001 §5): the L1 disabled for loads and stores
 * (l1.loads=bypass, l1.stores=evict: RWON). */
void rd_config_l1b(rd_config *c);
/* c under the paper profile in the latency-free order (seed 003's and the
 * curves'): no latency, unlimited MSHRs, loads cached, stores and the L2
 * left out, RDGC's own keys and the L1 mechanisms (l1.allocate,
 * l1.mshr_per_warp_counts, gpu.scheduler_policy) back at the paper's
 * defaults. */
void rd_config_latency_free(const rd_config *c, rd_config *out);
/* The configuration whose as-configured case measures c's reuse profile:
 * rd_config_latency_free with every line in one set (fully associative
 * LRU). Its distances do not depend on the size: the latency-free order
 * does not depend on hits and misses. */
void rd_config_profile(const rd_config *c, rd_config *out);
/* The adaptive latency (seed 001 §4.4.1) in whole steps: ceil(k1 + k2 *
 * busy * cores / l2p), at least 1 [ours]. */
uint32_t rd_adaptive_latency(double k1, double k2, uint32_t busy, uint32_t cores, uint32_t l2p);
/* Algorithm 3 of seed 001: blocks a core runs at once (CB) and waves
 * (Nitr) for bsm blocks of wpb warps; 0, 0 for bsm 0. */
void rd_concurrent_blocks(uint32_t wpb, uint32_t bsm, uint32_t maxcb, uint32_t maxcw,
			  uint32_t *cb, uint32_t *nitr);

/*
 * Validate a whole configuration. Returns 0 if valid; otherwise writes the
 * first problem as "key: message" into err and returns -1.
 */
int rd_config_check(const rd_config *c, char *err, size_t errlen);

/*
 * When c is invalid only because its hash cannot take its number of sets
 * (fermi: 32 or 64; xor: a power of two), the hash that can: RD_HASH_XOR
 * for a power of two, else RD_HASH_MOD. -1 when c is valid or another
 * problem remains. (The explorer switches to it; batch names it.)
 */
int rd_config_hash_fallback(const rd_config *c);

/*
 * The dotted keys ("l1.ways", ...), shared by -s, presets, UI and output:
 * one row per key holds everything about it, and setting, getting,
 * defaults, comparison, the range checks, `rdscope keys`, the help and the
 * man page's list are all generated from the rows.
 */
enum rd_key_type { RD_KEY_UINT, RD_KEY_DOUBLE, RD_KEY_BOOL, RD_KEY_ENUM };

#define RD_KEY_POW2 1u /* flags: the value must be a power of two */
#define RD_KEY_SPACES 2u /* flags: a memory-space key (the CSV writes it only
			  * with the spaces' columns) */

/*
 * The model's pipeline stages in the order they run (bits of
 * rd_key.stages, RD_STAGE_BIT(s)). Each stage keeps its result while the
 * keys its rows name are the same (rd_config_same) and its input is; so an
 * edit reruns from the first stage one of its keys names. The memory
 * spaces' pass and the report (classification, AMAT) run every time.
 */
enum rd_stage {
	RD_STAGE_SCHED,   /* blocks to cores, warps, the threads modelled */
	RD_STAGE_COAL,    /* warp instructions to line requests */
	RD_STAGE_SETS,    /* each line's set (and bank) */
	RD_STAGE_SPACES,  /* texture, constant and shared memory */
	RD_STAGE_L1,      /* the L1 cases (memoised by their parameters) */
	RD_STAGE_L2,      /* the shared L2 over every core's misses */
	RD_STAGE_DRAM,    /* row buffers and queueing */
	RD_STAGE_REPORT,  /* classification, rates, the AMAT */
	RD_NSTAGES
};
#define RD_STAGE_BIT(s) (1u << (s))
#define RD_STAGES_ALL ((1u << RD_NSTAGES) - 1)
/* "sched", "coal", ...: the stage's name. */
const char *rd_stage_name(enum rd_stage s);

/* Bits of rd_key.profiles: the profiles that model a key (0: all). */
#define RD_PROFILE_BIT(p) (1u << (p))

typedef struct rd_key {
	const char *name;        /* "l1.ways" */
	enum rd_key_type type;
	const char *unit;        /* "bytes", "steps", "" */
	const char *help;        /* one line */
	const char *choices;     /* RD_KEY_ENUM: "mod|xor|fermi|smod:N|prime" */
	const char *def;         /* the default, as rd_config_set takes it */
	/* RD_KEY_UINT and RD_KEY_DOUBLE: the least value (rd_config_set and
	 * rd_config_check refuse less) and the greatest, 0 for none but the
	 * field's own (only rd_config_check refuses more, so that a preset
	 * can name every problem of a whole configuration). */
	uint64_t min, max;
	unsigned flags;          /* RD_KEY_POW2 */
	/* Where the value lives in rd_config: offset and size (RD_KEY_UINT:
	 * 4 or 8 bytes; the others an int, an enum or a double). */
	size_t offset, size;
	/* RD_KEY_ENUM: the value names in enum order, as many as choices
	 * has. With an arg_name, the one at arg_choice takes ":N", a number
	 * from 0 to arg_max kept at arg_offset (a uint32_t): "smod:N". */
	const char *const *names;
	int nnames, arg_choice;
	uint32_t arg_max;
	size_t arg_offset;
	const char *arg_name;    /* "shift" */
	const char *doc;         /* the man page's text (roff); NULL: help */
	/* Where the key acts: the stages that read it (RD_STAGE_BIT; every
	 * key names at least one), the profiles that model it (0: all; under
	 * another the key is ignored or held at that profile's default, see
	 * rd_config_check), a condition on another key ("latency.model=
	 * adaptive", "l2.size!=0"; NULL: none) and RDGC's default where it
	 * is not def (setting model=rdgc moves a key still at def to it). */
	unsigned stages, profiles;
	const char *when;
	const char *def_rdgc;
} rd_key;

extern const rd_key rd_keys[];   /* constant table, NULL-name terminated */
size_t rd_key_count(void);
const rd_key *rd_key_find(const char *name);

/*
 * Set one key from its text value. Checks the value's own range only (whole
 * configuration checks are rd_config_check). Returns 0, or -1 with
 * "l1.ways: must be >= 1 (got 0)" style text in err.
 */
int rd_config_set(rd_config *c, const char *key, const char *value,
		  char *err, size_t errlen);

/* Format a key's current value as text (as rd_config_set accepts it). */
int rd_config_get(const rd_config *c, const char *key, char *buf, size_t len);

/*
 * Do a and b give every key the same value? Field by field over the key
 * table (doubles compared exactly, booleans by truth, smod's shift only
 * under smod): 1 if equal, else 0.
 */
int rd_config_equal(const rd_config *a, const rd_config *b);

/*
 * Do a and b give every key whose row names one of the stages in mask
 * (RD_STAGE_BIT) the same value? Compared as rd_config_equal does; the
 * placements (mem.*) count for the coalescing and spaces stages. 1 or 0.
 */
int rd_config_same(const rd_config *a, const rd_config *b, unsigned stages);

/*
 * Does c's model read key k? 0 when c's profile does not model it or its
 * row's condition does not hold, with the reason in why (short, for a
 * parameter pane: "(model=rdgc)", "(adaptive only)", "(l2.size 0: off)");
 * 1 otherwise (why ""). A key that does not apply can change only as far
 * as rd_config_check allows, and then changes no result.
 */
int rd_key_applies(const rd_config *c, const rd_key *k, char *why, size_t len);

const char *rd_hash_name(enum rd_hash h);
const char *rd_mapping_name(enum rd_mapping m);
const char *rd_classes_name(enum rd_classes c);
const char *rd_replacement_name(enum rd_replacement r);
const char *rd_stores_name(enum rd_stores s);
const char *rd_loads_name(enum rd_loads l);
const char *rd_profile_name(enum rd_profile p);
const char *rd_latency_model_name(enum rd_latency_model l);

/* The modulus of the prime hash: the largest prime <= sets (1 if none). */
uint32_t rd_hash_prime(uint32_t sets);

/* Set index of a line address under the configuration's hash and sets. */
uint32_t rd_set_index(const rd_config *c, uint32_t sets, uint64_t line_addr);

/* ---------------------------------------------------------------- spaces */

/* "global", "texture", "texture2d", "constant", "shared"; NULL past the end. */
const char *rd_space_name(enum rd_space s);
/* The space named s, or -1. */
int rd_space_parse(const char *s);
/* The space c places array name in (RD_SPACE_GLOBAL if not named). */
enum rd_space rd_config_space(const rd_config *c, const char *name);
/* Drop array name's mem.NAME placement (back to global memory, and no
 * longer a configuration with placements when it was the last): 1, or 0
 * when c has none for name. (mem.NAME=global through rd_config_set is a
 * setting of its own: its run reports the spaces.) */
int rd_config_unset_mem(rd_config *c, const char *name);
/* Is any array placed outside global memory? */
int rd_config_has_spaces(const rd_config *c);

/* The largest array constant memory takes (bytes). */
#define RD_CONST_BYTES 65536u
/* Address-calculation instructions per warp instruction by space (seed
 * 002 Fig. 2 for a 1-D float element: global 2, texture 0, constant 1,
 * shared 1; texture2d 0 [ours]; the same for every element type [ours]). */
extern const uint32_t rd_space_addr_instr[RD_NSPACES];

/* Per space of a run: warp instructions, requests (lines for global and
 * texture, distinct addresses for constant, one per instruction for
 * shared), hits and misses of the space's cache (shared memory: every
 * request a hit), replays (rules 1-4 of seed 002 §B3.2) and the
 * addressing instructions (instructions * rd_space_addr_instr). */
typedef struct rd_space_stats {
	uint64_t instructions, requests, hits, misses, replays, address_instructions;
} rd_space_stats;

struct rd_kernel;
/*
 * Resolve c's placements against k's arrays: space_of[i] (k->arrays->n
 * entries) the space of array i. Refuses, with "mem.NAME: why" in err and
 * -1: a name the kernel has no array of; a stored array in texture or
 * constant memory; texture2d for a 1-D array; an array larger than
 * constant memory (64 KiB) or than smem.size. 0 when every placement is
 * allowed (also without placements, space_of all global).
 */
int rd_spaces_resolve(const rd_config *c, const struct rd_kernel *k, uint8_t *space_of,
		      char *err, size_t errlen);
/* rd_spaces_resolve without the result (NULL space_of is fine there too). */
int rd_spaces_check(const rd_config *c, const struct rd_kernel *k, char *err, size_t errlen);

/* ---------------------------------------------------------------- DRAM */

/*
 * DRAM after the last cache level (seed 002, notes Part B; model/dram.c).
 * The equations alone, for the stage and for tests:
 *  - Eq. 8: mean service time of a bank from its row hit, miss and
 *    conflict ratios and latencies;
 *  - Eq. 7: latencies weighted by arrival rates, sum(l_i * lat_i) / sum(l_i)
 *    (0 without arrivals);
 *  - Kingman's G/G/1 waiting time, the standard form
 *    ((ca^2 + cs^2) / 2) * (rho / (1 - rho)) * tau_s with rho = tau_s /
 *    tau_a; -1 when rho >= 1 (saturated: no finite mean wait). The paper
 *    prints ((ca + cs) / 2) * (rho / (1 - rho)) * tau_a (Eq. 9):
 *    rd_kingman_printed, for comparison only;
 *  - Eq. 5: AMAT = DRAMlat * miss_ratio + hit_lat + shmem_lat * shmem_ratio.
 */
double rd_dram_service(double hit_ratio, double miss_ratio, double conflict_ratio,
		       double row_hit, double row_miss, double row_conflict);
double rd_dram_weighted(const double *lambda, const double *lat, size_t n);
double rd_kingman(double ca, double cs, double tau_s, double tau_a);
double rd_kingman_printed(double ca, double cs, double tau_s, double tau_a);
double rd_amat(double dram_lat, double miss_ratio, double hit_lat, double shmem_lat,
	       double shmem_ratio);

/* Banks the mapping has: 2^(set bits of the channel and bank masks). */
uint64_t rd_dram_banks(const rd_config *c);
/* An address's bank (channel-major) and row under c's masks. */
uint32_t rd_dram_bank(const rd_config *c, uint64_t addr);
uint64_t rd_dram_row(const rd_config *c, uint64_t addr);

/* Row-buffer states of a request (an open-row buffer per bank). */
enum rd_row { RD_ROW_HIT = 0, RD_ROW_MISS, RD_ROW_CONFLICT };

/*
 * The row-buffer classification of a sequence of byte addresses at steps
 * t[] (non-decreasing; NULL: all at step 0) under c's masks, latencies
 * and row timeout, into out[] (n entries). 0, or -1 out of memory.
 */
int rd_dram_classify(const rd_config *c, const uint64_t *addr, const uint64_t *t, size_t n,
		     enum rd_row *out);

/* ---------------------------------------------------------------- arrays */

struct rd_kernel;

/*
 * The arrays of a kernel: named address ranges [base, base + bytes), with
 * their element size and, for 2D layouts, their width in elements (0:
 * 1D). Kept sorted by base and disjoint, so an address's array is a
 * binary search (rd_arrays_find); addresses outside every array are
 * "global". Kernel descriptions name theirs; for traces a CSV
 * (src/readers/arrays.c) or rd_arrays_detect names them.
 */
typedef struct rd_array {
	char *name;
	uint64_t base, bytes;
	uint32_t elem;
	uint32_t width; /* elements per row, 0: 1D */
} rd_array;

typedef struct rd_arrays {
	uint32_t n, cap;
	rd_array *a; /* sorted by base, disjoint */
} rd_arrays;

rd_arrays *rd_arrays_new(void);
void rd_arrays_free(rd_arrays *as);
/* Add one (name copied). 0; -1 out of memory; -2 bytes 0 or base + bytes
 * reaching 2^64; -3 it overlaps an array already there (*other: its index);
 * -4 the name is taken (*other: its index). Keeps the order by base. */
int rd_arrays_add(rd_arrays *as, const char *name, uint64_t base, uint64_t bytes, uint32_t elem,
		  uint32_t width, uint32_t *other);
/* The index of the array holding byte addr, or -1 (global). O(log n). */
int64_t rd_arrays_find(const rd_arrays *as, uint64_t addr);
/* The index of the array named name, or -1. */
int64_t rd_arrays_named(const rd_arrays *as, const char *name);

/*
 * Arrays found in a kernel's accesses (loads and stores): the touched
 * byte ranges [addr, addr + bytes) sorted, and two ranges in one array
 * unless at least `gap` bytes lie untouched between them; named a0, a1,
 * ... in address order, elem the most common access size in each (the
 * smallest on ties), width 0. NULL: out of memory.
 */
#define RD_ARRAYS_GAP_DEFAULT 65536u
rd_arrays *rd_arrays_detect(const struct rd_kernel *k, uint64_t gap);

/* Accesses per array: loads[i] and stores[i] for array i < as->n, and
 * those outside every array at index as->n (global; also stores without
 * addresses, a version-2 .rdt's, which rd_arrays_detect and
 * rd_spaces_resolve leave out). */
typedef struct rd_array_counts {
	uint64_t *loads, *stores; /* [as->n + 1] */
} rd_array_counts;
int rd_arrays_count(const rd_arrays *as, const struct rd_kernel *k, rd_array_counts *out);
void rd_array_counts_free(rd_array_counts *c);

/* ---------------------------------------------------------------- kernel */

/*
 * Where a load comes from in the program: its source site. Readers that
 * know it say so (an instruction's PC; a kernel description's line and
 * reference); a kernel without sites has one per per-thread load number.
 */
typedef struct rd_site {
	uint64_t pc;   /* instruction address, or 0 */
	uint32_t line; /* source line (1 = first), or 0 */
	char *ref;     /* the reference as written ("b[k][j]"), or NULL */
	char *array;   /* the array it reads ("b"), or NULL */
} rd_site;

/*
 * One kernel's thread-level accesses, per thread in program order (CSR
 * layout): the loads in one list, the stores in another, each store
 * knowing its place among its thread's accesses (store_pos), so that the
 * k-th access of a thread is known without a flag per load.
 */
typedef struct rd_kernel {
	char *name;
	uint32_t block_dim[3];
	uint32_t block_size;     /* product of block_dim */
	uint32_t nthreads;       /* 1 + largest thread id with a load */
	uint64_t nloads;
	uint64_t nstores;
	uint64_t *thread_first;  /* [nthreads + 1]: loads of t are [first[t], first[t+1]) */
	uint64_t *addr;          /* [nloads] byte address */
	uint16_t *bytes;         /* [nloads] access size */
	/* Who owns the three arrays: NULL, the kernel (rd_kernel_free frees
	 * them); else rd_kernel_free calls release(release_ctx) instead, for
	 * arrays lent by a reader (a mapped .rdt file). Never written to. */
	void (*release)(void *release_ctx);
	void *release_ctx;
	/* With release, optional: a hint that the n bytes at p (of addr or
	 * bytes) are not needed for a while. The lender may take their pages
	 * back; they read the same when next used (a mapped file's pages are
	 * read again). Coalescing drops what it has read, so that a mapped
	 * trace and its requests are not both in memory. */
	void (*drop)(void *release_ctx, const void *p, size_t n);
	/* Source sites: site[i] indexes sites[] for load i; both NULL when
	 * the reader knows none. sites[] is the kernel's own; site[] too,
	 * unless release is set (then it is lent with the arrays above). */
	uint32_t nsites;
	rd_site *sites;
	uint32_t *site;
	/* Stores (nstores of them; all NULL when there are none), sorted by
	 * thread id, each thread's in program order: store i is thread
	 * store_tid[i]'s, at store_addr[i], of store_bytes[i] bytes, the
	 * store_pos[i]-th access of its thread (0 = first; loads and stores
	 * counted). store_threads is 1 + the largest thread id with a store.
	 * (A list of ids, not a per-thread index: stores cost 18 bytes each,
	 * whatever their thread ids.) Owned like the loads' arrays (release). */
	uint32_t store_threads;
	uint32_t *store_tid;
	uint64_t *store_addr;
	uint16_t *store_bytes;
	uint32_t *store_pos;
	/* The kernel's arrays (its description's, or attached by the caller:
	 * a CSV's or rd_arrays_detect's), or NULL. Owned: rd_kernel_free frees
	 * it (rd_kernel_set_arrays replaces it). */
	rd_arrays *arrays;
	/* The launch's threads before its reader kept fewer (a description's
	 * max_threads), or 0: as many as it has. */
	uint64_t launch_threads;
	/* A part of a launch (rd_parts) numbered over its own blocks, or NULL:
	 * thread ids are the launch's. Thread t is then lane t % block_size
	 * of the launch's block part_block[t / block_size] (ascending, so the
	 * order of threads is the launch's): a part's index costs its own
	 * threads, not every id below its last. Owned: rd_kernel_free frees
	 * it (rd_kernel_set_part_blocks). */
	uint32_t *part_block;
	uint32_t part_nblocks;
	/* Where its accesses' arrays go once spent (rd_parts_add_spent), to
	 * build the next part in (rd_kernel_builder_use_spare), or NULL: they
	 * are freed. Not owned. */
	struct rd_kernel_spare *spare;
	/* The room of the loads' and the stores' arrays where it is more
	 * than their counts (a builder that kept it for the spare:
	 * rd_kernel_builder_keep_room), or 0. */
	uint64_t room_loads, room_stores;
} rd_kernel;

/*
 * Largest thread id a kernel may have. Loads are indexed per thread, so the
 * index costs 8 bytes per thread up to the largest id: 2^26 threads (512
 * MiB of index) is far beyond the traces people model (the paper capped
 * its experiments at 8192 threads) and keeps a stray huge id from
 * exhausting memory. Readers report larger ids as input errors.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/* make fuzz: the same checks with a small limit, so no fuzzed input spends
 * its time clearing a 512 MiB index (the error paths stay exercised). */
#define RD_MAX_THREAD_ID ((1u << 16) - 1)
#else
#define RD_MAX_THREAD_ID ((1u << 26) - 1)
#endif

typedef struct rd_kernel_builder rd_kernel_builder;

rd_kernel_builder *rd_kernel_builder_new(const char *name, uint32_t bx,
					 uint32_t by, uint32_t bz);
/* Append one access in file order. Returns 0, or -1 when out of memory or
 * tid > RD_MAX_THREAD_ID (readers check the id first to say which). */
int rd_kernel_builder_add(rd_kernel_builder *b, uint32_t tid, int is_store,
			  uint64_t addr, uint32_t bytes);
/* A source site (copied): its id for rd_kernel_builder_add_at, or -1 when
 * out of memory. Readers dedupe; the builder does not. */
int64_t rd_kernel_builder_site(rd_kernel_builder *b, const rd_site *s);
/* rd_kernel_builder_add with the load's site (an id from above). A kernel
 * with sites needs one for every load: loads added without get site 0. */
int rd_kernel_builder_add_at(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			     uint32_t bytes, uint32_t site);
/* Expect about n more accesses (a hint: saves regrowing). */
void rd_kernel_builder_reserve(rd_kernel_builder *b, uint64_t n);
/* What finishing will cost: the loads so far and 1 + the largest thread
 * id (the kernel keeps 8 bytes per thread id up to it, 10 per load). */
uint64_t rd_kernel_builder_loads(const rd_kernel_builder *b);
/* The stores so far (readers bound them as they bound loads: each costs
 * 14 bytes while building and in the kernel). */
uint64_t rd_kernel_builder_stores(const rd_kernel_builder *b);
uint32_t rd_kernel_builder_threads(const rd_kernel_builder *b);
/* Turn the accesses into a kernel (frees the builder). NULL: out of memory. */
rd_kernel *rd_kernel_builder_finish(rd_kernel_builder *b);
/*
 * Spare arrays: a reader that builds a launch part after part (rd_parts)
 * builds each part in the arrays of the one spent before it, whose pages
 * are then not given back to the system and faulted in again, part after
 * part (a part of gemm's: 38 MB; 1.3 million page faults over the launch
 * on 132 SMs, a quarter of its time). The spare holds one part's arrays
 * at most, a part's under 64 MiB of accesses as built (they are held
 * while its cases run), from its rd_parts_add_spent (the kernels a
 * builder using the spare finishes name it: rd_kernel.spare) to the next
 * builder's use, or to rd_parts_finish, which frees them before its own
 * work; it must outlive those kernels until then. Thread-safe. NULL: out
 * of memory.
 */
typedef struct rd_kernel_spare rd_kernel_spare;
rd_kernel_spare *rd_kernel_spare_new(void);
void rd_kernel_spare_free(rd_kernel_spare *s);
/* A builder with nothing added yet takes s's arrays (if any) and names s
 * in the kernel it finishes. */
void rd_kernel_builder_use_spare(rd_kernel_builder *b, rd_kernel_spare *s);
void rd_kernel_builder_free(rd_kernel_builder *b);
void rd_kernel_free(rd_kernel *k);
/* Append k to b as one thread's program: every access of thread 0, 1, ...
 * in turn, each thread's loads and stores in program order, all as thread
 * 0 (k's sites added to b's): the serial order (rdscope convert
 * --one-thread, kernel after kernel, for comparisons with rdscope count).
 * 0, or -1 when out of memory. */
int rd_kernel_builder_add_serial(rd_kernel_builder *b, const rd_kernel *k);
/* Give k the arrays as (freeing those it had; as may be NULL). */
void rd_kernel_set_arrays(rd_kernel *k, rd_arrays *as);

/* ---------------------------------------------------------------- result */

enum rd_class {
	RD_CLASS_COMPULSORY = 0,
	RD_CLASS_CAPACITY,
	RD_CLASS_ASSOCIATIVITY,
	RD_CLASS_LATENCY,
	RD_CLASS_MSHR,
	RD_CLASS_WRITE_EVICT, /* a load of a line a store evicted (l1.stores=evict) */
	RD_CLASS_BYPASS,      /* a load sent past the L1 (l1.loads=bypass) */
	RD_CLASS_SECTOR,      /* a load whose line hit but a sector of it was missing
			       * (l1.sector): its line-level outcome is a hit */
	RD_NCLASS
};
const char *rd_class_name(enum rd_class c);
/* Whether the L1 can give class c under configuration c: the paper's five
 * always, write_evict under l1.stores=evict, bypass under l1.loads=bypass,
 * sector under l1.sector (what the text, the explorer and its help show). */
int rd_class_possible(const rd_config *c, enum rd_class k);
/* The same for the L2 (rd_level): compulsory, capacity, associativity and
 * latency always, write_evict under l2.stores=evict when stores reach it
 * (l1.stores not ignore); never mshr, bypass or sector. */
int rd_l2_class_possible(const rd_config *c, enum rd_class k);

/* The four model cases of the breakdown (Nugteren et al., HPCA 2014, §6.1). */
enum rd_case {
	RD_CASE_FULL = 0,     /* as configured */
	RD_CASE_FULLY_ASSOC,  /* one set of sets*ways ways */
	RD_CASE_NO_LATENCY,   /* all latencies 0 */
	RD_CASE_NO_MSHR,      /* unlimited MSHRs */
	RD_NCASES
};

/* Per-site results (rd_callbacks.by_site): the breakdown of the requests
 * of each source site, summing exactly to the kernel's. Distances in
 * log2 bins: bin 0 is d = 0, bin b holds 2^(b-1) <= d < 2^b. */
#define RD_SITE_BINS 33
typedef struct rd_site_result {
	uint64_t requests, hits, misses;
	uint64_t cls[RD_NCLASS];
	uint64_t hist[RD_SITE_BINS];
	uint64_t hist_inf;
} rd_site_result;

/* The miss class with the most misses of a site (ties: the first in
 * enum rd_class order), or -1 without misses. */
int rd_site_main_class(const rd_site_result *s);

/* Sites of a kernel without sites of its own: one per per-thread load
 * number, the last also taking every later load. */
#define RD_SITE_LOADS_MAX 4096

/* How many sites a kernel's per-site results have. */
uint32_t rd_kernel_nsites(const rd_kernel *k);

/* The stores of threads [t0, t1): indices [*lo, *hi) of k's store lists
 * (a binary search). */
void rd_kernel_store_range(const rd_kernel *k, uint32_t t0, uint32_t t1, uint64_t *lo,
			   uint64_t *hi);

/* Thread ids of a part numbered over its own blocks (part_block): k's
 * blocks are the launch's blocks ids[0 .. n) (ascending; the kernel takes
 * ids, freeing any before). The launch's id of k's thread t (t itself
 * without part_block), and how many of k's threads have launch ids below
 * m (m itself without part_block). */
void rd_kernel_set_part_blocks(rd_kernel *k, uint32_t *ids, uint32_t n);
uint64_t rd_kernel_launch_thread(const rd_kernel *k, uint64_t t);
uint64_t rd_kernel_threads_below(const rd_kernel *k, uint64_t m);

/* Site i of k in words, into buf: "line 29 b[k][j]" (a description's
 * load), "pc 0x1a0" (with " line N" when known), or "load 3" (a kernel
 * without sites: its per-thread load number). */
void rd_kernel_site_label(const rd_kernel *k, uint32_t i, char *buf, size_t len);

/* The L2's results (rd_result.l2): reads are the L1's misses that took a
 * new MSHR entry (loads', and under l1.stores=allocate stores' fetches)
 * and its bypassed loads; writes its stores that leave it
 * (l1.stores=evict) or, under allocate, the write-backs of the written
 * lines it evicts. requests, hits, misses, the classes and
 * miss_rate are about reads; stores have their own counts. Classes:
 * compulsory, latency (merged into an entry in flight), write_evict (an
 * l2.stores=evict store removed it), associativity (by difference with a
 * run of each bank fully associative), capacity (the rest). */
typedef struct rd_level {
	uint64_t requests, hits, misses;
	uint64_t cls[RD_NCLASS];
	uint64_t store_requests, store_hits, store_evictions;
	uint64_t reservation_fails; /* attempts refused an MSHR entry or merge */
	uint64_t merges;            /* requests (reads and writes) merged into an entry in flight */
	uint64_t steps;             /* L2 steps with an access */
	double miss_rate;           /* misses / requests */
	/* l2.sector: the reads' sector lookups and the ones that found their
	 * sector there or coming (Nsight Compute's lts__t_sectors_srcunit_
	 * tex_op_read.sum and its _lookup_hit); 0 without sectors; and the
	 * sector size (l2.sector; 0: whole lines) */
	uint64_t sector_lookups, sector_hits;
	uint32_t sector_bytes;
	uint64_t *hist;             /* reads' distances per bank's set; inf apart */
	uint32_t hist_len;
	uint64_t hist_inf;
	uint64_t *hist_w;           /* writes' */
	uint32_t hist_w_len;
	uint64_t hist_w_inf;
	uint32_t partitions, banks; /* banks per partition */
	uint32_t sets;              /* sets per bank */
	/* [partitions * banks], partition-major: requests (reads and writes)
	 * and their misses */
	uint64_t *bank_requests, *bank_misses;
} rd_level;

/*
 * DRAM after the last cache level (rd_result.dram, dram.enable): what
 * reaches it is the L2's read misses that take a new MSHR entry, its
 * stores under l2.stores=evict and, under allocate, the write-backs of the
 * written lines it evicts (lines still dirty at the end are not written
 * back); without an L2 what leaves the L1s (the L2's input). One request
 * per line, at the step it leaves; per bank an open-row buffer and a G/G/1
 * queue. Times in ns.
 */
typedef struct rd_dram {
	uint64_t requests, reads, writes;
	uint64_t row_hits, row_misses, row_conflicts;
	uint64_t banks;            /* the mapping's */
	uint64_t banks_used;       /* with a request */
	uint64_t saturated;        /* banks with utilisation rho >= 1 */
	double max_utilisation;    /* the largest rho */
	double span;               /* ns from the first request's step to the last's, + 1 step */
	double service_time;       /* Eq. 8 per bank, weighted by Eq. 7 */
	/* With saturated banks these three are NAN (no finite mean wait):
	 * Kingman's wait per bank weighted by Eq. 7; Eq. 7's latency (wait +
	 * service); Eq. 5's AMAT */
	double queue_delay, latency, amat;
	double miss_ratio;         /* Eq. 5's: the last cache level's misses / reads */
	double shmem_ratio;        /* Eq. 5's: shared-memory requests / all spaces' requests */
} rd_dram;

typedef struct rd_result {
	uint32_t threads_total;    /* threads in the kernel */
	uint32_t threads_modelled; /* after gpu.max_threads */
	uint32_t blocks_modelled;  /* the blocks of those threads with an access */
	uint32_t cores_used;       /* the cores those blocks went to */
	/* gpu.sample_cores: cores_sampled of cores_used modelled (0: all),
	 * the counts scaled by cores_used / cores_sampled; the sampled
	 * cores' miss rates (misses / requests): least, most, deviation */
	uint32_t cores_sampled;
	double core_miss_min, core_miss_max, core_miss_sd;
	uint64_t accesses;         /* thread-level loads modelled */
	uint64_t stores;           /* thread-level stores */
	/* Stores at the L1 (l1.stores evict or allocate; else 0): coalesced
	 * store requests, those that found their line (allocate: hits;
	 * evict: each removed its line), and the lines stores removed or
	 * whose insertion they cancelled (evict). requests, hits, misses,
	 * the classes and the miss rates are about loads only. */
	uint64_t store_requests;
	uint64_t store_hits;
	uint64_t store_evictions;
	/* l1.sector: the loads' sector lookups and the ones that found their
	 * sector there or coming (Nsight Compute's l1tex__t_sectors_pipe_lsu_
	 * mem_global_op_ld.sum and its _lookup_hit); 0 without sectors */
	uint64_t sector_lookups;
	uint64_t sector_hits;
	uint64_t requests;         /* coalesced line requests (histogram total) */
	uint64_t hits;
	uint64_t misses;           /* all misses, latency misses included */
	uint64_t cls[RD_NCLASS];
	uint64_t case_misses[RD_NCASES]; /* total misses of each case run */
	int cases_run;             /* bit i set: case i was run */
	int cases_same;            /* bit i set: case i is provably case 0 (its parameters
				    * but what is recorded equal), given case 0's counts
				    * instead of a run of its own */
	uint64_t cancels;          /* MSHR-blocked issue attempts (case 0) */
	uint64_t time_steps;       /* model time at the end of case 0 */
	int partial;               /* 1: a snapshot of a run still going (see
				    * rd_callbacks.partial) */
	double miss_rate;          /* (misses - latency) / requests: hardware view */
	double miss_rate_all;      /* misses / requests */
	/* case-0 reuse-distance histogram: hist[d] for finite d, inf apart */
	uint64_t *hist;
	uint32_t hist_len;
	uint64_t hist_inf;
	/* the same for the store requests (RDGC's C1W; empty under ignore) */
	uint64_t *hist_w;
	uint32_t hist_w_len;
	uint64_t hist_w_inf;
	/* case 0, per set: requests and misses (latency misses included),
	 * summed over cores; NULL if not run. Entry i is set i of the
	 * configuration, or, when set_ids is not NULL (a configuration with
	 * many more sets than the trace has lines), set set_ids[i]: then
	 * only the sets the trace uses have entries, in ascending order. */
	uint32_t nsets;
	uint32_t *set_ids;
	uint64_t *set_requests;
	uint64_t *set_misses;
	/* per source site (rd_callbacks.by_site), or 0 and NULL: site i is
	 * the kernel's sites[i], or its i-th per-thread load without sites */
	uint32_t nsites;
	rd_site_result *sites;
	/* model=rdgc: the L1 requests (loads and stores) that found no MSHR
	 * entry or merge slot, counted per attempt (cancels holds them too);
	 * merges are cls[RD_CLASS_LATENCY]; time_steps the steps */
	uint64_t reservation_fails;
	/* The L2 (l2.size > 0), or has_l2 0 */
	int has_l2;
	rd_level l2;
	/* DRAM (dram.enable), or has_dram 0 */
	int has_dram;
	rd_dram dram;
	/* Memory spaces (a configuration with placements), or has_spaces 0:
	 * indexed by enum rd_space */
	int has_spaces;
	rd_space_stats spaces[RD_NSPACES];
	/* Eq. 3 (seed 002 §B3.2) against the sample placement every array
	 * global [ours: the sample]: the change in addressing instructions and
	 * in replays (rules 1-4) summed over the kernel's warp instructions,
	 * their sum (the change in issued instructions), and the warps with
	 * loads (issued_delta / warps is the change per warp) */
	int64_t delta_address, delta_replays, issued_delta;
	uint64_t warps;
} rd_result;

void rd_result_free(rd_result *r);

/*
 * The L1 hit rate as a profiler reports it: with l1.sector, the loads'
 * sector hit rate (Nsight Compute's l1tex__t_sector_pipe_lsu_mem_global_
 * op_ld_hit_rate); else the hardware view of the line requests, 1 -
 * miss_rate (latency misses are not misses, the paper's). NAN without
 * loads.
 */
double rd_result_l1_hit_rate(const rd_result *r);
/* The L2's, alike: with l2.sector the reads' sector hit rate (Nsight
 * Compute's lts__t_sectors_srcunit_tex_op_read_lookup_hit over _read: NAN
 * without reads), else 1 - miss_rate (NAN without requests). */
double rd_level_hit_rate(const rd_level *l);

/* RDGC's six metrics (seed 001 §5), from a run and, for the L1B pair, a
 * run of the same configuration under rd_config_l1b (or NULL: have_l1b
 * 0). L1_R_Hit counts merged reads as misses; L2_Hit is reads and writes,
 * l2_r_hit reads only. Hit ratios of no requests are 0. */
typedef struct rd_metrics {
	double l1_r_hit;
	uint64_t l1_r_trans;
	double l2_hit, l2_r_hit;
	uint64_t l2_trans;
	int have_l1b;
	double l2_hit_l1b;
	uint64_t l2_trans_l1b;
	uint64_t reservation_fails, merges, steps; /* the L1's */
	/* The MSHR merge rate (seed 003's second label, which the paper does
	 * not define; ours): the L1's load misses merged into an MSHR entry in
	 * flight (latency misses, RDGC's merges) / all its load misses; 0
	 * without misses. */
	double merge_rate;
} rd_metrics;
void rd_metrics_of(const rd_result *r, const rd_result *l1b, rd_metrics *m);



/* ---------------------------------------------------------------- profiles */

/*
 * Reuse profiles (seed 003, MLCRP): hist[d] accesses at reuse distance d
 * (distinct lines between two uses) for 0 <= d < len, cold first uses
 * apart. What the profile alone tells (model/estimate.c):
 *  - the fully associative LRU misses of a cache of `lines` lines
 *    (Mattson: a hit iff d < lines), cold ones included;
 *  - the binomial (SDCM-style) estimate of a set-associative cache's hit
 *    rate: P_hit(d) = P(Binomial(d, ways / lines) <= ways - 1), cold
 *    accesses missing; exactly the fully associative rate when lines <=
 *    ways (one set). O(len), whatever the ways;
 *  - its peaks: local maxima of the RD >= 0 profile in log2 buckets (0;
 *    1; 2-3; 4-7; ...) holding at least 5 % of the tallest bucket [ours].
 */
/* Count one access at distance d in a growable histogram: *hist holds
 * *cap bins (grown by doubling, zeroed), *len is one past the largest
 * distance counted. 0, or -1 when out of memory or d is 2^32 or more. */
int rd_hist_add(uint64_t **hist, uint32_t *len, uint32_t *cap, uint64_t d);
uint64_t rd_profile_fa_misses(const uint64_t *hist, uint32_t len, uint64_t cold, uint64_t lines);
double rd_profile_estimate(const uint64_t *hist, uint32_t len, uint64_t cold, uint32_t ways,
			   uint64_t lines);
uint32_t rd_profile_peaks(const uint64_t *hist, uint32_t len);

/*
 * Synthetic traces from a profile (seed 003, Algorithms 1-2, corrected;
 * model/rpgen.c). Profiles here are probability vectors p[0..maxrd+1]:
 * p[0] the cold share (RD -1), p[1 + d] RD d.
 *
 * rd_rp_mixture: Algorithm 1's profile of n Gaussian peaks (positions,
 * weights, widths sigma) sampled at 0..maxrd, renormalised to 1 - cold,
 * cold at RD -1.
 *
 * rd_rpgen: Algorithm 2. Each rd_rpgen_next emits one index: a fresh one
 * (a counter from 0, or the values given to rd_rpgen_fresh first) for RD
 * -1 or to fill the stack up to a drawn distance, else the index used d
 * distinct indexes ago. The distance is drawn (from a seeded generator)
 * from the profile as the paper updates it, which is sampling without
 * replacement from the L distances (rd_rpgen_freq: the current
 * probability), or taken from *want (tests inject draws; *used says
 * whether it was taken, not while fills are still due). Fills beyond the
 * cold budget are counted (rd_rpgen_forced). -1: out of memory or a
 * distance outside the profile.
 */
void rd_rp_mixture(const double *pos, const double *ratio, const double *sigma, uint32_t n,
		   double cold, uint32_t maxrd, double *p);
typedef struct rd_rpgen rd_rpgen;
rd_rpgen *rd_rpgen_new(const double *p, uint32_t maxrd, uint64_t len, uint64_t seed);
void rd_rpgen_fresh(rd_rpgen *g, const uint64_t *v, size_t n);
int rd_rpgen_next(rd_rpgen *g, const int64_t *want, int *used, uint64_t *idx, int64_t *rd);
double rd_rpgen_freq(const rd_rpgen *g, int64_t rd);
uint64_t rd_rpgen_forced(const rd_rpgen *g);
void rd_rpgen_free(rd_rpgen *g);
/* The kernel "rp" of Algorithm 2's first `length` indexes drawn from p
 * (seeded): index x at address x * line (one line each; 4-byte loads, or
 * line bytes when smaller), access i by thread i mod threads (blocks of
 * up to 1024 threads). *cold: the first uses generated; *forced: the fills
 * forced beyond p's cold share (rd_rpgen_forced). NULL: out of memory. */
rd_kernel *rd_rp_kernel(const double *p, uint32_t maxrd, uint64_t length, uint64_t seed,
			uint64_t threads, uint32_t line, uint64_t *cold, uint64_t *forced);

/* ---------------------------------------------------------------- counting */

/*
 * Exact compulsory and capacity misses of fully associative LRU caches of
 * several sizes on one access stream (seed 004, HayStack's question): each
 * level an independent LRU cache of lines[k] lines on the whole stream,
 * empty at first; every access (load or store) allocates. Per reference
 * (an access's source, 0..nrefs-1): accesses, compulsory misses (a line's
 * first access) and capacity misses per level (the other misses: the
 * line's stack distance is at least the level's lines), and which
 * references touched the line last before its accesses (rd_count_reused).
 * Memory grows with the distinct lines, not the accesses.
 *
 * rd_count_repeat: the n accesses just given (the last n calls of
 * rd_count_access, these addresses and references in this order) happen
 * `times` times more, as a loop's iterations on the same lines do:
 * counted in O(n^2) however large times is, exactly (every repetition's
 * distances are the second one's, and the stacks do not change).
 * -1: out of memory, or arguments out of range.
 */
#define RD_COUNT_MAX_LEVELS 16
#define RD_COUNT_MAX_REFS 4096
#define RD_COUNT_MAX_REPEAT 64
typedef struct rd_count rd_count;
typedef struct rd_count_ref {
	uint64_t accesses, compulsory;
	uint64_t capacity[RD_COUNT_MAX_LEVELS];
} rd_count_ref;
rd_count *rd_count_new(uint32_t line, const uint64_t *lines, int nlevels, uint32_t nrefs);
void rd_count_free(rd_count *c);
int rd_count_access(rd_count *c, uint64_t addr, uint32_t ref);
int rd_count_repeat(rd_count *c, const uint64_t *addr, const uint32_t *ref, int n, uint64_t times);
const rd_count_ref *rd_count_refs(const rd_count *c);
int rd_count_reused(const rd_count *c, uint32_t r, uint32_t prev);
uint64_t rd_count_lines(const rd_count *c);
/* Has line (an address divided by the line size) been accessed? */
int rd_count_seen(const rd_count *c, uint64_t line);
/* Empty c again (its sizes and references kept): 0, or -1 out of memory
 * (c unchanged). */
int rd_count_reset(rd_count *c);
/* Add times * delta[r] to every reference r's counts (and times * its
 * compulsory misses to the distinct lines): a loop's later periods whose
 * counts are proven equal to one period's (src/kdesc's flat path). The
 * stacks and reuse sets do not change. -1 past 2^64 (c unchanged). */
int rd_count_extrapolate(rd_count *c, const rd_count_ref *delta, uint64_t times);
/* The flat path's one loop down (src/kdesc/kdesc_flat.c), which skips an
 * inner loop's later periods and so must leave c as if they had run:
 * rd_count_add is rd_count_extrapolate without the distinct lines (the
 * skipped lines are touched instead); rd_count_last: 1 and the reference
 * that touched line last, or 0 never touched; rd_count_note_reuse: r's
 * access reused prev's line (rd_count_reused); rd_count_touch: line
 * touched by ref, nothing counted and the stacks unchanged (a new line is
 * a distinct line); rd_count_max_lines: the largest level's lines;
 * rd_count_stack: the largest level's lines, most recent first (up to
 * max); rd_count_held: 1 when the largest level holds line now (its
 * stack distance below that level's lines; a line it does not hold is a
 * miss at every level until it is touched again); rd_count_held_any: 1
 * when it holds a line of lo..hi (a span of lines without ids asked a
 * page of 64 at a time once ghosts are made); rd_count_restack: the stacks become lines[0..n) (distinct, each
 * touched before, most recent first, n at least the lines the largest
 * level holds), each level holding its first ones, lines[0] the line
 * accessed last. -1: out of memory or arguments out of range. */
int rd_count_add(rd_count *c, const rd_count_ref *delta, uint64_t times);
int rd_count_last(const rd_count *c, uint64_t line, uint32_t *ref);
int rd_count_note_reuse(rd_count *c, uint32_t r, uint32_t prev);
int rd_count_touch(rd_count *c, uint64_t line, uint32_t ref);
uint64_t rd_count_max_lines(const rd_count *c);
size_t rd_count_stack(const rd_count *c, uint64_t *out, size_t max);
int rd_count_held(const rd_count *c, uint64_t line);
int rd_count_held_any(const rd_count *c, uint64_t lo, uint64_t hi);
int rd_count_restack(rd_count *c, const uint64_t *lines, size_t n);
/* Ghosts: the lines of skipped periods kept as arithmetic, not touched one
 * by one (the one loop down's time then grows with a period, not with the
 * loop). rd_count_ghost: per sweep, the lines x + e * step, for each line x of the
 * runs (sorted, disjoint, within 64 |step| lines of the first) and e = 1
 * .. times, were touched, in that order of e (a line of two periods: the
 * later's), x's run's reference last;
 * the caller has added their counts with rd_count_extrapolate (their
 * first touches are distinct lines) and gives the stacks' lines after
 * them as rd_count_restack takes them (top[0..ntop)). From then on every
 * query, access and touch sees these lines as touched. rd_count_ghosts:
 * the ghosts made so far (a mark); rd_count_covered: 1 when one ghost
 * made since mark `since` holds every line of lo..hi. rd_count_span: of
 * lines lo..hi (at most 4,097), 1 every one touched before (refs[r] set
 * to 1 for each reference r that touched one last), 0 none, -1 not known
 * cheaply (some of them, or kept in a way the answer would need line by
 * line: ask rd_count_last). rd_count_ghost takes up to 64 sweeps at once
 * (one step each, their lines disjoint); -1: out of memory or arguments
 * out of range (c unchanged but for its stacks' new lines). */
typedef struct rd_count_run {
	uint64_t lo, hi;
	uint32_t ref;
} rd_count_run;
typedef struct rd_count_sweep {
	int64_t step;
	uint64_t times;
	const rd_count_run *runs;
	size_t nruns;
} rd_count_sweep;
int rd_count_ghost(rd_count *c, const rd_count_sweep *sw, size_t nsw, const uint64_t *top,
		   size_t ntop);
size_t rd_count_ghosts(const rd_count *c);
int rd_count_covered(const rd_count *c, size_t since, uint64_t lo, uint64_t hi);
int rd_count_span(rd_count *c, uint64_t lo, uint64_t hi, uint8_t *refs);

/*
 * The learned estimator (seed 003 §IV, MLCRP; model/learn.c).
 *
 * rd_rp_random: Algorithm 1 with its draws (a seeded stream of seed):
 * npeaks positions uniform on 0..maxrd, ratios and the cold ratio uniform
 * on [0, 1) normalised together, widths sigma uniform on (0, 2] per peak;
 * the profile into p[0..maxrd+1] (rd_rp_mixture), the draws into pos,
 * ratio, sigma [npeaks] and *cold.
 *
 * rd_learn_features: the estimator's input, fixed: the cold share, the
 * profile's shares in RD_LEARN_BUCKETS log2 buckets (0; 1; 2-3; ...;
 * 2048-4095; 4096 and more), log2 of sets, ways and line / 16, and the
 * peaks of rd_profile_peaks / 16 (RD_LEARN_NFEAT values into x).
 * rd_learn_feature_name: their names, as the weights file records them.
 *
 * rd_mlp: a multi-layer perceptron, ReLU hidden layers and sigmoid
 * outputs (widths: RD_LEARN_NFEAT inputs, up to RD_MLP_MAX_LAYERS - 1
 * hidden layers of at most RD_MLP_MAX_WIDTH, outputs), initialised from
 * seed; rd_mlp_predict is reentrant (no allocation). rd_mlp_train fits it
 * by Adam (batches of o->batch, rate o->lr, o->epochs passes in an order
 * shuffled from o->seed) to the mean squared error over the outputs of x
 * [n][inputs] against y [n][outputs], with the validation set vx, vy [nv]
 * measured after each epoch (o->epoch may stop it: RD_ECANCELED);
 * RD_OK or RD_ENOMEM. rd_mlp_mse: the mean squared error per output.
 *
 * rd_mlp_format: the weights as text (malloc'd; NULL out of memory):
 * "rdscope-mlcrp 1", comment's lines as '#' comments, the features'
 * names, the outputs (miss_rate merge_rate), the widths, then per layer
 * one row per unit: its bias and weights (%.17g: exact both ways).
 * rd_mlp_parse reads it back: 0, -1 with "LINE: why" in err (other
 * features, versions and shapes refused), -2 out of memory.
 */
#define RD_LEARN_BUCKETS 14
#define RD_LEARN_NFEAT (RD_LEARN_BUCKETS + 5)
#define RD_LEARN_NOUT 2
#define RD_MLP_MAX_LAYERS 6
#define RD_MLP_MAX_WIDTH 1024
#define RD_MLP_MAGIC "rdscope-mlcrp"
#define RD_MLP_VERSION 1
void rd_rp_random(uint64_t seed, uint64_t stream, uint32_t npeaks, uint32_t maxrd, double *p,
		  double *pos, double *ratio, double *sigma, double *cold);
void rd_learn_features(const uint64_t *hist, uint32_t len, uint64_t cold, uint32_t sets,
		       uint32_t ways, uint32_t line, double *x);
const char *rd_learn_feature_name(uint32_t i);
typedef struct rd_mlp rd_mlp;
typedef struct rd_mlp_fit {
	uint32_t epochs, batch; /* batch 0: 256 */
	double lr;              /* 0: 0.001 */
	uint64_t seed;
	int (*epoch)(void *ctx, uint32_t epoch, double train_mse, double val_mse);
	void *ctx;
} rd_mlp_fit;
rd_mlp *rd_mlp_new(const uint32_t *sizes, uint32_t n, uint64_t seed);
void rd_mlp_free(rd_mlp *m);
uint32_t rd_mlp_layers(const rd_mlp *m, uint32_t *sizes);
size_t rd_mlp_params(const rd_mlp *m);
void rd_mlp_predict(const rd_mlp *m, const double *x, double *y);
double rd_mlp_mse(const rd_mlp *m, const double *x, const double *y, size_t n);
int rd_mlp_train(rd_mlp *m, const double *x, const double *y, size_t n, const double *vx,
		 const double *vy, size_t nv, const rd_mlp_fit *o, double *train_mse, double *val_mse);
char *rd_mlp_format(const rd_mlp *m, const char *comment);
int rd_mlp_parse(const char *text, size_t len, rd_mlp **out, char *err, size_t errlen);

/* A growing string, NUL-terminated, appended to by printf formats: start
 * from {0}; free s. oom set (and the text left as it was) when memory ran
 * out. */
typedef struct rd_buf {
	char *s;
	size_t n, cap;
	int oom;
} rd_buf;
void rd_buf_printf(rd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Agreement of estimates yhat with references y (seed 003 §V): mean
 * absolute error, R^2 = 1 - SS_res / SS_tot, and Spearman's rho (the
 * Pearson correlation of the ranks, ties by average rank); NAN where
 * undefined (no spread). 0, or -1 out of memory. */
typedef struct rd_stats {
	size_t n;
	double mae, r2, spearman;
} rd_stats;
int rd_compare_stats(const double *y, const double *yhat, size_t n, rd_stats *s);
/* The ranks of v[0..n) into r (1 = the smallest; ties share their average
 * rank). 0, or -1 out of memory. */
int rd_ranks(const double *v, size_t n, double *r);

/* ---------------------------------------------------------------- events */

/* A store request under l1.stores=evict: RD_OUT_EVICT when it removed its
 * line or cancelled its insertion, else RD_OUT_BYPASS (past the L1). */
/* model=rdgc and the L2: RD_OUT_RF a reservation fail (no MSHR entry or
 * merge slot: retried), RD_OUT_MERGE a miss merged into an entry in flight
 * (a latency miss), RD_OUT_FILL a line arriving (filling its set in MSHR
 * order, freeing its entry; a row of its own, before the step's accesses). */
enum rd_outcome {
	RD_OUT_HIT = 0, RD_OUT_MISS, RD_OUT_CANCEL, RD_OUT_EVICT, RD_OUT_BYPASS,
	RD_OUT_RF, RD_OUT_MERGE, RD_OUT_FILL
};

/* One processed request of case 0, for the event log and teaching views. */
typedef struct rd_event {
	uint64_t time;          /* issue time step */
	uint32_t core, block, warp;
	uint32_t thread;        /* leader thread (global id) */
	uint32_t nthreads;      /* threads coalesced into this request */
	uint32_t instr;         /* the warp instruction: per-thread access index (loads only under
				 * l1.stores=ignore) */
	int store;              /* 1: a store request */
	uint64_t addr;          /* leader's byte address */
	uint64_t line;          /* line address (addr / line size) */
	uint32_t set;
	int64_t distance;       /* -1: infinite */
	enum rd_outcome outcome;
	int cls;                /* enum rd_class of a miss, -1 for hit/cancel; a
				 * sector miss (l1.sector) is outcome RD_OUT_HIT
				 * (its line hit and took a hit's time) with
				 * RD_CLASS_SECTOR, and counts as a miss */
	uint32_t latency;
	uint64_t effect_at;
	uint32_t mshrs_used;    /* entries in use after this request */
	/* 1: the L1 (core's), 2: the L2 (core: the request's L1 core). Banks
	 * and ports (model=rdgc L1, and the L2): the request's partition (0
	 * at the L1), bank within it, and the port it took that step; the
	 * free entries of its MSHR set after it. */
	int level;
	uint32_t partition, bank, port;
	uint32_t mshrs_free;
	/* MSHR entries in use at the lookup (after its line's fill due then
	 * landed), before the request took or freed any; 0 at the L2. */
	uint32_t mshrs_before;
	/* l1.sector (the L1's load requests, paper profile): the sectors the
	 * request asks for (bit s: sector s of its line) and those its line
	 * had, there or on their way, at its lookup (0: a line miss); both 0
	 * without sectors, for a store and for a cancelled request. */
	uint32_t sect_ask, sect_had;
	/* With rd_callbacks.event_stacks only (the L1's requests; none under
	 * reference-2013): the entries of the request's set as its lookup
	 * found them, most recent first (line addresses, and empty ways as
	 * rd_is_hole values), and how many there are, up to RD_EVENT_STACK;
	 * after: the set just after the request (a store's removal under
	 * l1.stores=evict; model=rdgc's hits and fills of latency 0 land at
	 * once), else the same as stack. Any later change of the set comes
	 * as an rd_landing. Valid during the call only. */
	const uint64_t *stack;
	uint32_t stack_len;
	const uint64_t *after;
	uint32_t after_len;
} rd_event;

/* Entries of a set an event or a landing lists at most. */
#define RD_EVENT_STACK 64

/* An entry of an event's stack that is an empty way (a store removed its
 * line under l1.stores=evict; the set's next fill from outside its ways
 * takes the newest): bit 63 set, which no line address has; the low bits
 * tell the holes of a set apart. */
#define RD_HOLE (1ull << 63)
int rd_is_hole(uint64_t v);

/* Does request ev leave an effect that lands later, reported by
 * rd_callbacks.land (a lookup's hit, or its miss's fill, at effect_at)?
 * Not a cancelled request or reservation fail, a store under
 * l1.stores=evict (it goes past the L1 at once), a load past the L1
 * (l1.loads=bypass), a fill's row, nor the L2's requests. */
int rd_event_has_effect(const rd_event *ev);

/*
 * Effects landing in an L1 set, with rd_callbacks.land (paper and rdgc
 * profiles; case 0, as the events). Each call is one landing at `time`
 * (the step at whose end it lands, or, early, a fill due then that the
 * next event's lookup of its line needed first): once it comes, the
 * effects of every request of the core with that line and kind due at
 * `time` (rd_event_has_effect; a fill: a miss's or a merge's) have
 * landed by the core's next event. Between a core's events its sets
 * change only by landings; in one step, effects land in issue order.
 * What is still due when a core's last warp finishes never lands.
 */
typedef struct rd_landing {
	uint64_t time;
	uint32_t core, set;     /* set: as rd_event's */
	uint64_t line;          /* line address */
	int fill;               /* a miss's fill (else a hit's effect) */
	int early;              /* landed before the next event's lookup, at `time` */
	/* with event_stacks: the set after it landed (as rd_event's) */
	const uint64_t *stack;
	uint32_t stack_len;
} rd_landing;

/* ---------------------------------------------------------------- running */

typedef struct rd_callbacks {
	/* Called between chunks with the fraction done; nonzero cancels. */
	int (*progress)(void *ctx, double fraction);
	/* Called for every case-0 request, in issue order (may be NULL). */
	void (*event)(void *ctx, const rd_event *ev);
	/*
	 * Called every RD_PARTIAL_EVERY requests of the as-configured case
	 * with a snapshot of it so far (may be NULL): counts, histogram,
	 * compulsory and latency misses; the other misses are all counted as
	 * capacity until the breakdown is done. The snapshot and its
	 * histogram are valid during the call only.
	 */
	void (*partial)(void *ctx, const rd_result *r);
	/* Nonzero: events and landings carry their set's LRU stack (the
	 * model then keeps each stamp's line, 4 bytes per stack slot, and
	 * lists a set's top entries per event). */
	int event_stacks;
	/* With event_stacks: if not NULL, the entries a stack lists at most,
	 * read at each event and landing (a callback may change it; 0, or
	 * more than RD_EVENT_STACK: RD_EVENT_STACK). */
	const uint32_t *stack_depth;
	/* Called for every landing of an L1 effect of case 0 (may be NULL;
	 * only with event). */
	void (*land)(void *ctx, const rd_landing *l);
	/* Nonzero: the result has per-site counts (the paper profile only:
	 * RD_EINVAL under reference-2013). */
	int by_site;
	void *ctx;
} rd_callbacks;

#define RD_PARTIAL_EVERY (1u << 16)

/* Longest latency a configuration may give, in steps (rd_config_check). */
#define RD_MAX_LATENCY (1u << 30)

enum rd_status {
	RD_OK = 0,
	RD_ECANCELED = 1,
	RD_ENOMEM = 2,
	RD_EINVAL = 3,
	RD_EIO = 4, /* a temporary file (a long run's L1 misses) not written or read */
};

typedef struct rd_model rd_model;

/* A model over one kernel. The kernel must outlive the model. */
rd_model *rd_model_new(const rd_kernel *k);
void rd_model_free(rd_model *m);

/*
 * Run the model. cases is a bit mask of (1 << enum rd_case); the breakdown
 * needs all four (RD_ALL_CASES), the as-configured case alone is 1. On
 * RD_OK the result is filled (free it with rd_result_free).
 */
#define RD_ALL_CASES 0xF
int rd_model_run(rd_model *m, const rd_config *c, int cases,
		 const rd_callbacks *cb, rd_result *out);

/*
 * Let rd_model_run spread the breakdown's cases over up to n threads
 * (1 to 4; default 1). The caller's thread runs the as-configured case and
 * is the only one to call the callbacks. Leave it at 1 where runs are
 * already parallel (sweeps).
 */
void rd_model_set_threads(rd_model *m, int n);

/*
 * How many times each stage has computed its result in m (a kept result
 * does not count; the L1's count is its cases'): what an edit reran.
 */
void rd_model_stage_runs(const rd_model *m, uint64_t runs[RD_NSTAGES]);

/*
 * A kernel modelled in parts: the SMs' L1s are independent until the L2, so
 * a kernel too large to hold at once is given a few SMs at a time. Each
 * part is the kernel with only the blocks of some cores (gpu.cores, by
 * rd_block_core; thread ids as in the whole kernel), every core's blocks in
 * exactly one part; parts may be added from several threads at once.
 * rd_parts_finish gives what rd_model_run on the whole kernel gives
 * (byte for byte: tests/e2e/parts.sh), from the shape: the kernel's name,
 * block size and arrays, no loads needed. Not with events or per-site
 * results, nor where rd_parts_possible says no (why, if not NULL).
 */
typedef struct rd_parts rd_parts;
int rd_parts_possible(const rd_config *c, char *why, size_t len);
uint32_t rd_block_core(const rd_config *c, uint64_t block);
/* gpu.sample_cores=n of the active cores with blocks: the i-th (0 <= i < n)
 * sampled one is the rd_sample_pick(active, n, i)-th of them, in core
 * order (evenly spaced, centred). */
uint32_t rd_sample_pick(uint32_t active, uint32_t n, uint32_t i);
/* Sampled parts: cores_sampled of active cores with blocks were added;
 * the totals are scaled to all of them, the kernel's threads and blocks
 * taken as given (those of every core). */
void rd_parts_set_sample(rd_parts *p, uint32_t active, uint32_t cores_sampled, uint32_t threads,
			 uint32_t blocks);
rd_parts *rd_parts_new(const rd_config *c, int cases); /* NULL: bad config or memory */
/* Threads of each part's cases, and of a streamed part's first reading
 * (two halves of its warps, when not kept), as rd_model_set_threads. */
void rd_parts_set_threads(rd_parts *p, int n);
int rd_parts_add(rd_parts *p, const rd_kernel *k, const rd_callbacks *cb);
/* As rd_parts_add (no callbacks), for a kernel the caller gives up: once
 * k's accesses are coalesced, its addresses, sizes, sites and store lists
 * are freed (k keeps its counts and thread index: only rd_kernel_free it
 * after; not for arrays lent by a reader, k->release) and ready(ctx) is
 * called, before the part's cases run. So a caller that builds parts one
 * at a time, the next on ready, holds one part's accesses at a time
 * however many parts run side by side. ready is called exactly once,
 * whatever happens (NULL: none). */
int rd_parts_add_spent(rd_parts *p, rd_kernel *k, void (*ready)(void *ctx), void *ctx);
/*
 * A part coalesced as it is built, a few blocks at a time, so that its
 * thread-level accesses are never all in memory at once: a part's peak
 * is its requests and one chunk's accesses (syr2k at its default size on
 * 132 SMs: 471 MB of accesses a part otherwise). A chunk is a kernel of
 * the part's next blocks (rd_kernel.part_block: their launch ids,
 * ascending, the part's blocks in order, every one in one chunk, empty
 * ones too), its threads numbered from 0; coalesced under c (as
 * rd_parts_new's; on up to threads threads) with the part's line ids, and
 * then its accesses freed (to its spare, if any) and the chunk freed,
 * whatever the result. rd_part_builder_shell gives the part's kernel
 * (shape: the reader's, with the whole part's part_block and no
 * accesses) the chunks' counts and thread index (no store lists), and
 * rd_parts_add_built models it with the requests built (the chunks'
 * coalescing is then the builder's, not repeated): what rd_parts_add_spent
 * on the part built whole gives, byte for byte. RD_OK, RD_ENOMEM,
 * RD_EINVAL (chunks that are not the shape's blocks).
 */
typedef struct rd_part_builder rd_part_builder;
rd_part_builder *rd_part_builder_new(const rd_config *c, int threads); /* NULL: memory */
int rd_part_builder_add(rd_part_builder *b, rd_kernel *chunk);
int rd_part_builder_shell(rd_part_builder *b, rd_kernel *shape);
void rd_part_builder_free(rd_part_builder *b);
/* rd_parts_add_spent for a part built by b (its shell: shape after
 * rd_part_builder_shell); b's requests are taken (free b after). */
int rd_parts_add_built(rd_parts *p, rd_kernel *shape, rd_part_builder *b,
		       void (*ready)(void *ctx), void *ctx);
/*
 * A part streamed: its threads' accesses read a few at a time as the model
 * asks for them, never all in memory (a block of CORR's corr_kernel is 2 G
 * loads). open gives a cursor at the start of the part's thread t (its
 * threads numbered as a part's kernel numbers them: block t / block size
 * of the shape's part_block, in order); next fills up to max accesses of
 * it in program order (address, size in bytes, 1 for a store), returns
 * how many, 0 once the thread has ended, -1 if it failed (the source
 * keeps its message); close frees a cursor. Cursors are opened and read
 * from several threads at once, each cursor from one.
 */
typedef struct rd_access_src {
	void *ctx;
	void *(*open)(void *ctx, uint32_t thread); /* NULL: failed */
	int64_t (*next)(void *cursor, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max);
	void (*close)(void *cursor);
	/* optional: the cursor moved to the start of thread t, as open would
	 * give it, without allocating: 0, or -1 (the cursor then only to
	 * close); NULL: the model closes it and opens another */
	int (*reopen)(void *cursor, uint32_t thread);
} rd_access_src;
/* rd_parts_add_spent for the part whose shape is given (the reader's, with
 * the whole part's part_block and no accesses) and whose accesses src
 * gives: the part's threads are read once to name its lines and count
 * its accesses (shape gets the counts and thread index, as
 * rd_part_builder_shell gives them), then once more by each case as it
 * runs, a window of each warp's instructions at a time. The same result
 * as the part built whole, byte for byte, in memory that follows its
 * lines and resident warps, not its accesses. The paper's model only
 * (RD_EINVAL otherwise, and where gpu.max_threads ends the part inside a
 * block); RD_EINVAL too when a cursor failed (src has the message).
 * ready(ctx) as rd_parts_add_spent's. */
int rd_parts_add_stream(rd_parts *p, rd_kernel *shape, const rd_access_src *src,
			void (*ready)(void *ctx), void *ctx);
/* A streamed part of up to this many requests (8 bytes each, and 8 an
 * instruction) keeps them from its first reading: its cases run on them
 * as on a part built whole, and read nothing again. Default
 * RD_STREAM_KEEP; 0 reads every part again in each case. */
#define RD_STREAM_KEEP ((uint64_t)1 << 23)
/* A source reading the part of kernel k made of its blocks blocks[0..n)
 * (its own block numbers, in order) from k's arrays as they are (a mapped
 * file's: nothing copied; k must outlive it); NULL: no memory. */
rd_access_src *rd_kernel_src_new(const rd_kernel *k, const uint32_t *blocks, uint32_t n);
void rd_kernel_src_free(rd_access_src *src);
void rd_parts_set_stream_keep(rd_parts *p, uint64_t requests);
/* What leaves the parts' L1s for the L2 and DRAM stages (about 3 bytes a
 * request) is kept in memory up to this many bytes a part, and of all the
 * parts; past it, it is written to temporary files (in $TMPDIR, else /tmp,
 * unlinked at once)
 * and the L2 reads it back as it runs (twice: once to name its lines), so
 * memory does not grow with the kernel's length; the results are the
 * same. Default RD_SPILL_AT; 1: every part's is spilled (tests); 0:
 * none (memory grows with the kernel, as before 2026-11-29). A file
 * that cannot be written or read ends the run with RD_EIO. */
#define RD_SPILL_AT ((uint64_t)16 << 20)
void rd_parts_set_spill(rd_parts *p, uint64_t bytes);
/* Asked by each part as it is read and modelled, every few thousand
 * requests (from the threads adding parts, several at once: stop must be
 * safe to call so), before rd_parts_finish; nonzero: the part ends with
 * RD_ECANCELED. NULL: never (the default). */
void rd_parts_set_stop(rd_parts *p, int (*stop)(void *ctx), void *ctx);
int rd_parts_finish(rd_parts *p, const rd_kernel *shape, const rd_callbacks *cb, rd_result *r);
void rd_parts_free(rd_parts *p);
/* The L1 result of the parts added so far, while others are still being
 * added (any thread; the parts are not changed): r->partial 1, the counts,
 * classes and histogram of those parts' cores, unscaled (gpu.sample_cores
 * scales only at rd_parts_finish), no L2 or DRAM; *nparts (if not NULL)
 * the parts counted. RD_OK, or RD_ENOMEM (r empty). rd_result_free it. */
int rd_parts_peek(rd_parts *p, rd_result *r, uint32_t *nparts);

const char *rd_strerror(int status);

#endif
