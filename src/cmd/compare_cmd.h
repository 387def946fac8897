/*
 * rdscope compare A.json B.json: how well one set of results (an
 * estimate, another model, a measurement converted to results) agrees
 * with another, by their miss rates (seed 003 §V).
 */
#ifndef COMPARE_CMD_H
#define COMPARE_CMD_H

#include "cli.h"

int compare_run(const cli *c);

#endif
