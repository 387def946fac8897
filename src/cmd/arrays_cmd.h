/*
 * rdscope arrays INPUT...: the arrays of each kernel (seed 002's unit of
 * placement) with their accesses, loads and stores, and the accesses
 * outside every array ("global"). The arrays are a CSV's (--arrays FILE),
 * else a kernel description's own, else found in the accesses by their
 * gaps (--gap BYTES; rd_arrays_detect).
 */
#ifndef ARRAYS_CMD_H
#define ARRAYS_CMD_H

#include "cli.h"

int arrays_run(const cli *c);

#endif
