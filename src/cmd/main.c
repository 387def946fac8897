/*
 * rdscope: entry point. Parses the command line and hands over to the
 * command; everything else lives in its own module.
 */
#include <stdio.h>

#include "batch.h"
#include "cli.h"
#include "explorer.h"
#include "merge.h"
#include "preset_cmd.h"
#include "rdscope.h"
#include "sigbus.h"
#include "sweep_run.h"
#include "trace_cmd.h"

int main(int argc, char **argv)
{
	sigbus_install();
	cli c;
	int rc = cli_parse(&c, argc, argv);
	if (rc == 0) {
		switch (c.cmd) {
		case CLI_HELP:
			cli_help(stdout);
			rc = EXIT_OK;
			break;
		case CLI_VERSION:
			printf("rdscope %s\n", RD_VERSION);
			rc = EXIT_OK;
			break;
		case CLI_KEYS:
			cli_keys(stdout, &c.config);
			rc = EXIT_OK;
			break;
		case CLI_RUN:
			rc = batch_run(&c);
			break;
		case CLI_SWEEP:
			rc = sweep_run(&c);
			break;
		case CLI_MERGE:
			rc = merge_run(&c);
			break;
		case CLI_CHECK:
			rc = preset_cmd_check(&c);
			break;
		case CLI_PRESETS:
			rc = preset_cmd_list(&c);
			break;
		case CLI_PRESET:
			rc = preset_cmd_show(&c);
			break;
		case CLI_CONVERT:
			rc = trace_cmd_convert(&c);
			break;
		case CLI_SAMPLES:
			rc = trace_cmd_samples(&c);
			break;
		case CLI_DEFAULT:
			/* On a terminal the no-command form opens the explorer;
			 * in pipes and scripts it prints text results. */
			if (!explorer_wanted(&c)) {
				rc = batch_run(&c);
				break;
			}
			/* TEMPORARY: the explorer still reads its INPUT with the
			 * options input_set_defaults keeps (issue 15 item 6). */
			input_opts opts = cli_input_opts(&c);
			input_set_defaults(&opts);
			rc = explorer_run(&c);
			break;
		}
	}
	cli_free(&c);
	/* Help, version and keys go to stdout too: report a failed write. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == EXIT_OK)
			fputs("rdscope: cannot write to standard output\n", stderr);
		rc = rc == EXIT_OK ? EXIT_RUNTIME : rc;
	}
	return rc;
}
