/*
 * Reader of the Ocelot tracer's `.trc` text format (the 2013 reference
 * code's input), plain or gzip/xz-compressed:
 *
 *     blocksize: X Y Z
 *     gid dir addr bytes        (one access per line, all decimal)
 *
 * dir is 0 for a load and 1 for a store. After the header, blank lines and
 * lines starting with '#' are skipped. Stricter than the reference (which
 * reads whitespace-separated tokens and stops silently at the first bad
 * one): every malformed line is an error naming its file and line.
 */
#ifndef TRACE_OCELOT_H
#define TRACE_OCELOT_H

#include <stddef.h>

#include "rdscope.h"
#include "textin.h"
#include "trace.h"

/* Longest accepted line, newline excluded. Real lines are under 60 bytes. */
#define TRACE_LINE_MAX 1024

/*
 * Read one kernel from path ("-" reads standard input). On TRACE_OK *out
 * holds the kernel (free with rd_kernel_free); otherwise *out is NULL and
 * err holds "path:line: what is wrong" or "path: what is wrong".
 */
int trace_ocelot_read(const char *path, rd_kernel **out, char *err, size_t errlen);

/* Kernel name for a path: its basename without ".trc" / ".gz" / ".xz". */
void trace_ocelot_name(const char *path, char *buf, size_t len);

/* Is file (a name in a directory) one kernel of an Ocelot trace
 * directory, NAME_NN.trc (or .trc.gz / .trc.xz)? */
int trace_ocelot_dir_member(const char *file);

/* Parse one kernel named name from an open input (see textin.h). */
int trace_ocelot_parse(textin *t, const char *name, rd_kernel **out);

/* A one-kernel trace_reader over an open input (takes t over). NULL:
 * out of memory. */
trace_reader *trace_ocelot_reader(textin *t, const char *name, char *err, size_t errlen);

#endif
