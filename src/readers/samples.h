/*
 * The shipped samples: kernel descriptions and small traces under a
 * samples directory, named by their path inside it without the extension
 * ("polybench/gemm", "paper/table2"). INPUT "sample:NAME[:VARIANT]" opens
 * one; `rdscope samples` lists them. The directories searched, first hit
 * wins:
 *
 *     $RDSCOPE_SAMPLES (colon list) : ./samples : beside the binary
 *         (ROOT/samples of a built tree, BINDIR/../share/rdscope/samples)
 *         : DATADIR/samples
 *
 * A sample's one-line description is a description file's `description`
 * setting, or for traces its line in the directory's `index` file
 * ("NAME  text", blank-separated).
 */
#ifndef SAMPLES_H
#define SAMPLES_H

#include <stddef.h>
#include <stdio.h>

#define SAMPLES_PREFIX "sample:"

/*
 * The file (or trace directory) of sample name: 0 with its path in buf,
 * or -1 with "sample:NAME: no such sample ..." in err.
 */
int samples_find(const char *name, char *buf, size_t len, char *err, size_t errlen);

/* A data file shipped among the samples (rel: "models/mlcrp.txt"), the
 * first of the search path's directories that has it: 0 with its path in
 * buf, or -1. */
int samples_data_file(const char *rel, char *buf, size_t len);
/* Print the list of samples for `rdscope samples`. 0, or -1 when out of
 * memory. */
int samples_list(FILE *f);

/* What to try with INPUT (a sample:NAME or a description file, with or
 * without :VARIANT): its description's `try` line, or "". */
void samples_try(const char *input, char *out, size_t len);

/* The text of INPUT's kernel description (a sample:NAME or a .kdesc
 * file, with or without :VARIANT), malloc'ed, for showing it annotated:
 * 0 with *text, or -1 with the reason in err (not a description, or
 * unreadable). */
int samples_source(const char *input, char **text, char *err, size_t len);

/* The sample name of a file name: without its trace extensions. The
 * length of the name part. */
size_t samples_stem(const char *file);

#endif
