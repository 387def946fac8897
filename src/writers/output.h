/*
 * Result writers: text for people, CSV for spreadsheets, JSON for scripts,
 * plus the CSV event log. Writers only format; the caller owns the FILE and
 * checks ferror() once at the end.
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdio.h>

#include "rdscope.h"

enum output_format { OUTPUT_TEXT = 0, OUTPUT_CSV, OUTPUT_JSON };

/* "text", "csv", "json" -> format. Returns 0, or -1 for an unknown name. */
int output_format_parse(const char *name, enum output_format *fmt);

/* Results by source (--by): none, per site, per array. */
enum output_by { OUTPUT_BY_NONE = 0, OUTPUT_BY_SITE, OUTPUT_BY_ARRAY };
/* "none", "site", "array" -> by. Returns 0, or -1 for another name. */
int output_by_parse(const char *name, enum output_by *by);

/* Everything one result line/record needs. */
typedef struct output_run {
	const char *input;       /* the input as given on the command line */
	const char *kernel;
	const rd_config *config;
	const rd_result *result;
	/* --l1b: the same configuration under rd_config_l1b (RDGC's L1B run,
	 * for the metrics L2_Hit_L1B and L2_Trans_L1B), or NULL */
	const rd_result *l1b;
	const rd_kernel *k;      /* its kernel: the sites' names (--by), or NULL */
	enum output_by by;       /* --by: rows per site or array (result->sites) */
	unsigned top;            /* --top: text shows this many rows, 0 all */
	double load_s, model_s;  /* wall-clock seconds */
	int no_timing;           /* leave them out: output reproducible to the byte */
	/* Sweeps only: the run's place in the unsharded order (what merge
	 * sorts by), its point and the point's --vary values as text. */
	unsigned long run, point;
	const char *point_label;
	/* A sweep point whose configuration is invalid: why; result is then
	 * NULL and the record has the run, point, input and configuration
	 * only (CSV: empty counts; JSON: "skipped" instead of the counts), so
	 * the numbering stays whole and shards still merge. */
	const char *skipped;
} output_run;

/* A result stream: CSV needs its header once, JSON commas between runs. */
struct output_ops;

typedef struct output {
	FILE *f;
	enum output_format fmt;
	const struct output_ops *ops; /* the format's writer (output_fmt.h) */
	unsigned long nruns;
	int started;     /* header written */
	/* Sweeps (output_begin_sweep): run and point columns, JSON header
	 * members, and CSV columns for varied keys the fixed header lacks. */
	int sweep;
	const char *json_header;
	const char *const *extra_keys;
	int nextra;
	const char *sweep_id; /* CSV: the last column, the same in every shard */
	enum output_by by;    /* --by: CSV has a row per site (set after begin) */
	int spaces;           /* the first run places arrays (mem.*): CSV's spaces columns */
} output;

void output_begin(output *o, FILE *f, enum output_format fmt);
/* A sweep's stream: json_header is inserted after "version":1, (members
 * text, e.g. "\"sweep\":{...}," ); extra_keys name extra CSV columns. */
void output_begin_sweep(output *o, FILE *f, enum output_format fmt, const char *json_header,
			const char *const *extra_keys, int nextra, const char *sweep_id);
/* One CSV field, quoted (RFC 4180) only when it must be. */
void output_csv_field(FILE *f, const char *s);
/* Is key one of the CSV's fixed configuration columns? */
int output_csv_has_column(const char *key);
/* A number as JSON (%.17g); a non-finite one (a kernel without loads, an
 * undefined statistic) has no JSON number: null. */
void output_json_double(FILE *f, double v);
/* The members of a comparison's statistics, "n","mae","r2","spearman"
 * (null when no pair was compared), without the braces. */
void output_json_stats(FILE *f, const rd_stats *st);
/* A hit rate as a text table's cell: " %8.2f%%", or "-" for NAN (validate's
 * and calibrate's tables). */
void output_text_rate_cell(FILE *f, double x);
/* The end of a comparison's text line: ", R^2 …" and ", Spearman rho …"
 * where defined, then the newline. */
void output_text_stats_tail(FILE *f, const rd_stats *st);
/* A JSON string literal, escaped and valid UTF-8. */
void output_json_quote(FILE *f, const char *s);

/* The classes' keys in JSON and CSV, in enum rd_class order: fixed names,
 * part of the formats, whatever rd_class_name says (the L1's, the L2's and
 * the sites' counts). */
extern const char *const output_class_keys[RD_NCLASS];
/* Length of the JSON number at s (RFC 8259's grammar: no "inf", "nan",
 * hex, '+' or leading zeros), or 0 if none starts there. */
size_t output_json_number_len(const char *s);
/* A configuration as a JSON object: every key, numbers as numbers. */
void output_json_config(FILE *f, const rd_config *c);
void output_write_run(output *o, const output_run *run);
/* Closes the JSON document (and writes a header not yet written). */
void output_end(output *o);

/* Every other command's results go through the same kind of interface as
 * run's (output_ops, after ncdu's dir_output: one engine, several sinks).
 * A command hands its records to output_doc_*, never asking which format
 * is written; the writer was picked once, at output_doc_begin, from the
 * command's output_doc_formats. A command's records and its writers are
 * its own (their layouts differ format by format: a text table, a CSV row
 * per array, a nested JSON object), so the formats are the table's
 * members: a new format is a member the commands fill. */
typedef struct output_doc {
	FILE *f;
	const struct output_doc_ops *ops;
	unsigned long nelem; /* JSON elements written (output_doc_json_next) */
} output_doc;

/* One format's writer of a command's document: begin before the first
 * record (a header, a JSON document's start), item per record, end after
 * the last (totals, the JSON document's end); head and tail are what the
 * command passes to output_doc_begin and output_doc_end. NULL: nothing to
 * write. item returns 0, or -1 when out of memory. */
typedef struct output_doc_ops {
	void (*begin)(output_doc *d, const void *head);
	int (*item)(output_doc *d, const void *rec);
	void (*end)(output_doc *d, const void *tail);
} output_doc_ops;

/* A command's writers, one per format. */
typedef struct output_doc_formats {
	const output_doc_ops *text, *csv, *json;
} output_doc_formats;

/* Picks fmt's writer of w and begins the document on f. */
void output_doc_begin(output_doc *d, FILE *f, enum output_format fmt, const output_doc_formats *w,
		      const void *head);
/* One record: 0, or -1 when out of memory. */
int output_doc_item(output_doc *d, const void *rec);
void output_doc_end(output_doc *d, const void *tail);
/* For JSON writers: what goes before a list's next element ("\n" before
 * the first, ",\n" before the others), counted. */
void output_doc_json_next(output_doc *d);
/* For JSON writers: a document's opening members,
 * {"format":"NAME","version":1, */
void output_doc_json_open(output_doc *d, const char *name);
/* For JSON writers, an end: a document whose last member is its list, ]} */
void output_doc_json_list_end(output_doc *d, const void *tail);

/* The event log of case 0 (rd_callbacks.event), as CSV. */
void output_log_header(FILE *f);
void output_log_event(FILE *f, const rd_event *ev);

#endif
