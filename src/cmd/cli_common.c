/*
 * What the command line prints, generated from its tables and the model's
 * key table: the usage, --help, `rdscope keys`, usage errors and the
 * problems of -s assignments, preset problems; the runs of help, --version
 * and keys and the plain rows of CLI_COMMANDS (cli_check_none, ...).
 * Beneath the parser (cli.c), the shared checks (cli_batch.c) and the
 * commands, which use it; it calls none of them.
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "util/util.h"

void cli_usage(FILE *f)
{
	/* The no-command form first, then each command's lines. */
	fprintf(f, "usage: rdscope %s\n", cli_cmd_of(CLI_DEFAULT)->usage);
	for (size_t i = 0; i < cli_ncmds; i++)
		if (cli_cmds[i].name && cli_cmds[i].usage)
			fprintf(f, "       rdscope %s\n", cli_cmds[i].usage);
}

void cli_key_placeholder(const rd_key *k, char *buf, size_t len)
{
	if (k->type == RD_KEY_ENUM && k->choices) {
		snprintf(buf, len, "%s", k->choices);
	} else if (k->type == RD_KEY_BOOL) {
		snprintf(buf, len, "0|1");
	} else if (k->unit && *k->unit) {
		size_t n = 0;
		for (const char *u = k->unit; *u && n + 1 < len; u++)
			buf[n++] = (char)toupper((unsigned char)*u);
		buf[n] = '\0';
	} else {
		snprintf(buf, len, "%s", k->type == RD_KEY_DOUBLE ? "X" : "N");
	}
}

/* "  -p, --preset NAME|FILE" and its help, in a column where it fits. */
static void help_option(FILE *f, const cli_option *o)
{
	char lhs[96];
	int n = o->letter ? snprintf(lhs, sizeof lhs, "-%c, ", o->letter)
			  : snprintf(lhs, sizeof lhs, "    ");
	snprintf(lhs + n, sizeof lhs - (size_t)n, "--%s%s%s", o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	if (strlen(lhs) > 20)
		fprintf(f, "  %s  %s\n", lhs, o->help);
	else
		fprintf(f, "  %-20s %s\n", lhs, o->help);
}

void cli_help(FILE *f)
{
	fputs("rdscope " RD_VERSION " - GPU L1 cache model based on reuse distance\n\n", f);
	cli_usage(f);
	fputs("\nCommands:\n", f);
	for (size_t i = 0; i < cli_ncmds; i++)
		if (cli_cmds[i].help)
			fprintf(f, "  %-9s %s\n", cli_cmds[i].name ? cli_cmds[i].name : "(none)",
				cli_cmds[i].help);
	fputs("\nOptions:\n", f);
	for (const cli_option *o = cli_options; o->name; o++)
		help_option(f, o);
	fputs("\nINPUT is a trace: Ocelot .trc, NVBit mem_trace output, Accel-Sim .traceg,\n"
	      "kernelslist.g or traces directory, rdscope .rdt, or a kernel description\n"
	      "(FILE[:VARIANT], see rdscope-kernel(5)); gzip and xz are undone; - is standard\n"
	      "input. Or a shipped sample, sample:NAME[:VARIANT] (see 'rdscope samples'), or\n"
	      "builtin:fig3 (seed paper Figure 3, height 256) or\n"
	      "builtin:colcopy:HEIGHT[:WIDTH[:ELEMBYTES]].\n"
	      "\nKeys of the model (-s KEY=VALUE; defaults in brackets):\n",
	      f);
	for (const rd_key *k = rd_keys; k->name; k++) {
		char what[96], lhs[128];
		cli_key_placeholder(k, what, sizeof what);
		snprintf(lhs, sizeof lhs, "%s=%s", k->name, what);
		if (strlen(lhs) > 26)
			fprintf(f, "  %s\n  %-26s", lhs, "");
		else
			fprintf(f, "  %-26s", lhs);
		fprintf(f, " %s [%s]\n", k->help, k->def);
	}
	fputs("\nExit status: 0 ok, 1 runtime error, 2 usage, input or configuration error.\n",
	      f);
}

void cli_help_command(FILE *f, enum cli_command cmd)
{
	const cli_cmd *k = cli_cmd_of(cmd);
	if (!k || !k->name) {
		cli_help(f);
		return;
	}
	const char *syn = k->synopsis ? k->synopsis : k->usage ? k->usage : k->name;
	/* The usage's continuation lines are indented for "usage: rdscope ". */
	fprintf(f, "usage: rdscope %s\n\n", syn);
	if (k->help)
		fprintf(f, "%c%s.\n", toupper((unsigned char)k->help[0]), k->help + 1);
	int any = 0;
	for (const cli_option *o = cli_options; o->name; o++) {
		/* A command that takes no arguments takes no options either. */
		if (!(o->commands & CLI_CMD(cmd)) || (k->no_args && o->alone != CLI_HELP))
			continue;
		if (!any++)
			fputs("\nOptions:\n", f);
		help_option(f, o);
	}
	if (cli_option_find("-s", cmd) && (cli_option_find("-s", cmd)->commands & CLI_CMD(cmd)))
		fputs("\nKEY is a key of the model: 'rdscope keys' lists them with their defaults.\n", f);
	fputs("\n'rdscope --help' shows every command; man rdscope has the details.\n", f);
}

void cli_keys(FILE *f, const rd_config *config)
{
	static const char *const types[] = {"uint", "double", "bool", "enum"};
	fprintf(f, "%-24s %-7s %-10s %-12s %s\n", "KEY", "TYPE", "UNIT", "DEFAULT", "DESCRIPTION");
	for (const rd_key *k = rd_keys; k->name; k++) {
		char val[64];
		if (rd_config_get(config, k->name, val, sizeof val) < 0)
			val[0] = '\0';
		fprintf(f, "%-24s %-7s %-10s %-12s %s", k->name,
			(unsigned)k->type < 4 ? types[k->type] : "?", k->unit && *k->unit ? k->unit : "-",
			val, k->help);
		if (k->type == RD_KEY_ENUM && k->choices)
			fprintf(f, " (%s)", k->choices);
		char why[64];
		if (!rd_key_applies(config, k, why, sizeof why)) { /* "(model=rdgc)" */
			size_t n = strlen(why);
			fprintf(f, " [not read: %.*s]", n > 2 ? (int)n - 2 : 0, why + 1);
		}
		putc('\n', f);
	}
}

int cli_usage_error(const char *fmt, const char *arg, const char *hint)
{
	char msg[1024];
	/* fmt is one of the parser's own, with one %s for arg. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	int n = snprintf(msg, sizeof msg, fmt, arg);
#pragma GCC diagnostic pop
	if (hint && n >= 0 && (size_t)n < sizeof msg)
		snprintf(msg + n, sizeof msg - (size_t)n, "; did you mean '%s'?", hint);
	msg_error("%s", msg);
	cli_usage(stderr);
	fputs("Try 'rdscope --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

int cli_set(rd_config *config, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment) {
		msg_error("-s expects KEY=VALUE, got '%s'", assignment);
		return -1;
	}
	char key[128];
	snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
	char err[512];
	if (rd_config_set(config, key, eq + 1, err, sizeof err) == 0)
		return 0;
	/* The model names the problem; for an unknown key we add the likely
	 * intended one, unless the model already did. */
	if (rd_key_find(key) || strstr(err, "did you mean")) {
		msg_error("%s", err);
	} else {
		const char *hint = suggest_key(key);
		if (hint)
			msg_error("%s; did you mean '%s'?", err, hint);
		else
			msg_error("%s (see 'rdscope keys')", err);
	}
	return -1;
}
void cli_print_errors(const char *errs)
{
	while (*errs) {
		const char *nl = strchr(errs, '\n');
		int n = nl ? (int)(nl - errs) : (int)strlen(errs);
		msg_error("%.*s", n, errs);
		errs += n + (nl != NULL);
	}
}

void cli_gpgpusim_note(void *ctx, const char *msg)
{
	(void)ctx;
	msg_error("gpgpusim: %s", msg);
}

const char *cli_said(enum cli_command cmd)
{
	const cli_cmd *k = cli_cmd_of(cmd);
	return k->said ? k->said : k->name;
}

int cli_command_error(const cli *c, const char *fmt)
{
	return cli_usage_error(fmt, cli_said(c->cmd), NULL);
}

int cli_check_none(const cli *c)
{
	(void)c;
	return 0;
}

void cli_config_whole(const rd_config *config, rd_config *checked)
{
	(void)config;
	(void)checked;
}

/* Never called: cli_batch_finish compares with it. */
void cli_config_none(const rd_config *config, rd_config *checked)
{
	(void)config;
	(void)checked;
}

int cli_help_run(const cli *c)
{
	cli_help_command(stdout, c->help_of);
	return EXIT_OK;
}

int cli_version_run(const cli *c)
{
	(void)c;
	printf("rdscope %s\n", RD_VERSION);
	return EXIT_OK;
}

int cli_keys_run(const cli *c)
{
	cli_keys(stdout, &c->config);
	return EXIT_OK;
}
