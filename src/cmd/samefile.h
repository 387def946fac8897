/*
 * Outputs that would destroy an input or each other: `run -o x.csv --log
 * x.csv` (the log lost), `convert a.trc a.trc` (the trace overwritten).
 * Files are compared by device and inode (and, for an output not yet
 * there, by its resolved path), never by name; standard output, devices
 * and FIFOs may be named more than once.
 */
#ifndef SAMEFILE_H
#define SAMEFILE_H

#include "cli.h"

/* 0 when the command's outputs are distinct regular files (or new ones)
 * and none is one of its inputs; otherwise the problem is reported and
 * the exit status (2) returned. Call before any work. */
int samefile_check(const cli *c);

#endif
