/*
 * src/util: small helpers the other families of src/ share: libconfig
 * setting type names (cfgtype.h), "0x" hexadecimal numbers (hexnum.h),
 * "did you mean ...?" (suggest.h), the error message function and text
 * made safe for a terminal (msg.h), the data directories beside the
 * binary (exedir.h), the online CPUs (cpus.h).
 *
 * The public header of the family: other folders include this one only.
 * May include: the model (rdscope.h), libc, libconfig. Nothing else of src/.
 */
#ifndef UTIL_FAMILY_H
#define UTIL_FAMILY_H

#include "cfgtype.h"
#include "hexnum.h"
#include "suggest.h"
#include "msg.h"
#include "exedir.h"
#include "readall.h"
#include "cpus.h"

#endif
