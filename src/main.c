/*
 * rdscope: entry point. Parses the command line and hands over to the
 * command; everything else lives in its own module.
 */
#include <stdio.h>

#include "batch.h"
#include "cli.h"
#include "rdscope.h"

int main(int argc, char **argv)
{
	cli c;
	int rc = cli_parse(&c, argc, argv);
	if (rc < 0) {
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
		case CLI_DEFAULT:
			/* The explorer will take over the no-command form; until it
			 * exists, that form is a text-format batch run. */
			rc = batch_run(&c);
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
