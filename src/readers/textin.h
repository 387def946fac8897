/*
 * Reading trace files: a byte source that undoes gzip and xz compression
 * (recognised by their magic bytes, not by the file name), and a line
 * reader over it that numbers lines and words its errors "path:line:
 * message". Shared by every text reader (Ocelot, NVBit, Accel-Sim) and the
 * format sniffer, which looks at the first block before a reader takes
 * over the same stream, so standard input can be sniffed too.
 *
 * Lines are found in place inside large blocks: a line is valid until the
 * next call to textin_next.
 */
#ifndef TEXTIN_H
#define TEXTIN_H

#include <stddef.h>
#include <stdint.h>

enum textin_comp { TEXTIN_PLAIN = 0, TEXTIN_GZIP, TEXTIN_XZ };

typedef struct textin textin;

/*
 * Open path ("-": standard input) for reading lines of at most maxline
 * bytes. Returns NULL with "path: reason" in err; *oom tells an
 * out-of-memory failure from an input error.
 */
textin *textin_open(const char *path, size_t maxline, char *err, size_t errlen, int *oom);
void textin_close(textin *t);

/* Lower the longest accepted line (at most the maxline of textin_open),
 * once the format is known. */
void textin_set_maxline(textin *t, size_t maxline);

/* The name used in messages: the path, or "<stdin>". */
const char *textin_shown(const textin *t);
enum textin_comp textin_compression(const textin *t);
/* The file descriptor (for mapping a regular uncompressed file). */
int textin_fd(const textin *t);

/* Size of the file if it is a regular uncompressed file, else 0. */
uint64_t textin_plain_size(const textin *t);

/*
 * The first bytes of the (decompressed) input without consuming them: at
 * most max bytes, fewer at the end of a short input. Only valid before the
 * first textin_next / textin_read. Returns -1 on a read error (err set).
 */
int textin_peek(textin *t, const unsigned char **p, size_t *n, size_t max);

/*
 * The next line, NUL-terminated, without its newline (a "\r" before it is
 * kept). Returns 1 with *line, 0 at the end, -1 on an error: read error,
 * corrupt compressed data, a line longer than maxline, a NUL byte.
 */
int textin_next(textin *t, char **line, size_t *len);

/* Was the last failure an out-of-memory one? */
int textin_oom(const textin *t);

/* Number of the line textin_next returned last (1-based). */
unsigned long textin_line(const textin *t);

/*
 * Raw (decompressed) bytes instead of lines, for binary formats read from
 * a pipe or a compressed file: up to n bytes into buf. Returns the count
 * (0 at the end) or -1 on an error.
 */
long textin_read(textin *t, void *buf, size_t n);

/*
 * Report an error about the current line ("path:line: message"; line 0:
 * "path: message"). Always returns -1. The message is kept in the error
 * buffer given to textin_open.
 */
int textin_fail(textin *t, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* The same at an explicit line number (0: none). */
int textin_fail_at(textin *t, unsigned long line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Out of memory finishing a kernel of `loads` loads and thread ids up to
 * threads - 1: says what it would have cost. Always returns -1. */
int textin_fail_kernel(textin *t, uint64_t loads, uint32_t threads);

/* Into err: "shown:line: msg", or "shown: msg" for line 0 (every reader's
 * located message). */
void textin_locate(char *err, size_t errlen, const char *shown, unsigned long line,
		   const char *msg);

/* A token made safe to quote in a message: printable, at most 40 bytes. */
const char *textin_show(const char *tok, size_t len, char *buf, size_t buflen);

#endif
