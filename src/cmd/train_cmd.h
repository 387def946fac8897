/*
 * rdscope train: fit the learned estimator (seed 003 §IV, MLCRP) and
 * write its weights file.
 *
 * Data: Algorithm 1's profiles over the paper's grid (2 to 12 peaks x
 * MaxRD 16, 128, 1024, 4096; --samples per cell, 50 by default; positions,
 * ratios, widths and the cold share drawn from --seed), each turned into
 * a trace of 10,000 indexes by Algorithm 2 (one thread: the request
 * stream is the sequence), its realised profile measured by the model
 * (rprofile.h), and labelled by the detailed model (the paper profile with
 * its default latency and 64 MSHRs; TRAIN_LABEL_KEYS below) over a grid of
 * geometries: the miss rate (the hardware view, run's miss_rate) and the
 * MSHR merge rate (merged misses / all misses). A fifth of the profiles
 * (every fifth) is held out for validation. The MLP (--layers, default
 * 64,32) is fitted by Adam; the weights file records the features, the
 * shape, and the run's numbers as comments.
 */
#ifndef TRAIN_CMD_H
#define TRAIN_CMD_H

#include "cli.h"

/* The keys under which the labels are measured, on top of the defaults
 * (besides each geometry's l1.size, l1.ways, l1.line and l1.hash=mod). */
#define TRAIN_LABEL_KEYS "gpu.divergence=0 l1.mshr_per_warp=0"

int train_run(const cli *c);

#endif
