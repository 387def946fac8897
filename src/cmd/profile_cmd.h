/*
 * rdscope profile: the reuse profile (seed 003, MLCRP) of each core's L1
 * request stream.
 */
#ifndef PROFILE_CMD_H
#define PROFILE_CMD_H

#include "cli.h"

/* Run the parsed `profile` command line; returns the exit status. */
int profile_run(const cli *c);

/* The configuration whose as-configured case measures c's profile: one
 * fully associative set of the same lines, no latency, unlimited MSHRs,
 * loads cached, no L2 (the latency-free order; the paper profile). */
void profile_config(const rd_config *c, rd_config *out);

#endif
