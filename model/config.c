/*
 * Configuration: defaults, the dotted-key table and whole-config checks.
 * The key table is the one place a parameter is named; the command line,
 * presets, the explorer's fields and every output format are driven by it.
 */
#include "rdscope.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const rd_key rd_keys[] = {
	{"model", RD_KEY_ENUM, "", "model profile", "paper|reference-2013"},
	{"l1.size", RD_KEY_UINT, "bytes", "L1 cache size", NULL},
	{"l1.line", RD_KEY_UINT, "bytes", "cache line size (power of two)", NULL},
	{"l1.ways", RD_KEY_UINT, "", "associativity (ways per set)", NULL},
	{"l1.hash", RD_KEY_ENUM, "", "set-index function", "mod|xor|fermi|smod:N|prime"},
	{"l1.mshrs", RD_KEY_UINT, "", "MSHR entries per core (0 = unlimited)", NULL},
	{"l1.mshr_per_warp", RD_KEY_UINT, "", "MSHR entries one warp may hold (0 = unlimited)", NULL},
	{"latency.hit", RD_KEY_UINT, "steps", "hit latency", NULL},
	{"latency.miss", RD_KEY_UINT, "steps", "minimum miss latency (lambda_min)", NULL},
	{"latency.stddev", RD_KEY_DOUBLE, "steps", "sigma of the half-normal miss latency addition", NULL},
	{"latency.clip", RD_KEY_BOOL, "", "clip a request to an in-flight line to that line's arrival", NULL},
	{"gpu.divergence", RD_KEY_BOOL, "", "warp divergence: a warp waits its latency before it issues again", NULL},
	{"gpu.warp_size", RD_KEY_UINT, "threads", "threads per warp", NULL},
	{"gpu.cores", RD_KEY_UINT, "", "cores (SMs) modelled", NULL},
	{"gpu.max_threads", RD_KEY_UINT, "threads", "model only the first N threads (0 = all)", NULL},
	{"gpu.max_active_threads", RD_KEY_UINT, "threads", "active threads per core", NULL},
	{"gpu.max_active_blocks", RD_KEY_UINT, "blocks", "active blocks per core", NULL},
	{"gpu.block_mapping", RD_KEY_ENUM, "", "block-to-core mapping", "rr|bpart4|bpart8|random"},
	{"seed", RD_KEY_UINT, "", "seed of the latency and mapping generators", NULL},
	{NULL, 0, NULL, NULL, NULL},
};

size_t rd_key_count(void)
{
	return sizeof rd_keys / sizeof rd_keys[0] - 1;
}

const rd_key *rd_key_find(const char *name)
{
	for (const rd_key *k = rd_keys; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

void rd_config_default(rd_config *c)
{
	/* Nugteren et al., HPCA 2014: GTX470, 16 KB L1, 128-byte lines, 4
	 * ways, 32 sets, Fermi hash, 64 MSHRs of which one warp may hold 6, lambda_min 100, sigma 5,
	 * one core, Fermi's 1536 threads / 8 blocks active per core. */
	memset(c, 0, sizeof *c);
	c->model = RD_PROFILE_PAPER;
	c->l1_size = 16384;
	c->l1_line = 128;
	c->l1_ways = 4;
	c->l1_hash = RD_HASH_FERMI;
	c->l1_mshrs = 64;
	c->l1_mshr_per_warp = 6;
	c->latency_hit = 0;
	c->latency_miss = 100;
	c->latency_stddev = 5.0;
	c->latency_clip = 1;
	c->divergence = 1;
	c->warp_size = 32;
	c->cores = 1;
	c->max_threads = 0;
	c->max_active_threads = 1536;
	c->max_active_blocks = 8;
	c->block_mapping = RD_MAP_RR;
	c->seed = 1;
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

static const char *const hash_names[] = {"mod", "xor", "fermi", "smod", "prime"};
static const char *const map_names[] = {"rr", "bpart4", "bpart8", "random"};
static const char *const profile_names[] = {"paper", "reference-2013"};

const char *rd_hash_name(enum rd_hash h)
{
	return (unsigned)h < 5 ? hash_names[h] : "?";
}

const char *rd_mapping_name(enum rd_mapping m)
{
	return (unsigned)m < 4 ? map_names[m] : "?";
}

const char *rd_profile_name(enum rd_profile p)
{
	return (unsigned)p < 2 ? profile_names[p] : "?";
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int rd_config_check(const rd_config *c, char *err, size_t errlen)
{
	if (!is_pow2(c->l1_line))
		FAIL("l1.line: must be a power of two (got %u)", c->l1_line);
	if (c->l1_ways < 1)
		FAIL("l1.ways: must be >= 1 (got %u)", c->l1_ways);
	if (c->l1_size < (uint64_t)c->l1_line * c->l1_ways)
		FAIL("l1.size: %u bytes is smaller than one set (%u ways x %u-byte lines)",
		     c->l1_size, c->l1_ways, c->l1_line);
	uint32_t sets = rd_config_sets(c);
	if (sets == 0)
		FAIL("l1.size: %u bytes is not a whole number of sets of %u ways x %u-byte lines",
		     c->l1_size, c->l1_ways, c->l1_line);
	switch (c->l1_hash) {
	case RD_HASH_FERMI:
		/* The reference applies its formula to any set count (results of
		 * its own exist for 16 sets); the paper only defines 32 and 64. */
		if (c->model == RD_PROFILE_PAPER && sets != 32 && sets != 64)
			FAIL("l1.hash: fermi needs 32 or 64 sets (this cache has %u)", sets);
		break;
	case RD_HASH_XOR:
		if (!is_pow2(sets))
			FAIL("l1.hash: xor needs a power-of-two number of sets (this cache has %u)", sets);
		break;
	case RD_HASH_SMOD:
		if (c->l1_hash_shift > 63)
			FAIL("l1.hash: smod shift must be <= 63 (got %u)", c->l1_hash_shift);
		break;
	default:
		break;
	}
	if (c->l1_mshrs && c->l1_mshr_per_warp > c->l1_mshrs)
		FAIL("l1.mshr_per_warp: %u is more than l1.mshrs (%u)", c->l1_mshr_per_warp, c->l1_mshrs);
	if (!(c->latency_stddev >= 0.0) || !isfinite(c->latency_stddev))
		FAIL("latency.stddev: must be a finite number >= 0");
	/* The engines keep a timing wheel as long as the longest latency and
	 * a fill's time as its distance ahead in 32 bits: a billion steps is
	 * far beyond any GPU (hundreds of cycles) and keeps both small. */
	if (c->latency_hit > RD_MAX_LATENCY)
		FAIL("latency.hit: must be at most %u (got %u)", RD_MAX_LATENCY, c->latency_hit);
	if ((double)c->latency_miss + 8.0 * c->latency_stddev > RD_MAX_LATENCY)
		FAIL("latency.miss + 8 * latency.stddev: must be at most %u (got %.0f)", RD_MAX_LATENCY,
		     (double)c->latency_miss + 8.0 * c->latency_stddev);
	if (c->warp_size < 1 || c->warp_size > 1024)
		FAIL("gpu.warp_size: must be between 1 and 1024 (got %u)", c->warp_size);
	if (c->cores < 1 || c->cores > 4096)
		FAIL("gpu.cores: must be between 1 and 4096 (got %u)", c->cores);
	if (c->max_active_threads < 1)
		FAIL("gpu.max_active_threads: must be >= 1 (got %u)", c->max_active_threads);
	if (c->max_active_blocks < 1)
		FAIL("gpu.max_active_blocks: must be >= 1 (got %u)", c->max_active_blocks);
	return 0;
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

static int parse_enum(const char *v, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}

/* Where each numeric key lives in the struct, so set/get share one map. */
static uint32_t *uint_field(rd_config *c, const char *key)
{
	static const struct { const char *k; size_t off; } map[] = {
		{"l1.size", offsetof(rd_config, l1_size)},
		{"l1.line", offsetof(rd_config, l1_line)},
		{"l1.ways", offsetof(rd_config, l1_ways)},
		{"l1.mshrs", offsetof(rd_config, l1_mshrs)},
		{"l1.mshr_per_warp", offsetof(rd_config, l1_mshr_per_warp)},
		{"latency.hit", offsetof(rd_config, latency_hit)},
		{"latency.miss", offsetof(rd_config, latency_miss)},
		{"gpu.warp_size", offsetof(rd_config, warp_size)},
		{"gpu.cores", offsetof(rd_config, cores)},
		{"gpu.max_threads", offsetof(rd_config, max_threads)},
		{"gpu.max_active_threads", offsetof(rd_config, max_active_threads)},
		{"gpu.max_active_blocks", offsetof(rd_config, max_active_blocks)},
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].k, key) == 0)
			return (uint32_t *)((char *)c + map[i].off);
	return NULL;
}

static int *bool_field(rd_config *c, const char *key)
{
	if (strcmp(key, "latency.clip") == 0)
		return &c->latency_clip;
	if (strcmp(key, "gpu.divergence") == 0)
		return &c->divergence;
	return NULL;
}

/* Keys whose value must be at least 1 (a 0 would make no cache or GPU). */
static int needs_positive(const char *key)
{
	static const char *const pos[] = {"l1.size", "l1.line", "l1.ways", "gpu.warp_size",
					  "gpu.cores", "gpu.max_active_threads",
					  "gpu.max_active_blocks"};
	for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
		if (strcmp(pos[i], key) == 0)
			return 1;
	return 0;
}

int rd_config_set(rd_config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const rd_key *k = rd_key_find(key);
	if (!k)
		FAIL("%s: unknown key", key);
	uint64_t u;
	if (strcmp(key, "model") == 0) {
		int i = parse_enum(value, profile_names, 2);
		if (i < 0)
			FAIL("model: must be one of %s (got '%s')", k->choices, value);
		c->model = (enum rd_profile)i;
	} else if (strcmp(key, "l1.hash") == 0) {
		if (strncmp(value, "smod:", 5) == 0) {
			if (parse_uint(value + 5, 63, &u) < 0)
				FAIL("l1.hash: smod:N needs a shift N from 0 to 63 (got '%s')", value);
			c->l1_hash = RD_HASH_SMOD;
			c->l1_hash_shift = (uint32_t)u;
			return 0;
		}
		int i = parse_enum(value, hash_names, 5);
		if (i < 0 || i == RD_HASH_SMOD)
			FAIL("l1.hash: must be one of %s (got '%s')", k->choices, value);
		c->l1_hash = (enum rd_hash)i;
	} else if (strcmp(key, "gpu.block_mapping") == 0) {
		int i = parse_enum(value, map_names, 4);
		if (i < 0)
			FAIL("gpu.block_mapping: must be one of %s (got '%s')", k->choices, value);
		c->block_mapping = (enum rd_mapping)i;
	} else if (strcmp(key, "latency.stddev") == 0) {
		char *end;
		errno = 0;
		double d = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(d))
			FAIL("latency.stddev: not a number (got '%s')", value);
		if (d < 0)
			FAIL("latency.stddev: must be >= 0 (got %s)", value);
		c->latency_stddev = d;
	} else if (k->type == RD_KEY_BOOL) {
		int *f = bool_field(c, key);
		if (strcmp(value, "1") == 0 || strcmp(value, "true") == 0 || strcmp(value, "on") == 0)
			*f = 1;
		else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0 || strcmp(value, "off") == 0)
			*f = 0;
		else
			FAIL("%s: must be 0 or 1 (got '%s')", key, value);
	} else if (strcmp(key, "seed") == 0) {
		if (parse_uint(value, UINT64_MAX, &u) < 0)
			FAIL("seed: not an unsigned integer (got '%s')", value);
		c->seed = u;
	} else {
		uint32_t *f = uint_field(c, key);
		if (!f)
			FAIL("%s: unknown key", key);
		if (parse_uint(value, UINT32_MAX, &u) < 0)
			FAIL("%s: not an unsigned integer below 2^32 (got '%s')", key, value);
		if (u < 1 && needs_positive(key))
			FAIL("%s: must be >= 1 (got %s)", key, value);
		if (strcmp(key, "l1.line") == 0 && !is_pow2(u))
			FAIL("l1.line: must be a power of two (got %s)", value);
		*f = (uint32_t)u;
	}
	return 0;
}

int rd_config_get(const rd_config *c, const char *key, char *buf, size_t len)
{
	int n;
	if (strcmp(key, "model") == 0)
		n = snprintf(buf, len, "%s", rd_profile_name(c->model));
	else if (strcmp(key, "l1.hash") == 0)
		n = c->l1_hash == RD_HASH_SMOD ? snprintf(buf, len, "smod:%u", c->l1_hash_shift)
					       : snprintf(buf, len, "%s", rd_hash_name(c->l1_hash));
	else if (strcmp(key, "gpu.block_mapping") == 0)
		n = snprintf(buf, len, "%s", rd_mapping_name(c->block_mapping));
	else if (strcmp(key, "latency.stddev") == 0)
		n = snprintf(buf, len, "%.17g", c->latency_stddev);
	else if (bool_field((rd_config *)c, key))
		n = snprintf(buf, len, "%d", *bool_field((rd_config *)c, key) ? 1 : 0);
	else if (strcmp(key, "seed") == 0)
		n = snprintf(buf, len, "%llu", (unsigned long long)c->seed);
	else {
		const uint32_t *f = uint_field((rd_config *)c, key);
		if (!f)
			return -1;
		n = snprintf(buf, len, "%u", *f);
	}
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
