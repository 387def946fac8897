/*
 * The command line as two tables, one row per option and one per command:
 * parsing (cli.c), the checks of which command takes what (cli_batch.c),
 * --help and the usage (cli_common.c) and the man page's OPTIONS section
 * (cli_man.c) are generated from them.
 */
#ifndef CLI_TABLE_H
#define CLI_TABLE_H

#include "cli.h"

/* A set of commands: bit (1 << enum cli_command) for each. */
#define CLI_CMD(cmd) (1u << (cmd))
#define CLI_ALL_COMMANDS (~0u)
_Static_assert(CLI_NCOMMANDS <= 32, "a set of commands (unsigned) has a bit for each");

typedef struct cli_option cli_option;

/*
 * What an option does with its value (NULL for a flag). Returns NULL, or
 * a usage-error format whose one %s is the value.
 */
typedef const char *cli_setter(cli *c, const cli_option *o, const char *value);

struct cli_option {
	const char *name;       /* long form without "--": "preset" */
	char letter;            /* short form: 'p'; 0: none */
	const char *arg;        /* the value's name in --help: "NAME|FILE"; NULL: a flag */
	unsigned commands;      /* the commands that take it (CLI_CMD bits) */
	/* Alone as the first word, the command it stands for (--help,
	 * --version; such a command takes no arguments); CLI_DEFAULT: none. */
	enum cli_command alone;
	cli_setter *set;        /* NULL: only alone */
	size_t field;           /* cli_set_str, cli_set_flag, cli_set_list: offsetof(cli, ...) */
	size_t count;           /* cli_set_list: offsetof(cli, the int count) */
	const char *help;       /* its line of --help */
	const char *man;        /* its text in the man page (roff) */
};

extern const cli_option cli_options[]; /* NULL-name terminated */

/* The option whose "-x" or "--name" (no "=value") opt is, among the ones
 * taken after the first word; NULL if none. */
const cli_option *cli_option_find(const char *opt, enum cli_command cmd);

/* The long option ("--name") of table (NULL-name terminated) closest to
 * opt ("--nmae"), among the ones taken after the first word, where close
 * enough (suggest_closest), copied into buf; NULL if none. Every row is
 * compared, however many the table has. */
const char *cli_option_suggest(const cli_option *table, const char *opt, char *buf, size_t len);

/* How messages name an option: "-p" where it has a short form, else "--vary". */
void cli_option_name(const cli_option *o, char *buf, size_t len);

typedef struct cli_cmd {
	const char *name;       /* the first word, "run"; NULL: the no-command form */
	enum cli_command cmd;
	int no_args;            /* takes no arguments (keys, help) */
	const char *said;       /* its name in messages; NULL: name */
	const char *usage;      /* its lines of the usage, after "rdscope " */
	const char *help;       /* its line under Commands in --help; NULL: none */
	const char *synopsis;   /* its usage in its own help, where not usage */
} cli_cmd;

extern const cli_cmd cli_cmds[]; /* ended by the row with cmd CLI_HELP */
extern const size_t cli_ncmds;

/* The command row named word (or the one of cmd); NULL if none. */
const cli_cmd *cli_cmd_find(const char *word);
const cli_cmd *cli_cmd_of(enum cli_command cmd);

#endif
