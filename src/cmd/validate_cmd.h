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
#include "readers/readers.h"

int validate_run(const cli *c);

/*
 * rdscope ncu-args [INPUT...]: the Nsight Compute command line that
 * collects what validate reads (the loads' L1 sector hit rate, the L2's,
 * the request and sector counts, the carve-out), then the validate line;
 * with INPUTs, ncu profiles only their kernels (-k, by name without a
 * description's launch tag) and as many launches as they hold (-c).
 */
int validate_ncu_args(const cli *c);

/*
 * Matching an input's kernels with the measured launches in order
 * (measured_match_next) when --kernel keeps only some: the kernels it
 * leaves out before each kept one take their names' turns, so that
 * fdtd_step1_kernel[t=2] alone still matches the third launch. Shared
 * with calibrate.
 */
typedef struct vsel {
	char **names;  /* the input's kernels, all of them (NULL: no selection) */
	size_t n, at;  /* ... and the next not yet passed */
	long index;    /* --kernel INDEX, or -1 */
} vsel;

/* For INPUT spec: 0, or an exit status (said). */
int vsel_begin(vsel *s, const cli *c, const char *spec);
/* The kept kernel named name: its row in *row. 0, or -2 out of memory. */
int vsel_match(vsel *s, measured_match *m, const char *name, const measured_row **row);
void vsel_end(vsel *s);

#endif
