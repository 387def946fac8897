/*
 * Streaming reader of Ocelot `.trc` traces (see trace_ocelot.h).
 *
 * Traces of real kernels run to hundreds of megabytes, so the file is read
 * in blocks (textin.h, which also undoes gzip and xz) and each access goes
 * straight into the kernel builder; only the builder's compact arrays stay
 * in memory.
 *
 * Speed: a well-formed access line is parsed by one pass of a tight
 * scanner (access_fast); anything it does not like goes to the careful
 * path (fields_split, field_parse), which also words every error message.
 */
#include "trace_ocelot.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parser's state: the input and the line being parsed. */
struct reader {
	textin *t;
	char *buf;                /* the current line, NUL-terminated */
};

/* "path:line: message". Always returns -1. */
static int reader_fail(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return textin_fail(r->t, "%s", msg);
}

/* The next line into r->buf: 1, 0 at the end, -1 on an error. */
static int reader_next(struct reader *r)
{
	size_t len;
	return textin_next(r->t, &r->buf, &len);
}

/* Split buf in place on blanks; returns the field count (may exceed max). */
static int fields_split(char *buf, char **field, int max)
{
	int n = 0;
	char *p = buf;
	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			return n;
		if (n < max)
			field[n] = p;
		n++;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* A field's text made safe to quote in a message: printable, truncated. */
static const char *field_show(const char *tok, char *buf, size_t len)
{
	size_t i = 0;
	for (; tok[i] && i + 4 < len && i < 40; i++)
		buf[i] = isprint((unsigned char)tok[i]) ? tok[i] : '?';
	if (tok[i])
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

/*
 * Parse an unsigned decimal field in [lo, hi]. Only digits are accepted:
 * strtoull would also take signs, blanks and hex, which in a trace are
 * corruption rather than intent.
 */
static int field_parse(struct reader *r, const char *name, const char *tok, uint64_t lo,
		       uint64_t hi, uint64_t *out)
{
	char shown[48];
	const char *p = tok;
	int negative = *p == '-';
	if (negative)
		p++;
	if (!*p)
		return reader_fail(r, "%s must be a decimal number, got '%s'", name,
				   field_show(tok, shown, sizeof shown));
	uint64_t v = 0;
	int overflow = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return reader_fail(r, "%s must be a decimal number, got '%s'", name,
					   field_show(tok, shown, sizeof shown));
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	if (negative)
		return reader_fail(r, "%s must not be negative, got '%s'", name,
				   field_show(tok, shown, sizeof shown));
	if (overflow || v < lo || v > hi)
		return reader_fail(r, "%s must be %llu..%llu, got %s", name, (unsigned long long)lo,
				   (unsigned long long)hi, field_show(tok, shown, sizeof shown));
	*out = v;
	return 0;
}

static int header_parse(struct reader *r, uint32_t dim[3])
{
	char *f[4];
	if (fields_split(r->buf, f, 4) != 4 || strcmp(f[0], "blocksize:") != 0)
		return reader_fail(r, "expected 'blocksize: X Y Z'");
	static const char *const names[3] = {"blocksize X", "blocksize Y", "blocksize Z"};
	uint64_t size = 1;
	for (int i = 0; i < 3; i++) {
		uint64_t v;
		if (field_parse(r, names[i], f[i + 1], 1, UINT32_MAX, &v) < 0)
			return -1;
		dim[i] = (uint32_t)v;
		size *= v;
		if (size > UINT32_MAX)
			return reader_fail(r, "block size X*Y*Z must fit 32 bits");
	}
	return 0;
}

/* Digits to a value; 0 if there were none or more than 19 (the careful
 * path then decides what is wrong). */
static inline int digits(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	int n = 0;
	while ((unsigned)(*p - '0') < 10 && n < 19)
		x = x * 10 + (uint64_t)(*p++ - '0'), n++;
	*pp = p;
	*v = x;
	return n && (unsigned)(*p - '0') >= 10;
}

static inline int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * The common line, "gid dir addr bytes" with plain values in range, in one
 * pass. Returns 1 if it took the line, 0 to leave it to access_parse.
 */
static int access_fast(const char *p, rd_kernel_builder *b, int *oom, uint64_t *left)
{
	uint64_t gid, dir, addr, bytes;
	if (!digits(&p, &gid) || !blank(*p))
		return 0;
	while (blank(*p))
		p++;
	if ((*p != '0' && *p != '1') || !blank(p[1]))
		return 0;
	dir = (uint64_t)(*p++ - '0');
	while (blank(*p))
		p++;
	if (!digits(&p, &addr) || !blank(*p))
		return 0;
	while (blank(*p))
		p++;
	if (!digits(&p, &bytes))
		return 0;
	while (blank(*p))
		p++;
	if (*p || gid > RD_MAX_THREAD_ID || bytes < 1 || bytes > 65535 || (!dir && !*left) ||
	    (dir && rd_kernel_builder_stores(b) >= trace_max_loads()))
		return 0;
	if (rd_kernel_builder_add(b, (uint32_t)gid, (int)dir, addr, (uint32_t)bytes) < 0) {
		*oom = 1;
		return 0; /* access_parse reports it */
	}
	*left -= !dir;
	return 1;
}

/* One access line into the builder. */
static int access_parse(struct reader *r, rd_kernel_builder *b, int *oom, uint64_t *left)
{
	if (*oom)
		return reader_fail(r, "out of memory");
	char *f[4];
	int n = fields_split(r->buf, f, 4);
	if (n != 4)
		return reader_fail(r, "expected 4 fields 'gid dir addr bytes', got %d", n);
	uint64_t gid, dir, addr, bytes;
	if (field_parse(r, "gid", f[0], 0, RD_MAX_THREAD_ID, &gid) < 0)
		return -1;
	/* dir gets its own message: its two values carry meaning. */
	if (strcmp(f[1], "0") != 0 && strcmp(f[1], "1") != 0) {
		char shown[48];
		return reader_fail(r, "dir must be 0 (load) or 1 (store), got %s",
				   field_show(f[1], shown, sizeof shown));
	}
	dir = f[1][0] == '1';
	if (field_parse(r, "addr", f[2], 0, UINT64_MAX, &addr) < 0)
		return -1;
	/* The model stores sizes in 16 bits; a 0-byte access touches nothing. */
	if (field_parse(r, "bytes", f[3], 1, 65535, &bytes) < 0)
		return -1;
	if (!dir && !(*left)--)
		return reader_fail(r, "more than %llu loads in one kernel",
				   (unsigned long long)trace_max_loads());
	if (dir && rd_kernel_builder_stores(b) >= trace_max_loads())
		return reader_fail(r, "more than %llu stores in one kernel",
				   (unsigned long long)trace_max_loads());
	if (rd_kernel_builder_add(b, (uint32_t)gid, (int)dir, addr, (uint32_t)bytes) < 0) {
		*oom = 1;
		return reader_fail(r, "out of memory");
	}
	return 0;
}

void trace_ocelot_name(const char *path, char *buf, size_t len)
{
	if (strcmp(path, "-") == 0) {
		snprintf(buf, len, "stdin");
		return;
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 3 && (strcmp(base + n - 3, ".gz") == 0 || strcmp(base + n - 3, ".xz") == 0))
		n -= 3;
	if (n > 4 && strncmp(base + n - 4, ".trc", 4) == 0)
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, base);
}

int trace_ocelot_dir_member(const char *file)
{
	char name[256];
	size_t n = strlen(file);
	if (!((n > 4 && !strcmp(file + n - 4, ".trc")) || (n > 7 && !strcmp(file + n - 7, ".trc.gz")) ||
	      (n > 7 && !strcmp(file + n - 7, ".trc.xz"))))
		return 0;
	trace_ocelot_name(file, name, sizeof name);
	const char *u = strrchr(name, '_');
	if (!u || u == name || !u[1])
		return 0;
	for (const char *p = u + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int trace_ocelot_parse(textin *t, const char *name, rd_kernel **out)
{
	*out = NULL;
	struct reader rr = {.t = t}, *r = &rr;
	int oom = 0;
	rd_kernel_builder *b = NULL;
	int rc = reader_next(r);
	if (rc == 0)
		reader_fail(r, "empty file");
	if (rc <= 0)
		goto fail;
	uint32_t dim[3];
	if (header_parse(r, dim) < 0)
		goto fail;
	b = rd_kernel_builder_new(name, dim[0], dim[1], dim[2]);
	if (!b) {
		oom = 1;
		reader_fail(r, "out of memory");
		goto fail;
	}
	/* Growing by doubling touches every page twice; a plain file's size
	 * tells roughly how many lines are coming (lines run 16-30 bytes). */
	uint64_t size = textin_plain_size(t), left = trace_max_loads();
	if (size)
		rd_kernel_builder_reserve(b, size / 24);
	while ((rc = reader_next(r)) > 0) {
		const char *p = r->buf;
		if ((unsigned)(*p - '0') < 10 && access_fast(p, b, &oom, &left))
			continue;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		if (access_parse(r, b, &oom, &left) < 0)
			goto fail;
	}
	if (rc < 0)
		goto fail;
	uint64_t nloads = rd_kernel_builder_loads(b);
	uint32_t nthreads = rd_kernel_builder_threads(b);
	*out = rd_kernel_builder_finish(b); /* frees the builder either way */
	if (!*out) {
		textin_fail_kernel(t, nloads, nthreads);
		return TRACE_ENOMEM;
	}
	return TRACE_OK;
fail:
	rd_kernel_builder_free(b);
	if (textin_oom(t))
		oom = 1;
	return oom ? TRACE_ENOMEM : TRACE_EINPUT;
}

int trace_ocelot_read(const char *path, rd_kernel **out, char *err, size_t errlen)
{
	*out = NULL;
	int oom;
	textin *t = textin_open(path, TRACE_LINE_MAX, err, errlen, &oom);
	if (!t)
		return oom ? TRACE_ENOMEM : TRACE_EINPUT;
	char name[256];
	trace_ocelot_name(path, name, sizeof name);
	int rc = trace_ocelot_parse(t, name, out);
	textin_close(t);
	return rc;
}

/* ---------------------------------------------------------------- reader */

typedef struct ocelot_reader {
	trace_reader base;
	textin *t;
	char *name;
	int state; /* 0: before the kernel, 1: announced, 2: done */
} ocelot_reader;

static int ocelot_next(trace_reader *rr, const char **name)
{
	ocelot_reader *r = (ocelot_reader *)rr;
	if (r->state != 0)
		return r->state = 2, 0;
	r->state = 1;
	*name = r->name;
	return 1;
}

static int ocelot_load(trace_reader *rr, rd_kernel **k)
{
	ocelot_reader *r = (ocelot_reader *)rr;
	r->state = 2;
	int rc = trace_ocelot_parse(r->t, r->name, k);
	rr->oom = rc == TRACE_ENOMEM;
	return rc;
}

static void ocelot_close(trace_reader *rr)
{
	ocelot_reader *r = (ocelot_reader *)rr;
	textin_close(r->t);
	free(r->name);
	free(r);
}

trace_reader *trace_ocelot_reader(textin *t, const char *name, char *err, size_t errlen)
{
	ocelot_reader *r = calloc(1, sizeof *r);
	char *n = malloc(strlen(name) + 1);
	if (!r || !n) {
		free(r);
		free(n);
		return NULL;
	}
	strcpy(n, name);
	r->t = t;
	r->name = n;
	r->base.next = ocelot_next;
	r->base.load = ocelot_load;
	r->base.close = ocelot_close;
	r->base.err = err;
	r->base.errlen = errlen;
	return &r->base;
}
