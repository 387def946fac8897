/*
 * Reuse-distance histograms as long-form CSV (--histogram FILE), one row
 * per (run, distance) with a count above zero, cold misses as "inf":
 *
 *     run,point,input,kernel,ways,distance,count
 *
 * Long form so that spreadsheets and plotting tools can pivot or filter
 * it; "ways" is the run's associativity, the hit/miss cut-off (a request
 * hits when its distance is below it). Rows start with the run number so
 * that `rdscope merge` joins shard outputs of this file too.
 */
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

#include <stdio.h>

#include "rdscope.h"

void histogram_header(FILE *f);
void histogram_write(FILE *f, unsigned long run, unsigned long point, const char *input,
		     const char *kernel, const rd_config *cfg, const rd_result *r);

#endif
