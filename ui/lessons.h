/*
 * Class mode (`rdscope --teach`): the story of Nugteren et al., HPCA 2014, §§3-4, as
 * five lessons, Table 1 to Table 5, each the paper's toy trace under its
 * toy preset. The traces and settings are built in, so the lessons work
 * from any directory and any install; a unit test checks that they equal
 * the traces in samples/paper/ and presets/toy-table2..5.cfg, which the
 * screens cite for `rdscope run`. Pure: no curses.
 */
#ifndef UI_LESSONS_H
#define UI_LESSONS_H

#include <stddef.h>

#include "rdscope.h"

typedef struct lesson {
	const char *title;   /* "Table 3" */
	const char *preset;  /* "toy-table3" */
	const char *sample;  /* "samples/paper/table2.trc": the trace it is */
	const char *intro;   /* one line: what this table adds to the story */
	unsigned elem;       /* element size: addresses shown as x[i] */
	const char *trace;   /* the trace, Ocelot text */
	const char *const *settings; /* the preset's keys, "key=value", NULL-ended */
} lesson;

extern const lesson lessons[];
extern const size_t lessons_n;
/* `rdscope --teach` opens on Table 1, the start of the story that --help
 * announces ("Tables 1-5, step by step"). */
#define LESSON_FIRST 0

/* The lesson's kernel (NULL: out of memory). */
rd_kernel *lesson_kernel(const lesson *l);

/* The lesson's configuration: the defaults with its preset's settings. */
void lesson_config(const lesson *l, rd_config *c);

#endif
