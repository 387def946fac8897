/*
 * rdscope placements INPUT (seed 002's data-placement what-if): every
 * allowed placement of a kernel's arrays in global, texture, texture2d,
 * constant and shared memory, modelled and ranked by the relative memory
 * time Tmem = 32-byte transactions per SM x AMAT (Eq. 4 with ITMLP = 1,
 * ours: Eqs. 18-19 are not reproducible from the seed) or by the change in
 * issued instructions per warp (Eq. 3), each against the sample placement
 * (the configuration's own). With --sample FILE (the sample's measured
 * times) also a predicted kernel time by Eqs. 1, 2, 4 and 12, approximate.
 * Placements the paper forbids are listed as refused, with the reason.
 */
#ifndef PLACEMENTS_CMD_H
#define PLACEMENTS_CMD_H

#include "cli.h"

/* Placements enumerated at most; more is refused (name fewer with --only). */
#define PLACEMENTS_MAX 256

int placements_run(const cli *c);

#endif
