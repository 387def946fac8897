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

#include "readers/readers.h"

#define KDESC_FORMAT "rdscope-kernel"
#define KDESC_VERSION 1

/* Largest description file read. */
#define KDESC_MAX_BYTES (4u << 20)

/*
 * A reader over a description. The text comes from t (closed here);
 * shown names the file in messages. variant: NULL for the file's own
 * parameters, or a name of its `variants` group. Every problem of the
 * file is found here, before the first kernel: returns NULL with
 * "file:line: message" in err (*oom when out of memory).
 */
trace_reader *kdesc_reader(textin *t, const char *shown, const char *variant, char *err,
			   size_t errlen, int *oom);

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

/* The rest of the family's public interface. */
#include "kdesc_expr.h"

#endif
