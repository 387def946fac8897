/*
 * src/kdesc: kernel descriptions, a CUDA kernel's accesses described in a
 * small libconfig file (man/rdscope-kernel.5) and expanded into the access
 * stream a tracer would give: opening and checking (kdesc.h), the
 * expressions of a body (kdesc_expr.h); compiling and running are private
 * (kdesc_int.h).
 *
 * The public header of the family (it also brings in
 * kdesc_expr.h): other folders include this one only.
 * May include: the model (rdscope.h), libc, libconfig, src/util, and the
 * reader interface and text input of src/readers (a description is read
 * like a trace).
 *
 * Kernel descriptions: a CUDA kernel's memory accesses described in a
 * small libconfig file instead of traced on a GPU (the format is
 * documented in man/rdscope-kernel.5). A description has parameters
 * (sizes) with named variants, arrays, kernels (grid and block shape, and
 * a per-thread body of assignments, loads, stores, ifs and for loops over
 * integer expressions of threadIdx/blockIdx/blockDim/gridDim, parameters
 * and variables) and an optional launch sequence.
 *
 * It is expanded into the same access stream a tracer would give: thread
 * by thread, each thread's accesses in program order, thread ids =
 * flat block id * block size + linear thread index in the block (x
 * fastest), the blocks flattened CUDA's way (x fastest) or the Ocelot
 * tracer's (x slowest), optionally only the first max_threads threads'
 * blocks as the paper's tracer did.
 */
#ifndef KDESC_H
#define KDESC_H

#include <stddef.h>
#include <stdint.h>

#include "readers/readers.h"

#define KDESC_FORMAT "rdscope-kernel"
#define KDESC_VERSION 1

/* Largest description file read. */
#define KDESC_MAX_BYTES (4u << 20)

/*
 * A reader over a description. The text comes from t (closed here);
 * shown names the file in messages. variant: NULL for the file's own
 * parameters, or a name of its `variants` group; then the ndefines
 * "NAME=VALUE" settings of parameters (-D), in order. Every problem of the
 * file is found here, before the first kernel: returns NULL with
 * "file:line: message" in err (*oom when out of memory).
 */
trace_reader *kdesc_reader(textin *t, const char *shown, const char *variant,
			   const char *const *defines, size_t ndefines, char *err, size_t errlen,
			   int *oom);

/*
 * The description's one-line `description` (for `rdscope samples`), and
 * its variants, comma-separated; empty strings when absent. -1 if the
 * file cannot be read as a description.
 */
int kdesc_summary(const char *path, char *desc, size_t desclen, char *variants,
		  size_t varlen);

/* The description's one-line `try` (what to try with it, for `rdscope
 * samples` and the explorer); an empty string when absent or unreadable. */
void kdesc_try(const char *path, char *out, size_t len);

/* Does the text start like a description (format = "rdscope-kernel")? */
int kdesc_sniff(const char *text, size_t n);

/*
 * Counting (rdscope count, seed 004): a description run as one serial
 * program, launch after launch, block after block, thread after thread in
 * thread-id order, each body in program order, every load and store (its
 * references in order, as written) an access of the counter c (model
 * rdscope.h, rd_count, made for kdesc_nrefs references of `line`-byte
 * lines), stores left out with skip_stores. No trace is kept and no load
 * or step limit applies (a loop still runs at most 2^28 iterations).
 * progress(ctx, f) hears the fraction done (launches, threads and the two
 * outermost loops of known trip count) and stops the count by returning
 * nonzero. fast[ref] (kdesc_nrefs of them): accesses counted through a
 * loop's repeats rather than one by one. 0, or -1 with "file:line: why"
 * in the reader's err (the one kdesc_reader was given).
 */
typedef struct kdesc_ref_info {
	unsigned line;      /* its statement's line in the description */
	char text[128];     /* as written: "b[k][j]" */
	const char *array;  /* its array's name (valid while the reader is) */
	int store;
} kdesc_ref_info;
int kdesc_is(const trace_reader *r);
/* Model cap threads of every launch (0: all of them) whatever the
 * description's max_threads says (gpu.max_threads given, or a preset that
 * models every SM: input_opts.max_threads_set). */
void kdesc_set_max_threads(trace_reader *r, uint32_t cap);
int kdesc_nrefs(const trace_reader *r);
void kdesc_ref(const trace_reader *r, int i, kdesc_ref_info *out);
/* Its parameters, in order, with their values (after :VARIANT and -D):
 * the name of parameter i, or NULL past the last. */
const char *kdesc_param(const trace_reader *r, int i, int64_t *value);
/*
 * The flat path (kdesc_flat.c): a one-thread program whose body ends
 * with a loop (what comes before counted access by access) `for v` with a plain trip count, no assignments, conditions free
 * of v, inner loop bounds free of v or shifted with it (tiles), and
 * subscripts affine in these with fixed coefficients
 * (each array moving by one stride per iteration) is counted period by
 * period (a period: the iterations after which every array has moved by
 * whole lines) for its first three periods after the remainder; the later
 * ones are proven to count as the second does (every reuse in the second
 * period is of a line touched since the first began; every first touch's
 * translates are untouched before) and added at once. Exact, or not
 * taken, with the reason. Time grows with one period, not with the loop.
 */
typedef struct kdesc_flat_info {
	int off;              /* in: 1 counts every access (count --stream) */
	uint64_t *acc;        /* in: [nrefs] accesses added by the path, or NULL */
	int used;             /* out: the flat path counted */
	char why[256];        /* out, when not used: why not */
	char var[64];         /* out, when used: the loop's variable and line */
	unsigned line;
	uint64_t iterations;  /* its trip count */
	uint64_t streamed;    /* iterations counted access by access */
	uint64_t period;      /* iterations per period */
} kdesc_flat_info;
int kdesc_count(trace_reader *r, rd_count *c, uint32_t line, int skip_stores,
		int (*progress)(void *ctx, double f), void *ctx, uint64_t *fast,
		kdesc_flat_info *flat);

/*
 * Streaming a launch thread by thread (kdesc_cursor.c), for a model that
 * pulls each thread's accesses a batch at a time instead of a kernel built
 * whole: a stream is launch `launch` of an open description (its index
 * among the description's launches, unrolled, as kd_load numbers them),
 * its grid, block and values set up as kd_run_launch sets them; read-only
 * once made, it is shared by any number of cursors on any threads, and
 * must not outlive its reader. A cursor is one thread's position in its
 * program, private to one user. kd_stream_new: NULL with the reader's
 * message set (err) on an error of the launch (grid, block, threads) or
 * no memory. As the model's rd_access_src (rdscope.h) of a part: open(t)
 * is kd_cursor_new(s, part_block[t / block size], t % block size), next
 * kd_cursor_next, close kd_cursor_free (kdesc_part.c, tests/test_kcursor.c).
 */
typedef struct kd_stream kd_stream;
typedef struct kd_cursor kd_cursor;
kd_stream *kd_stream_new(trace_reader *r, size_t launch);
void kd_stream_free(kd_stream *s);
/* Its blocks (after max_threads, as kd_run_launch caps them) and the
 * threads of a block. */
uint64_t kd_stream_blocks(const kd_stream *s);
uint32_t kd_stream_block_size(const kd_stream *s);
/* A cursor at the start of thread `thread` (0 <= thread < block size,
 * x fastest) of block `block` (the launch's number, 0 <= block < blocks,
 * in the kernel's block order); NULL when out of range or out of memory.
 * A few hundred bytes: its values, a frame per level of nesting and its
 * strided loop's addresses (no allocation after this but an error's
 * message). */
kd_cursor *kd_cursor_new(const kd_stream *s, uint64_t block, uint32_t thread);
/* The same cursor moved to the start of another thread of its stream (no
 * allocation): 0, or -1 when out of range (the cursor is as it was). */
int kd_cursor_reset(kd_cursor *c, uint64_t block, uint32_t thread);
/* The bytes of each cursor of s (gemm's: about 500). */
size_t kd_stream_cursor_bytes(const kd_stream *s);
/*
 * The thread's next accesses in program order (loads and stores as the
 * program makes them: the sequence the kernel built by kd_load holds for
 * this thread, its loads and stores merged by store_pos), at most max
 * (at least 1):
 * addr[], bytes[] and store[] (0 a load, 1 a store) filled; returns how
 * many, 0 once the thread has ended. Fewer than max before the end only
 * when it is an error's place: the accesses before it are returned, and
 * the next call returns -1 (kd_cursor_error: the message the builder
 * gives, "file:line: kernel K, block (..) thread (..): why"). Each cursor
 * has its own step limit (KD_MAX_STEPS statements and loop iterations of
 * its one thread, or RDSCOPE_MAX_STEPS as read by kd_stream_new) and no
 * load limit; trace_stopped() is not asked.
 */
int64_t kd_cursor_next(kd_cursor *c, uint64_t *addr, uint16_t *bytes, uint8_t *store,
		       uint32_t max);
/* The error's message ("" before any). */
const char *kd_cursor_error(const kd_cursor *c);
void kd_cursor_free(kd_cursor *c);

/*
 * rdscope kdesc --from-c: a kernel description (malloc'ed text in *out)
 * from the #pragma scop region of C text (shown names it in messages):
 * for loops, ifs and assignments over arrays with integer subscripts of
 * the loop variables and parameters, as one serial kernel; parameters
 * from #define NAME INTEGER and the ndefines "NAME=VALUE" (which win).
 * 0, or -1 with "FILE:LINE: why" in err.
 */
int kdesc_from_c(const char *text, size_t len, const char *shown, const char *const *defines,
		 size_t ndefines, char **out, char *err, size_t errlen);

/* The rest of the family's public interface. */
#include "kdesc_expr.h"

#endif
