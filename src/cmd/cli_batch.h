/*
 * After parsing, what depends on the command: the options it takes (from
 * the option table), its arguments (its check function, CLI_COMMANDS),
 * -j and --shard, and the part of the model configuration it reads (its
 * config function: -p, --from-gpgpusim, every -s).
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include "cli.h"

/*
 * After parsing: check the options make sense for the command, run its
 * check function, parse -j and --shard, and build c->config (defaults,
 * -p, --from-gpgpusim, every -s, then the configuration check, of the part
 * the command reads). Returns 0 when the command can
 * run, or an exit status after printing the problem.
 */
int cli_batch_finish(cli *c);

#endif
