/*
 * The commands' functions, one row per command of CLI_COMMANDS (cli.h),
 * indexed by enum cli_command: cli_batch_finish checks a command's
 * arguments and configuration with them, main.c runs it.
 */
#include "cli.h"

#define CLI_ROW(e, run_fn, check_fn, config_fn)                                             \
	[e] = {.run = run_fn, .check = check_fn, .config = config_fn},
const cli_command_fns cli_commands[CLI_NCOMMANDS] = {CLI_COMMANDS(CLI_ROW)};
#undef CLI_ROW
