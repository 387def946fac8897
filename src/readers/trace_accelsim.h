/*
 * Reader of Accel-Sim's post-processed kernel traces, `kernel-N.traceg`
 * (written by util/tracer_nvbit, tracer versions 3 to 5; later versions
 * are read when their instruction lines keep that layout), plain or
 * compressed:
 *
 *     -kernel name = NAME          header, "-key = value" lines
 *     -grid dim = (X,Y,Z)
 *     -block dim = (X,Y,Z)
 *     -accelsim tracer version = 5
 *     -enable lineinfo = 0
 *     #BEGIN_TB
 *     thread block = X,Y,Z
 *     warp = W
 *     insts = N
 *     [line] PC mask dest_num [R..] OPCODE src_num [R..] mem_width
 *            [mode addresses] [immediate]
 *     #END_TB
 *
 * Addresses of a memory instruction (mem_width > 0) come in one of the
 * tracer's three modes, one per active lane of mask in lane order:
 *   0  list:        0xA1 0xA2 ...            one address per active lane
 *   1  base+stride: 0xBASE STRIDE            active lane i at BASE + i*STRIDE
 *   2  base+delta:  0xBASE D1 D2 ...         popcount(mask)-1 signed deltas,
 *                                            each from the previous lane
 * Loads are LDG*, LDGSTS and generic LD; stores STG* and generic ST
 * (counted only). A generic access whose first active address falls in the
 * header's shared or local memory window (base .. base + 16 MiB) is not
 * global and is skipped. The access size is mem_width. Thread id = flat
 * CTA id (x fastest) * block size + warp * 32 + lane.
 *
 * Raw `.trace` files (before post-processing) are refused with a hint.
 */
#ifndef TRACE_ACCELSIM_H
#define TRACE_ACCELSIM_H

#include <stddef.h>

#include "textin.h"
#include "trace.h"

#define TRACE_ACCELSIM_LINE_MAX (64 * 1024)

/* A one-kernel reader over an open .traceg input (takes t over). */
trace_reader *trace_accelsim_reader(textin *t, char *err, size_t errlen);

#endif
