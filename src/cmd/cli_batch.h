/*
 * After parsing, what depends on the command: the options it takes (from
 * the option table), its arguments, -j and --shard, and the model
 * configuration (-p, --from-gpgpusim, every -s).
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include "cli.h"

/*
 * After parsing: check the options make sense for the command, parse -j
 * and --shard, and build c->config (defaults, -p, --from-gpgpusim, every
 * -s, then the whole-configuration check). Returns 0 when the command can
 * run, or an exit status after printing the problem.
 */
int cli_batch_finish(cli *c);

/* Print one GPGPU-Sim import/export note (a gpgpusim_note_fn). */
void cli_gpgpusim_note(void *ctx, const char *msg);

/* Print preset_load's problems, one "rdscope: FILE:LINE: ..." line each. */
void cli_print_errors(const char *errs);

#endif
