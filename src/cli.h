/*
 * The command line: subcommands, options and the help texts generated from
 * the model's key table.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include "output.h"
#include "rdscope.h"

/* Exit statuses: the contract with scripts, see the man page. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

enum cli_command {
	CLI_DEFAULT = 0, /* no subcommand: `rdscope [OPTIONS] [INPUT]` */
	CLI_RUN,
	CLI_KEYS,
	CLI_HELP,
	CLI_VERSION,
};

typedef struct cli {
	enum cli_command cmd;
	rd_config config;          /* defaults with every -s applied */
	enum output_format format;
	const char *output;        /* -o FILE, NULL: standard output */
	const char *log;           /* --log FILE, NULL: no event log */
	int quiet;
	int no_timing; /* --no-timing */
	const char **inputs;       /* INPUT arguments (into argv) */
	int ninputs;
} cli;

/*
 * Parse argv into c. Returns -1 when the command can run, or an exit
 * status after having printed the problem (or the help) itself.
 */
int cli_parse(cli *c, int argc, char **argv);
void cli_free(cli *c);

void cli_usage(FILE *f);
void cli_help(FILE *f);
/* The key table with each key's value in config (the defaults for `keys`). */
void cli_keys(FILE *f, const rd_config *config);

/* Apply one "KEY=VALUE"; prints "rdscope: ..." and returns -1 on error. */
int cli_set(rd_config *config, const char *assignment);

#endif
