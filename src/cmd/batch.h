/*
 * Batch mode: model every INPUT of the command line and write the results.
 */
#ifndef BATCH_H
#define BATCH_H

#include "cli.h"
#include "writers/writers.h"

/* Run the parsed command line; returns the process exit status. */
int batch_run(const cli *c);

/* Open (and close) every input before output starts; with --log, refuse
 * an input of several kernels and no --kernel. Standard input is left to
 * the run. EXIT_OK, or the exit status after saying why. */
int batch_check_inputs(const cli *c, const char *const *inputs, int n, const input_opts *o);

/* Say on standard error that k's stores are counted but not kept (a .rdt
 * before version 3), so that a run under l1.stores=s (not ignore) models
 * it without them; nothing for a kernel whose stores are kept or absent.
 * 1 if it said so. */
int batch_note_counted_stores(const char *spec, const rd_kernel *k, enum rd_stores s);

/* The end of a loop over an input's kernels (input_next's last status
 * st, err its message): closes in; EXIT_OK after the last kernel, else
 * the exit status after saying why. */
int batch_input_end(input *in, int st, const char *err);

/* The start of a command's single output: -o FILE (or standard output)
 * opened as outfile.h says, its temporary removed if a signal ends the
 * process. 0, or EXIT_RUNTIME after saying why. */
int batch_output_begin(const cli *c, outfile *out);

/* The end of a command's single output: with rc EXIT_OK commit out (an
 * error if it cannot be written), else abandon it (standard output
 * flushed, a file's temporary removed). The exit status. */
int batch_output_end(outfile *out, int rc);

/*
 * Each kernel of INPUT spec (c's --kernel and --input-format), checked
 * against the memory limit and given a model over it: fn returns RD_OK or
 * a model status, said as "spec: why" (RD_EINVAL exit 2, else 1). EXIT_OK,
 * or the exit status after saying why.
 */
typedef int batch_kernel_fn(void *ctx, const char *spec, const rd_kernel *k, rd_model *m);
int batch_each_kernel(const cli *c, const char *spec, batch_kernel_fn *fn, void *ctx);

/*
 * Each kernel of INPUT spec modelled for cases (RD_CASE_* bits), in parts
 * where run would model it so (every core's blocks apart: all threads of
 * a large kernel fit), else whole: fn gets its result (freed after it),
 * returning RD_OK or a model status. EXIT_OK, or the exit status after
 * saying why.
 */
typedef int batch_result_fn(void *ctx, const char *spec, const rd_kernel *k, const rd_result *r);
int batch_each_result(const cli *c, const char *spec, int cases, batch_result_fn *fn, void *ctx);

/*
 * A kernel modelled in parts (rd_parts): its shape (no accesses), its
 * blocks, and the input that builds each core's, as often as asked.
 */
typedef struct batch_parts {
	const cli *c;
	const char *spec;
	input *in;
	const rd_kernel *shape;
	uint64_t nblocks;
} batch_parts;

/* Whether a run of c under cfg models a kernel in parts where its reader
 * can (run's rule: RDSCOPE_PARTS=0 never, rd_parts_possible, more than one
 * core, no --log, --by or --l1b with an L2). */
int batch_parts_config(const cli *c, const rd_config *cfg);

/* bp's kernel under cfg for cases, in parts on c's -j threads, no
 * progress line: EXIT_OK with *res (the same as the whole kernel's), else
 * the exit status with why in err. */
int batch_parts_result(const batch_parts *bp, const rd_config *cfg, int cases, rd_result *res,
		       char *err, size_t errlen);
/* The same, asking stop(ctx, done) (done: the fraction of parts modelled)
 * before each part and after each: nonzero before one ends the run, with
 * *stopped set (the explorer's newer edit). partial (NULL: none) gets,
 * after each part, the L1 result of the parts done so far (rd_parts_peek:
 * valid during the call), done of total parts; stop and partial are
 * called one at a time, from the run's threads. */
int batch_parts_result_stop(const batch_parts *bp, const rd_config *cfg, int cases,
			    int (*stop)(void *ctx, double done),
			    void (*partial)(void *ctx, const rd_result *r, unsigned done,
					    unsigned total),
			    void *ctx, int *stopped, rd_result *res, char *err, size_t errlen);

/*
 * Each kernel of INPUT spec, as batch_each_kernel, but where parts is set
 * and its reader builds it in parts, fn gets its shape and bp (m NULL),
 * else the whole kernel (checked against the memory limit) and a model
 * over it (bp NULL). fn returns an exit status, having said why. EXIT_OK,
 * or the exit status after saying why.
 */
typedef int batch_shape_fn(void *ctx, const char *spec, const rd_kernel *k, rd_model *m,
			   const batch_parts *bp);
int batch_each_shape(const cli *c, const char *spec, int parts, batch_shape_fn *fn, void *ctx);

/* The one kernel of INPUT spec (as input_load_with) in parts, where its
 * reader builds it so: 1 with *bp (batch_close_parts frees it), else 0
 * and nothing open (input_load_with loads it whole, or says what is
 * wrong). */
int batch_open_parts(const cli *c, const char *spec, batch_parts *bp);
/* Is bp's kernel clearly past the load limit: its first core's loads times
 * the cores with blocks more than twice the limit? (Then loading it whole,
 * which fails only at the limit, need not be tried: gemm at its default
 * size would take 9 s and 3 GB to be refused.) */
int batch_parts_clearly(const batch_parts *bp);
/* Does spec's reader refuse a kernel past the load limit at once, before
 * reading it (a .rdt: its table gives the counts), and give its shape only
 * then? Then the explorer loads it whole first and opens it in parts only
 * once refused: each kernel read (and a .rdt's checked) once. */
int batch_parts_after_refusal(const cli *c, const char *spec);
void batch_close_parts(batch_parts *bp);

struct timespec;
/* Read an --arrays CSV into *out, saying why not: an exit status. */
int batch_read_arrays(const char *path, rd_arrays **out);

/* Memory spaces: when cfg places arrays (mem.*), give k its arrays
 * (--arrays, else its own, else found by --gap) and check the placements,
 * saying why one is refused. An exit status. */
/* k's arrays: --arrays FILE's, else its own, else found by --gap. An
 * exit status (said). */
int batch_arrays_attach(const cli *c, const char *spec, rd_kernel *k);
int batch_spaces_prepare(const cli *c, const char *spec, rd_kernel *k, const rd_config *cfg);

/* Wall-clock seconds since t0 (CLOCK_MONOTONIC), for the timing fields. */
double batch_seconds_since(const struct timespec *t0);

#endif
