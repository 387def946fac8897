/*
 * `rdscope sweep`: every point of the --vary plan (sweep.h) on every INPUT,
 * one result per (input, point) in a fixed order, on -j worker threads.
 *
 * Run r of the unsharded sweep is point r mod P of input r / P (P points);
 * --shard K/N keeps the runs with r mod N = K. Every output names each
 * run's r, so `rdscope merge` can put shard outputs back in order.
 */
#ifndef SWEEP_RUN_H
#define SWEEP_RUN_H

#include "cli.h"

/* Run the sweep of the parsed command line; returns the exit status. */
int sweep_run(const cli *c);

#endif
