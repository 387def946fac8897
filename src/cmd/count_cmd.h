/*
 * rdscope count: the exact compulsory and capacity misses of fully
 * associative LRU caches for a kernel description run as one serial
 * program (seed 004, HayStack), without a trace.
 */
#ifndef COUNT_CMD_H
#define COUNT_CMD_H

#include "cli.h"

/* Run the parsed `count` command line; returns the exit status. */
int count_run(const cli *c);

#endif
