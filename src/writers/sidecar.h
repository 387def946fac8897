/*
 * The side outputs of run and sweep: --histogram FILE (long CSV, see
 * histogram.h) and --plot FILE.svg (see plot.h). Like -o, each appears
 * whole or not at all (outfile.h); the plot is written at commit, once
 * every run is in.
 */
#ifndef SIDECAR_H
#define SIDECAR_H

#include <stddef.h>

#include "outfile.h"
#include "plot.h"
#include "rdscope.h"

typedef struct sidecar {
	outfile hist, svg;
	int want_hist, want_svg;
	plot *plot;
} sidecar;

/* Open the files asked for (NULL: not wanted). 0, or -1 with err. */
int sidecar_open(sidecar *s, const char *histogram, const char *svg, char *err, size_t errlen);

/* One run's result. 0, or -1 when out of memory. */
int sidecar_add(sidecar *s, unsigned long run, unsigned long point, const char *input,
		const char *kernel, const char *label, const rd_config *cfg, const rd_result *r);

/* Write the plot and rename the files into place. 0, or -1 with err. */
int sidecar_commit(sidecar *s, char *err, size_t errlen);

/* Remove the temporary files; safe after a failed open or a commit. */
void sidecar_abort(sidecar *s);

#endif
