/*
 * Reader of NVBit mem_trace output (see trace_nvbit.h).
 *
 * The tool prints one line per warp-level memory instruction, 32 hex
 * addresses each, so a trace is mostly access lines of ~650 bytes; they
 * are parsed in one pass by hand-written scanners. A kernel ends where
 * the next LAUNCH line starts; a kernel the caller skips is passed over by
 * looking only for that line.
 */
#include "trace_nvbit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#include "trace_sass.h"

enum line_kind { LINE_OTHER = 0, LINE_LAUNCH, LINE_ACCESS };

typedef struct launch {
	char *name;
	uint32_t grid[3], block[3];
	uint64_t id;
	int has_id;
} launch;

typedef struct nvbit_reader {
	trace_reader base;
	textin *t;
	enum { ST_START, ST_PENDING, ST_ANNOUNCED, ST_END } state;
	launch next;            /* the launch line read last */
	/* warp slot -> warp index, per CTA: slot + 1, 0 = free */
	uint32_t *slot;
	size_t nslot;
} nvbit_reader;

static int starts(const char *p, const char *s)
{
	return strncmp(p, s, strlen(s)) == 0;
}

/* Past an optional "MEMTRACE:" prefix (and its blanks). */
static const char *past_prefix(const char *p, int *prefixed)
{
	*prefixed = starts(p, "MEMTRACE:");
	if (*prefixed) {
		p += 9;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	return p;
}

/* After "CTX 0x...": the text following the context's hex value. */
static const char *past_ctx(const char *p)
{
	p += 4;
	while (*p && *p != ' ')
		p++;
	return p;
}

static enum line_kind classify(const char *line, int *prefixed)
{
	const char *p = past_prefix(line, prefixed);
	if (starts(p, "CTX "))
		return starts(past_ctx(p), " - LAUNCH") ? LINE_LAUNCH : LINE_ACCESS;
	if (starts(p, "CTA "))
		return LINE_ACCESS;
	if (starts(p, "Kernel ") && strstr(p, " - grid size "))
		return LINE_LAUNCH;
	return LINE_OTHER;
}

int trace_nvbit_line(const char *line)
{
	int prefixed;
	enum line_kind k = classify(line, &prefixed);
	if (k == LINE_LAUNCH)
		return 1;
	/* "CTA " alone is too common a word to decide on */
	return k == LINE_ACCESS && (prefixed || strstr(line, " - warp "));
}

/* Unsigned decimal; advances *pp. -1 if none, -2 if over max. */
static int dec(const char **pp, uint64_t max, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	if ((unsigned)(*p - '0') >= 10)
		return -1;
	while ((unsigned)(*p - '0') < 10) {
		x = x * 10 + (uint64_t)(*p++ - '0');
		if (x > max)
			return -2; /* too large */
	}
	*pp = p;
	*v = x;
	return 0;
}

/* "0x" and 1..16 hex digits; advances *pp. */
static int hex(const char **pp, uint64_t *v)
{
	return hexnum_parse(pp, v) == HEXNUM_OK ? 0 : -1;
}

/* "X,Y,Z" of positive numbers. */
static int triple(const char **pp, uint64_t max, uint32_t v[3], int allow_zero)
{
	for (int i = 0; i < 3; i++) {
		uint64_t x;
		if ((i && *(*pp)++ != ',') || dec(pp, max, &x) < 0 || (!allow_zero && x == 0))
			return -1;
		v[i] = (uint32_t)x;
	}
	return 0;
}

static int expect(const char **pp, const char *s)
{
	size_t n = strlen(s);
	if (strncmp(*pp, s, n) != 0)
		return -1;
	*pp += n;
	return 0;
}

/* Parse a LAUNCH line into l (name malloc'd). */
static int launch_parse(nvbit_reader *r, const char *line, launch *l)
{
	int prefixed;
	const char *p = past_prefix(line, &prefixed);
	const char *name = strstr(p, "Kernel name ");
	if (name)
		name += 12;
	else if (starts(p, "Kernel "))
		name = p + 7;
	else
		return textin_fail(r->t, "LAUNCH line without 'Kernel name '");
	const char *end = NULL;
	static const char *const stops[] = {" - PC 0x", " - grid launch id ", " - grid size "};
	for (int i = 0; i < 3; i++) {
		const char *e = strstr(name, stops[i]);
		if (e && (!end || e < end))
			end = e;
	}
	if (!end)
		return textin_fail(r->t, "launch line without ' - grid size X,Y,Z'");
	if (end == name)
		return textin_fail(r->t, "launch line with an empty kernel name");
	const char *g = strstr(end, " - grid size ");
	const char *b = strstr(end, " - block size ");
	if (!g)
		return textin_fail(r->t, "launch line without ' - grid size X,Y,Z'");
	if (!b)
		return textin_fail(r->t, "launch line without ' - block size X,Y,Z'");
	g += 13;
	b += 14;
	uint32_t grid[3], block[3];
	if (triple(&g, UINT32_MAX, grid, 0) < 0)
		return textin_fail(r->t, "grid size must be three positive numbers X,Y,Z");
	if (triple(&b, UINT32_MAX, block, 0) < 0)
		return textin_fail(r->t, "block size must be three positive numbers X,Y,Z");
	if ((uint64_t)block[0] * block[1] * block[2] > (1u << 20))
		return textin_fail(r->t, "block size %ux%ux%u is more than %u threads", block[0],
				   block[1], block[2], 1u << 20);
	l->has_id = 0;
	const char *id = strstr(end, " - grid launch id ");
	if (id) {
		id += 18;
		if (dec(&id, UINT64_MAX / 10, &l->id) < 0)
			return textin_fail(r->t, "grid launch id must be a number");
		l->has_id = 1;
	}
	char *n = malloc((size_t)(end - name) + 1);
	if (!n) {
		r->base.oom = 1;
		return textin_fail(r->t, "out of memory");
	}
	memcpy(n, name, (size_t)(end - name));
	n[end - name] = '\0';
	free(l->name);
	l->name = n;
	memcpy(l->grid, grid, sizeof grid);
	memcpy(l->block, block, sizeof block);
	return 0;
}

/* The in-CTA index of warp slot s of CTA flat (see trace_nvbit.h). */
static int warp_index(nvbit_reader *r, uint64_t flat, uint32_t nwarps, uint32_t s, uint32_t *w)
{
	uint64_t need = (flat + 1) * nwarps;
	if (need > r->nslot) {
		size_t n = r->nslot ? r->nslot : 4096;
		while (n < need)
			n *= 2;
		uint32_t *t = realloc(r->slot, n * sizeof *t);
		if (!t)
			return -2;
		memset(t + r->nslot, 0, (n - r->nslot) * sizeof *t);
		r->slot = t;
		r->nslot = n;
	}
	uint32_t *e = r->slot + flat * nwarps;
	for (uint32_t i = 0; i < nwarps; i++) {
		uint32_t idx = (s % nwarps + i) % nwarps;
		if (e[idx] == s + 1) {
			*w = idx;
			return 0;
		}
		if (e[idx] == 0) {
			e[idx] = s + 1;
			*w = idx;
			return 0;
		}
	}
	return -1;
}

/* Parse an access line of kernel k into b. */
static int access_parse(nvbit_reader *r, const char *line, const launch *k, rd_kernel_builder *b,
			uint64_t *loads_left)
{
	int prefixed;
	const char *p = past_prefix(line, &prefixed);
	uint64_t v;
	if (starts(p, "CTX ")) {
		p = past_ctx(p);
		if (expect(&p, " - grid_launch_id ") < 0 || dec(&p, UINT64_MAX / 10, &v) < 0 ||
		    expect(&p, " - ") < 0)
			return textin_fail(r->t, "expected 'CTX 0x.. - grid_launch_id N - CTA X,Y,Z "
						 "- warp W - OPCODE - ' and 32 addresses");
		if (k->has_id && v != k->id)
			return textin_fail(r->t,
					   "access of grid launch %llu inside launch %llu (%s)",
					   (unsigned long long)v, (unsigned long long)k->id, k->name);
	}
	uint32_t cta[3];
	uint64_t slot;
	if (expect(&p, "CTA ") < 0 || triple(&p, UINT32_MAX, cta, 1) < 0)
		return textin_fail(r->t, "expected 'CTA X,Y,Z' with three numbers");
	int d = expect(&p, " - warp ") < 0 ? -1 : dec(&p, UINT32_MAX - 1, &slot);
	if (d == -2)
		return textin_fail(r->t, "warp number too large (at most %u)", UINT32_MAX - 1);
	if (d < 0)
		return textin_fail(r->t, "expected ' - warp W' after the CTA");
	if (expect(&p, " - ") < 0 || *p == ' ' || !*p)
		return textin_fail(r->t, "expected ' - OPCODE - ' after the warp");
	const char *op = p;
	while (*p && *p != ' ')
		p++;
	size_t oplen = (size_t)(p - op);
	if (expect(&p, " - ") < 0)
		return textin_fail(r->t, "expected ' - ' and the addresses after the opcode");
	uint64_t addr[32];
	int n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (n == 32)
			return textin_fail(r->t, "more than 32 addresses");
		const char *a = p;
		if (hex(&p, &addr[n]) < 0 || (*p && *p != ' ' && *p != '\t' && *p != '\r')) {
			char shown[48];
			while (*p && *p != ' ')
				p++;
			return textin_fail(r->t, "address %d must be 0x and 1-16 hex digits, got '%s'",
					   n + 1, textin_show(a, (size_t)(p - a), shown, sizeof shown));
		}
		n++;
	}
	if (n != 32)
		return textin_fail(r->t, "expected 32 addresses (0x0 for inactive lanes), got %d", n);
	for (int i = 0; i < 3; i++)
		if (cta[i] >= k->grid[i])
			return textin_fail(r->t, "CTA %u,%u,%u is outside the grid %u,%u,%u", cta[0],
					   cta[1], cta[2], k->grid[0], k->grid[1], k->grid[2]);
	uint32_t bytes;
	int generic;
	enum sass_kind kind = sass_opcode(op, oplen, &bytes, &generic);
	if (kind == SASS_OTHER)
		return 0;
	uint64_t flat = cta[0] + (uint64_t)k->grid[0] * (cta[1] + (uint64_t)k->grid[1] * cta[2]);
	uint32_t bs = k->block[0] * k->block[1] * k->block[2];
	uint32_t nwarps = (bs + 31) / 32;
	if (flat * bs > RD_MAX_THREAD_ID)
		return textin_fail(r->t, "CTA %u,%u,%u has thread ids beyond %u, the largest the "
					 "model takes", cta[0], cta[1], cta[2], RD_MAX_THREAD_ID);
	uint32_t w;
	int rc = warp_index(r, flat, nwarps, (uint32_t)slot, &w);
	if (rc == -2) {
		r->base.oom = 1;
		return textin_fail(r->t, "out of memory");
	}
	if (rc < 0)
		return textin_fail(r->t, "CTA %u,%u,%u has more than the %u warps of its %u threads",
				   cta[0], cta[1], cta[2], nwarps, bs);
	for (int lane = 0; lane < 32; lane++) {
		if (!addr[lane])
			continue;
		uint32_t t = w * 32 + (uint32_t)lane;
		if (t >= bs)
			return textin_fail(r->t, "lane %d of warp %u is active, but the block has only "
						 "%u threads", lane, w, bs);
		uint64_t tid = flat * bs + t;
		if (tid > RD_MAX_THREAD_ID)
			return textin_fail(r->t, "thread id %llu is beyond %u, the largest the model "
						 "takes", (unsigned long long)tid, RD_MAX_THREAD_ID);
		if (kind == SASS_LOAD && !(*loads_left)--)
			return textin_fail(r->t, "more than %llu loads in kernel %s",
					   (unsigned long long)trace_max_loads(), k->name);
		if (kind == SASS_STORE && rd_kernel_builder_stores(b) >= trace_max_loads())
			return textin_fail(r->t, "more than %llu stores in kernel %s",
					   (unsigned long long)trace_max_loads(), k->name);
		if (rd_kernel_builder_add(b, (uint32_t)tid, kind == SASS_STORE, addr[lane], bytes) < 0) {
			r->base.oom = 1;
			return textin_fail(r->t, "out of memory");
		}
	}
	return 0;
}

/*
 * Read lines up to the next LAUNCH line (parsed into r->next) or the end.
 * With b, access lines are parsed into it (kernel k); without, they are
 * passed over. Returns 0 or -1.
 */
static int scan(nvbit_reader *r, const launch *k, rd_kernel_builder *b)
{
	char *line;
	size_t len;
	int rc;
	uint64_t loads_left = trace_max_loads();
	while ((rc = textin_next(r->t, &line, &len)) > 0) {
		int prefixed;
		enum line_kind kind = classify(line, &prefixed);
		if (kind == LINE_LAUNCH) {
			if (launch_parse(r, line, &r->next) < 0)
				return -1;
			r->state = ST_PENDING;
			return 0;
		}
		if (kind == LINE_ACCESS) {
			if (r->state == ST_START)
				return textin_fail(r->t, "memory access before any kernel launch line");
			if (b && access_parse(r, line, k, b, &loads_left) < 0)
				return -1;
			continue;
		}
		if (prefixed) {
			char shown[48];
			const char *p = past_prefix(line, &prefixed);
			return textin_fail(r->t, "unknown MEMTRACE line '%s'",
					   textin_show(p, strlen(p), shown, sizeof shown));
		}
	}
	if (rc < 0) {
		r->base.oom = textin_oom(r->t);
		return -1;
	}
	r->state = ST_END;
	return 0;
}

static int nvbit_next(trace_reader *rr, const char **name)
{
	nvbit_reader *r = (nvbit_reader *)rr;
	if (r->state == ST_START || r->state == ST_ANNOUNCED) {
		if (scan(r, NULL, NULL) < 0)
			return -1;
	}
	if (r->state != ST_PENDING)
		return 0;
	r->state = ST_ANNOUNCED;
	*name = r->next.name;
	return 1;
}

static int nvbit_load(trace_reader *rr, rd_kernel **k)
{
	nvbit_reader *r = (nvbit_reader *)rr;
	*k = NULL;
	launch cur = r->next;
	r->next.name = NULL; /* cur owns it now */
	rd_kernel_builder *b = rd_kernel_builder_new(cur.name, cur.block[0], cur.block[1],
						      cur.block[2]);
	if (r->slot)
		memset(r->slot, 0, r->nslot * sizeof *r->slot);
	int rc = TRACE_OK;
	if (!b) {
		rr->oom = 1;
		textin_fail(r->t, "out of memory");
		rc = TRACE_ENOMEM;
	} else if (scan(r, &cur, b) < 0) {
		rd_kernel_builder_free(b);
		rc = rr->oom ? TRACE_ENOMEM : TRACE_EINPUT;
	} else {
		uint64_t nloads = rd_kernel_builder_loads(b);
		uint32_t nthreads = rd_kernel_builder_threads(b);
		if (!(*k = rd_kernel_builder_finish(b))) {
			rr->oom = 1;
			textin_fail_kernel(r->t, nloads, nthreads);
			rc = TRACE_ENOMEM;
		}
	}
	free(cur.name);
	return rc;
}

static void nvbit_close(trace_reader *rr)
{
	nvbit_reader *r = (nvbit_reader *)rr;
	textin_close(r->t);
	free(r->next.name);
	free(r->slot);
	free(r);
}

trace_reader *trace_nvbit_reader(textin *t, char *err, size_t errlen)
{
	nvbit_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->t = t;
	r->base.next = nvbit_next;
	r->base.load = nvbit_load;
	r->base.close = nvbit_close;
	r->base.err = err;
	r->base.errlen = errlen;
	return &r->base;
}
