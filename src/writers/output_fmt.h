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

/* The per-space counts of rd_space_stats, as JSON's runs[i].spaces.SPACE
 * members and the CSV's SPACE_NAME columns name them, in that order. */
typedef struct output_space_field {
	const char *name;
	size_t off; /* a uint64_t of rd_space_stats */
} output_space_field;
#define OUTPUT_NSPACE_FIELDS 6
extern const output_space_field output_space_fields[OUTPUT_NSPACE_FIELDS];
/* Field f of stats s. */
uint64_t output_space_value(const rd_space_stats *s, int f);

#endif
