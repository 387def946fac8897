/*
 * The command line of the batch commands (sweep, merge, presets, check,
 * preset) and of -p: kept apart from cli.c, which calls these three hooks,
 * so each command's options are checked in one place.
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include "cli.h"

/* If word is a batch command, select it and return 1; else 0. */
int cli_batch_command(cli *c, const char *word);

/* If opt is a batch option, store its value v and return 1; else 0. */
int cli_batch_option(cli *c, const char *opt, const char *v);

/*
 * After parsing: check the options make sense for the command, parse -j
 * and --shard, and build c->config (defaults, -p, --from-gpgpusim, every
 * -s, then the whole-configuration check). Returns -1 when the command can
 * run, or an exit status after printing the problem.
 */
int cli_batch_finish(cli *c);

/* Print one GPGPU-Sim import/export note (a gpgpusim_note_fn). */
void cli_gpgpusim_note(void *ctx, const char *msg);

/* Print preset_load's problems, one "rdscope: FILE:LINE: ..." line each. */
void cli_print_errors(const char *errs);

#endif
