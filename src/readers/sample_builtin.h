/*
 * Kernels built in code, so rdscope has something to model without any
 * trace file (first start, demos, tests, benchmarks).
 */
#ifndef SAMPLE_BUILTIN_H
#define SAMPLE_BUILTIN_H

#include <stdint.h>

#include "rdscope.h"

/*
 * Nugteren et al., HPCA 2014, Figure 3: column-major copy of a height x
 * width matrix of elem-byte elements, one block of `height` threads. Thread t walks row t,
 * loading x[t][j] (base 0x10000000) and storing it to y[t][j] (base
 * 0x20000000). Lines are reused within a thread, never across threads, so
 * the miss rate hinges on how far threads drift apart (MSHRs, latency).
 * Named "fig3-colcopy-h<height>" (with "-w<width>" / "-e<elem>" when those
 * differ from the paper's 1024 and 4). NULL: out of memory, a zero size, or
 * stopped (trace_stopped, trace.h).
 */
rd_kernel *sample_colcopy(uint32_t height, uint32_t width, uint32_t elem);

/* The paper's point of the figure: height 256, width 1024, 4-byte elements. */
rd_kernel *sample_builtin(void);

#endif
