/*
 * Streaming reader of Ocelot `.trc` traces (see trace_ocelot.h).
 *
 * Traces of real kernels run to hundreds of megabytes, so the file is read
 * in blocks through zlib (which passes plain files through unchanged) and
 * each access goes straight into the kernel builder; only the builder's
 * compact arrays stay in memory.
 *
 * Speed: a well-formed access line is parsed by one pass of a tight
 * scanner (access_fast); anything it does not like goes to the careful
 * path (fields_split, field_parse), which also words every error message.
 */
#include "trace_ocelot.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Bytes read from zlib at a time; lines are found in place within it. */
#define BLOCK (1u << 20)

struct reader {
	const char *shown;        /* the path as it appears in messages */
	gzFile gz;
	int fd;                   /* gz's descriptor, for its size */
	unsigned long line;       /* number of the current line, 1-based */
	char *buf;                /* the current line, NUL-terminated, in blk */
	char *blk;                /* BLOCK + TRACE_LINE_MAX + 2 bytes */
	size_t have, pos;         /* bytes in blk; start of the next line */
	size_t nul;               /* offset of the first NUL byte in blk, or none */
	int eof;
	char *err;
	size_t errlen;
};

/* "path:line: message" (line 0: "path: message"). Always returns -1. */
static int reader_fail(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->line)
		snprintf(r->err, r->errlen, "%s:%lu: %s", r->shown, r->line, msg);
	else
		snprintf(r->err, r->errlen, "%s: %s", r->shown, msg);
	return -1;
}

/* Report zlib's error state, if any: -1 for an error, else 0. */
static int reader_check(struct reader *r)
{
	int zerr;
	const char *zmsg = gzerror(r->gz, &zerr);
	if (zerr == Z_ERRNO)
		return reader_fail(r, "read error: %s", strerror(errno));
	if (zerr != Z_OK && zerr != Z_STREAM_END) {
		/* zlib prefixes its name for the stream, "<fd:3>: ", useless here. */
		const char *colon = strncmp(zmsg, "<fd:", 4) == 0 ? strstr(zmsg, ": ") : NULL;
		return reader_fail(r, "corrupt compressed data: %s", colon ? colon + 2 : zmsg);
	}
	return 0;
}

/* Move the unread tail to the front and read more. -1: read error. */
static int reader_fill(struct reader *r)
{
	memmove(r->blk, r->blk + r->pos, r->have - r->pos);
	r->have -= r->pos;
	if (r->nul != SIZE_MAX)
		r->nul -= r->pos;
	r->pos = 0;
	int n = gzread(r->gz, r->blk + r->have, BLOCK);
	if (n < 0) {
		r->line++; /* the error is in the line we tried to read */
		return reader_check(r);
	}
	if (n == 0)
		r->eof = 1;
	/* one search per block, not one per line: text has no NUL bytes */
	const char *z = n > 0 && r->nul == SIZE_MAX ? memchr(r->blk + r->have, '\0', (size_t)n) : NULL;
	if (z)
		r->nul = (size_t)(z - r->blk);
	r->have += (size_t)n;
	return 0;
}

/*
 * Point r->buf at the next line, NUL-terminated in place, without its
 * newline. Returns 1 for a line, 0 at the end of the input, -1 on a read
 * error or an unacceptable line.
 */
static int reader_next(struct reader *r)
{
	char *nl;
	while (!(nl = memchr(r->blk + r->pos, '\n', r->have - r->pos))) {
		if (r->have - r->pos > TRACE_LINE_MAX) {
			r->line++;
			return reader_fail(r, "line too long (more than %d bytes)", TRACE_LINE_MAX);
		}
		if (r->eof)
			break;
		if (reader_fill(r) < 0)
			return -1;
	}
	size_t start = r->pos, end = nl ? (size_t)(nl - r->blk) : r->have;
	if (!nl && start == end) {
		/* zlib may flag a broken stream after handing out good data:
		 * only now, with nothing left, is the input known to be whole */
		r->line++;
		if (reader_check(r) < 0)
			return -1;
		r->line--;
		return 0;
	}
	r->line++;
	if (end - start > TRACE_LINE_MAX)
		return reader_fail(r, "line too long (more than %d bytes)", TRACE_LINE_MAX);
	if (!nl && reader_check(r) < 0)
		return -1; /* a last line cut short by broken data */
	if (r->nul < end)
		return reader_fail(r, "NUL byte in text (is this a binary file?)");
	r->blk[end] = '\0';
	r->buf = r->blk + start;
	r->pos = nl ? end + 1 : end;
	return 1;
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
static int access_fast(const char *p, rd_kernel_builder *b, int *oom)
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
	if (*p || gid > RD_MAX_THREAD_ID || bytes < 1 || bytes > 65535)
		return 0;
	if (rd_kernel_builder_add(b, (uint32_t)gid, (int)dir, addr, (uint32_t)bytes) < 0) {
		*oom = 1;
		return 0; /* access_parse reports it */
	}
	return 1;
}

/* One access line into the builder. */
static int access_parse(struct reader *r, rd_kernel_builder *b, int *oom)
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
	if (n > 3 && strcmp(base + n - 3, ".gz") == 0)
		n -= 3;
	if (n > 4 && strncmp(base + n - 4, ".trc", 4) == 0)
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* Open path (or stdin) for gz reading; directories are refused up front
 * because reading one fails late and with a confusing message. */
static gzFile trace_open(const char *path, char *err, size_t errlen, int *oom, int *fdp)
{
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		close(fd);
		return NULL;
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		*oom = 1;
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	gzbuffer(gz, 128 * 1024);
	*fdp = fd;
	return gz;
}

int trace_ocelot_read(const char *path, rd_kernel **out, char *err, size_t errlen)
{
	*out = NULL;
	int oom = 0;
	/* The line buffer is a few KB; keep it off the caller's stack, which
	 * may be a worker thread's. */
	struct reader *r = calloc(1, sizeof *r);
	char *blk = malloc(BLOCK + TRACE_LINE_MAX + 2);
	if (!r || !blk) {
		free(r);
		free(blk);
		snprintf(err, errlen, "%s: out of memory", path);
		return TRACE_ENOMEM;
	}
	r->blk = blk;
	r->nul = SIZE_MAX;
	r->shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
	r->err = err;
	r->errlen = errlen;
	r->gz = trace_open(path, err, errlen, &oom, &r->fd);
	if (!r->gz) {
		free(r->blk);
		free(r);
		return oom ? TRACE_ENOMEM : TRACE_EINPUT;
	}

	rd_kernel_builder *b = NULL;
	int rc = reader_next(r);
	if (rc == 0)
		reader_fail(r, "empty file");
	if (rc <= 0)
		goto fail;
	uint32_t dim[3];
	if (header_parse(r, dim) < 0)
		goto fail;
	char name[256];
	trace_ocelot_name(path, name, sizeof name);
	b = rd_kernel_builder_new(name, dim[0], dim[1], dim[2]);
	if (!b) {
		oom = 1;
		reader_fail(r, "out of memory");
		goto fail;
	}
	/* Growing by doubling touches every page twice; a plain file's size
	 * tells roughly how many lines are coming (lines run 16-30 bytes). */
	struct stat st;
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && gzdirect(r->gz))
		rd_kernel_builder_reserve(b, (uint64_t)st.st_size / 24);
	while ((rc = reader_next(r)) > 0) {
		const char *p = r->buf;
		if ((unsigned)(*p - '0') < 10 && access_fast(p, b, &oom))
			continue;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		if (access_parse(r, b, &oom) < 0)
			goto fail;
	}
	if (rc < 0)
		goto fail;
	gzclose(r->gz);
	free(r->blk);
	free(r);
	*out = rd_kernel_builder_finish(b); /* frees the builder either way */
	if (!*out) {
		snprintf(err, errlen, "%s: out of memory", strcmp(path, "-") == 0 ? "<stdin>" : path);
		return TRACE_ENOMEM;
	}
	return TRACE_OK;
fail:
	rd_kernel_builder_free(b);
	gzclose(r->gz);
	free(r->blk);
	free(r);
	return oom ? TRACE_ENOMEM : TRACE_EINPUT;
}
