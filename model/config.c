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
#include <string.h>

static const char *const hash_names[] = {"mod", "xor", "fermi", "smod", "prime"};
static const char *const map_names[] = {"rr", "bpart4", "bpart8", "random"};
static const char *const profile_names[] = {"paper", "reference-2013"};
static const char *const classes_names[] = {"difference", "per-access"};
static const char *const repl_names[] = {"lru", "fifo", "lfu", "random"};
static const char *const stores_names[] = {"ignore", "evict", "allocate"};
static const char *const loads_names[] = {"cache", "bypass"};

#define NNAMES(a) (int)(sizeof a / sizeof a[0])
#define FIELD(f) .offset = offsetof(rd_config, f), .size = sizeof ((rd_config *)0)->f
#define NAMES(a) .names = a, .nnames = NNAMES(a)

/* The rows' indexes, in table order: the checks name keys by them. */
enum {
	K_MODEL, K_L1_SIZE, K_L1_LINE, K_L1_WAYS, K_L1_HASH, K_L1_MSHRS, K_L1_MSHR_PER_WARP,
	K_LATENCY_HIT, K_LATENCY_MISS, K_LATENCY_STDDEV, K_LATENCY_CLIP, K_GPU_DIVERGENCE,
	K_GPU_WARP_SIZE, K_GPU_CORES, K_GPU_MAX_THREADS, K_GPU_MAX_ACTIVE_THREADS,
	K_GPU_MAX_ACTIVE_BLOCKS, K_GPU_BLOCK_MAPPING, K_SEED, K_CLASSES, K_L1_REPLACEMENT, K_L1_STORES, K_L1_LOADS,
	K_COUNT
};

/*
 * The defaults are Nugteren et al.'s (HPCA 2014): GTX470, 16 KB L1, 128-byte lines, 4 ways,
 * 32 sets, Fermi hash, 64 MSHRs of which one warp may hold 6, lambda_min
 * 100, sigma 5, one core, Fermi's 1536 threads / 8 blocks active per core.
 */
const rd_key rd_keys[] = {
	[K_MODEL] = {
		.name = "model", .type = RD_KEY_ENUM, .unit = "", FIELD(model),
		.def = "paper", NAMES(profile_names), .choices = "paper|reference-2013",
		.help = "model profile",
		.doc = "Model profile: the paper as written, or the 2013 reference code with its\n"
		       "quirks.",
	},
	[K_L1_SIZE] = {
		.name = "l1.size", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_size),
		.def = "16384", .min = 1,
		.help = "L1 cache size",
	},
	[K_L1_LINE] = {
		.name = "l1.line", .type = RD_KEY_UINT, .unit = "bytes", FIELD(l1_line),
		.def = "128", .min = 1, .flags = RD_KEY_POW2,
		.help = "cache line size (power of two)",
		.doc = "Cache line size, a power of two.",
	},
	[K_L1_WAYS] = {
		.name = "l1.ways", .type = RD_KEY_UINT, .unit = "", FIELD(l1_ways),
		.def = "4", .min = 1,
		.help = "associativity (ways per set)",
		.doc = "Associativity (ways per set), at least 1.\n"
		       "The number of sets is\n"
		       ".BR l1.size \" / (\" l1.line \" \\(mu \" l1.ways )\n"
		       "and must be whole.",
	},
	[K_L1_HASH] = {
		.name = "l1.hash", .type = RD_KEY_ENUM, .unit = "", FIELD(l1_hash),
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
		.def = "64",
		.help = "MSHR entries per core (0 = unlimited)",
		.doc = "MSHR entries per core; 0 is unlimited.",
	},
	[K_L1_MSHR_PER_WARP] = {
		.name = "l1.mshr_per_warp", .type = RD_KEY_UINT, .unit = "", FIELD(l1_mshr_per_warp),
		.def = "6",
		.help = "MSHR entries one warp may hold (0 = unlimited)",
		.doc = "MSHR entries one warp may hold; 0 is unlimited.",
	},
	[K_LATENCY_HIT] = {
		.name = "latency.hit", .type = RD_KEY_UINT, .unit = "steps", FIELD(latency_hit),
		.def = "0", .max = RD_MAX_LATENCY,
		.help = "hit latency",
		.doc = "Hit latency in model time steps.",
	},
	[K_LATENCY_MISS] = {
		.name = "latency.miss", .type = RD_KEY_UINT, .unit = "steps", FIELD(latency_miss),
		.def = "100",
		.help = "minimum miss latency (lambda_min)",
		.doc = "Minimum miss latency (the paper's \\(*l\\dmin\\u).",
	},
	[K_LATENCY_STDDEV] = {
		.name = "latency.stddev", .type = RD_KEY_DOUBLE, .unit = "steps",
		FIELD(latency_stddev), .def = "5",
		.help = "sigma of the half-normal miss latency addition",
		.doc = "Standard deviation \\(*s of the half-normal addition to the miss latency.\n"
		       "Latencies are at most 2^30 steps: the hit latency, and\n"
		       ".B latency.miss\n"
		       "+ 8\\(*s.",
	},
	[K_LATENCY_CLIP] = {
		.name = "latency.clip", .type = RD_KEY_BOOL, .unit = "", FIELD(latency_clip),
		.def = "1",
		.help = "clip a request to an in-flight line to that line's arrival",
		.doc = "Clip the effect time of a request for a line still in flight to that line's\n"
		       "arrival.",
	},
	[K_GPU_DIVERGENCE] = {
		.name = "gpu.divergence", .type = RD_KEY_BOOL, .unit = "", FIELD(divergence),
		.def = "1",
		.help = "warp divergence: a warp waits its latency before it issues again",
		.doc = "Warp divergence: after a request, a warp waits for its latency before it\n"
		       "issues again, so warps drift apart as in hardware; 0 keeps a strict\n"
		       "round-robin order.",
	},
	[K_GPU_WARP_SIZE] = {
		.name = "gpu.warp_size", .type = RD_KEY_UINT, .unit = "threads", FIELD(warp_size),
		.def = "32", .min = 1, .max = 1024,
		.help = "threads per warp",
	},
	[K_GPU_CORES] = {
		.name = "gpu.cores", .type = RD_KEY_UINT, .unit = "", FIELD(cores),
		.def = "1", .min = 1, .max = 4096,
		.help = "cores (SMs) modelled",
	},
	[K_GPU_MAX_THREADS] = {
		.name = "gpu.max_threads", .type = RD_KEY_UINT, .unit = "threads", FIELD(max_threads),
		.def = "0",
		.help = "model only the first N threads (0 = all)",
		.doc = "Model only the first\n"
		       ".I THREADS\n"
		       "threads of the kernel; 0 models all.\n"
		       "Text output notes when threads were dropped.",
	},
	[K_GPU_MAX_ACTIVE_THREADS] = {
		.name = "gpu.max_active_threads", .type = RD_KEY_UINT, .unit = "threads",
		FIELD(max_active_threads), .def = "1536", .min = 1,
		.help = "active threads per core",
		.doc = "Threads active on a core at once.",
	},
	[K_GPU_MAX_ACTIVE_BLOCKS] = {
		.name = "gpu.max_active_blocks", .type = RD_KEY_UINT, .unit = "blocks",
		FIELD(max_active_blocks), .def = "8", .min = 1,
		.help = "active blocks per core",
		.doc = "Blocks active on a core at once.",
	},
	[K_GPU_BLOCK_MAPPING] = {
		.name = "gpu.block_mapping", .type = RD_KEY_ENUM, .unit = "", FIELD(block_mapping),
		.def = "rr", NAMES(map_names), .choices = "rr|bpart4|bpart8|random",
		.help = "block-to-core mapping",
		.doc = "Block-to-core mapping: round-robin, round-robin groups of 4 or 8\n"
		       "consecutive blocks, or a seeded shuffle of the blocks that have loads.",
	},
	[K_SEED] = {
		.name = "seed", .type = RD_KEY_UINT, .unit = "", FIELD(seed),
		.def = "1",
		.help = "seed of the latency and mapping generators",
		.doc = "Seed of the random latency and mapping generators; equal seeds give equal\n"
		       "results.",
	},
	[K_CLASSES] = {
		.name = "classes", .type = RD_KEY_ENUM, .unit = "", FIELD(classes),
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
	[K_COUNT] = {.name = NULL},
};

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
		if ((sets = rd_config_sets(c)) == 0)
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
	case K_L1_MSHR_PER_WARP:
		if (c->l1_mshrs && c->l1_mshr_per_warp > c->l1_mshrs)
			FAIL("%s: %u is more than %s (%u)", NAME(i), c->l1_mshr_per_warp,
			     NAME(K_L1_MSHRS), c->l1_mshrs);
		return 0;
	case K_LATENCY_MISS:
		/* The engines keep a timing wheel as long as the longest latency
		 * and a fill's time as its distance ahead in 32 bits: a billion
		 * steps is far beyond any GPU (hundreds of cycles) and keeps both
		 * small. */
		if (check_range(c, &rd_keys[K_LATENCY_STDDEV], err, errlen) < 0)
			return 0;
		if ((double)c->latency_miss + 8.0 * c->latency_stddev > RD_MAX_LATENCY)
			FAIL("%s + 8 * %s: must be at most %u (got %.0f)", NAME(i), NAME(K_LATENCY_STDDEV),
			     RD_MAX_LATENCY, (double)c->latency_miss + 8.0 * c->latency_stddev);
		return 0;
	default:
		return check_range(c, &rd_keys[i], err, errlen);
	}
}

int rd_config_check(const rd_config *c, char *err, size_t errlen)
{
	for (int i = 0; i < K_COUNT; i++)
		if (check_row(c, i, err, errlen) < 0)
			return -1;
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

int rd_config_set(rd_config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const rd_key *k = rd_key_find(key);
	if (!k)
		FAIL("%s: unknown key", key);
	return set_row(c, k, value, err, errlen);
}

int rd_config_get(const rd_config *c, const char *key, char *buf, size_t len)
{
	const rd_key *k = rd_key_find(key);
	int n = -1;
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

int rd_config_equal(const rd_config *a, const rd_config *b)
{
	for (const rd_key *k = rd_keys; k->name; k++) {
		switch (k->type) {
		case RD_KEY_ENUM:
			if (int_value(a, k) != int_value(b, k) ||
			    (k->arg_name && int_value(a, k) == k->arg_choice &&
			     arg_value(a, k) != arg_value(b, k)))
				return 0;
			break;
		case RD_KEY_DOUBLE:
			if (*(const double *)field(a, k) != *(const double *)field(b, k))
				return 0;
			break;
		case RD_KEY_BOOL:
			if (!int_value(a, k) != !int_value(b, k))
				return 0;
			break;
		case RD_KEY_UINT:
			if (uint_value(a, k) != uint_value(b, k))
				return 0;
			break;
		}
	}
	return 1;
}
