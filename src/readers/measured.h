/*
 * Measured hit rates per kernel (rdscope validate --measured FILE; issue
 * 22): a plain CSV, one kernel a line, `kernel,l1_hit_rate[,l2_hit_rate]`.
 *
 *  - kernel: the kernel's name as rdscope reads it (1 to 255 bytes, no
 *    comma, quote or control character; spaces around it ignored); each
 *    name once;
 *  - rates: decimal numbers from 0 to 1, or from 0 to 100 followed by %;
 *    l2_hit_rate may be empty or absent.
 * Blank lines and lines starting with '#' are skipped, CRLF taken; a first
 * line starting with `kernel,` is a header. At most MEASURED_MAX rows and
 * MEASURED_MAX_BYTES bytes. Every refusal says "FILE:LINE: why".
 * (Nsight Compute's and nvprof's CSV exports are not read yet.)
 */
#ifndef READERS_MEASURED_H
#define READERS_MEASURED_H

#include <stddef.h>

#define MEASURED_MAX 10000
#define MEASURED_MAX_BYTES (16u << 20)

typedef struct measured_row {
	char *kernel;
	double l1, l2; /* hit rates in [0, 1]; l2 NAN when not given */
	unsigned line; /* in the file */
} measured_row;

typedef struct measured_set {
	measured_row *rows;
	size_t n;
} measured_set;

/* Parse text[0..n) (shown names it): 0 with *out; -1 "SHOWN:LINE: why"
 * in err; -2 out of memory. */
int measured_parse(const char *text, size_t n, const char *shown, measured_set *out, char *err,
		   size_t errlen);
/* The same from a file. */
int measured_read(const char *path, measured_set *out, char *err, size_t errlen);
/* The row of kernel name, or NULL. */
const measured_row *measured_find(const measured_set *s, const char *name);
void measured_free(measured_set *s);

#endif
