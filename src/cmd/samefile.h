/*
 * Outputs that would destroy a file the command reads or each other: `run
 * -o x.csv --log x.csv` (the log lost), `convert a.trc a.trc` (the trace
 * overwritten). Every command's outputs go through samefile_check, and it
 * knows every file a command reads: the INPUTs (FILE, FILE:VARIANT, the
 * file of a sample:NAME, the profile of an rp:PATH, a standard input
 * redirected from a file) and the files options name (-p FILE or NAME and
 * the presets it inherits, --measured, --arrays, --sample, --from-c,
 * --model or the shipped estimator, --script). Files are compared by
 * device and inode (outputs with each other also, not yet there, by their
 * resolved path), never by name; standard output, devices and FIFOs may
 * be named more than once.
 */
#ifndef SAMEFILE_H
#define SAMEFILE_H

#include "cli.h"

/* 0 when the command's outputs are distinct regular files (or new ones)
 * and none is a file the command reads; otherwise the problem is reported and
 * the exit status (2) returned. Call before any work. */
int samefile_check(const cli *c);

#endif
