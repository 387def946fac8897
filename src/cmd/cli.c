/*
 * Command-line parsing, driven by the option and command tables
 * (cli_table.h). Hand-written rather than getopt_long, which is not POSIX
 * and words its errors its own way; the grammar is small: a subcommand,
 * short options with attached or separate values, --long and --long=value
 * forms, and "--".
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_batch.h"
#include "cli_table.h"
#include "readers/readers.h"
#include "util/util.h"

/* The value of an option: attached ("-sX", "--set=X") or the next word. */
static const char *option_value(int argc, char **argv, int *i, const char *attached)
{
	if (attached)
		return attached;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* Is a lone word more likely an INPUT than a mistyped subcommand? */
static int looks_like_input(const char *word)
{
	struct stat st;
	return strchr(word, '/') || strchr(word, '.') || strchr(word, ':') ||
	       strcmp(word, "-") == 0 || stat(word, &st) == 0;
}

/* "unknown option" for a, with the closest long option for a --word. */
static int unknown_option(const char *a, const char *opt)
{
	char hint[64];
	return cli_usage_error("unknown option '%s'", a,
			       a[1] == '-' ? cli_option_suggest(cli_options, opt, hint, sizeof hint)
					   : NULL);
}

/* The words from argv[first]: options and INPUTs. Returns 0 or an exit
 * status; stops at -h (c->cmd is then CLI_HELP). */
static int parse_words(cli *c, int argc, char **argv, int first)
{
	int only_inputs = 0;
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		if (only_inputs || a[0] != '-' || strcmp(a, "-") == 0) {
			c->inputs[c->ninputs++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_inputs = 1;
			continue;
		}
		/* Split "-sX" / "--set=X" into the option and its attached value. */
		char opt[32];
		const char *attached = NULL;
		if (a[1] != '-') {
			snprintf(opt, sizeof opt, "-%c", a[1]);
			attached = a[2] ? a + 2 : NULL;
		} else {
			const char *eq = strchr(a, '=');
			size_t n = eq ? (size_t)(eq - a) : strlen(a);
			if (n >= sizeof opt)
				return cli_usage_error("unknown option '%s'", a, NULL);
			snprintf(opt, sizeof opt, "%.*s", (int)n, a);
			attached = eq ? eq + 1 : NULL;
		}
		const cli_option *o = cli_option_find(opt, c->cmd);
		if (!o)
			return unknown_option(a, opt);
		const char *v = NULL;
		if (o->arg && !(v = option_value(argc, argv, &i, attached)))
			return cli_usage_error("option '%s' needs a value", opt, NULL);
		if (!o->arg && attached)
			return cli_usage_error("option '%s' takes no value", opt, NULL);
		size_t bit = (size_t)(o - cli_options);
		c->given[bit / 8] |= (unsigned char)(1u << bit % 8);
		const char *problem = o->set(c, o, v);
		if (problem)
			return cli_usage_error(problem, v, NULL);
		if (c->cmd == CLI_HELP)
			return 0;
	}
	return 0;
}

/* The command a first word alone stands for (help, keys, --help,
 * --version; these take no arguments), or CLI_DEFAULT. */
static enum cli_command alone(const char *word)
{
	const cli_cmd *k = cli_cmd_find(word);
	if (k && k->no_args)
		return k->cmd;
	for (const cli_option *o = cli_options; o->name; o++) {
		char letter[3] = {'-', o->letter, '\0'};
		if (o->alone && ((word[0] == '-' && word[1] == '-' && !strcmp(word + 2, o->name)) ||
				 (o->letter && !strcmp(word, letter))))
			return o->alone;
	}
	return CLI_DEFAULT;
}

/* The first word: a command, or (no command) an option or INPUT. */
static int parse_command(cli *c, const char *word, int *first)
{
	const cli_cmd *k = cli_cmd_find(word);
	if (k) {
		c->cmd = k->cmd;
		*first = 2;
		return 0;
	}
	if (word[0] == '-' || looks_like_input(word))
		return 0;
	const char *names[CLI_NCOMMANDS]; /* a row per command at most (test_cli) */
	size_t n = 0;
	for (size_t i = 0; i < cli_ncmds && n < CLI_NCOMMANDS; i++)
		if (cli_cmds[i].name)
			names[n++] = cli_cmds[i].name;
	return cli_usage_error("unknown command '%s' (and no such file)", word,
			       suggest_closest(word, names, n));
}

int cli_parse(cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	rd_config_default(&c->config);
	c->format = OUTPUT_TEXT;
	c->train_seed = 1;
	c->inputs = calloc((size_t)argc + 1, sizeof *c->inputs);
	c->sets = calloc((size_t)argc + 1, sizeof *c->sets);
	c->vary = calloc((size_t)argc + 1, sizeof *c->vary);
	c->defines = calloc((size_t)argc + 1, sizeof *c->defines);
	c->fit = calloc((size_t)argc + 1, sizeof *c->fit);
	c->ranges = calloc((size_t)argc + 1, sizeof *c->ranges);
	if (!c->inputs || !c->sets || !c->vary || !c->defines || !c->fit || !c->ranges) {
		msg_error("out of memory");
		return EXIT_RUNTIME;
	}
	int first = 1, rc;
	if (argc > 1 && (c->cmd = alone(argv[1])) != CLI_DEFAULT) {
		/* `rdscope keys --help`: that command's own help. */
		if (argc == 3 && c->cmd != CLI_HELP && c->cmd != CLI_VERSION &&
		    (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			c->help_of = c->cmd;
			c->cmd = CLI_HELP;
			return 0;
		}
		return argc > 2 ? cli_usage_error("'%s' takes no arguments", argv[1], NULL) : 0;
	}
	if (argc > 1 && (rc = parse_command(c, argv[1], &first)) != 0)
		return rc;
	if ((rc = parse_words(c, argc, argv, first)) != 0 || c->cmd == CLI_HELP)
		return rc;
	if (c->cmd == CLI_RUN && c->ninputs == 0)
		return cli_usage_error("%s: no INPUT given", "run", NULL);
	if (c->cmd == CLI_DEFAULT && c->ninputs > 1)
		return cli_usage_error("%s: one INPUT at most without a command (use 'rdscope run')",
				       "rdscope", NULL);
	if (c->teach && (c->cmd != CLI_DEFAULT || c->ninputs || c->preset || c->nsets))
		return cli_usage_error("%s: class mode brings its own traces and presets "
				       "(no command, INPUT, -p or -s)", "--teach", NULL);
	if (c->log && c->ninputs > 1)
		return cli_usage_error("%s: the event log is of one INPUT", "--log", NULL);
	/* -p, then every -s, then the whole-configuration check. */
	return cli_batch_finish(c);
}

void cli_free(cli *c)
{
	free(c->inputs);
	free(c->sets);
	free(c->vary);
	free(c->defines);
	free(c->fit);
	free(c->ranges);
	c->inputs = NULL;
	c->sets = c->vary = c->defines = c->fit = c->ranges = NULL;
}
