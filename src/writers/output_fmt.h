/*
 * Private to the output_*.c files: one writer per format behind output.c's
 * dispatch, and the small helpers they share.
 */
#ifndef OUTPUT_FMT_H
#define OUTPUT_FMT_H

#include "output.h"

void output_text_run(FILE *f, const output_run *run, unsigned long index, int sweep);

void output_csv_header(FILE *f, const output *o);
void output_csv_run(FILE *f, const output_run *run, const output *o);

void output_json_begin(FILE *f, const char *json_header);
void output_json_run(FILE *f, const output_run *run, unsigned long index, int sweep);
void output_json_end(FILE *f);

/* A key's value as rd_config_get formats it, "" if the key is unknown. */
const char *output_config_value(const rd_config *c, const char *key, char *buf, size_t len);

/* part / whole as a percentage; 0 when whole is 0, never NaN. */
double output_percent(uint64_t part, uint64_t whole);

#endif
