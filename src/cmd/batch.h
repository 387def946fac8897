/*
 * Batch mode: model every INPUT of the command line and write the results.
 */
#ifndef BATCH_H
#define BATCH_H

#include "cli.h"

/* Run the parsed command line; returns the process exit status. */
int batch_run(const cli *c);

struct timespec;
/* Wall-clock seconds since t0 (CLOCK_MONOTONIC), for the timing fields. */
double batch_seconds_since(const struct timespec *t0);

#endif
