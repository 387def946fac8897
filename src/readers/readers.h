/*
 * src/readers: where kernels come from. Input selection (input.h: a file,
 * directory, sample or built-in kernel, the format told by the content),
 * the byte and line source that undoes gzip and xz (textin.h), one reader
 * per trace format behind one interface (trace.h: Ocelot, NVBit,
 * Accel-Sim, rdscope's .rdt, SASS), the shipped samples (samples.h,
 * sample_builtin.h), the memory estimate that refuses work that cannot
 * fit (memcheck.h) and the SIGBUS guard of mapped inputs (sigbus.h).
 *
 * The public header of the family: other folders include this one only.
 * May include: the model (rdscope.h), libc, zlib, liblzma, src/util, and
 * src/kdesc (input selection opens kernel descriptions, which are readers
 * of the same interface).
 */
#ifndef READERS_FAMILY_H
#define READERS_FAMILY_H

#include "trace.h"
#include "textin.h"
#include "input.h"
#include "samples.h"
#include "sample_builtin.h"
#include "memcheck.h"
#include "sigbus.h"
#include "trace_ocelot.h"
#include "trace_nvbit.h"
#include "trace_accelsim.h"
#include "trace_rdt.h"
#include "trace_sass.h"
#include "json.h"
#include "rpinput.h"
#include "arrays.h"
#include "sampletimes.h"
#include "measured.h"

#endif
