/* Fuzz harness: the model itself, stores and policies included. The first
 * bytes choose a configuration (cache shape, hash, latencies, MSHRs,
 * warps, cores, l1.stores, l1.loads, l1.replacement, classes), the rest
 * are accesses of 3 bytes (thread, store bit and line, offset); every
 * breakdown case runs with events and per-site counts, and the results'
 * invariants are checked: a violation aborts (a crash to the fuzzer). */
#include "fuzz.h"
#include "rdscope.h"

#include <stdlib.h>
#include <string.h>

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void on_event(void *ctx, const rd_event *ev)
{
	uint64_t *n = ctx;
	CHECK(ev->outcome <= RD_OUT_FILL);
	CHECK(ev->level == 1 || ev->level == 2);
	CHECK(ev->store || (ev->outcome != RD_OUT_EVICT && ev->outcome != RD_OUT_BYPASS));
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 12)
		return 0;
	const uint8_t *k8 = data;
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 16u << (k8[0] & 3);
	c.l1_ways = 1 + (k8[1] & 7);
	c.l1_size = c.l1_line * c.l1_ways * (1u << (k8[2] & 3));
	c.l1_hash = (k8[0] >> 2) & 1 ? RD_HASH_XOR : RD_HASH_MOD;
	c.latency_hit = k8[3] & 3;
	c.latency_miss = k8[4] & 31;
	c.latency_stddev = (k8[5] & 3) * 1.5;
	c.latency_clip = (k8[5] >> 2) & 1;
	c.divergence = (k8[5] >> 3) & 1;
	c.l1_mshrs = k8[6] & 7;
	c.l1_mshr_per_warp = c.l1_mshrs ? (k8[6] >> 3) % (c.l1_mshrs + 1) : 0;
	c.warp_size = 1u << (k8[7] & 3);
	c.cores = 1 + ((k8[7] >> 2) & 1);
	c.max_active_blocks = 1 + ((k8[7] >> 3) & 3);
	c.stores = (enum rd_stores)(k8[8] % 3);
	c.loads = (k8[8] >> 2) & 1 ? RD_LOADS_BYPASS : RD_LOADS_CACHE;
	c.replacement = (enum rd_replacement)((k8[8] >> 3) & 3);
	c.classes = (k8[8] >> 5) & 1 ? RD_CLASSES_PER_ACCESS : RD_CLASSES_DIFFERENCE;
	c.seed = k8[9];
	uint32_t bs = 1 + (k8[10] & 15);
	/* byte 11: RDGC's profile and the L2 */
	if (k8[11] & 1) {
		char e[128];
		rd_config_set(&c, "model", "rdgc", e, sizeof e);
		c.l1_banks = 1u << ((k8[11] >> 1) & 1);
		c.l1_ports = (k8[11] >> 2) & 3;
		c.l1_mshr_sets = 1;
		c.l1_max_merges = (k8[11] >> 4) & 1;
		c.schedulers = 1 + ((k8[9] >> 6) & 1);
		c.latency_stddev = 0;
		c.l1_mshr_per_warp = 0;
		c.latency_model = (enum rd_latency_model)((k8[10] >> 4) & 1);
	}
	if (k8[11] & 0x20) {
		c.l2_line = 16u << ((k8[10] >> 5) & 3);
		c.l2_ways = 1 + ((k8[11] >> 6) & 1) * 3;
		c.l2_partitions = 1 + ((k8[9] >> 4) & 1);
		c.l2_banks = 1 + ((k8[9] >> 5) & 1);
		c.l2_size = c.l2_line * c.l2_ways * c.l2_partitions * c.l2_banks * 2;
		c.l2_ports = k8[3] >> 6;
		c.l2_mshrs = (k8[4] >> 5) & 3;
		c.l2_max_merges = (k8[6] >> 6) & 1;
		c.l2_stores = (enum rd_stores)((k8[2] >> 2) % 3);
		c.l2_replacement = (enum rd_replacement)((k8[2] >> 4) & 3);
		c.latency_l2 = (k8[1] >> 3) & 3;
	}
	char err[256];
	if (rd_config_check(&c, err, sizeof err) < 0)
		return 0;
	rd_kernel_builder *b = rd_kernel_builder_new("fuzz", bs, 1, 1);
	if (!b)
		return 0;
	for (size_t i = 12; i + 3 <= size; i += 3) {
		uint32_t tid = data[i] & 63;
		int store = data[i + 1] >> 7;
		uint64_t addr = (uint64_t)(data[i + 1] & 127) * 16 + (data[i + 2] & 15);
		if (rd_kernel_builder_add(b, tid, store, addr, 1u << (data[i + 2] >> 6)) < 0) {
			rd_kernel_builder_free(b);
			return 0;
		}
	}
	rd_kernel *k = rd_kernel_builder_finish(b);
	if (!k)
		return 0;
	rd_model *m = rd_model_new(k);
	uint64_t events = 0;
	rd_callbacks cb = {.event = on_event, .event_stacks = 1, .by_site = 1, .ctx = &events};
	rd_result r;
	if (m && rd_model_run(m, &c, RD_ALL_CASES, &cb, &r) == RD_OK) {
		uint64_t cls = 0, h = r.hist_inf, hw = r.hist_w_inf;
		for (int i = 0; i < RD_NCLASS; i++)
			cls += r.cls[i];
		for (uint32_t d = 0; d < r.hist_len; d++)
			h += r.hist[d];
		for (uint32_t d = 0; d < r.hist_w_len; d++)
			hw += r.hist_w[d];
		CHECK(cls == r.misses);
		CHECK(r.hits + r.misses == r.requests);
		CHECK(h == r.requests);
		CHECK(hw == r.store_requests);
		CHECK(r.store_hits <= r.store_requests);
		CHECK(events >= r.requests + r.store_requests);
		if (c.stores == RD_STORES_IGNORE)
			CHECK(!r.store_requests && !r.hist_w_len && !r.hist_w_inf);
		if (c.stores != RD_STORES_EVICT)
			CHECK(!r.cls[RD_CLASS_WRITE_EVICT] && !r.store_evictions);
		else
			CHECK(r.store_evictions >= r.store_hits);
		if (c.loads == RD_LOADS_BYPASS)
			CHECK(r.cls[RD_CLASS_BYPASS] == r.requests && !r.hits);
		else
			CHECK(!r.cls[RD_CLASS_BYPASS]);
		/* a one-set cache is its own fully associative cache */
		if (rd_config_sets(&c) == 1 && c.classes == RD_CLASSES_PER_ACCESS)
			CHECK(!r.cls[RD_CLASS_ASSOCIATIVITY]);
		uint64_t sreq = 0, smiss = 0, scls[RD_NCLASS] = {0};
		for (uint32_t i = 0; i < r.nsites; i++) {
			sreq += r.sites[i].requests;
			smiss += r.sites[i].misses;
			for (int j = 0; j < RD_NCLASS; j++)
				scls[j] += r.sites[i].cls[j];
		}
		CHECK(sreq == r.requests && smiss == r.misses);
		CHECK(!memcmp(scls, r.cls, sizeof scls));
		if (r.has_l2) {
			const rd_level *l = &r.l2;
			uint64_t lc = 0, lh = l->hist_inf, bq = 0;
			for (int i = 0; i < RD_NCLASS; i++)
				lc += l->cls[i];
			for (uint32_t d = 0; d < l->hist_len; d++)
				lh += l->hist[d];
			for (uint32_t i = 0; i < l->partitions * l->banks; i++)
				bq += l->bank_requests[i];
			CHECK(lc == l->misses && l->hits + l->misses == l->requests);
			CHECK(lh == l->requests);
			CHECK(bq == l->requests + l->store_requests);
			CHECK(l->merges >= l->cls[RD_CLASS_LATENCY]); /* reads' and writes' */
			/* reads: each L1 miss taking an entry and each bypassed load */
			CHECK(l->requests <= (r.misses + r.store_requests) * (c.l1_line / c.l2_line + 1));
		}
		rd_result_free(&r);
	}
	rd_model_free(m);
	rd_kernel_free(k);
	return 0;
}
