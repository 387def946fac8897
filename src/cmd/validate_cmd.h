/*
 * rdscope validate --measured FILE INPUT... (issue 22, first part): each
 * kernel of each INPUT modelled with the configuration and set beside its
 * measured hit rates (readers/measured.h: a plain CSV kernel,l1[,l2];
 * kernels matched by name): the model's and the measured L1 (and L2) hit
 * rates, the absolute errors, and per level the mean absolute error, R^2
 * and Spearman's rho over the kernels with both.
 */
#ifndef VALIDATE_CMD_H
#define VALIDATE_CMD_H

#include "cli.h"

int validate_run(const cli *c);

#endif
