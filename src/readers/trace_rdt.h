/*
 * rdscope's binary trace, `.rdt`: the kernels exactly as the model holds
 * them, so that loading is a validated copy instead of parsing text.
 * All integers little-endian, fixed widths:
 *
 *   header, 32 bytes:
 *     0  magic  "\x89RDT\r\n\x1a\n"
 *     8  u32    version (3; versions 1, without sites, and 2, without
 *               stores, are read too)
 *    12  u32    kernel count
 *    16  u64    offset of the kernel table
 *    24  u64    file size in bytes
 *   per kernel, in the data area (each array 8-byte aligned):
 *     u64 thread_first[nthreads + 1]   loads of thread t are
 *                                      [thread_first[t], thread_first[t+1])
 *     u64 addr[nloads]                 byte addresses, per thread in
 *                                      program order
 *     u16 bytes[nloads]                access sizes
 *   kernel table, 80 bytes per kernel (64 in versions 1 and 2, which end
 *   at offset 64):
 *     0  u64 name offset     8 u32 name length (no NUL, at most 4096)
 *    12  u32 block x        16 u32 block y       20 u32 block z
 *    24  u32 nthreads       28 u32 nsites (version 2; 0: none)
 *    32  u64 nloads         40 u64 nstores
 *    48  u64 data offset    56 u64 sites offset (version 2; 0: none)
 *    64  u64 stores offset (version 3; 0: none)
 *    72  u32 store_threads (version 3; 1 + the largest thread id with a
 *            store; 0 when the stores offset is 0)
 *    76  u32 reserved (0)
 *   per kernel with sites (version 2), at its sites offset, 8-byte aligned:
 *     u32 site[nloads]                 each load's site, < nsites
 *     then, 8-byte aligned, per site 24 bytes: u64 pc, u32 line,
 *     u32 reference length, u32 array length, u32 reserved (0)
 *     then the sites' reference and array texts, in site order, no NULs
 *     (each at most 4096 bytes)
 *   per kernel with stores (version 3), at its stores offset, 8-byte
 *   aligned, the model's store arrays, sorted by thread id (widest first,
 *   so none needs padding):
 *     u64 store_addr[nstores]          byte addresses
 *     u32 store_tid[nstores]           each store's thread id, never
 *                                      decreasing; a thread's stores in
 *                                      program order
 *     u32 store_pos[nstores]           the store's place among all its
 *                                      thread's accesses (0 = first)
 *     u16 store_bytes[nstores]         access sizes
 *
 * A kernel of versions 1 and 2 (or of version 3 with stores offset 0) has
 * its stores counted only: the model runs it as if it had none (rdscope
 * run says so when l1.stores is not ignore). Loading maps the file and
 * checks every offset and size against the file, thread_first for
 * starting at 0, never decreasing, ending at the count and its last
 * thread having a load, store_tid for never decreasing, staying below
 * store_threads and ending at store_threads - 1, sizes for being at least
 * 1, and each store's place for leaving between 0 and its thread's load
 * count of loads before it, never fewer than the store before: a damaged
 * file is an input error, never a crash.
 * On little-endian machines a kernel's arrays are the mapped bytes
 * themselves (lent, not copied). Standard input and compressed .rdt files
 * are read into memory instead.
 */
#ifndef TRACE_RDT_H
#define TRACE_RDT_H

#include <stdio.h>

#include "textin.h"
#include "trace.h"

#define RDT_MAGIC "\x89RDT\r\n\x1a\n"
#define RDT_VERSION 3
#define RDT_SITE 24
#define RDT_HEADER 32
#define RDT_ENTRY 80    /* version 3 */
#define RDT_ENTRY_V2 64 /* versions 1 and 2 */
#define RDT_NAME_MAX 4096

/* Is path a plain .rdt file whose kernels the reader lends from its
 * mapping instead of copying (so that loading needs no memory of its own)? */
int trace_rdt_lends(const char *path);

/* A reader over an open input that starts with RDT_MAGIC (takes t over). */
trace_reader *trace_rdt_reader(textin *t, char *err, size_t errlen, int *oom);

/* Writing: kernels one at a time, the table at the end. f must be a
 * seekable file opened for writing. */
typedef struct rdt_writer rdt_writer;
rdt_writer *rdt_writer_open(FILE *f);
/* 0, or -1 on a write error (errno) or out of memory. */
int rdt_writer_add(rdt_writer *w, const rd_kernel *k);
/* Write the table and the header; frees w. 0 or -1. */
int rdt_writer_finish(rdt_writer *w);
void rdt_writer_free(rdt_writer *w);

#endif
