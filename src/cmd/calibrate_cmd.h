/*
 * rdscope calibrate --measured FILE --fit KEY[,KEY...] INPUT... (issue 22,
 * second part): the keys of the model searched over a grid (each key's
 * --range, or a default grid derived from its type) for the point whose
 * L1 hit rates (the hardware view, as validate's) have the least mean
 * absolute error against FILE's. Reported: the baseline (the
 * configuration as given), the best point with its fitted MAE, and the
 * leave-one-out MAE (each kernel's error at the point best on the
 * others), so that a fit to a few kernels is not taken for accuracy.
 * Points run on -j worker threads (one rd_model each), each kernel loaded
 * once; -o FILE writes the fitted configuration as a preset.
 */
#ifndef CALIBRATE_CMD_H
#define CALIBRATE_CMD_H

#include "cli.h"

/* The most points a grid may have (more: exit 2). */
#define CALIBRATE_MAX_POINTS 10000ul

int calibrate_run(const cli *c);

#endif
