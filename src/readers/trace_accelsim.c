/*
 * Reader of Accel-Sim .traceg kernel traces (see trace_accelsim.h).
 *
 * The decoding of the three address modes follows the tracer's writer
 * (util/tracer_nvbit/tracer_tool/tracer_tool.cu): base+stride is written
 * only for one contiguous run of active lanes, base+delta writes one
 * delta fewer than there are active lanes, each relative to the previous
 * active lane. (The simulator's own parser reads one delta too many; we
 * do not copy that.) Most lines of a trace are not memory instructions:
 * they are checked up to the opcode and left there.
 */
#include "trace_accelsim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sitemap.h"
#include "trace_sass.h"

/* Shared and local windows of generic addresses are 16 MiB each. */
#define WINDOW (16ull << 20)

typedef struct accel_reader {
	trace_reader base;
	textin *t;
	int state;              /* 0: header unread, 1: announced, 2: done */
	char *name;
	uint32_t grid[3], block[3];
	int have_grid, have_block, lineinfo;
	unsigned version;       /* 0: not given */
	uint64_t shmem_base, local_base;
	char *first;            /* first body line (in textin's block), or NULL */
	size_t first_len;
} accel_reader;

static int starts(const char *p, const char *s)
{
	return strncmp(p, s, strlen(s)) == 0;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* Next whitespace-separated token: its start in *tok, length returned (0: none). */
static size_t token(const char **pp, const char **tok)
{
	const char *p = skip_blank(*pp);
	*tok = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\r')
		p++;
	*pp = p;
	return (size_t)(p - *tok);
}

static int parse_dec(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	if (n == 0)
		return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		if ((unsigned)(s[i] - '0') >= 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (x > max)
			return -1;
	}
	*v = x;
	return 0;
}

static int parse_sdec(const char *s, size_t n, int64_t *v)
{
	int neg = n && s[0] == '-';
	uint64_t u;
	if (parse_dec(s + neg, n - (size_t)neg, (uint64_t)INT64_MAX, &u) < 0)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* Hex digits with an optional 0x. */
static int parse_hex(const char *s, size_t n, int need_0x, uint64_t *v)
{
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2, n -= 2;
	else if (need_0x)
		return -1;
	if (n == 0 || n > 16)
		return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)s[i], d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		x = x << 4 | d;
	}
	*v = x;
	return 0;
}

/* "(X,Y,Z)" (parentheses optional) of positive numbers. */
static int parse_dim(const char *p, uint32_t v[3])
{
	p = skip_blank(p);
	int paren = *p == '(';
	p += paren;
	for (int i = 0; i < 3; i++) {
		if (i && *p++ != ',')
			return -1;
		const char *s = p;
		while ((unsigned)(*p - '0') < 10)
			p++;
		uint64_t x;
		if (parse_dec(s, (size_t)(p - s), UINT32_MAX, &x) < 0 || x == 0)
			return -1;
		v[i] = (uint32_t)x;
	}
	if (paren && *p++ != ')')
		return -1;
	return *skip_blank(p) ? -1 : 0;
}

static const char *show(const char *s, size_t n, char *buf, size_t len)
{
	return textin_show(s, n, buf, len);
}

/* One "-key = value" header line. */
static int header_line(accel_reader *r, const char *line)
{
	const char *eq = strstr(line, " = ");
	if (!eq)
		return textin_fail(r->t, "header line must be '-key = value'");
	size_t klen = (size_t)(eq - line - 1);
	const char *key = line + 1, *val = eq + 3;
	char shown[48];
#define KEY(s) (klen == strlen(s) && strncmp(key, s, klen) == 0)
	if (KEY("kernel name")) {
		size_t n = strlen(val);
		while (n && (val[n - 1] == '\r' || val[n - 1] == ' '))
			n--;
		if (n == 0)
			return textin_fail(r->t, "empty kernel name");
		char *s = malloc(n + 1);
		if (!s) {
			r->base.oom = 1;
			return textin_fail(r->t, "out of memory");
		}
		memcpy(s, val, n);
		s[n] = '\0';
		free(r->name);
		r->name = s;
	} else if (KEY("grid dim")) {
		if (parse_dim(val, r->grid) < 0)
			return textin_fail(r->t, "grid dim must be (X,Y,Z) of positive numbers, got '%s'",
					   show(val, strlen(val), shown, sizeof shown));
		r->have_grid = 1;
	} else if (KEY("block dim")) {
		if (parse_dim(val, r->block) < 0)
			return textin_fail(r->t, "block dim must be (X,Y,Z) of positive numbers, got '%s'",
					   show(val, strlen(val), shown, sizeof shown));
		if ((uint64_t)r->block[0] * r->block[1] * r->block[2] > (1u << 20))
			return textin_fail(r->t, "block dim is more than %u threads", 1u << 20);
		r->have_block = 1;
	} else if (KEY("accelsim tracer version")) {
		const char *p = skip_blank(val), *s = p;
		while ((unsigned)(*p - '0') < 10)
			p++;
		uint64_t v;
		if (parse_dec(s, (size_t)(p - s), 1000, &v) < 0)
			return textin_fail(r->t, "tracer version must be a number, got '%s'",
					   show(val, strlen(val), shown, sizeof shown));
		if (v < 3)
			return textin_fail(r->t, "tracer version %llu: only versions 3 and later are "
						 "read (older lines start with CTA and warp ids)",
					   (unsigned long long)v);
		r->version = (unsigned)v;
	} else if (KEY("enable lineinfo")) {
		const char *p = skip_blank(val);
		if ((p[0] != '0' && p[0] != '1') || *skip_blank(p + 1))
			return textin_fail(r->t, "enable lineinfo must be 0 or 1");
		r->lineinfo = p[0] == '1';
	} else if (KEY("shmem base_addr") || KEY("local mem base_addr")) {
		const char *p = skip_blank(val), *s;
		size_t n = token(&p, &s);
		uint64_t v;
		if (parse_hex(s, n, 0, &v) < 0)
			return textin_fail(r->t, "%.*s must be a hex address, got '%s'", (int)klen, key,
					   show(val, strlen(val), shown, sizeof shown));
		if (KEY("shmem base_addr"))
			r->shmem_base = v;
		else
			r->local_base = v;
	}
#undef KEY
	return 0;
}

static int accel_next(trace_reader *rr, const char **name)
{
	accel_reader *r = (accel_reader *)rr;
	if (r->state != 0)
		return r->state = 2, 0;
	char *line;
	size_t len;
	int rc;
	while ((rc = textin_next(r->t, &line, &len)) > 0) {
		const char *p = skip_blank(line);
		if (*p == '\0' || (*p == '#' && !starts(p, "#BEGIN_TB")))
			continue;
		if (*p == '-') {
			if (header_line(r, p) < 0)
				return -1;
			continue;
		}
		r->first = line;
		r->first_len = len;
		break;
	}
	if (rc < 0) {
		rr->oom = textin_oom(r->t);
		return -1;
	}
	if (!r->name)
		return textin_fail(r->t, "no '-kernel name = ' line in the header");
	if (!r->have_grid)
		return textin_fail(r->t, "no '-grid dim = (X,Y,Z)' line in the header");
	if (!r->have_block)
		return textin_fail(r->t, "no '-block dim = (X,Y,Z)' line in the header");
	r->state = 1;
	*name = r->name;
	return 1;
}

/* The body's state while loading. */
typedef struct body {
	rd_kernel_builder *b;
	uint32_t bs, nwarps;
	int in_tb, have_tb, have_warp;
	uint64_t flat;           /* flat id of the current thread block */
	uint32_t warp;
	uint64_t insts_expected; /* "insts = N" of the current warp */
	int have_insts;
	uint64_t insts_seen;
	unsigned long warp_line;
	uint64_t loads_left;
	sitemap sites;           /* the loads' sites, by PC */
} body;

/* A warp's "insts = N" must match its instruction lines. */
static int warp_end(accel_reader *r, body *s)
{
	if (s->have_warp && s->have_insts && s->insts_seen != s->insts_expected)
		return textin_fail_at(r->t, s->warp_line,
				      "warp %u: 'insts = %llu' but %llu instruction lines follow",
				      s->warp, (unsigned long long)s->insts_expected,
				      (unsigned long long)s->insts_seen);
	s->have_warp = s->have_insts = 0;
	s->insts_seen = 0;
	return 0;
}

/* One instruction line of the current warp. */
static int instruction(accel_reader *r, body *s, const char *line)
{
	const char *p = line, *tok;
	size_t n;
	uint64_t v, srcline = 0;
	char shown[48];
	if (r->lineinfo) {
		n = token(&p, &tok);
		if (parse_dec(tok, n, UINT32_MAX, &srcline) < 0)
			return textin_fail(r->t, "expected a source line number first "
						 "('-enable lineinfo = 1'), got '%s'",
					   show(tok, n, shown, sizeof shown));
	}
	n = token(&p, &tok);
	if (parse_hex(tok, n, 0, &v) < 0)
		return textin_fail(r->t, "PC must be hex digits, got '%s'", show(tok, n, shown, sizeof shown));
	uint64_t pc = v;
	n = token(&p, &tok);
	uint64_t mask;
	if (n > 8 || parse_hex(tok, n, 0, &mask) < 0)
		return textin_fail(r->t, "active mask must be up to 8 hex digits, got '%s'",
				   show(tok, n, shown, sizeof shown));
	uint64_t nreg;
	n = token(&p, &tok);
	if (parse_dec(tok, n, 64, &nreg) < 0)
		return textin_fail(r->t, "destination count must be a number, got '%s'",
				   show(tok, n, shown, sizeof shown));
	for (uint64_t i = 0; i < nreg; i++)
		if (!token(&p, &tok))
			return textin_fail(r->t, "line ends in the destination registers");
	const char *op;
	size_t oplen = token(&p, &op);
	if (!oplen)
		return textin_fail(r->t, "line ends before the opcode");
	uint32_t opbytes;
	int generic;
	enum sass_kind kind = sass_opcode(op, oplen, &opbytes, &generic);
	if (kind == SASS_OTHER)
		return 0; /* not an L1 data access: the rest is not ours */
	n = token(&p, &tok);
	if (parse_dec(tok, n, 64, &nreg) < 0)
		return textin_fail(r->t, "source count must be a number, got '%s'",
				   show(tok, n, shown, sizeof shown));
	for (uint64_t i = 0; i < nreg; i++)
		if (!token(&p, &tok))
			return textin_fail(r->t, "line ends in the source registers");
	uint64_t width;
	n = token(&p, &tok);
	if (parse_dec(tok, n, 65535, &width) < 0)
		return textin_fail(r->t, "memory width must be 0..65535, got '%s'",
				   show(tok, n, shown, sizeof shown));
	if (width == 0) {
		/* An LDGDEPBAR-like form has no addresses; with addresses, a
		 * width of 0 would drop the accesses without a word. */
		const char *rest;
		if (token(&p, &rest))
			return textin_fail(r->t, "memory width 0 on a %s with addresses "
						 "(0-byte accesses touch nothing)",
					   kind == SASS_STORE ? "store" : "load");
		return 0;
	}
	uint64_t mode;
	n = token(&p, &tok);
	if (parse_dec(tok, n, 9, &mode) < 0 || mode > 2)
		return textin_fail(r->t, "address mode must be 0, 1 or 2, got '%s'",
				   show(tok, n, shown, sizeof shown));
	uint64_t addr[32];
	int active[32], na = 0;
	for (int lane = 0; lane < 32; lane++)
		if (mask >> lane & 1)
			active[na++] = lane;
	if (mode == 0) {
		for (int i = 0; i < na; i++) {
			n = token(&p, &tok);
			if (!n)
				return textin_fail(r->t, "%d addresses for %d active lanes", i, na);
			if (parse_hex(tok, n, 1, &addr[i]) < 0)
				return textin_fail(r->t, "address must be 0x and hex digits, got '%s'",
						   show(tok, n, shown, sizeof shown));
		}
	} else {
		uint64_t base;
		n = token(&p, &tok);
		if (parse_hex(tok, n, 1, &base) < 0)
			return textin_fail(r->t, "base address must be 0x and hex digits, got '%s'",
					   show(tok, n, shown, sizeof shown));
		if (mode == 1) {
			int64_t stride;
			n = token(&p, &tok);
			if (parse_sdec(tok, n, &stride) < 0 || stride < INT32_MIN || stride > INT32_MAX)
				return textin_fail(r->t, "stride must be a 32-bit signed number, got '%s'",
						   show(tok, n, shown, sizeof shown));
			for (int i = 0; i < na; i++)
				addr[i] = base + (uint64_t)((int64_t)i * stride);
		} else {
			addr[0] = base;
			for (int i = 1; i < na; i++) {
				int64_t d;
				n = token(&p, &tok);
				if (!n)
					return textin_fail(r->t, "%d deltas for %d active lanes (want %d)",
							   i - 1, na, na - 1);
				if (parse_sdec(tok, n, &d) < 0)
					return textin_fail(r->t, "delta must be a signed number, got '%s'",
							   show(tok, n, shown, sizeof shown));
				addr[i] = addr[i - 1] + (uint64_t)d;
			}
		}
	}
	/* At most the immediate (tracer version 5) may follow. */
	n = token(&p, &tok);
	if (n) {
		int64_t imm;
		if (parse_sdec(tok, n, &imm) == 0)
			n = token(&p, &tok);
		if (n)
			return textin_fail(r->t, "unexpected '%s' after the addresses",
					   show(tok, n, shown, sizeof shown));
	}
	if (na == 0)
		return 0;
	if (generic) {
		uint64_t a = addr[0];
		if ((r->shmem_base && a >= r->shmem_base && a - r->shmem_base < WINDOW) ||
		    (r->local_base && a >= r->local_base && a - r->local_base < WINDOW))
			return 0; /* shared or local memory through a generic address */
	}
	int64_t site = kind == SASS_LOAD ? sitemap_get(&s->sites, s->b, pc, (uint32_t)srcline) : 0;
	if (site < 0) {
		r->base.oom = 1;
		return textin_fail(r->t, "out of memory");
	}
	for (int i = 0; i < na; i++) {
		uint32_t t = s->warp * 32 + (uint32_t)active[i];
		if (t >= s->bs)
			return textin_fail(r->t, "lane %d of warp %u is active, but the block has only "
						 "%u threads", active[i], s->warp, s->bs);
		uint64_t tid = s->flat * s->bs + t;
		if (tid > RD_MAX_THREAD_ID)
			return textin_fail(r->t, "thread id %llu is beyond %u, the largest the model "
						 "takes", (unsigned long long)tid, RD_MAX_THREAD_ID);
		if (kind == SASS_LOAD && !s->loads_left--)
			return textin_fail(r->t, "more than %llu loads in kernel %s",
					   (unsigned long long)trace_max_loads(), r->name);
		if (kind == SASS_STORE && rd_kernel_builder_stores(s->b) >= trace_max_loads())
			return textin_fail(r->t, "more than %llu stores in kernel %s",
					   (unsigned long long)trace_max_loads(), r->name);
		if (rd_kernel_builder_add_at(s->b, (uint32_t)tid, kind == SASS_STORE, addr[i],
					     (uint32_t)width, (uint32_t)site) < 0) {
			r->base.oom = 1;
			return textin_fail(r->t, "out of memory");
		}
	}
	return 0;
}

/* One line of the body. */
static int body_line(accel_reader *r, body *s, const char *line)
{
	const char *p = skip_blank(line);
	char shown[48];
	if (*p == '\0')
		return 0;
	if (starts(p, "#BEGIN_TB")) {
		if (warp_end(r, s) < 0)
			return -1;
		s->in_tb = 1;
		s->have_tb = 0;
		return 0;
	}
	if (starts(p, "#END_TB")) {
		if (!s->in_tb)
			return textin_fail(r->t, "#END_TB without #BEGIN_TB");
		if (warp_end(r, s) < 0)
			return -1;
		s->in_tb = s->have_tb = 0;
		return 0;
	}
	if (*p == '#')
		return 0;
	if (*p == '-')
		return textin_fail(r->t, "header line after the first thread block");
	if (starts(p, "thread block")) {
		const char *eq = strchr(p, '=');
		uint32_t c[3];
		if (!s->in_tb)
			return textin_fail(r->t, "'thread block =' outside #BEGIN_TB .. #END_TB");
		/* thread block ids may be 0: parse "x,y,z" by hand */
		const char *q = eq ? skip_blank(eq + 1) : NULL;
		for (int i = 0; q && i < 3; i++) {
			if (i && *q++ != ',') {
				q = NULL;
				break;
			}
			const char *d = q;
			while ((unsigned)(*q - '0') < 10)
				q++;
			uint64_t v;
			if (parse_dec(d, (size_t)(q - d), UINT32_MAX, &v) < 0)
				q = NULL;
			else
				c[i] = (uint32_t)v;
		}
		if (!q || *skip_blank(q))
			return textin_fail(r->t, "expected 'thread block = X,Y,Z'");
		for (int i = 0; i < 3; i++)
			if (c[i] >= r->grid[i])
				return textin_fail(r->t, "thread block %u,%u,%u is outside the grid (%u,%u,%u)",
						   c[0], c[1], c[2], r->grid[0], r->grid[1], r->grid[2]);
		if (warp_end(r, s) < 0)
			return -1;
		s->flat = c[0] + (uint64_t)r->grid[0] * (c[1] + (uint64_t)r->grid[1] * c[2]);
		if (s->flat * s->bs > RD_MAX_THREAD_ID)
			return textin_fail(r->t, "thread block %u,%u,%u has thread ids beyond %u, the "
						 "largest the model takes", c[0], c[1], c[2],
					   RD_MAX_THREAD_ID);
		s->have_tb = 1;
		return 0;
	}
	if (starts(p, "cluster "))
		return 0; /* cluster id / cta / rank of newer tracers: not modelled */
	if (starts(p, "warp") && strchr(p, '=')) {
		const char *q = skip_blank(strchr(p, '=') + 1), *d = q;
		while ((unsigned)(*q - '0') < 10)
			q++;
		uint64_t w;
		if (parse_dec(d, (size_t)(q - d), UINT32_MAX, &w) < 0 || *skip_blank(q))
			return textin_fail(r->t, "expected 'warp = N'");
		if (!s->have_tb)
			return textin_fail(r->t, "'warp =' before 'thread block ='");
		if (w >= s->nwarps)
			return textin_fail(r->t, "warp %llu, but a block of %u threads has %u warps",
					   (unsigned long long)w, s->bs, s->nwarps);
		if (warp_end(r, s) < 0)
			return -1;
		s->warp = (uint32_t)w;
		s->have_warp = 1;
		s->warp_line = textin_line(r->t);
		return 0;
	}
	if (starts(p, "insts") && strchr(p, '=')) {
		const char *q = skip_blank(strchr(p, '=') + 1), *d = q;
		while ((unsigned)(*q - '0') < 10)
			q++;
		if (parse_dec(d, (size_t)(q - d), UINT64_MAX / 10, &s->insts_expected) < 0 ||
		    *skip_blank(q))
			return textin_fail(r->t, "expected 'insts = N'");
		if (!s->have_warp)
			return textin_fail(r->t, "'insts =' before 'warp ='");
		s->have_insts = 1;
		return 0;
	}
	if (!s->have_warp) {
		if (!s->in_tb)
			return textin_fail(r->t, "instruction outside #BEGIN_TB .. #END_TB (a raw .trace? "
						 "run Accel-Sim's post-traces-processing to get .traceg): '%s'",
					   show(p, strlen(p), shown, sizeof shown));
		return textin_fail(r->t, "instruction before 'warp ='");
	}
	s->insts_seen++;
	return instruction(r, s, p);
}

static int accel_load(trace_reader *rr, rd_kernel **k)
{
	accel_reader *r = (accel_reader *)rr;
	*k = NULL;
	r->state = 2;
	body s = {.loads_left = trace_max_loads()};
	s.bs = r->block[0] * r->block[1] * r->block[2];
	s.nwarps = (s.bs + 31) / 32;
	s.b = rd_kernel_builder_new(r->name, r->block[0], r->block[1], r->block[2]);
	if (!s.b) {
		rr->oom = 1;
		textin_fail(r->t, "out of memory");
		return TRACE_ENOMEM;
	}
	int rc = 1;
	if (r->first)
		rc = body_line(r, &s, r->first) < 0 ? -1 : 1;
	r->first = NULL;
	char *line;
	size_t len;
	while (rc > 0 && (rc = textin_next(r->t, &line, &len)) > 0)
		if (body_line(r, &s, line) < 0)
			rc = -1;
	if (rc == 0 && warp_end(r, &s) < 0)
		rc = -1;
	if (rc == 0 && s.in_tb)
		rc = textin_fail_at(r->t, 0, "ends inside a thread block (no #END_TB)");
	sitemap_free(&s.sites);
	if (rc < 0) {
		if (textin_oom(r->t))
			rr->oom = 1;
		rd_kernel_builder_free(s.b);
		return rr->oom ? TRACE_ENOMEM : TRACE_EINPUT;
	}
	uint64_t nloads = rd_kernel_builder_loads(s.b);
	uint32_t nthreads = rd_kernel_builder_threads(s.b);
	*k = rd_kernel_builder_finish(s.b);
	if (!*k) {
		rr->oom = 1;
		textin_fail_kernel(r->t, nloads, nthreads);
		return TRACE_ENOMEM;
	}
	return TRACE_OK;
}

static void accel_close(trace_reader *rr)
{
	accel_reader *r = (accel_reader *)rr;
	textin_close(r->t);
	free(r->name);
	free(r);
}

trace_reader *trace_accelsim_reader(textin *t, char *err, size_t errlen)
{
	accel_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->t = t;
	r->base.next = accel_next;
	r->base.load = accel_load;
	r->base.close = accel_close;
	r->base.err = err;
	r->base.errlen = errlen;
	return &r->base;
}
