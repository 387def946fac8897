/*
 * Batch commands on the command line (see cli_batch.h).
 */
#include "cli_batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "preset/preset.h"

int cli_batch_command(cli *c, const char *word)
{
	static const struct {
		const char *name;
		enum cli_command cmd;
	} cmds[] = {{"sweep", CLI_SWEEP},
		    {"merge", CLI_MERGE},
		    {"check", CLI_CHECK},
		    {"presets", CLI_PRESETS},
		    {"preset", CLI_PRESET}};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		if (strcmp(word, cmds[i].name) == 0) {
			c->cmd = cmds[i].cmd;
			return 1;
		}
	}
	return 0;
}

int cli_batch_option(cli *c, const char *opt, const char *v)
{
	if (!strcmp(opt, "-p") || !strcmp(opt, "--preset"))
		c->preset = v;
	else if (!strcmp(opt, "--vary"))
		c->vary[c->nvary++] = v;
	else if (!strcmp(opt, "-j") || !strcmp(opt, "--jobs"))
		c->jobs_arg = v;
	else if (!strcmp(opt, "--shard"))
		c->shard_arg = v;
	else if (!strcmp(opt, "--histogram"))
		c->histogram = v;
	else if (!strcmp(opt, "--plot"))
		c->plot = v;
	else if (!strcmp(opt, "--from-gpgpusim"))
		c->from_gpgpusim = v;
	else if (!strcmp(opt, "--as"))
		c->as = v;
	else
		return 0;
	return 1;
}

static const char *command_name(enum cli_command cmd)
{
	switch (cmd) {
	case CLI_RUN: return "run";
	case CLI_SWEEP: return "sweep";
	case CLI_MERGE: return "merge";
	case CLI_CHECK: return "check";
	case CLI_PRESETS: return "presets";
	case CLI_PRESET: return "preset";
	default: return "rdscope";
	}
}

/* The first option given that cmd does not take, or NULL. */
static const char *foreign_option(const cli *c)
{
	enum cli_command k = c->cmd;
	int run = k == CLI_RUN || k == CLI_DEFAULT, sweep = k == CLI_SWEEP;
	int preset = k == CLI_PRESET;
	if (c->preset && !(run || sweep || preset))
		return "-p";
	if (c->nsets && !(run || sweep || preset))
		return "-s";
	if (c->nvary && !sweep)
		return "--vary";
	if (c->jobs_arg && !sweep)
		return "-j";
	if (c->shard_arg && !sweep)
		return "--shard";
	if (c->histogram && !(run || sweep))
		return "--histogram";
	if (c->plot && !(run || sweep))
		return "--plot";
	if (c->log && !run)
		return "--log";
	if (c->from_gpgpusim && !preset)
		return "--from-gpgpusim";
	if (c->as && !preset)
		return "--as";
	if (c->output && !(run || sweep || preset || k == CLI_MERGE))
		return "-o";
	return NULL;
}

/* A decimal number from 0 to max, the whole word. */
static int parse_count(const char *s, unsigned long max, unsigned *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_shard(cli *c)
{
	const char *slash = strchr(c->shard_arg, '/');
	char k[32];
	if (!slash || (size_t)(slash - c->shard_arg) >= sizeof k)
		return -1;
	memcpy(k, c->shard_arg, (size_t)(slash - c->shard_arg));
	k[slash - c->shard_arg] = '\0';
	if (parse_count(k, 1u << 30, &c->shard_k) < 0 ||
	    parse_count(slash + 1, 1u << 30, &c->shard_n) < 0)
		return -1;
	return c->shard_n >= 1 && c->shard_k < c->shard_n ? 0 : -1;
}

void cli_print_errors(const char *errs)
{
	while (*errs) {
		const char *nl = strchr(errs, '\n');
		int n = nl ? (int)(nl - errs) : (int)strlen(errs);
		fprintf(stderr, "rdscope: %.*s\n", n, errs);
		errs += n + (nl != NULL);
	}
}

void cli_gpgpusim_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "rdscope: gpgpusim: %s\n", msg);
}

static int build_config(cli *c)
{
	static char err[16384];
	rd_config_default(&c->config);
	if (c->preset && preset_load(c->preset, &c->config, err, sizeof err) < 0) {
		cli_print_errors(err);
		return EXIT_USAGE;
	}
	if (c->from_gpgpusim && gpgpusim_import(c->from_gpgpusim, &c->config, cli_gpgpusim_note, NULL,
						err, sizeof err) < 0) {
		fprintf(stderr, "rdscope: %s\n", err);
		return EXIT_USAGE;
	}
	for (int i = 0; i < c->nsets; i++)
		if (cli_set(&c->config, c->sets[i]) < 0)
			return EXIT_USAGE;
	if (rd_config_check(&c->config, err, sizeof err) < 0) {
		fprintf(stderr, "rdscope: %s\n", err);
		return EXIT_USAGE;
	}
	return -1;
}

int cli_batch_finish(cli *c)
{
	const char *name = command_name(c->cmd);
	const char *bad = foreign_option(c);
	if (bad) {
		char msg[64];
		snprintf(msg, sizeof msg, "%%s: not an option of '%s'", name);
		return cli_usage_error(msg, bad, NULL);
	}
	switch (c->cmd) {
	case CLI_SWEEP:
		if (c->nvary == 0)
			return cli_usage_error("%s: no --vary KEY=V1,V2,... given (use 'run' for one point)",
					       name, NULL);
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		break;
	case CLI_MERGE:
	case CLI_CHECK:
		if (c->ninputs == 0)
			return cli_usage_error("%s: no FILE given", name, NULL);
		return -1; /* no model configuration involved */
	case CLI_PRESETS:
		if (c->ninputs)
			return cli_usage_error("%s: takes no arguments", name, NULL);
		return -1;
	case CLI_PRESET:
		if (c->ninputs)
			return cli_usage_error("preset: unexpected argument '%s'", c->inputs[0], NULL);
		if (c->as && strcmp(c->as, "preset") && strcmp(c->as, "gpgpusim") &&
		    strcmp(c->as, "gpgpusim4"))
			return cli_usage_error("--as: unknown format '%s' (preset, gpgpusim or gpgpusim4)",
					       c->as, NULL);
		break;
	default:
		break;
	}
	/* Standard output holds the results unless -o moves them. */
	if (c->histogram && !strcmp(c->histogram, "-") && (!c->output || !strcmp(c->output, "-")))
		return cli_usage_error("%s -: standard output has the results (use -o FILE)",
				       "--histogram", NULL);
	if (c->plot && !strcmp(c->plot, "-") && (!c->output || !strcmp(c->output, "-")))
		return cli_usage_error("%s -: standard output has the results (use -o FILE)", "--plot",
				       NULL);
	if (c->jobs_arg && (parse_count(c->jobs_arg, 4096, &c->jobs) < 0 || c->jobs == 0))
		return cli_usage_error("-j: expected a number of threads from 1 to 4096, got '%s'",
				       c->jobs_arg, NULL);
	if (c->shard_arg && parse_shard(c) < 0)
		return cli_usage_error("--shard: expected K/N with 0 <= K < N, got '%s'", c->shard_arg,
				       NULL);
	return build_config(c);
}
