/*
 * Byte source and line reader for trace files (see textin.h).
 *
 * The compression is told by the first bytes: 1f 8b is gzip (zlib's
 * inflate, every member of a multi-member file), fd "7zXZ" 00 is xz
 * (liblzma, concatenated streams), anything else is passed through. The
 * decompressed bytes land in one block buffer where lines are cut in
 * place, as the Ocelot reader has always done, so a line costs one memchr.
 *
 * A decompressor may fail after it has handed out good data (a truncated
 * file). The failure is kept and reported only when the reader reaches
 * the point where the data stops, at the line it was reading.
 */
#include "textin.h"

#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Decompressed bytes made available at a time. */
#define BLOCK (1u << 20)
/* Compressed bytes read from the file at a time. */
#define RAW (256u * 1024)

struct textin {
	const char *shown;
	char *shown_copy; /* the name, owned: a caller's may not outlive the reader */
	int fd;
	enum textin_comp comp;
	uint64_t plain_size;
	size_t maxline;
	char *err;
	size_t errlen;

	/* compressed input */
	unsigned char *raw;
	size_t raw_have, raw_pos;
	int raw_eof;
	z_stream z;
	int z_live;
	lzma_stream x;
	int x_live;
	int stream_done;         /* the decompressor reached a clean end */

	/* decompressed text */
	char *blk;                /* cap + maxline + 2 bytes */
	size_t cap;               /* decompressed bytes made available at a time */
	size_t raw_cap;           /* size of raw */
	size_t have, pos;
	size_t nul;               /* first NUL byte in blk, or SIZE_MAX */
	int eof;                  /* no more bytes will come */
	char pending[200];        /* a decompression error not yet reported */
	int pending_oom;
	unsigned long line;
	int started;              /* textin_next or textin_read was called */
};

int textin_fail_at(textin *t, unsigned long line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	textin_locate(t->err, t->errlen, t->shown, line, msg);
	return -1;
}

void textin_locate(char *err, size_t errlen, const char *shown, unsigned long line,
		   const char *msg)
{
	if (line)
		snprintf(err, errlen, "%s:%lu: %s", shown, line, msg);
	else
		snprintf(err, errlen, "%s: %s", shown, msg);
}

int textin_fail(textin *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return textin_fail_at(t, t->line, "%s", msg);
}

const char *textin_show(const char *tok, size_t len, char *buf, size_t buflen)
{
	size_t i = 0;
	for (; i < len && tok[i] && i + 4 < buflen && i < 40; i++)
		buf[i] = (tok[i] >= 0x20 && tok[i] < 0x7f) ? tok[i] : '?';
	if (i < len && tok[i])
		buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
	buf[i] = '\0';
	return buf;
}

void textin_set_maxline(textin *t, size_t maxline)
{
	if (maxline < t->maxline)
		t->maxline = maxline;
}

const char *textin_shown(const textin *t)
{
	return t->shown;
}

enum textin_comp textin_compression(const textin *t)
{
	return t->comp;
}

uint64_t textin_plain_size(const textin *t)
{
	return t->comp == TEXTIN_PLAIN ? t->plain_size : 0;
}

int textin_fd(const textin *t)
{
	return t->fd;
}

int textin_oom(const textin *t)
{
	return t->pending_oom;
}

unsigned long textin_line(const textin *t)
{
	return t->line;
}

/* Read more compressed bytes; -1 on a read error (pending set). */
static int raw_fill(textin *t)
{
	if (t->raw_pos < t->raw_have || t->raw_eof)
		return 0;
	ssize_t n;
	do
		n = read(t->fd, t->raw, t->raw_cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		snprintf(t->pending, sizeof t->pending, "read error: %s", strerror(errno));
		return -1;
	}
	t->raw_have = (size_t)n;
	t->raw_pos = 0;
	if (n == 0)
		t->raw_eof = 1;
	return 0;
}

/*
 * Up to cap decompressed bytes into dst. Returns the count, 0 at the end
 * of the data (clean or not: a failure is left in t->pending).
 */
static size_t produce(textin *t, char *dst, size_t cap)
{
	if (t->pending[0] || t->stream_done)
		return 0;
	size_t out = 0;
	while (out < cap) {
		/* a read abandoned on another thread (trace.h): at most RAW
		 * compressed or BLOCK plain bytes between two checks */
		if (trace_stopped()) {
			snprintf(t->pending, sizeof t->pending, "stopped");
			break;
		}
		if (raw_fill(t) < 0)
			break;
		if (t->comp == TEXTIN_PLAIN) {
			if (t->raw_pos == t->raw_have) { /* raw_fill found the end */
				t->stream_done = 1;
				break;
			}
			size_t n = t->raw_have - t->raw_pos;
			if (n > cap - out)
				n = cap - out;
			memcpy(dst + out, t->raw + t->raw_pos, n);
			t->raw_pos += n;
			out += n;
			/* a large plain read goes straight into the block */
			if (out < cap && cap - out >= t->raw_cap && t->raw_pos == t->raw_have) {
				ssize_t m;
				do
					m = read(t->fd, dst + out, cap - out);
				while (m < 0 && errno == EINTR);
				if (m < 0) {
					snprintf(t->pending, sizeof t->pending, "read error: %s",
						 strerror(errno));
					break;
				}
				if (m == 0) {
					t->raw_eof = 1;
					t->stream_done = 1;
					break;
				}
				out += (size_t)m;
			}
			continue;
		}
		if (t->comp == TEXTIN_GZIP) {
			if (t->raw_eof && t->raw_pos == t->raw_have) {
				snprintf(t->pending, sizeof t->pending,
					 "corrupt compressed data: unexpected end of file");
				break;
			}
			t->z.next_in = t->raw + t->raw_pos;
			t->z.avail_in = (uInt)(t->raw_have - t->raw_pos);
			t->z.next_out = (Bytef *)dst + out;
			t->z.avail_out = (uInt)(cap - out);
			int rc = inflate(&t->z, Z_NO_FLUSH);
			out = cap - t->z.avail_out;
			t->raw_pos = t->raw_have - t->z.avail_in;
			if (rc == Z_STREAM_END) {
				/* another gzip member may follow */
				if (raw_fill(t) < 0)
					break;
				if (t->raw_eof && t->raw_pos == t->raw_have) {
					t->stream_done = 1;
					break;
				}
				inflateReset(&t->z);
			} else if (rc == Z_MEM_ERROR) {
				t->pending_oom = 1;
				snprintf(t->pending, sizeof t->pending, "out of memory");
				break;
			} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
				snprintf(t->pending, sizeof t->pending, "corrupt compressed data: %s",
					 t->z.msg ? t->z.msg : "inflate failed");
				break;
			}
			continue;
		}
		/* xz */
		t->x.next_in = t->raw + t->raw_pos;
		t->x.avail_in = t->raw_have - t->raw_pos;
		t->x.next_out = (uint8_t *)dst + out;
		t->x.avail_out = cap - out;
		lzma_ret rc = lzma_code(&t->x, t->raw_eof ? LZMA_FINISH : LZMA_RUN);
		out = cap - t->x.avail_out;
		t->raw_pos = t->raw_have - t->x.avail_in;
		if (rc == LZMA_STREAM_END) {
			t->stream_done = 1;
			break;
		}
		if (rc == LZMA_OK)
			continue;
		if (rc == LZMA_MEM_ERROR) {
			t->pending_oom = 1;
			snprintf(t->pending, sizeof t->pending, "out of memory");
		} else if (rc == LZMA_BUF_ERROR) {
			snprintf(t->pending, sizeof t->pending,
				 "corrupt compressed data: unexpected end of file");
		} else {
			snprintf(t->pending, sizeof t->pending, "corrupt compressed data: %s",
				 rc == LZMA_FORMAT_ERROR ? "not in xz format"
				 : rc == LZMA_DATA_ERROR ? "compressed data is corrupt"
				 : rc == LZMA_OPTIONS_ERROR ? "unsupported options"
				 : "decoder error");
		}
		break;
	}
	return out;
}

textin *textin_open(const char *path, size_t maxline, char *err, size_t errlen, int *oom)
{
	*oom = 0;
	int std = strcmp(path, "-") == 0;
	int fd = std ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
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
	/* Small files get small buffers (a megabyte per open is what most of
	 * a short file's reading would cost); compressed ones may expand, and
	 * any size works, lines spanning fills included. */
	size_t cap = BLOCK;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < BLOCK / 8)
		cap = (size_t)st.st_size * 8 < 65536 ? 65536 : (size_t)st.st_size * 8;
	textin *t = calloc(1, sizeof *t);
	unsigned char *raw = malloc(RAW < cap ? RAW : cap);
	char *blk = malloc(cap + maxline + 2);
	char *name = std ? NULL : strdup(path); /* a caller's may not outlive the reader */
	if (!t || !raw || !blk || (!std && !name)) {
		free(t);
		free(raw);
		free(blk);
		free(name);
		close(fd);
		*oom = 1;
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	t->shown = std ? "<stdin>" : name;
	t->shown_copy = name;
	t->fd = fd;
	t->raw = raw;
	t->blk = blk;
	t->cap = cap;
	t->raw_cap = RAW < cap ? RAW : cap;
	t->maxline = maxline;
	t->err = err;
	t->errlen = errlen;
	t->nul = SIZE_MAX;
	t->plain_size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	/* The magic bytes: gather at least 6 (or all there is). */
	while (t->raw_have < 6 && !t->raw_eof) {
		ssize_t n = read(fd, raw + t->raw_have, t->raw_cap - t->raw_have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: read error: %s", t->shown, strerror(errno));
			textin_close(t);
			return NULL;
		}
		if (n == 0)
			t->raw_eof = 1;
		t->raw_have += (size_t)n;
	}
	static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
	if (t->raw_have >= 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
		t->comp = TEXTIN_GZIP;
		if (inflateInit2(&t->z, 15 + 16) != Z_OK) {
			*oom = 1;
			snprintf(err, errlen, "%s: out of memory", t->shown);
			textin_close(t);
			return NULL;
		}
		t->z_live = 1;
	} else if (t->raw_have >= 6 && memcmp(raw, xz_magic, 6) == 0) {
		t->comp = TEXTIN_XZ;
		lzma_stream init = LZMA_STREAM_INIT;
		t->x = init;
		if (lzma_stream_decoder(&t->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
			*oom = 1;
			snprintf(err, errlen, "%s: out of memory", t->shown);
			textin_close(t);
			return NULL;
		}
		t->x_live = 1;
	}
	return t;
}

void textin_close(textin *t)
{
	if (!t)
		return;
	if (t->z_live)
		inflateEnd(&t->z);
	if (t->x_live)
		lzma_end(&t->x);
	close(t->fd);
	free(t->raw);
	free(t->blk);
	free(t->shown_copy);
	free(t);
}

/* Move the unread tail to the front and decompress more. */
static void fill_n(textin *t, size_t want)
{
	memmove(t->blk, t->blk + t->pos, t->have - t->pos);
	t->have -= t->pos;
	if (t->nul != SIZE_MAX)
		t->nul -= t->pos;
	t->pos = 0;
	size_t n = produce(t, t->blk + t->have, want < t->cap ? want : t->cap);
	if (n == 0)
		t->eof = 1;
	/* one search per block, not one per line: text has no NUL bytes */
	const char *z = n > 0 && t->nul == SIZE_MAX ? memchr(t->blk + t->have, '\0', n) : NULL;
	if (z)
		t->nul = (size_t)(z - t->blk);
	t->have += n;
}

static void fill(textin *t)
{
	fill_n(t, t->cap);
}

/* The kept decompression error, at line `line`. */
static int pending_fail(textin *t, unsigned long line)
{
	textin_fail_at(t, line, "%s", t->pending);
	return -1;
}

int textin_peek(textin *t, const unsigned char **p, size_t *n, size_t max)
{
	/* only what is asked for: a sniff of a binary input that another
	 * reader then reads reads no block of it (a 1 MiB block filled by
	 * 256 KiB reads, twice a run: batch_check_inputs' and batch_run's) */
	if (max > t->cap)
		max = t->cap; /* (the block holds no more) */
	while (t->have - t->pos < max && !t->eof)
		fill_n(t, max - (t->have - t->pos));
	if (t->have == t->pos && t->pending[0])
		return pending_fail(t, 0);
	*p = (const unsigned char *)t->blk + t->pos;
	*n = t->have - t->pos < max ? t->have - t->pos : max;
	return 0;
}

int textin_next(textin *t, char **line, size_t *len)
{
	t->started = 1;
	char *nl;
	while (!(nl = memchr(t->blk + t->pos, '\n', t->have - t->pos))) {
		if (t->have - t->pos > t->maxline) {
			t->line++;
			return textin_fail(t, "line too long (more than %zu bytes)", t->maxline);
		}
		if (t->eof)
			break;
		fill(t);
	}
	size_t start = t->pos, end = nl ? (size_t)(nl - t->blk) : t->have;
	if (!nl && start == end) {
		/* only now, with nothing left, is the input known to be whole */
		if (t->pending[0])
			return pending_fail(t, t->line + 1);
		return 0;
	}
	t->line++;
	if (end - start > t->maxline)
		return textin_fail(t, "line too long (more than %zu bytes)", t->maxline);
	if (!nl && t->pending[0])
		return pending_fail(t, t->line); /* a last line cut short by broken data */
	if (t->nul < end)
		return textin_fail(t, "NUL byte in text (is this a binary file?)");
	t->blk[end] = '\0';
	*line = t->blk + start;
	*len = end - start;
	t->pos = nl ? end + 1 : end;
	return 1;
}

long textin_read(textin *t, void *buf, size_t n)
{
	t->started = 1;
	size_t got = 0;
	/* first what is already buffered (peeked) */
	size_t b = t->have - t->pos;
	if (b) {
		if (b > n)
			b = n;
		memcpy(buf, t->blk + t->pos, b);
		t->pos += b;
		got = b;
	}
	while (got < n) {
		size_t m = produce(t, (char *)buf + got, n - got);
		if (m == 0)
			break;
		got += m;
	}
	if (got == 0 && t->pending[0])
		return pending_fail(t, 0);
	return (long)got;
}

int textin_fail_kernel(textin *t, uint64_t loads, uint32_t threads)
{
	double mib = ((double)threads * 8 + (double)loads * 10) / (1024.0 * 1024.0);
	return textin_fail_at(t, 0,
			      "out of memory for the kernel: %llu loads, thread ids up to %lu "
			      "(8 bytes per thread id up to the largest, 10 per load: %.0f MiB)",
			      (unsigned long long)loads, threads ? (unsigned long)threads - 1 : 0ul,
			      mib);
}
