/*
 * Sweep plans: the points of `rdscope sweep`, the cartesian product of its
 * --vary KEY=V1,V2,... options in a fixed order (the first --vary varies
 * slowest, the last fastest, like nested loops written in that order).
 * A value "NUMx" is NUM times the key's base value (after -p and -s), for
 * numeric keys: l1.size=0.25x,0.5x,2x,4x is Nugteren et al.'s
 * Figure 12 (HPCA 2014).
 */
#ifndef SWEEP_H
#define SWEEP_H

#include <stddef.h>

#include <stdio.h>

#include "rdscope.h"

/* More points than this is surely a typo (and would not fit in memory). */
#define SWEEP_MAX_POINTS 100000ul

typedef struct sweep_axis {
	char key[64];
	char **values;   /* resolved values as rd_config_set takes them */
	int nvalues;
} sweep_axis;

typedef struct sweep_plan {
	sweep_axis *axes;
	int naxes;
	unsigned long npoints;
	rd_config *configs; /* [npoints], each checked whole */
	char **labels;      /* [npoints] "l1.size=4096 l1.ways=2" */
	/* [npoints]: why a point's configuration is invalid (it is skipped:
	 * warned about, written as a record without counts), or NULL. */
	char **skip;
	unsigned long nskip;
} sweep_plan;

/*
 * Build the plan over base. Points whose configuration is invalid are
 * kept in the numbering and marked in skip. Returns 0, or -1 with every
 * problem (a bad --vary; every point invalid) in err, one per line.
 */
int sweep_plan_build(sweep_plan *p, const rd_config *base, const char *const *vary, int nvary,
		     char *err, size_t errlen);
void sweep_plan_free(sweep_plan *p);
/* The plan's axes as JSON array members, {"key":K,"values":[...]},...
 * (sweep's "vary", calibrate's "fit"). */
void sweep_plan_json_axes(FILE *f, const sweep_plan *p);

#endif
