/*
 * Results by source (run/sweep --by site|array): the rows of a result's
 * per-site counts (rd_result.sites), named after the kernel's sites or
 * summed per array, sorted by misses; written as a text table, a JSON
 * array (runs[i].sites) and CSV rows. Private to src/writers.
 */
#ifndef WRITERS_SITES_H
#define WRITERS_SITES_H

#include <stdio.h>

#include "output.h"

typedef struct site_row {
	char label[160];        /* "line 27 b[k][j]", "pc 0x1a0", "load 3", "b" */
	const rd_site *site;    /* the kernel's site, or NULL (load numbers, arrays) */
	long load;              /* the per-thread load number, or -1 */
	const char *array;      /* by array: the array ("" for loads without one) */
	uint32_t id;            /* the site's index (by array: its first site's) */
	rd_site_result r;
} site_row;

/* The rows of run (by site or by array), most misses first; *n of them.
 * NULL with *n 0: none (not asked, or out of memory: *oom set). */
site_row *sites_rows(const output_run *run, size_t *n, int *oom);

void sites_text(FILE *f, const output_run *run);
/* ,"sites":[...] (nothing when not asked) */
void sites_json(FILE *f, const output_run *run);

#endif
