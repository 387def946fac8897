/*
 * Configuration: the dotted-key table, and what it drives here: defaults,
 * set, get, equality and the whole-config checks. The key table is the one
 * place a parameter is named; the command line, presets, the explorer's
 * fields, every output format and the man page are driven by it.
 */
#include "rdscope.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

static const char *const hash_names[] = {"mod", "xor", "fermi", "smod", "prime"};
static const char *const map_names[] = {"rr", "bpart4", "bpart8", "random"};
static const char *const profile_names[] = {"paper", "reference-2013", "rdgc"};
static const char *const latmodel_names[] = {"fixed", "adaptive"};
static const char *const classes_names[] = {"difference", "per-access"};
static const char *const repl_names[] = {"lru", "fifo", "lfu", "random"};
static const char *const stores_names[] = {"ignore", "evict", "allocate"};
static const char *const loads_names[] = {"cache", "bypass"};
static const char *const alloc_names[] = {"fill", "miss"};
static const char *const warp_limit_names[] = {"entries", "loads"};
static const char *const sched_names[] = {"rr", "gto"};

#define NNAMES(a) (int)(sizeof a / sizeof a[0])
#define FIELD(f) .offset = offsetof(rd_config, f), .size = sizeof ((rd_config *)0)->f
#define NAMES(a) .names = a, .nnames = NNAMES(a)
#define ST(s) RD_STAGE_BIT(RD_STAGE_##s)
#define PR(p) RD_PROFILE_BIT(RD_PROFILE_##p)

/* The rows' indexes, in table order: the checks name keys by them. */
enum {
	K_MODEL, K_L1_SIZE, K_L1_LINE, K_L1_WAYS, K_L1_HASH, K_L1_MSHRS, K_L1_MSHR_PER_WARP,
	K_LATENCY_HIT, K_LATENCY_MISS, K_LATENCY_STDDEV, K_LATENCY_CLIP, K_GPU_DIVERGENCE,
	K_GPU_WARP_SIZE, K_GPU_CORES, K_GPU_MAX_THREADS, K_GPU_MAX_ACTIVE_THREADS,
	K_GPU_MAX_ACTIVE_BLOCKS, K_GPU_BLOCK_MAPPING, K_SEED, K_CLASSES, K_L1_REPLACEMENT, K_L1_STORES, K_L1_LOADS,
	K_L1_ALLOCATE, K_L1_WARP_LIMIT, K_GPU_SCHEDULER_POLICY,
	K_L1_BANKS, K_L1_PORTS, K_L1_MSHR_SETS, K_L1_MAX_MERGES, K_GPU_SCHEDULERS,
	K_LATENCY_MODEL, K_LATENCY_K1, K_LATENCY_K2,
	K_L2_SIZE, K_L2_LINE, K_L2_WAYS, K_L2_HASH, K_L2_REPLACEMENT, K_L2_STORES,
	K_L2_PARTITIONS, K_L2_BANKS, K_L2_PORTS, K_L2_INTERLEAVE, K_L2_MSHRS, K_L2_MSHR_SETS,
	K_L2_MAX_MERGES, K_LATENCY_L2,
	K_DRAM_ENABLE, K_DRAM_ROW_MASK, K_DRAM_COL_MASK, K_DRAM_BANK_MASK, K_DRAM_CHANNEL_MASK,
	K_DRAM_ROW_HIT, K_DRAM_ROW_MISS, K_DRAM_ROW_CONFLICT, K_DRAM_NS_PER_STEP,
	K_DRAM_ROW_TIMEOUT, K_DRAM_CACHE_HIT,
	K_TEX_SIZE, K_TEX_LINE, K_TEX_WAYS, K_CONST_SIZE, K_CONST_LINE, K_CONST_WAYS,
	K_SMEM_SIZE, K_SMEM_BANKS, K_SMEM_BANK_WIDTH, K_SMEM_LATENCY,
	K_L1_SECTOR, K_L1_UNIFIED, K_L1_CARVEOUT, K_GPU_SAMPLE_CORES, K_L2_SECTOR,
	K_L2_FETCH, K_COUNT
};

/*
 * The defaults are Nugteren et al.'s (HPCA 2014): GTX470, 16 KB L1, 128-byte lines, 4 ways,
 * 32 sets, Fermi hash, 64 MSHRs of which one warp may hold 6, lambda_min
 * 100, sigma 5, one core, Fermi's 1536 threads / 8 blocks active per core.
 */
const rd_key rd_keys[] = {
	[K_MODEL] = {
		.name = "model", .type = RD_KEY_ENUM, .unit = "", FIELD(model),
		.stages = ST(SCHED) | ST(COAL) | ST(SETS) | ST(L1) | ST(REPORT),
		.def = "paper", NAMES(profile_names), .choices = "paper|reference-2013|rdgc",
		.help = "model profile",
		.doc = "Model profile: the paper as written (seed 000), the 2013 reference code with\n"
		       "its quirks, or RDGC (seed 001): banked and ported L1s issuing groups of\n"
		       ".B gpu.schedulers\n"
		       "warps in Algorithm 2's order, blocks in Algorithm 3's waves, a reservation\n"
		       "fail stalling the warp group, a fixed or adaptive latency. Setting\n"
		       ".B model=rdgc\n"
		       "moves the keys still at the paper's defaults to RDGC's (section 4.4.2):\n"
		       ".BR l1.ports =2,\n"
		       ".BR l1.mshrs =32,\n"
		       ".BR l1.max_merges =8,\n"
		       ".BR l1.mshr_per_warp =0,\n"
		       ".BR latency.stddev =0,\n"
		       ".BR latency.model =adaptive;\n"
		       "setting it back to\n"
		       ".B paper\n"
		       "moves RDGC's defaults back.",
	},
	[K_L1_SIZE] = {
		.name = "l1.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_size),
		.stages = ST(SETS) | ST(L1),
		.def = "16384", .min = 1,
		.help = "L1 cache size",
		.doc = "L1 cache size: at least one set\n"
		       ".RB ( l1.line \" \\(mu \" l1.ways )\n"
		       "and a whole number of sets.",
	},
	[K_L1_LINE] = {
		.name = "l1.line", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_line),
		.stages = ST(COAL) | ST(SETS) | ST(L1) | ST(L2) | ST(DRAM),
		.def = "128", .min = 1, .flags = RD_KEY_POW2,
		.help = "cache line size (power of two)",
		.doc = "Cache line size, a power of two.",
	},
	[K_L1_WAYS] = {
		.name = "l1.ways", .type = RD_KEY_UINT, .unit = "", FIELD(l1_ways),
		.stages = ST(SETS) | ST(L1),
		.def = "4", .min = 1,
		.help = "associativity (ways per set)",
		.doc = "Associativity (ways per set), at least 1.\n"
		       "The number of sets is\n"
		       ".BR l1.size \" / (\" l1.line \" \\(mu \" l1.ways )\n"
		       "and must be whole.",
	},
	[K_L1_HASH] = {
		.name = "l1.hash", .type = RD_KEY_ENUM, .unit = "", FIELD(l1_hash),
		.stages = ST(SETS),
		.def = "fermi", NAMES(hash_names), .choices = "mod|xor|fermi|smod:N|prime",
		.arg_choice = RD_HASH_SMOD, .arg_max = 63, .arg_offset = offsetof(rd_config, l1_hash_shift),
		.arg_name = "shift",
		.help = "set-index function",
		.doc = "Set-index function: line address modulo the sets, XOR of two bit fields,\n"
		       "the Fermi hash (32 or 64 sets), the line address shifted right by\n"
		       ".I N\n"
		       "then modulo the sets, or modulo the largest prime not above the sets.",
	},
	[K_L1_MSHRS] = {
		.name = "l1.mshrs", .type = RD_KEY_UINT, .unit = "", FIELD(l1_mshrs),
		.stages = ST(L1), .def_rdgc = "32",
		.def = "64",
		.help = "MSHR entries per core (0 = unlimited)",
		.doc = "MSHR entries per core; 0 is unlimited.",
	},
	[K_L1_MSHR_PER_WARP] = {
		.name = "l1.mshr_per_warp", .type = RD_KEY_UINT, .unit = "", FIELD(l1_mshr_per_warp),
		.stages = ST(L1), .profiles = PR(PAPER), .def_rdgc = "0",
		.def = "6",
		.help = "MSHR entries one warp may hold (0 = unlimited)",
		.doc = "MSHR entries one warp may hold; 0 is unlimited.",
	},
	[K_LATENCY_HIT] = {
		.name = "latency.hit", .type = RD_KEY_UINT, .unit = "steps", FIELD(latency_hit),
		.stages = ST(L1), .profiles = PR(PAPER) | PR(REF2013),
		.def = "0", .max = RD_MAX_LATENCY,
		.help = "hit latency",
		.doc = "Hit latency in model time steps.",
	},
	[K_LATENCY_MISS] = {
		.name = "latency.miss", .type = RD_KEY_UINT, .unit = "steps", FIELD(latency_miss),
		.stages = ST(L1), .when = "latency.model=fixed",
		.def = "100",
		.help = "minimum miss latency (lambda_min)",
		.doc = "Minimum miss latency (the paper's \\(*l\\dmin\\u); under\n"
		       ".B model=rdgc\n"
		       "with\n"
		       ".B latency.model=fixed\n"
		       "the miss latency.",
	},
	[K_LATENCY_STDDEV] = {
		.name = "latency.stddev", .type = RD_KEY_DOUBLE, .unit = "steps",
		.stages = ST(L1), .profiles = PR(PAPER) | PR(REF2013), .def_rdgc = "0",
		FIELD(latency_stddev), .def = "5",
		.help = "sigma of the half-normal miss latency addition",
		.doc = "Standard deviation \\(*s of the half-normal addition to the miss latency.\n"
		       "Latencies are at most 2^30 steps: the hit latency, and\n"
		       ".B latency.miss\n"
		       "+ 8\\(*s.",
	},
	[K_LATENCY_CLIP] = {
		.name = "latency.clip", .type = RD_KEY_BOOL, .unit = "", FIELD(latency_clip),
		.stages = ST(L1), .profiles = PR(PAPER),
		.def = "1",
		.help = "clip a request to an in-flight line to that line's arrival",
		.doc = "Clip the effect time of a request for a line still in flight to that line's\n"
		       "arrival. (model=rdgc merges such a request into the line's MSHR entry:\n"
		       "this key and\n"
		       ".B gpu.divergence\n"
		       "do not apply to it.)",
	},
	[K_GPU_DIVERGENCE] = {
		.name = "gpu.divergence", .type = RD_KEY_BOOL, .unit = "", FIELD(divergence),
		.stages = ST(L1), .profiles = PR(PAPER) | PR(REF2013),
		.def = "1",
		.help = "warp divergence: a warp waits its latency before it issues again",
		.doc = "Warp divergence: after a request, a warp waits for its latency before it\n"
		       "issues again, so warps drift apart as in hardware; 0 keeps a strict\n"
		       "round-robin order.",
	},
	[K_GPU_WARP_SIZE] = {
		.name = "gpu.warp_size", .type = RD_KEY_UINT, .unit = "threads", FIELD(warp_size),
		.stages = ST(SCHED) | ST(L1),
		.def = "32", .min = 1, .max = 1024,
		.help = "threads per warp",
	},
	[K_GPU_CORES] = {
		.name = "gpu.cores", .type = RD_KEY_UINT, .unit = "", FIELD(cores),
		.stages = ST(SCHED) | ST(L2),
		.def = "1", .min = 1, .max = 4096,
		.help = "cores (SMs) modelled",
	},
	[K_GPU_MAX_THREADS] = {
		.name = "gpu.max_threads", .type = RD_KEY_UINT, .unit = "threads", FIELD(max_threads),
		.stages = ST(SCHED),
		.def = "0",
		.help = "model only the first N threads (0 = all)",
		.doc = "Model only the first\n"
		       ".I THREADS\n"
		       "threads of the kernel; 0 models all.\n"
		       "Text output notes when threads were dropped. Given with\n"
		       ".BR \\-s ,\n"
		       "it also takes the place of a kernel description's own\n"
		       ".B max_threads\n"
		       "(both ways: 0 expands every thread of each launch).",
	},
	[K_GPU_MAX_ACTIVE_THREADS] = {
		.name = "gpu.max_active_threads", .type = RD_KEY_UINT, .unit = "threads",
		.stages = ST(SCHED) | ST(L1),
		FIELD(max_active_threads), .def = "1536", .min = 1,
		.help = "active threads per core",
		.doc = "Threads active on a core at once.",
	},
	[K_GPU_MAX_ACTIVE_BLOCKS] = {
		.name = "gpu.max_active_blocks", .type = RD_KEY_UINT, .unit = "blocks",
		.stages = ST(SCHED) | ST(L1),
		FIELD(max_active_blocks), .def = "8", .min = 1,
		.help = "active blocks per core",
		.doc = "Blocks active on a core at once.",
	},
	[K_GPU_BLOCK_MAPPING] = {
		.name = "gpu.block_mapping", .type = RD_KEY_ENUM, .unit = "", FIELD(block_mapping),
		.stages = ST(SCHED),
		.def = "rr", NAMES(map_names), .choices = "rr|bpart4|bpart8|random",
		.help = "block-to-core mapping",
		.doc = "Block-to-core mapping: round-robin, round-robin groups of 4 or 8\n"
		       "consecutive blocks, or a seeded shuffle of the blocks that have loads.",
	},
	[K_SEED] = {
		.name = "seed", .type = RD_KEY_UINT, .unit = "", FIELD(seed),
		.stages = ST(SCHED) | ST(L1) | ST(L2),
		.def = "1",
		.help = "seed of the latency and mapping generators",
		.doc = "Seed of the random latency and mapping generators; equal seeds give equal\n"
		       "results.",
	},
	[K_CLASSES] = {
		.name = "classes", .type = RD_KEY_ENUM, .unit = "", FIELD(classes),
		.stages = ST(L1) | ST(REPORT), .profiles = PR(PAPER) | PR(RDGC),
		.def = "difference", NAMES(classes_names), .choices = "difference|per-access",
		.help = "how capacity and associativity misses are told apart",
		.doc = "How the misses that are not compulsory, latency or MSHR misses are split\n"
		       "between capacity and associativity:\n"
		       ".B difference\n"
		       "(the paper's) counts as associativity misses those of the\n"
		       "as-configured run minus those of a fully associative run;\n"
		       ".B per-access\n"
		       "labels each miss: associativity if a fully associative LRU cache of the\n"
		       "same capacity and policy, fed the same requests with the same timing, would hit it,\n"
		       "capacity otherwise (Hill's three Cs, Dinero IV's\n"
		       ".BR \\-l1\\-dccc ).\n"
		       "MSHR misses are counted by difference in both and taken from the\n"
		       "capacity misses first. The event log and the teaching views always show\n"
		       "each request's per-access label. The reference-2013 profile keeps the 2013\n"
		       "code's arithmetic for its totals.",
	},
	[K_L1_REPLACEMENT] = {
		.name = "l1.replacement", .type = RD_KEY_ENUM, .unit = "", FIELD(replacement),
		.stages = ST(L1), .profiles = PR(PAPER) | PR(RDGC),
		.def = "lru", NAMES(repl_names), .choices = "lru|fifo|lfu|random",
		.help = "replacement policy (reuse distances stay LRU's)",
		.doc = "Replacement policy of the L1: least recently used, first in first out,\n"
		       "least frequently used (accesses since insertion; ties: the least recently\n"
		       "used) or random (a way drawn from a generator of its own per core and case,\n"
		       "seeded by\n"
		       ".BR seed ).\n"
		       "Empty ways fill first, lowest index first. Hits and misses come from the\n"
		       "policy; the reuse-distance histogram stays LRU's. The breakdown's fully\n"
		       "associative case, and per-access classes, use the same policy. The\n"
		       "reference-2013 profile models LRU only.",
	},
	[K_L1_STORES] = {
		.name = "l1.stores", .type = RD_KEY_ENUM, .unit = "", FIELD(stores),
		.stages = ST(SCHED) | ST(COAL) | ST(L1), .profiles = PR(PAPER) | PR(RDGC),
		.def = "ignore", NAMES(stores_names), .choices = "ignore|evict|allocate",
		.help = "what a store does at the L1",
		.doc = "What a store does at the L1.\n"
		       ".B ignore\n"
		       "(the paper's): stores never reach the cache.\n"
		       ".B evict\n"
		       "(write-evict, RDGC's WON, the L1 of every GPU since Maxwell): a store goes\n"
		       "past the L1 and takes no MSHR; a store that hits removes the line, leaving\n"
		       "its way empty, and a store to a line in flight cancels the insertion of the\n"
		       "fills in flight then. A later load miss of such a line is a\n"
		       ".B write_evict\n"
		       "miss (until the line is filled again).\n"
		       ".B allocate\n"
		       "(write-back, write-allocate: RDGC's OFF, Dinero IV's default): a store is\n"
		       "looked up and cached like a load, and a store miss takes an MSHR.\n"
		       "Stores enter in program order: warp instruction k is each thread's k-th\n"
		       "access, and the lanes whose k-th access is a store form its store requests\n"
		       "(coalesced like loads), issued after its loads. Counts, classes and miss\n"
		       "rates stay about loads; stores have their own counts and histogram. The\n"
		       "reference-2013 profile ignores stores.",
	},
	[K_L1_LOADS] = {
		.name = "l1.loads", .type = RD_KEY_ENUM, .unit = "", FIELD(loads),
		.stages = ST(L1), .profiles = PR(PAPER) | PR(RDGC),
		.def = "cache", NAMES(loads_names), .choices = "cache|bypass",
		.help = "cache loads in the L1, or send them past it",
		.doc = "Whether loads are cached in the L1\n"
		       ".RB ( cache ,\n"
		       "nvcc's\n"
		       ".BR \\-dlcm=ca )\n"
		       "or sent past it\n"
		       ".RB ( bypass ,\n"
		       ".BR \\-dlcm=cg ):\n"
		       "then every load request is a miss of class\n"
		       ".B bypass\n"
		       "and takes no MSHR. With\n"
		       ".B l1.stores=evict\n"
		       "this is RDGC's RWON (the L1 disabled); with\n"
		       ".B l1.stores=allocate\n"
		       "it is refused. The reference-2013 profile caches loads only.",
	},
	[K_L1_ALLOCATE] = {
		.name = "l1.allocate", .type = RD_KEY_ENUM, .unit = "", FIELD(l1_allocate),
		.stages = ST(L1), .profiles = PR(PAPER),
		.def = "fill", NAMES(alloc_names), .choices = "fill|miss",
		.help = "a miss takes its way when its data arrives, or when it issues (model=paper)",
		.doc = "When a miss takes its way in the L1 (model=paper).\n"
		       ".B fill\n"
		       "(the paper's): when its data arrives; a line in flight holds no way.\n"
		       ".B miss\n"
		       "(allocate on miss, as GPGPU-Sim's L1 and Fermi-era L1s do): the victim is\n"
		       "chosen and the way reserved when the miss issues, so an in-flight miss\n"
		       "evicts at once; a reserved way is never a victim, and a miss whose set has\n"
		       "every way reserved is refused (a reservation failure, counted with the MSHR\n"
		       "refusals) and retried as a miss that found no free MSHR is. The fill then\n"
		       "only ends the reservation: recency is the miss's. The reuse-distance\n"
		       "histogram stays the fill-time LRU stack's.",
	},
	[K_L1_WARP_LIMIT] = {
		.name = "l1.mshr_per_warp_counts", .type = RD_KEY_ENUM, .unit = "",
		.stages = ST(L1), .profiles = PR(PAPER),
		FIELD(l1_warp_limit), .def = "entries", NAMES(warp_limit_names),
		.choices = "entries|loads",
		.help = "what l1.mshr_per_warp limits: MSHR entries, or loads in flight (model=paper)",
		.doc = "What\n"
		       ".B l1.mshr_per_warp\n"
		       "limits (model=paper). Seed 000 section 5.2 measured 6 with one line per\n"
		       "load, which fits two readings, as the paper says.\n"
		       ".B entries\n"
		       "(the paper model's): the MSHR entries a warp holds.\n"
		       ".B loads\n"
		       "(the paper's alternative, \\(lqa limit on the number of outstanding\n"
		       "incomplete instructions\\(rq): the warp's load instructions with a miss in\n"
		       "flight; a load's own misses are never refused by it, however many lines it\n"
		       "touches (at most 255 loads).",
	},
	[K_GPU_SCHEDULER_POLICY] = {
		.name = "gpu.scheduler_policy", .type = RD_KEY_ENUM, .unit = "",
		.stages = ST(L1), .profiles = PR(PAPER),
		FIELD(scheduler_policy), .def = "rr", NAMES(sched_names), .choices = "rr|gto",
		.help = "which ready warp issues next: round-robin, or greedy then oldest (model=paper)",
		.doc = "Which ready warp a core issues next (model=paper).\n"
		       ".B rr\n"
		       "(the paper's): round-robin, the front of the queue of ready warps.\n"
		       ".B gto\n"
		       "(greedy then oldest, GPGPU-Sim's\n"
		       ".B \\-gpgpu_scheduler gto\n"
		       "and the setting of its GTX 480 configuration): the warp issued last\n"
		       "again while it is ready, else the oldest ready warp (the lowest warp id).\n"
		       "A warp refused an MSHR is ready at once, so it retries until it issues\n"
		       "and the other warps' loads wait behind it, as behind a load stalled in an\n"
		       "in-order memory pipeline.",
	},
	[K_L1_BANKS] = {
		.name = "l1.banks", .type = RD_KEY_UINT, .unit = "", FIELD(l1_banks),
		.stages = ST(SETS) | ST(L1), .profiles = PR(RDGC),
		.def = "1", .min = 1, .max = 1024,
		.help = "L1 banks, each with its own sets and stack (model=rdgc)",
		.doc = "Banks of each L1 (model=rdgc): line\n"
		       ".I a\n"
		       "goes to bank\n"
		       ".IR a \" mod \" banks ,\n"
		       "set\n"
		       ".RI hash( a \" / \" banks )\n"
		       "of the bank's sets / banks; each bank keeps its own LRU stacks, so\n"
		       "distances count the lines of one bank only (seed 001, Table 3).",
	},
	[K_L1_PORTS] = {
		.name = "l1.ports", .type = RD_KEY_UINT, .unit = "", FIELD(l1_ports),
		.stages = ST(L1), .profiles = PR(RDGC), .def_rdgc = "2",
		.def = "0",
		.help = "requests an L1 bank accepts per step (0 = unlimited; model=rdgc)",
		.doc = "Requests an L1 bank accepts per step (model=rdgc); 0 is unlimited.\n"
		       "Requests that find no free port wait for a later step (no status, no\n"
		       "distance that step); older requests keep their port.",
	},
	[K_L1_MSHR_SETS] = {
		.name = "l1.mshr_sets", .type = RD_KEY_UINT, .unit = "", FIELD(l1_mshr_sets),
		.stages = ST(L1), .profiles = PR(RDGC),
		.def = "1", .min = 1, .max = 1024,
		.help = "MSHR sets of each L1, l1.mshrs entries each (model=rdgc)",
		.doc = "MSHR sets of each L1 (model=rdgc), each of\n"
		       ".B l1.mshrs\n"
		       "entries; bank\n"
		       ".I b\n"
		       "uses set\n"
		       ".IR b \" \\(mu \" sets \" / \" banks .",
	},
	[K_L1_MAX_MERGES] = {
		.name = "l1.max_merges", .type = RD_KEY_UINT, .unit = "", FIELD(l1_max_merges),
		.stages = ST(L1), .profiles = PR(RDGC), .def_rdgc = "8",
		.def = "0",
		.help = "misses one L1 MSHR entry merges (0 = unlimited; model=rdgc)",
		.doc = "Misses one MSHR entry of the L1 merges besides its own (model=rdgc); 0 is\n"
		       "unlimited. A miss to a line in flight whose entry is full is a reservation\n"
		       "fail, as one that finds no free entry.",
	},
	[K_GPU_SCHEDULERS] = {
		.name = "gpu.schedulers", .type = RD_KEY_UINT, .unit = "warps", FIELD(schedulers),
		.stages = ST(L1), .profiles = PR(RDGC),
		.def = "2", .min = 1, .max = 1024,
		.help = "warps issued together per step per core (model=rdgc)",
		.doc = "Warp schedulers per core (model=rdgc): the warps of a block issued together\n"
		       "as one group; the next group issues in the step after every request of\n"
		       "this one was accepted.",
	},
	[K_LATENCY_MODEL] = {
		.name = "latency.model", .type = RD_KEY_ENUM, .unit = "", FIELD(latency_model),
		.stages = ST(L1), .profiles = PR(RDGC), .def_rdgc = "adaptive",
		.def = "fixed", NAMES(latmodel_names), .choices = "fixed|adaptive",
		.help = "model=rdgc's miss latency: fixed or adaptive",
		.doc = "The L1 miss latency of model=rdgc:\n"
		       ".B fixed\n"
		       "is\n"
		       ".B latency.miss\n"
		       "steps (a miss issued in step\n"
		       ".I i\n"
		       "fills at the end of step\n"
		       ".IR i \" + L \\- 1\";\n"
		       "RDGC's Table 3 is latency 1 here, which the paper calls 2);\n"
		       ".B adaptive\n"
		       "is seed 001's\n"
		       ".IR K1 \" + \" K2 \" \\(mu busy \\(mu cores / L2P\"\n"
		       "rounded up, at least 1, with busy the MSHR entries of the core in use\n"
		       "with the new miss, cores those with blocks, and L2P\n"
		       ".BR l2.partitions \" \\(mu \" l2.banks .\n"
		       "The paper profile has its own latency\n"
		       ".RB ( latency.miss \" and \" latency.stddev ).",
	},
	[K_LATENCY_K1] = {
		.name = "latency.k1", .type = RD_KEY_DOUBLE, .unit = "steps", FIELD(latency_k1),
		.stages = ST(L1), .profiles = PR(RDGC), .when = "latency.model=adaptive",
		.def = "2",
		.help = "adaptive latency's K1 (seed 001's A2: 2)",
	},
	[K_LATENCY_K2] = {
		.name = "latency.k2", .type = RD_KEY_DOUBLE, .unit = "steps", FIELD(latency_k2),
		.stages = ST(L1), .profiles = PR(RDGC), .when = "latency.model=adaptive",
		.def = "0.25",
		.help = "adaptive latency's K2 (seed 001's A2: 0.25)",
	},
	[K_L2_SIZE] = {
		.name = "l2.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l2_size),
		.stages = ST(L1) | ST(L2), .profiles = PR(PAPER) | PR(RDGC),
		.def = "0",
		.help = "L2 size shared by all cores (0 = no L2)",
		.doc = "Size of the L2 shared by every core; 0 (the default) models no L2. The L2's\n"
		       "requests are each core's L1 load misses that take a new MSHR entry, its\n"
		       "bypassed loads and, under\n"
		       ".BR l1.stores=evict ,\n"
		       "its stores, merged by step and within a step round-robin across cores\n"
		       "from core 0 (seed 001's L2 trace). Under\n"
		       ".B l1.stores=allocate\n"
		       "a store miss fetches its line as a read, and each written line the L1\n"
		       "evicts is written back (after the fetch that evicts it). Under\n"
		       ".B ignore\n"
		       "stores never reach the L2.",
	},
	[K_L2_LINE] = {
		.name = "l2.line", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l2_line),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "128", .min = 1, .flags = RD_KEY_POW2,
		.help = "L2 line size (power of two)",
		.doc = "L2 line size, a power of two. A larger L1 line becomes several L2 requests\n"
		       "(one per L2 line, in order), a smaller one one request.",
	},
	[K_L2_WAYS] = {
		.name = "l2.ways", .type = RD_KEY_UINT, .unit = "", FIELD(l2_ways),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "8", .min = 1,
		.help = "L2 associativity",
	},
	[K_L2_HASH] = {
		.name = "l2.hash", .type = RD_KEY_ENUM, .unit = "", FIELD(l2_hash),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "mod", NAMES(hash_names), .choices = "mod|xor|fermi|smod:N|prime",
		.arg_choice = RD_HASH_SMOD, .arg_max = 63, .arg_offset = offsetof(rd_config, l2_hash_shift),
		.arg_name = "shift",
		.help = "L2 set-index function within a bank",
		.doc = "The L2's set index within its bank, as\n"
		       ".B l1.hash\n"
		       "over the bank's sets, of the line address with the partition and bank\n"
		       "digits taken out.",
	},
	[K_L2_REPLACEMENT] = {
		.name = "l2.replacement", .type = RD_KEY_ENUM, .unit = "", FIELD(l2_replacement),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "lru", NAMES(repl_names), .choices = "lru|fifo|lfu|random",
		.help = "L2 replacement policy",
	},
	[K_L2_STORES] = {
		.name = "l2.stores", .type = RD_KEY_ENUM, .unit = "", FIELD(l2_stores),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "allocate", NAMES(stores_names), .choices = "ignore|evict|allocate",
		.help = "what a store does at the L2",
		.doc = "What a store does at the L2, as\n"
		       ".B l1.stores\n"
		       "at the L1; the default\n"
		       ".B allocate\n"
		       "is write-back, write-allocate (a store miss takes an MSHR entry).",
	},
	[K_L2_PARTITIONS] = {
		.name = "l2.partitions", .type = RD_KEY_UINT, .unit = "", FIELD(l2_partitions),
		.stages = ST(L1) | ST(L2), .profiles = PR(PAPER) | PR(RDGC),
		.when = "l2.size!=0|latency.model=adaptive",
		.def = "1", .min = 1, .max = 1024,
		.help = "L2 partitions",
		.doc = "L2 partitions: the address's\n"
		       ".B l2.interleave\n"
		       "stripes go to partition\n"
		       ".IR stripe \" mod \" partitions .\n"
		       "RDGC's adaptive latency\n"
		       ".RB ( latency.model=adaptive )\n"
		       "reads partitions \\(mu banks with or without an L2.",
	},
	[K_L2_BANKS] = {
		.name = "l2.banks", .type = RD_KEY_UINT, .unit = "", FIELD(l2_banks),
		.stages = ST(L1) | ST(L2), .profiles = PR(PAPER) | PR(RDGC),
		.when = "l2.size!=0|latency.model=adaptive",
		.def = "1", .min = 1, .max = 1024,
		.help = "L2 banks per partition",
		.doc = "Banks per L2 partition: stripe\n"
		       ".I s\n"
		       "goes to bank\n"
		       ".RI ( s \" / \" partitions \") mod \" banks ;\n"
		       "each bank keeps its own sets and stacks. Sets per bank =\n"
		       ".B l2.size\n"
		       "/ (line \\(mu ways \\(mu partitions \\(mu banks), which must be whole.\n"
		       "RDGC's adaptive latency reads partitions \\(mu banks with or without an L2.",
	},
	[K_L2_PORTS] = {
		.name = "l2.ports", .type = RD_KEY_UINT, .unit = "", FIELD(l2_ports),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "0",
		.help = "requests an L2 bank accepts per step (0 = unlimited)",
	},
	[K_L2_INTERLEAVE] = {
		.name = "l2.interleave", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l2_interleave),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "0",
		.help = "bytes per L2 partition stripe (0 = l2.line)",
		.doc = "Bytes of each stripe the partitions and banks interleave by: a power of two,\n"
		       "at least\n"
		       ".BR l2.line ;\n"
		       "0 (the default) is\n"
		       ".BR l2.line .",
	},
	[K_L2_MSHRS] = {
		.name = "l2.mshrs", .type = RD_KEY_UINT, .unit = "", FIELD(l2_mshrs),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "0",
		.help = "entries per L2 MSHR set (0 = unlimited)",
	},
	[K_L2_MSHR_SETS] = {
		.name = "l2.mshr_sets", .type = RD_KEY_UINT, .unit = "", FIELD(l2_mshr_sets),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "1", .min = 1, .max = 1024,
		.help = "L2 MSHR sets (partition p uses set p * sets / partitions)",
		.doc = "L2 MSHR sets, each of\n"
		       ".B l2.mshrs\n"
		       "entries, at most\n"
		       ".BR l2.partitions ;\n"
		       "partition\n"
		       ".I p\n"
		       "uses set\n"
		       ".IR p \" \\(mu \" sets \" / \" partitions\n"
		       "(the GTX 970's 4 sets serve partition pairs, seed 001 section 4.4.2).",
	},
	[K_L2_MAX_MERGES] = {
		.name = "l2.max_merges", .type = RD_KEY_UINT, .unit = "", FIELD(l2_max_merges),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "0",
		.help = "misses one L2 MSHR entry merges (0 = unlimited)",
	},
	[K_LATENCY_L2] = {
		.name = "latency.l2", .type = RD_KEY_UINT, .unit = "steps", FIELD(latency_l2),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "1", .max = RD_MAX_LATENCY,
		.help = "fixed latency of an L2 miss",
		.doc = "Fixed latency of an L2 miss in steps (a miss issued in step\n"
		       ".I i\n"
		       "fills at the end of step\n"
		       ".IR i \" + L \\- 1\";\n"
		       "0 fills at once). An L1 miss's latency never depends on the L2: every L1\n"
		       "runs first, the L2 after (RDGC's Algorithm 1).",
	},
	/* DRAM after the last cache level (seed 002): off by default, so
	 * every result without it is unchanged. The default mapping is ours
	 * (a common layout: 8-byte bursts, 2 KiB rows, 4 channels of 16
	 * banks); the latencies are the K80's (seed 002 §B3.5). */
	[K_DRAM_ENABLE] = {
		.name = "dram.enable", .type = RD_KEY_BOOL, .unit = "", FIELD(dram_enable),
		.stages = ST(L1) | ST(DRAM) | ST(REPORT), .profiles = PR(PAPER) | PR(RDGC),
		.def = "0",
		.help = "model DRAM after the last cache level (seed 002)",
		.doc = "1: model DRAM after the last cache level (seed 002): the L2's read misses\n"
		       "that take a new MSHR entry, its stores under\n"
		       ".B l2.stores=evict\n"
		       "and its write-backs under\n"
		       ".BR l2.stores=allocate ;\n"
		       "without an L2 what leaves the L1s. One request per line, at the step it\n"
		       "leaves, to the bank its address selects, which has an open-row buffer\n"
		       "(row hit, miss or conflict) and a G/G/1 queue (Kingman). The results'\n"
		       ".B dram\n"
		       "section has the row-buffer counts, the queueing delay, the DRAM latency\n"
		       "(Eq. 7) and the AMAT (Eq. 5). Not under\n"
		       ".BR model=reference-2013 .",
	},
	[K_DRAM_ROW_MASK] = {
		.name = "dram.row_mask", .type = RD_KEY_UINT, .unit = "bits", FIELD(dram_row_mask),
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		.def = "281474976579584",
		.help = "address bits of the DRAM row (a mask; 0x hex taken)",
		.doc = "The address bits (a mask, bit 0 the lowest; 0x hex taken, shown in\n"
		       "decimal) that select the row within a bank. Default bits 17\\(en47. The\n"
		       "four masks must not overlap; bits in none of them (the byte bits 0\\(en2\n"
		       "by default) do not matter.",
	},
	[K_DRAM_COL_MASK] = {
		.name = "dram.col_mask", .type = RD_KEY_UINT, .unit = "bits", FIELD(dram_col_mask),
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		.def = "2040",
		.help = "address bits of the DRAM column (a mask)",
		.doc = "The address bits that select the column within a row (default bits 3\\(en10):\n"
		       "they decide nothing (a row hit is any access to the open row) but are\n"
		       "kept apart from the others.",
	},
	[K_DRAM_BANK_MASK] = {
		.name = "dram.bank_mask", .type = RD_KEY_UINT, .unit = "bits", FIELD(dram_bank_mask),
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		.def = "122880",
		.help = "address bits of the bank within a channel (a mask)",
		.doc = "The address bits that select the bank within a channel (default bits\n"
		       "13\\(en16: 16 banks). A request's bank is its channel bits then its bank\n"
		       "bits, each mask's bits packed from the lowest; channel and bank bits\n"
		       "together at most 16 (65536 banks).",
	},
	[K_DRAM_CHANNEL_MASK] = {
		.name = "dram.channel_mask", .type = RD_KEY_UINT, .unit = "bits",
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		FIELD(dram_channel_mask), .def = "6144",
		.help = "address bits of the channel (a mask)",
		.doc = "The address bits that select the channel (memory controller; default bits\n"
		       "11\\(en12: 4 channels). Each channel's banks are banks of their own.",
	},
	[K_DRAM_ROW_HIT] = {
		.name = "dram.row_hit", .type = RD_KEY_DOUBLE, .unit = "ns", FIELD(dram_row_hit),
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		.def = "352",
		.help = "service time of a row-buffer hit (K80: 352)",
	},
	[K_DRAM_ROW_MISS] = {
		.name = "dram.row_miss", .type = RD_KEY_DOUBLE, .unit = "ns", FIELD(dram_row_miss),
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		.def = "742",
		.help = "service time of a row-buffer miss: no row open (K80: 742)",
	},
	[K_DRAM_ROW_CONFLICT] = {
		.name = "dram.row_conflict", .type = RD_KEY_DOUBLE, .unit = "ns",
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		FIELD(dram_row_conflict), .def = "1008",
		.help = "service time of a row conflict: another row open (K80: 1008)",
	},
	[K_DRAM_NS_PER_STEP] = {
		.name = "dram.ns_per_step", .type = RD_KEY_DOUBLE, .unit = "ns",
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		FIELD(dram_ns_per_step), .def = "1",
		.help = "nanoseconds per model step (arrival times)",
		.doc = "Nanoseconds per model time step: converts the steps at which requests\n"
		       "leave the last cache level into arrival times (seed 002 counts\n"
		       "instructions between requests; rdscope's steps are its proxy). Must be\n"
		       "> 0. A bank whose utilisation\n"
		       ".RI \\(*r \" = \" \\(*t s / \\(*t a\n"
		       "is 1 or more is reported saturated.",
	},
	[K_DRAM_ROW_TIMEOUT] = {
		.name = "dram.row_timeout", .type = RD_KEY_DOUBLE, .unit = "ns",
		.stages = ST(DRAM), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		FIELD(dram_row_timeout), .def = "0",
		.help = "close a row idle this long (0 = rows stay open)",
		.doc = "A bank's open row is closed (precharged) when the bank has been idle for\n"
		       "more than this many ns since its last request, so the next request is a\n"
		       "row miss; 0 (the default) keeps rows open until a conflict (an open-page\n"
		       "policy: only a bank's first request is a miss). Ours: seed 002 does not\n"
		       "say when a row closes.",
	},
	[K_DRAM_CACHE_HIT] = {
		.name = "dram.cache_hit", .type = RD_KEY_DOUBLE, .unit = "ns",
		.stages = ST(REPORT), .profiles = PR(PAPER) | PR(RDGC), .when = "dram.enable!=0",
		FIELD(dram_cache_hit), .def = "0",
		.help = "AMAT's hit latency (Eq. 5's hit_lat: the L2's)",
		.doc = "Eq. 5's\n"
		       ".IR hit_lat :\n"
		       "the latency of a hit in the last cache level (seed 002 uses the L2's for\n"
		       "every cache and gives no value: enter your own).",
	},
	/* Memory spaces (seed 002): used only by arrays a mem.NAME key places
	 * outside global memory. The caches' geometry is ours (Fermi's and
	 * Kepler's texture and constant caches are 12 KB and 8 KB per SM;
	 * their lines and ways are not published); shared memory is Fermi's
	 * and Kepler's 48 KB per block in 32 banks of 4 bytes. */
	[K_TEX_SIZE] = {
		.name = "tex.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(tex_size),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "12288", .min = 1, .flags = RD_KEY_SPACES,
		.help = "texture cache size per core (arrays in texture memory)",
		.doc = "Size of each core's texture cache, which the arrays placed in\n"
		       ".B texture\n"
		       "or\n"
		       ".B texture2d\n"
		       "memory (\\fBmem.\\fINAME\\fR) read through: LRU, set-associative, indexed by\n"
		       "line address modulo its sets. Must be a whole number of\n"
		       ".BR tex.line \" \\(mu \" tex.ways .\n"
		       "Default 12 KB (Fermi's) [ours: lines and ways are not published].",
	},
	[K_TEX_LINE] = {
		.name = "tex.line", .type = RD_KEY_UINT, .unit = "bytes", FIELD(tex_line),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "32", .min = 1, .flags = RD_KEY_POW2 | RD_KEY_SPACES,
		.help = "texture cache line size",
	},
	[K_TEX_WAYS] = {
		.name = "tex.ways", .type = RD_KEY_UINT, .unit = "", FIELD(tex_ways),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "4", .min = 1, .flags = RD_KEY_SPACES,
		.help = "texture cache associativity",
	},
	[K_CONST_SIZE] = {
		.name = "const.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(const_size),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "8192", .min = 1, .flags = RD_KEY_SPACES,
		.help = "constant cache size per core (arrays in constant memory)",
		.doc = "Size of each core's constant cache (LRU, set-associative), which arrays\n"
		       "placed in\n"
		       ".B constant\n"
		       "memory read through. A warp instruction reading one address is one\n"
		       "request (broadcast); reading n distinct addresses it is n requests, n\\(mi1\n"
		       "replays (seed 002's rule 3), and each miss one replay more (rule 2).\n"
		       "Must be a whole number of\n"
		       ".BR const.line \" \\(mu \" const.ways .\n"
		       "Default 8 KB [ours].",
	},
	[K_CONST_LINE] = {
		.name = "const.line", .type = RD_KEY_UINT, .unit = "bytes", FIELD(const_line),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "64", .min = 1, .flags = RD_KEY_POW2 | RD_KEY_SPACES,
		.help = "constant cache line size",
	},
	[K_CONST_WAYS] = {
		.name = "const.ways", .type = RD_KEY_UINT, .unit = "", FIELD(const_ways),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "4", .min = 1, .flags = RD_KEY_SPACES,
		.help = "constant cache associativity",
	},
	[K_SMEM_SIZE] = {
		.name = "smem.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(smem_size),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "49152", .min = 1, .flags = RD_KEY_SPACES,
		.help = "shared memory per block: the largest array it takes",
		.doc = "Shared memory per block: an array larger than this cannot be placed in\n"
		       ".B shared\n"
		       "memory (default 48 KB, Fermi's and Kepler's).",
	},
	[K_SMEM_BANKS] = {
		.name = "smem.banks", .type = RD_KEY_UINT, .unit = "", FIELD(smem_banks),
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		.def = "32", .min = 1, .max = 1024, .flags = RD_KEY_SPACES,
		.help = "shared memory banks",
		.doc = "Shared-memory banks. A warp instruction's replays are the most distinct\n"
		       "words it reads in one bank minus one (seed 002's rule 4; the count is\n"
		       "ours): a word is the address divided by\n"
		       ".BR smem.bank_width ,\n"
		       "its bank the word modulo the banks; lanes reading one word share it\n"
		       "(broadcast).",
	},
	[K_SMEM_BANK_WIDTH] = {
		.name = "smem.bank_width", .type = RD_KEY_UINT, .unit = "bytes",
		.stages = ST(SPACES), .profiles = PR(PAPER) | PR(RDGC),
		FIELD(smem_bank_width), .def = "4", .min = 1, .flags = RD_KEY_POW2 | RD_KEY_SPACES,
		.help = "bytes per shared-memory bank word",
	},
	[K_SMEM_LATENCY] = {
		.name = "smem.latency", .type = RD_KEY_DOUBLE, .unit = "ns", FIELD(smem_latency),
		.stages = ST(REPORT), .profiles = PR(PAPER) | PR(RDGC),
		.def = "0", .flags = RD_KEY_SPACES,
		.help = "AMAT's shared-memory latency (Eq. 5's shmem_lat)",
		.doc = "Eq. 5's\n"
		       ".IR shmem_lat ,\n"
		       "weighted by the share of requests that are shared-memory requests (seed\n"
		       "002 gives no value: enter your own, in the units of\n"
		       ".BR dram.cache_hit ).",
	},
	/* Keys added since go last, so that every CSV column keeps its place. */
	[K_L1_SECTOR] = {
		.name = "l1.sector", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_sector),
		.stages = ST(COAL) | ST(L1) | ST(REPORT), .profiles = PR(PAPER),
		.def = "0",
		.help = "sector size: lines tagged whole, filled by sector (0 = whole lines)",
		.doc = "Sector size in bytes (0: whole lines, the paper's). Today's L1s (Volta\n"
		       "on) tag 128-byte lines but fetch 32-byte sectors: a warp instruction's\n"
		       "request carries the sectors its lanes touch, a miss fills only those,\n"
		       "and a load of a present line with a sector not yet fetched is a\n"
		       ".I sector\n"
		       "miss: a class of its own beside the others, in the breakdown, per site\n"
		       "and in the event log (outcome\n"
		       ".BR miss ,\n"
		       "class\n"
		       ".BR sector ;\n"
		       "to the line-level engine, and in the API's events, a hit).\n"
		       "Sector lookups and hits are counted for loads, as Nsight Compute's\n"
		       ".B l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate\n"
		       "counts them. The line-level engine is unchanged: a sector miss of a\n"
		       "present line takes a hit's time and touches the line as a hit does\n"
		       "[ours]. A power of two that divides\n"
		       ".B l1.line\n"
		       "into at most 8 sectors.",
	},
	[K_L1_UNIFIED] = {
		.name = "l1.unified", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_unified),
		.stages = ST(SETS) | ST(L1), .def = "0",
		.help = "L1 and shared memory in one array of this size (0 = separate)",
		.doc = "The bytes of one array that the L1 shares with shared memory (Volta's\n"
		       "128 KB, Ampere's 192 KB, Hopper's 256 KB); 0: the L1 is\n"
		       ".B l1.size\n"
		       "alone. With it,\n"
		       ".B l1.carveout\n"
		       "says how much is shared memory and the L1 is the rest:\n"
		       "setting either sets\n"
		       ".B l1.size\n"
		       "to their difference and\n"
		       ".B l1.ways\n"
		       "so that the number of sets stays (the index function follows).",
	},
	[K_L1_CARVEOUT] = {
		.name = "l1.carveout", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_carveout),
		.stages = ST(SETS) | ST(L1), .def = "0", .when = "l1.unified!=0",
		.help = "shared memory's part of l1.unified, as ncu prints it",
		.doc = "Shared memory's part of the unified array, exactly as Nsight Compute\n"
		       "prints it (\\(lqShared Memory Configuration Size\\(rq, LaunchStats):\n"
		       "the L1 is\n"
		       ".BR l1.unified \" \\(mi \" l1.carveout .\n"
		       "A size the GPU does not offer is refused with the list of those it does:\n"
		       "0, 8, 16, 32, 64 or 96 KB of Volta's 128 KB; 0, 8, 16, 32, 64, 100, 132 or\n"
		       "164 KB of Ampere's 192 KB; 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB\n"
		       "of Hopper's 256 KB.",
	},
	[K_GPU_SAMPLE_CORES] = {
		.name = "gpu.sample_cores", .type = RD_KEY_UINT, .unit = "cores",
		FIELD(sample_cores), .stages = ST(SCHED), .profiles = PR(PAPER) | PR(RDGC),
		.def = "0", .max = 4096,
		.help = "model N evenly spaced cores of those with blocks, totals scaled (0 = all)",
		.doc = "Model only\n"
		       ".I N\n"
		       "of the cores that get blocks, evenly spaced among them, each with\n"
		       "exactly the blocks the dispatcher gives it, and scale the counts to\n"
		       "all of them (each count times cores with blocks / N, rounded): an\n"
		       "estimate for kernels too long to model whole. The text and JSON say\n"
		       "so, with the spread of the sampled cores' miss rates as its\n"
		       "uncertainty. Per-site counts\n"
		       "(\\-\\-by site) are scaled too, each site\n"
		       "kept whole, their sums the kernel's within rounding. The L2 and DRAM\n"
		       "see the sampled cores' misses only.\n"
		       "0 (or N at least the cores with blocks) models every core.",
	},
	[K_L2_SECTOR] = {
		.name = "l2.sector", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l2_sector),
		.stages = ST(L1) | ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.size!=0",
		.def = "0",
		.help = "L2 sector size: lines tagged whole, filled by sector (0 = whole lines)",
		.doc = "The L2's sector size in bytes (0: whole lines). Today's L2s tag 128-byte\n"
		       "lines and fill 32-byte sectors, as\n"
		       ".B l1.sector\n"
		       "does for the L1: each request carries the sectors asked of its L2 line\n"
		       "(a whole L1 line's, or with\n"
		       ".B l1.sector\n"
		       "the L1 request's), a miss fills only those, and with\n"
		       ".B l1.sector\n"
		       "the sectors a load lacks of a line present in its L1 are asked of\n"
		       "the L2 too: a request of their own, with its own line-level hit or\n"
		       "miss, class and time at the L2 [ours]; an L2 line of a larger L1\n"
		       "line that holds none of the sectors asked is not asked. The reads'\n"
		       "sector lookups and hits are counted as Nsight Compute's\n"
		       ".B lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\n"
		       "and\n"
		       ".B lts__t_sectors_srcunit_tex_op_read.sum\n"
		       "count them, and the L2's hit rate in\n"
		       ".B validate\n"
		       "is theirs. Beside that the L2 stays line-level: a sector missing\n"
		       "from a present line is a hit at the line level, and DRAM sees line\n"
		       "misses only [ours]. A power of two that divides\n"
		       ".B l2.line\n"
		       "into at most 8 sectors.",
	},
	[K_L2_FETCH] = {
		.name = "l2.fetch", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l2_fetch),
		.stages = ST(L2), .profiles = PR(PAPER) | PR(RDGC), .when = "l2.sector!=0",
		.def = "0",
		.help = "L2 fetch granularity: a read miss fills its sectors' aligned blocks of this size (0 = the sectors asked)",
		.doc = "Bytes an L2 read miss brings from memory around each sector asked\n"
		       "for: the aligned block of\n"
		       ".B l2.fetch\n"
		       "bytes that holds it (0: only the sectors asked). CUDA calls it the\n"
		       "L2 fetch granularity\n"
		       ".RB ( cudaLimitMaxL2FetchGranularity ,\n"
		       "a hint of 0 to 128 bytes). Evidence for 64 on an H100: where each\n"
		       "thread walks its own row 4 bytes at a time (PolyBench's\n"
		       ".BR bicg_kernel2 ,\n"
		       ".BR atax_kernel1 ,\n"
		       ".BR convolution2D_kernel ),\n"
		       "so that every sector reaches the L2 alone, the L1s' reads hit 50.2 %,\n"
		       "51.3 % and 47.9 % of their L2 sectors: the second sector of each\n"
		       "64-byte pair was fetched with the first. A multiple of\n"
		       ".B l2.sector\n"
		       "and a power of two no larger than\n"
		       ".BR l2.line .",
	},
	[K_COUNT] = {.name = NULL},
};

int rd_l1_carveouts(uint32_t unified, uint32_t *out, int max)
{
	/* KB; CUDA's tuning guides (Volta, Ampere, Hopper) */
	static const uint16_t v100[] = {0, 8, 16, 32, 64, 96};
	static const uint16_t a100[] = {0, 8, 16, 32, 64, 100, 132, 164};
	static const uint16_t h100[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
	const uint16_t *t = unified == 128 * 1024 ? v100 : unified == 192 * 1024 ? a100
			  : unified == 256 * 1024 ? h100 : NULL;
	int n = t == v100 ? 6 : t == a100 ? 8 : t == h100 ? 10 : 0;
	for (int i = 0; i < n && i < max; i++)
		out[i] = t[i] * 1024u;
	return n;
}

_Static_assert(sizeof rd_keys / sizeof rd_keys[0] == K_COUNT + 1, "one row per K_ index");

size_t rd_key_count(void)
{
	return K_COUNT;
}

const rd_key *rd_key_find(const char *name)
{
	for (const rd_key *k = rd_keys; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

/* A row's field in c (the casts keep one definition for set and get). */
static void *field(const rd_config *c, const rd_key *k)
{
	return (char *)c + k->offset;
}

static uint64_t uint_value(const rd_config *c, const rd_key *k)
{
	return k->size == sizeof(uint64_t) ? *(const uint64_t *)field(c, k)
					   : *(const uint32_t *)field(c, k);
}

/* The value of an int, bool or enum field (enums are int-sized). */
static int int_value(const rd_config *c, const rd_key *k)
{
	return *(const int *)field(c, k);
}

static uint32_t arg_value(const rd_config *c, const rd_key *k)
{
	return *(const uint32_t *)((const char *)c + k->arg_offset);
}

static int set_row(rd_config *c, const rd_key *k, const char *value, char *err, size_t errlen);

void rd_config_default(rd_config *c)
{
	/* The rows' defaults (see above). */
	char err[8];
	memset(c, 0, sizeof *c);
	/* Every default is valid (tests/test_keys.c checks). */
	for (const rd_key *k = rd_keys; k->name; k++)
		set_row(c, k, k->def, err, sizeof err);
}

uint32_t rd_config_sets(const rd_config *c)
{
	uint64_t set_bytes = (uint64_t)c->l1_line * c->l1_ways;
	if (set_bytes == 0 || c->l1_size % set_bytes != 0)
		return 0;
	return (uint32_t)(c->l1_size / set_bytes);
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Sets of one L1 bank (model=rdgc's banks; the others have one bank). */
static uint32_t l1_bank_sets(const rd_config *c)
{
	uint32_t sets = rd_config_sets(c);
	uint32_t b = c->model == RD_PROFILE_RDGC && c->l1_banks ? c->l1_banks : 1;
	return sets % b ? 0 : sets / b;
}

uint32_t rd_config_l2_sets(const rd_config *c)
{
	uint64_t bytes = (uint64_t)c->l2_line * c->l2_ways * c->l2_partitions * c->l2_banks;
	if (!c->l2_size || bytes == 0 || c->l2_size % bytes != 0)
		return 0;
	return (uint32_t)(c->l2_size / bytes);
}

uint32_t rd_config_l2_interleave(const rd_config *c)
{
	return c->l2_interleave ? c->l2_interleave : c->l2_line;
}

void rd_config_l1b(rd_config *c)
{
	c->loads = RD_LOADS_BYPASS;
	c->stores = RD_STORES_EVICT;
}

void rd_config_latency_free(const rd_config *c, rd_config *d)
{
	*d = *c;
	d->model = RD_PROFILE_PAPER;
	d->l1_mshrs = d->l1_mshr_per_warp = 0;
	d->latency_hit = d->latency_miss = 0;
	d->latency_stddev = 0;
	d->loads = RD_LOADS_CACHE;
	d->stores = RD_STORES_IGNORE;
	d->l1_allocate = RD_ALLOC_FILL;
	d->l1_warp_limit = RD_WARP_LIMIT_ENTRIES;
	d->scheduler_policy = RD_SCHED_RR;
	d->l2_size = 0;
	d->l1_banks = d->l1_mshr_sets = 1;
	d->l1_ports = d->l1_max_merges = 0;
	d->latency_model = RD_LATENCY_FIXED;
	d->latency_k1 = 2;
	d->latency_k2 = 0.25;
	d->schedulers = 2;
}

void rd_config_profile(const rd_config *c, rd_config *out)
{
	rd_config_latency_free(c, out);
	out->l1_ways = rd_config_sets(c) * c->l1_ways; /* every line in one set */
	out->l1_hash = RD_HASH_MOD;
	out->replacement = RD_REPL_LRU;
	out->classes = RD_CLASSES_DIFFERENCE;
}

uint32_t rd_adaptive_latency(double k1, double k2, uint32_t busy, uint32_t cores, uint32_t l2p)
{
	double v = k1 + k2 * (double)busy * (double)cores / (double)(l2p ? l2p : 1);
	/* the tolerance keeps 6.0 computed as 6.000000000001 at 6 */
	double up = ceil(v - 1e-9);
	if (!(up >= 1.0))
		return 1;
	return up > (double)RD_MAX_LATENCY ? RD_MAX_LATENCY : (uint32_t)up;
}

void rd_concurrent_blocks(uint32_t wpb, uint32_t bsm, uint32_t maxcb, uint32_t maxcw,
			  uint32_t *cb, uint32_t *nitr)
{
	uint32_t n = bsm;
	if (n > maxcb)
		n = maxcb;
	if (wpb && (uint64_t)wpb * n > maxcw)
		n = maxcw / wpb;
	if (n == 0 && bsm)
		n = 1; /* a block of more warps than MAXCW runs alone (RDGC would refuse
			* it; its kernel is not known to the configuration checks) */
	*cb = n;
	*nitr = n ? (bsm + n - 1) / n : 0;
}

const char *rd_hash_name(enum rd_hash h)
{
	return (unsigned)h < NNAMES(hash_names) ? hash_names[h] : "?";
}

const char *rd_replacement_name(enum rd_replacement r)
{
	return (unsigned)r < (unsigned)NNAMES(repl_names) ? repl_names[r] : "?";
}

const char *rd_stores_name(enum rd_stores s)
{
	return (unsigned)s < (unsigned)NNAMES(stores_names) ? stores_names[s] : "?";
}

const char *rd_loads_name(enum rd_loads l)
{
	return (unsigned)l < (unsigned)NNAMES(loads_names) ? loads_names[l] : "?";
}

const char *rd_classes_name(enum rd_classes c)
{
	return (unsigned)c < (unsigned)NNAMES(classes_names) ? classes_names[c] : "?";
}

const char *rd_mapping_name(enum rd_mapping m)
{
	return (unsigned)m < NNAMES(map_names) ? map_names[m] : "?";
}

const char *rd_latency_model_name(enum rd_latency_model l)
{
	return (unsigned)l < (unsigned)NNAMES(latmodel_names) ? latmodel_names[l] : "?";
}

const char *rd_profile_name(enum rd_profile p)
{
	return (unsigned)p < NNAMES(profile_names) ? profile_names[p] : "?";
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
#define NAME(i) rd_keys[i].name

/* A row's own range, as a whole configuration has it. */
static int check_range(const rd_config *c, const rd_key *k, char *err, size_t errlen)
{
	if (k->type == RD_KEY_DOUBLE) {
		double d = *(const double *)field(c, k);
		if (!(d >= (double)k->min) || !isfinite(d))
			FAIL("%s: must be a finite number >= %llu", k->name, (unsigned long long)k->min);
		return 0;
	}
	if (k->type != RD_KEY_UINT)
		return 0;
	unsigned long long v = uint_value(c, k);
	if ((k->flags & RD_KEY_POW2) && !is_pow2(v))
		FAIL("%s: must be a power of two (got %llu)", k->name, v);
	if (k->max && k->min && (v < k->min || v > k->max))
		FAIL("%s: must be between %llu and %llu (got %llu)", k->name,
		     (unsigned long long)k->min, (unsigned long long)k->max, v);
	if (k->max && v > k->max)
		FAIL("%s: must be at most %llu (got %llu)", k->name, (unsigned long long)k->max, v);
	if (v < k->min)
		FAIL("%s: must be >= %llu (got %llu)", k->name, (unsigned long long)k->min, v);
	return 0;
}

/*
 * The checks of one row, in table order: the problems that involve other
 * keys are the row's whose key the message names, and wait for the rows
 * they depend on being valid (those rows then report), so the first
 * problem reported is the same whatever order the rows are in.
 */
static int check_row(const rd_config *c, int i, char *err, size_t errlen)
{
	uint32_t sets;
	switch (i) {
	case K_L1_SIZE:
		if (!is_pow2(c->l1_line) || c->l1_ways < 1)
			return 0;
		if (c->l1_size < (uint64_t)c->l1_line * c->l1_ways)
			FAIL("%s: %u bytes is smaller than one set (%u ways x %u-byte lines)", NAME(i),
			     c->l1_size, c->l1_ways, c->l1_line);
		if (rd_config_sets(c) == 0)
			FAIL("%s: %u bytes is not a whole number of sets of %u ways x %u-byte lines",
			     NAME(i), c->l1_size, c->l1_ways, c->l1_line);
		return 0;
	case K_L1_HASH:
		if ((sets = l1_bank_sets(c)) == 0)
			return 0;
		/* The reference applies its formula to any set count (results of
		 * its own exist for 16 sets); the paper only defines 32 and 64. */
		if (c->l1_hash == RD_HASH_FERMI && c->model == RD_PROFILE_PAPER && sets != 32 &&
		    sets != 64)
			FAIL("%s: fermi needs 32 or 64 sets (this cache has %u)", NAME(i), sets);
		if (c->l1_hash == RD_HASH_XOR && !is_pow2(sets))
			FAIL("%s: xor needs a power-of-two number of sets (this cache has %u)", NAME(i),
			     sets);
		if ((int)c->l1_hash == rd_keys[i].arg_choice && arg_value(c, &rd_keys[i]) > rd_keys[i].arg_max)
			FAIL("%s: %s %s must be <= %u (got %u)", NAME(i), hash_names[c->l1_hash],
			     rd_keys[i].arg_name, rd_keys[i].arg_max, arg_value(c, &rd_keys[i]));
		return 0;
	case K_L1_REPLACEMENT:
		if (c->replacement != RD_REPL_LRU && c->model == RD_PROFILE_REF2013)
			FAIL("%s: the reference-2013 profile models LRU only (got %s)", NAME(i),
			     repl_names[c->replacement]);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L1_STORES:
		if (c->stores != RD_STORES_IGNORE && c->model == RD_PROFILE_REF2013)
			FAIL("%s: the reference-2013 profile ignores stores (got %s)", NAME(i),
			     stores_names[c->stores]);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L1_LOADS:
		if (c->loads == RD_LOADS_BYPASS && c->model == RD_PROFILE_REF2013)
			FAIL("%s: the reference-2013 profile caches loads only (got bypass)", NAME(i));
		if (c->loads == RD_LOADS_BYPASS && c->stores == RD_STORES_ALLOCATE)
			FAIL("%s: bypass with l1.stores=allocate would cache stores but not loads; "
			     "use l1.stores=evict (RDGC's RWON) or ignore", NAME(i));
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L1_BANKS:
	case K_L1_MSHR_SETS:
		if (check_range(c, &rd_keys[i], err, errlen) < 0)
			return -1;
		if (c->model != RD_PROFILE_RDGC)
			return 0;
		if (i == K_L1_BANKS && (sets = rd_config_sets(c)) != 0 && sets % c->l1_banks)
			FAIL("%s: %u sets do not split into %u banks", NAME(i), sets, c->l1_banks);
		if (i == K_L1_MSHR_SETS && c->l1_mshr_sets > c->l1_banks)
			FAIL("%s: %u MSHR sets for %u bank%s (at most one set per bank)", NAME(i),
			     c->l1_mshr_sets, c->l1_banks, c->l1_banks == 1 ? "" : "s");
		return 0;
	case K_LATENCY_HIT:
		if (c->model == RD_PROFILE_RDGC && c->latency_hit)
			FAIL("%s: model=rdgc's hits take effect in their step (got %u; set 0)", NAME(i),
			     c->latency_hit);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_LATENCY_STDDEV:
		if (c->model == RD_PROFILE_RDGC && c->latency_stddev != 0.0)
			FAIL("%s: model=rdgc's latency is fixed or adaptive, without a random "
			     "part (got %g; set 0)", NAME(i), c->latency_stddev);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L2_SIZE:
		if (c->l2_size && c->model == RD_PROFILE_REF2013)
			FAIL("%s: the reference-2013 profile models the L1 only (got %u)", NAME(i),
			     c->l2_size);
		if (!c->l2_size || !is_pow2(c->l2_line) || !c->l2_ways)
			return 0;
		if (rd_config_l2_sets(c) == 0)
			FAIL("%s: %u bytes is not a whole number of sets per bank (%u-byte lines x "
			     "%u ways x %u partitions x %u banks)", NAME(i), c->l2_size, c->l2_line,
			     c->l2_ways, c->l2_partitions, c->l2_banks);
		return 0;
	case K_L2_HASH:
		if ((sets = rd_config_l2_sets(c)) == 0)
			return 0;
		if (c->l2_hash == RD_HASH_FERMI && sets != 32 && sets != 64)
			FAIL("%s: fermi needs 32 or 64 sets per bank (this L2 has %u)", NAME(i), sets);
		if (c->l2_hash == RD_HASH_XOR && !is_pow2(sets))
			FAIL("%s: xor needs a power-of-two number of sets per bank (this L2 has %u)",
			     NAME(i), sets);
		if ((int)c->l2_hash == rd_keys[i].arg_choice && c->l2_hash_shift > rd_keys[i].arg_max)
			FAIL("%s: smod shift must be <= %u (got %u)", NAME(i), rd_keys[i].arg_max,
			     c->l2_hash_shift);
		return 0;
	case K_L2_INTERLEAVE:
		if (c->l2_interleave && (!is_pow2(c->l2_interleave) || c->l2_interleave < c->l2_line))
			FAIL("%s: must be 0 or a power of two of at least l2.line (%u) (got %u)",
			     NAME(i), c->l2_line, c->l2_interleave);
		return 0;
	case K_L2_MSHR_SETS:
		if (check_range(c, &rd_keys[i], err, errlen) < 0)
			return -1;
		if (c->l2_mshr_sets > c->l2_partitions)
			FAIL("%s: %u MSHR sets for %u partition%s (at most one set per partition)",
			     NAME(i), c->l2_mshr_sets, c->l2_partitions, c->l2_partitions == 1 ? "" : "s");
		return 0;
	case K_DRAM_ENABLE:
		if (c->dram_enable && c->model == RD_PROFILE_REF2013)
			FAIL("%s: the reference-2013 profile models the L1 only", NAME(i));
		return 0;
	case K_DRAM_COL_MASK:
	case K_DRAM_BANK_MASK:
	case K_DRAM_CHANNEL_MASK: {
		/* each mask against the ones before it in the table */
		static const int order[] = {K_DRAM_ROW_MASK, K_DRAM_COL_MASK, K_DRAM_BANK_MASK,
					    K_DRAM_CHANNEL_MASK};
		for (int j = 0; order[j] != i; j++) {
			uint64_t both = uint_value(c, &rd_keys[i]) & uint_value(c, &rd_keys[order[j]]);
			if (both) {
				int bit = 0;
				while (!(both >> bit & 1))
					bit++;
				FAIL("%s: shares bit %d with %s (the masks must not overlap)", NAME(i),
				     bit, NAME(order[j]));
			}
		}
		if (i == K_DRAM_CHANNEL_MASK && rd_dram_banks(c) == 0)
			FAIL("%s: with %s, more than 16 bank-selecting bits (at most 65536 banks)",
			     NAME(i), NAME(K_DRAM_BANK_MASK));
		return 0;
	}
	case K_TEX_WAYS:
	case K_CONST_WAYS: {
		if (check_range(c, &rd_keys[i], err, errlen) < 0)
			return -1;
		int tex = i == K_TEX_WAYS;
		uint64_t sz = tex ? c->tex_size : c->const_size, ln = tex ? c->tex_line : c->const_line,
			 w = tex ? c->tex_ways : c->const_ways;
		if (ln && w && sz % (ln * w))
			FAIL("%s: %s (%llu) is not a whole number of %s x %s (%llu)",
			     NAME(i), NAME(tex ? K_TEX_SIZE : K_CONST_SIZE), (unsigned long long)sz,
			     NAME(tex ? K_TEX_LINE : K_CONST_LINE), NAME(i),
			     (unsigned long long)(ln * w));
		return 0;
	}
	case K_DRAM_NS_PER_STEP:
		if (!(c->dram_ns_per_step > 0) || !isfinite(c->dram_ns_per_step))
			FAIL("%s: must be a finite number > 0 (got %g)", NAME(i), c->dram_ns_per_step);
		return 0;
	case K_L1_ALLOCATE:
		if (c->l1_allocate == RD_ALLOC_MISS && c->model != RD_PROFILE_PAPER)
			FAIL("%s: miss is modelled under model=paper only (got %s)", NAME(i),
			     profile_names[c->model]);
		if (c->l1_allocate == RD_ALLOC_MISS && c->stores == RD_STORES_EVICT)
			FAIL("%s: miss with l1.stores=evict is not modelled (use ignore or allocate)",
			     NAME(i));
		return check_range(c, &rd_keys[i], err, errlen);
	case K_GPU_SCHEDULER_POLICY:
		if (c->scheduler_policy == RD_SCHED_GTO && c->model != RD_PROFILE_PAPER)
			FAIL("%s: gto is modelled under model=paper only (got %s)", NAME(i),
			     profile_names[c->model]);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L1_WARP_LIMIT:
		if (c->l1_warp_limit == RD_WARP_LIMIT_LOADS && c->model != RD_PROFILE_PAPER)
			FAIL("%s: loads is modelled under model=paper only (got %s)", NAME(i),
			     profile_names[c->model]);
		if (c->l1_warp_limit == RD_WARP_LIMIT_LOADS && c->l1_mshr_per_warp > 255)
			FAIL("%s: loads counts at most 255 per warp (l1.mshr_per_warp is %u)", NAME(i),
			     c->l1_mshr_per_warp);
		return check_range(c, &rd_keys[i], err, errlen);
	case K_L1_MSHR_PER_WARP:
		if (c->model == RD_PROFILE_RDGC && c->l1_mshr_per_warp)
			FAIL("%s: model=rdgc has no per-warp MSHR limit (got %u; set 0)", NAME(i),
			     c->l1_mshr_per_warp);
		if (c->l1_mshrs && c->l1_mshr_per_warp > c->l1_mshrs)
			FAIL("%s: %u is more than %s (%u)", NAME(i), c->l1_mshr_per_warp,
			     NAME(K_L1_MSHRS), c->l1_mshrs);
		return 0;
	case K_L1_CARVEOUT: {
		if (!c->l1_unified) {
			if (c->l1_carveout)
				FAIL("%s: needs a unified L1 (l1.unified; got %u without one)", NAME(i),
				     c->l1_carveout);
			return 0;
		}
		uint32_t v[16];
		int n = rd_l1_carveouts(c->l1_unified, v, 16), ok = !n && c->l1_carveout < c->l1_unified;
		for (int j = 0; j < n; j++)
			ok |= v[j] == c->l1_carveout;
		if (!ok) {
			char list[160] = "";
			for (int j = 0; j < n; j++) {
				size_t l = strlen(list);
				snprintf(list + l, sizeof list - l, "%s%u", j ? ", " : "", v[j]);
			}
			if (n)
				FAIL("%s: a %u-byte unified L1 offers %s (got %u)", NAME(i), c->l1_unified,
				     list, c->l1_carveout);
			FAIL("%s: must be less than l1.unified (%u) (got %u)", NAME(i), c->l1_unified,
			     c->l1_carveout);
		}
		if (c->l1_size != c->l1_unified - c->l1_carveout)
			FAIL("%s: the L1 is l1.unified - l1.carveout = %u bytes, but l1.size is %u (set "
			     "l1.carveout, not l1.size, on a unified L1)", NAME(i),
			     c->l1_unified - c->l1_carveout, c->l1_size);
		return 0;
	}
	case K_L2_FETCH:
		if (!c->l2_fetch || !c->l2_sector)
			return 0;
		if (!is_pow2(c->l2_fetch) || c->l2_fetch < c->l2_sector || c->l2_fetch > c->l2_line)
			FAIL("%s: must be 0 or a power of two from %s (%u) to %s (%u) (got %u)",
			     NAME(i), NAME(K_L2_SECTOR), c->l2_sector, NAME(K_L2_LINE), c->l2_line,
			     c->l2_fetch);
		return 0;
	case K_L2_SECTOR:
		if (!c->l2_sector)
			return 0;
		if (!is_pow2(c->l2_sector) || c->l2_sector > c->l2_line ||
		    c->l2_line / c->l2_sector > 8)
			FAIL("%s: must be 0 or a power of two dividing %s (%u) into at most 8 "
			     "sectors (got %u)", NAME(i), NAME(K_L2_LINE), c->l2_line, c->l2_sector);
		return 0;
	case K_L1_SECTOR:
		if (!c->l1_sector)
			return 0;
		if (c->model != RD_PROFILE_PAPER)
			FAIL("%s: sectors are modelled under model=paper only (got %s)", NAME(i),
			     profile_names[c->model]);
		if (!is_pow2(c->l1_sector) || c->l1_sector > c->l1_line ||
		    c->l1_line / c->l1_sector > 8)
			FAIL("%s: must be 0 or a power of two dividing %s (%u) into at most 8 "
			     "sectors (got %u)", NAME(i), NAME(K_L1_LINE), c->l1_line, c->l1_sector);
		return 0;
	case K_LATENCY_MISS:
		/* The engines keep a timing wheel as long as the longest latency
		 * and a fill's time as its distance ahead in 32 bits: a billion
		 * steps is far beyond any GPU (hundreds of cycles) and keeps both
		 * small. */
		if (check_range(c, &rd_keys[K_LATENCY_STDDEV], err, errlen) < 0)
			return 0;
		if ((double)c->latency_miss + 8.0 * c->latency_stddev > RD_MAX_LATENCY)
			FAIL("%s + 8 * %s: must be at most %u (got %.10g)", NAME(i), NAME(K_LATENCY_STDDEV),
			     RD_MAX_LATENCY, (double)c->latency_miss + 8.0 * c->latency_stddev);
		return 0;
	default:
		return check_range(c, &rd_keys[i], err, errlen);
	}
}

/* A key only model=rdgc models (its row's profiles) keeps its default
 * under the other profiles: a value there would be silently ignored. */
static int check_rdgc_only(const rd_config *c, int i, char *err, size_t errlen)
{
	char now[32];
	if (rd_keys[i].profiles != PR(RDGC) || c->model == RD_PROFILE_RDGC)
		return 0;
	rd_config_get(c, NAME(i), now, sizeof now);
	if (strcmp(now, rd_keys[i].def) != 0)
		FAIL("%s: values other than %s need model=rdgc (got %s under %s)", NAME(i),
		     rd_keys[i].def, now, profile_names[c->model]);
	return 0;
}

int rd_config_check(const rd_config *c, char *err, size_t errlen)
{
	for (int i = 0; i < K_COUNT; i++)
		if (check_row(c, i, err, errlen) < 0 || check_rdgc_only(c, i, err, errlen) < 0)
			return -1;
	if (rd_config_has_spaces(c) && c->model == RD_PROFILE_REF2013)
		FAIL("mem.%s: placed in %s memory, and the reference-2013 profile models the L1 "
		     "(global memory) only", c->mem[0].name, rd_space_name(c->mem[0].space));
	return 0;
}

int rd_config_hash_fallback(const rd_config *c)
{
	char err[256];
	if (rd_config_check(c, err, sizeof err) == 0)
		return -1;
	uint32_t sets = rd_config_sets(c);
	if (sets == 0)
		return -1; /* the geometry itself is the problem */
	rd_config t = *c;
	t.l1_hash = is_pow2(sets) ? RD_HASH_XOR : RD_HASH_MOD;
	return rd_config_check(&t, err, sizeof err) == 0 ? (int)t.l1_hash : -1;
}

/* Parse an unsigned integer: decimal or 0x hex, optional K/M/G (x1024). */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	unsigned long long mul = 1;
	if (*end == 'k' || *end == 'K')
		mul = 1024ULL, end++;
	else if (*end == 'm' || *end == 'M')
		mul = 1024ULL * 1024, end++;
	else if (*end == 'g' || *end == 'G')
		mul = 1024ULL * 1024 * 1024, end++;
	if (*end)
		return -1;
	if (v > max / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static int set_enum(rd_config *c, const rd_key *k, const char *value, char *err, size_t errlen)
{
	if (k->arg_name) {
		const char *name = k->names[k->arg_choice];
		size_t n = strlen(name);
		uint64_t u;
		if (strncmp(value, name, n) == 0 && value[n] == ':') {
			if (parse_uint(value + n + 1, k->arg_max, &u) < 0)
				FAIL("%s: %s:N needs a %s N from 0 to %u (got '%s')", k->name, name,
				     k->arg_name, k->arg_max, value);
			*(int *)field(c, k) = k->arg_choice;
			*(uint32_t *)((char *)c + k->arg_offset) = (uint32_t)u;
			return 0;
		}
	}
	for (int i = 0; i < k->nnames; i++) {
		/* The choice with an argument is only taken with it. */
		if (strcmp(value, k->names[i]) == 0 && !(k->arg_name && i == k->arg_choice)) {
			*(int *)field(c, k) = i;
			return 0;
		}
	}
	FAIL("%s: must be one of %s (got '%s')", k->name, k->choices, value);
}

static int set_row(rd_config *c, const rd_key *k, const char *value, char *err, size_t errlen)
{
	uint64_t u;
	switch (k->type) {
	case RD_KEY_ENUM:
		return set_enum(c, k, value, err, errlen);
	case RD_KEY_DOUBLE: {
		char *end;
		errno = 0;
		double d = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(d))
			FAIL("%s: not a number (got '%s')", k->name, value);
		if (d < (double)k->min)
			FAIL("%s: must be >= %llu (got %s)", k->name, (unsigned long long)k->min, value);
		*(double *)field(c, k) = d;
		return 0;
	}
	case RD_KEY_BOOL:
		if (strcmp(value, "1") == 0 || strcmp(value, "true") == 0 || strcmp(value, "on") == 0)
			*(int *)field(c, k) = 1;
		else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0 || strcmp(value, "off") == 0)
			*(int *)field(c, k) = 0;
		else
			FAIL("%s: must be 0 or 1 (got '%s')", k->name, value);
		return 0;
	case RD_KEY_UINT:
		if (k->size == sizeof(uint64_t)) {
			if (parse_uint(value, UINT64_MAX, &u) < 0)
				FAIL("%s: not an unsigned integer (got '%s')", k->name, value);
			*(uint64_t *)field(c, k) = u;
			return 0;
		}
		if (parse_uint(value, UINT32_MAX, &u) < 0)
			FAIL("%s: not an unsigned integer below 2^32 (got '%s')", k->name, value);
		if (u < k->min)
			FAIL("%s: must be >= %llu (got %s)", k->name, (unsigned long long)k->min, value);
		if ((k->flags & RD_KEY_POW2) && !is_pow2(u))
			FAIL("%s: must be a power of two (got %s)", k->name, value);
		*(uint32_t *)field(c, k) = (uint32_t)u;
		return 0;
	}
	FAIL("%s: unknown key", k->name);
}

static int value_is(const rd_config *c, int key, const char *v)
{
	char now[64], want[64];
	rd_config tmp = *c;
	char err[8];
	if (set_row(&tmp, &rd_keys[key], v, err, sizeof err) < 0)
		return 0;
	rd_config_get(c, rd_keys[key].name, now, sizeof now);
	rd_config_get(&tmp, rd_keys[key].name, want, sizeof want);
	return strcmp(now, want) == 0;
}

static void profile_switch(rd_config *c, enum rd_profile from, enum rd_profile to)
{
	char err[8];
	if ((from == RD_PROFILE_RDGC) == (to == RD_PROFILE_RDGC))
		return;
	/* (the keys whose default differs between the paper and RDGC, seed
	 * 001 section 4.4.2: their rows' def_rdgc) */
	for (int i = 0; i < K_COUNT; i++) {
		const rd_key *k = &rd_keys[i];
		if (!k->def_rdgc)
			continue;
		const char *a = to == RD_PROFILE_RDGC ? k->def : k->def_rdgc;
		const char *b = to == RD_PROFILE_RDGC ? k->def_rdgc : k->def;
		if (value_is(c, i, a))
			set_row(c, k, b, err, sizeof err);
	}
}

/* An array name as --arrays takes it: a letter or _, then letters,
 * digits, _ or ., at most RD_MEM_NAME_MAX - 1 bytes. */
static int mem_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (!len || len >= RD_MEM_NAME_MAX || !(isalpha((unsigned char)n[0]) || n[0] == '_'))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != '.')
			return 0;
	return 1;
}

/* mem.NAME=SPACE: the placement list, kept sorted by name (so equal
 * settings compare equal whatever their order). */
static int set_mem(rd_config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const char *name = key + 4;
	if (!mem_name_ok(name) || strcmp(name, "global") == 0)
		FAIL("%s: not an array name (a letter or _, then letters, digits, _ or .; at "
		     "most %d characters; not global)", key, RD_MEM_NAME_MAX - 1);
	int sp = rd_space_parse(value);
	if (sp < 0)
		FAIL("%s: must be global|texture|texture2d|constant|shared (got \"%s\")", key, value);
	uint32_t i = 0;
	while (i < c->mem_n && strcmp(c->mem[i].name, name) < 0)
		i++;
	if (i < c->mem_n && strcmp(c->mem[i].name, name) == 0) {
		c->mem[i].space = (enum rd_space)sp;
		return 0;
	}
	if (c->mem_n >= RD_MEM_MAX)
		FAIL("%s: at most %d mem.* placements in one configuration", key, RD_MEM_MAX);
	memmove(&c->mem[i + 1], &c->mem[i], (c->mem_n - i) * sizeof c->mem[0]);
	memset(&c->mem[i], 0, sizeof c->mem[i]);
	memcpy(c->mem[i].name, name, strlen(name) + 1);
	c->mem[i].space = (enum rd_space)sp;
	c->mem_n++;
	return 0;
}

int rd_config_unset_mem(rd_config *c, const char *name)
{
	for (uint32_t i = 0; i < c->mem_n; i++)
		if (strcmp(c->mem[i].name, name) == 0) {
			memmove(&c->mem[i], &c->mem[i + 1], (c->mem_n - i - 1) * sizeof c->mem[0]);
			c->mem_n--;
			memset(&c->mem[c->mem_n], 0, sizeof c->mem[0]);
			return 1;
		}
	return 0;
}

int rd_config_set(rd_config *c, const char *key, const char *value, char *err, size_t errlen)
{
	if (strncmp(key, "mem.", 4) == 0)
		return set_mem(c, key, value, err, errlen);
	const rd_key *k = rd_key_find(key);
	if (!k)
		FAIL("%s: unknown key", key);
	enum rd_profile was = c->model;
	int unified = k == &rd_keys[K_L1_UNIFIED] || k == &rd_keys[K_L1_CARVEOUT];
	uint32_t sets = unified ? rd_config_sets(c) : 0;
	int rc = set_row(c, k, value, err, errlen);
	if (rc == 0 && k == &rd_keys[K_MODEL])
		profile_switch(c, was, c->model);
	/* a unified L1 is what shared memory leaves: the size follows, and
	 * the ways, so that the sets (and the index function) stay */
	if (rc == 0 && unified && c->l1_unified && c->l1_carveout < c->l1_unified) {
		c->l1_size = c->l1_unified - c->l1_carveout;
		if (sets && c->l1_line && c->l1_size % ((uint64_t)sets * c->l1_line) == 0)
			c->l1_ways = c->l1_size / (sets * c->l1_line);
	}
	return rc;
}

int rd_config_get(const rd_config *c, const char *key, char *buf, size_t len)
{
	int n = -1;
	if (strncmp(key, "mem.", 4) == 0) {
		if (!mem_name_ok(key + 4))
			return -1;
		n = snprintf(buf, len, "%s", rd_space_name(rd_config_space(c, key + 4)));
		return n < 0 || (size_t)n >= len ? -1 : 0;
	}
	const rd_key *k = rd_key_find(key);
	if (!k)
		return -1;
	switch (k->type) {
	case RD_KEY_ENUM: {
		int v = int_value(c, k);
		if (k->arg_name && v == k->arg_choice)
			n = snprintf(buf, len, "%s:%u", k->names[v], arg_value(c, k));
		else
			n = snprintf(buf, len, "%s", (unsigned)v < (unsigned)k->nnames ? k->names[v] : "?");
		break;
	}
	case RD_KEY_DOUBLE:
		n = snprintf(buf, len, "%.17g", *(const double *)field(c, k));
		break;
	case RD_KEY_BOOL:
		n = snprintf(buf, len, "%d", int_value(c, k) ? 1 : 0);
		break;
	case RD_KEY_UINT:
		n = snprintf(buf, len, "%llu", (unsigned long long)uint_value(c, k));
		break;
	}
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Does key k hold the same value in a and b (as its text would compare)? */
static int key_same(const rd_config *a, const rd_config *b, const rd_key *k)
{
	switch (k->type) {
	case RD_KEY_ENUM:
		return int_value(a, k) == int_value(b, k) &&
		       !(k->arg_name && int_value(a, k) == k->arg_choice &&
			 arg_value(a, k) != arg_value(b, k));
	case RD_KEY_DOUBLE:
		return *(const double *)field(a, k) == *(const double *)field(b, k);
	case RD_KEY_BOOL:
		return !int_value(a, k) == !int_value(b, k);
	case RD_KEY_UINT:
		return uint_value(a, k) == uint_value(b, k);
	}
	return 0;
}

int rd_config_same(const rd_config *a, const rd_config *b, unsigned stages)
{
	for (const rd_key *k = rd_keys; k->name; k++)
		if ((k->stages & stages) && !key_same(a, b, k))
			return 0;
	if (!(stages & (ST(COAL) | ST(SPACES))))
		return 1;
	/* the placements, both sorted by name; mem.A=global is a setting of
	 * its own (its run reports the spaces), so the lists must match */
	if (a->mem_n != b->mem_n)
		return 0;
	for (uint32_t i = 0; i < a->mem_n; i++)
		if (a->mem[i].space != b->mem[i].space || strcmp(a->mem[i].name, b->mem[i].name))
			return 0;
	return 1;
}

int rd_config_equal(const rd_config *a, const rd_config *b)
{
	return rd_config_same(a, b, RD_STAGES_ALL);
}

const char *rd_stage_name(enum rd_stage s)
{
	static const char *const n[RD_NSTAGES] = {"sched", "coal", "sets", "spaces",
						   "l1",    "l2",   "dram", "report"};
	return (unsigned)s < RD_NSTAGES ? n[s] : NULL;
}

/* The row's condition ("KEY=VALUE" or "KEY!=VALUE") on c: 1 if it holds
 * (or there is none), else 0 with the reason in why. */
/* Does the condition "key=value" or "key!=value" (of n bytes at w) hold?
 * If not, why (the first condition's reason is kept). */
static int when_one(const rd_config *c, const char *w, size_t n, char *why, size_t len)
{
	char key[64], want[64], now[64];
	const char *eq = memchr(w, '=', n);
	if (!eq)
		return 1;
	int negate = eq > w && eq[-1] == '!';
	size_t kn = (size_t)(eq - w) - (size_t)negate, vn = n - (size_t)(eq + 1 - w);
	if (kn >= sizeof key || vn >= sizeof want)
		return 1;
	memcpy(key, w, kn);
	key[kn] = '\0';
	memcpy(want, eq + 1, vn);
	want[vn] = '\0';
	if (rd_config_get(c, key, now, sizeof now) < 0)
		return 1;
	if ((strcmp(now, want) == 0) != negate)
		return 1;
	if (!len || why[0])
		return 0;
	if (negate)
		snprintf(why, len, "(%s %s: off)", key, now);
	else
		snprintf(why, len, "(%s only)", want);
	return 0;
}

/* k->when: conditions separated by '|', any of which makes the key apply. */
static int when_holds(const rd_config *c, const rd_key *k, char *why, size_t len)
{
	for (const char *w = k->when; w;) {
		const char *bar = strchr(w, '|');
		size_t n = bar ? (size_t)(bar - w) : strlen(w);
		if (when_one(c, w, n, why, len)) {
			if (len)
				why[0] = '\0';
			return 1;
		}
		w = bar ? bar + 1 : NULL;
	}
	return !k->when;
}

int rd_key_applies(const rd_config *c, const rd_key *k, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	unsigned p = k->profiles;
	if (p && !(p & RD_PROFILE_BIT(c->model))) {
		if (p == PR(RDGC))
			snprintf(why, len, "(model=rdgc)");
		else if (p == PR(PAPER))
			snprintf(why, len, "(model=paper)");
		else if (c->model == RD_PROFILE_RDGC)
			snprintf(why, len, "(not rdgc's)");
		else
			snprintf(why, len, "(not ref-2013's)");
		return 0;
	}
	return when_holds(c, k, why, len);
}
