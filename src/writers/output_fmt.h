/*
 * Private to src/writers: the result formats behind one interface (after
 * ncdu 1.x's dir_output: one engine, several sinks), chosen once when a
 * stream begins (output.c), and the field helpers they share (fields.c,
 * beneath them all).
 */
#ifndef OUTPUT_FMT_H
#define OUTPUT_FMT_H

#include "output.h"

/* A format: begin before the first run (the CSV header, the JSON document
 * start), one call per run, end after the last. NULL: nothing to do. They
 * read the stream's state (o->nruns is the run's index) and write o->f. */
struct output_ops {
	void (*begin)(output *o);
	void (*run)(output *o, const output_run *run);
	void (*end)(output *o);
};

extern const struct output_ops output_text_ops, output_csv_ops, output_json_ops;

/* A key's value as rd_config_get formats it, "" if the key is unknown. */
const char *output_config_value(const rd_config *c, const char *key, char *buf, size_t len);

/* part / whole as a percentage; 0 when whole is 0, never NaN. */
double output_percent(uint64_t part, uint64_t whole);

#endif
