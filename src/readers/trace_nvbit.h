/*
 * Reader of the text output of NVBit's `mem_trace` example tool, in both
 * of its shapes:
 *
 *   current (NVBit 1.5+):
 *     MEMTRACE: CTX 0x.. - LAUNCH - Kernel pc 0x.. - Kernel name NAME -
 *         grid launch id N - grid size X,Y,Z - block size X,Y,Z - nregs ..
 *     MEMTRACE: CTX 0x.. - grid_launch_id N - CTA X,Y,Z - warp W - OPCODE -
 *         0x<addr> x 32
 *   older (no MEMTRACE: prefix, no CTX):
 *     Kernel NAME - [PC 0x.. - grid launch id N - ]grid size X,Y,Z -
 *         block size X,Y,Z - nregs ..
 *     CTA X,Y,Z - warp W - OPCODE - 0x<addr> x 32
 *
 * (each shown on two lines here, one line in the file). Every LAUNCH line
 * starts a kernel. Other lines (the traced program's own output, NVBit's
 * banner) are skipped; a line that starts like a trace line but does not
 * parse is an error naming its file and line.
 *
 * What becomes of an access line:
 * - lanes whose address is 0 are inactive (the tool leaves them 0);
 * - global loads (LDG*, including LDGSTS) and generic loads (LD, LD.*),
 *   which address global memory in practice, are loads; global and
 *   generic stores (STG*, ST, ST.*) are counted as stores; shared, local,
 *   constant and atomic instructions are not L1 data-cache traffic and are
 *   skipped;
 * - the access size comes from the opcode's width suffix: .64 -> 8,
 *   .128 -> 16, .U8/.S8 -> 1, .U16/.S16 -> 2, otherwise 4;
 * - thread id = flat CTA id * block size + warp * 32 + lane, the CTA id
 *   flattened CUDA's way (x fastest). The tool prints get_warpid(), a warp
 *   slot of the SM, not the warp's index in its CTA: slot s of a CTA with
 *   W warps becomes warp s mod W (exact when the numbers are already
 *   in-CTA indices, a rotation of the CTA's warps when its slots are
 *   consecutive), moving to the next free index if that one is taken by
 *   another slot, so two slots never share threads.
 */
#ifndef TRACE_NVBIT_H
#define TRACE_NVBIT_H

#include <stddef.h>

#include "textin.h"
#include "trace.h"

/* Longest accepted line (demangled kernel names can be long). */
#define TRACE_NVBIT_LINE_MAX (64 * 1024)

/* A reader over an open input (takes t over). NULL: out of memory. */
trace_reader *trace_nvbit_reader(textin *t, char *err, size_t errlen);

/* Does this line look like an NVBit mem_trace line (for the sniffer)? */
int trace_nvbit_line(const char *line);

#endif
