/*
 * Batch mode: model every INPUT of the command line and write the results.
 */
#ifndef BATCH_H
#define BATCH_H

#include "cli.h"

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

/*
 * Each kernel of INPUT spec (c's --kernel and --input-format), checked
 * against the memory limit and given a model over it: fn returns RD_OK or
 * a model status, said as "spec: why" (RD_EINVAL exit 2, else 1). EXIT_OK,
 * or the exit status after saying why.
 */
typedef int batch_kernel_fn(void *ctx, const char *spec, const rd_kernel *k, rd_model *m);
int batch_each_kernel(const cli *c, const char *spec, batch_kernel_fn *fn, void *ctx);

/* The start of a command's results file: -o (or standard output) opened
 * as outfile.h opens it, the signal handler set. EXIT_OK, or EXIT_RUNTIME
 * after saying why. */
int batch_open_output(const cli *c, struct outfile *out);

/* The end of a command's results file: committed when rc is EXIT_OK (or
 * EXIT_RUNTIME after saying why it could not be), else removed (what went
 * to standard output flushed). Returns the exit status. */
struct outfile;
int batch_close_output(struct outfile *out, int rc);

struct timespec;
/* Wall-clock seconds since t0 (CLOCK_MONOTONIC), for the timing fields. */
double batch_seconds_since(const struct timespec *t0);

#endif
