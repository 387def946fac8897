/*
 * rdscope profile: the reuse profile (seed 003, MLCRP) of each core's L1
 * request stream.
 */
#ifndef PROFILE_CMD_H
#define PROFILE_CMD_H

#include "cli.h"

/* Run the parsed `profile` command line; returns the exit status. */
int profile_run(const cli *c);

#endif
