/*
 * After parsing (see cli_batch.h): the checks every command shares; each
 * command's own are its check function (CLI_COMMANDS, cli.h).
 */
#include "cli_batch.h"
#include "rprofile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "preset/preset.h"
#include "util/util.h"

/* An option given that c's command does not take (the first in table
 * order), or NULL. */
static const cli_option *foreign_option(const cli *c)
{
	for (const cli_option *o = cli_options; o->name; o++)
		if ((c->given[(o - cli_options) / 8] >> (o - cli_options) % 8 & 1) &&
		    !(o->commands & CLI_CMD(c->cmd)))
			return o;
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

/*
 * The whole-configuration problem in err, said in the user's terms: the
 * -s that made it ("-s l1.ways=3", not an l1.size error: the last -s whose
 * value taken back leaves a valid configuration), the model's reason
 * (whose "KEY:" names the rule's row), the rule, and where only the hash
 * cannot take the sets, the -s that fixes it.
 */
static void explain_problem(const cli *c, const rd_config *base, char *err, size_t len)
{
	char why[2048], key[64] = "", culprit[256] = "";
	snprintf(why, sizeof why, "%.2000s", err);
	for (int i = c->nsets - 1; i >= 0 && !*culprit; i--) {
		size_t n = strcspn(c->sets[i], "=");
		if (n >= sizeof key)
			continue;
		memcpy(key, c->sets[i], n);
		key[n] = '\0';
		char v[128], e[256];
		rd_config t = c->config;
		if (rd_config_get(base, key, v, sizeof v) == 0 && rd_config_set(&t, key, v, e, sizeof e) == 0 &&
		    rd_config_check(&t, e, sizeof e) == 0)
			snprintf(culprit, sizeof culprit, "%s", c->sets[i]);
	}
	/* "l1.size: 16384 bytes ..." -> the rule's key without its colon when
	 * another key is to blame. */
	size_t kl = strcspn(why, ":");
	const char *reason = why;
	char rekeyed[2100];
	if (*culprit && why[kl] == ':' && strncmp(culprit, why, kl) != 0) {
		snprintf(rekeyed, sizeof rekeyed, "%.*s%s", (int)kl, why, why + kl + 1);
		reason = rekeyed;
	}
	const char *rule = "";
	if (!strncmp(why, "l1.size:", 8) && strstr(why, "whole number of sets"))
		rule = " (sets = l1.size / (l1.line x l1.ways) must be a whole number)";
	char fix[160] = "";
	int h = rd_config_hash_fallback(&c->config);
	if (h >= 0)
		snprintf(fix, sizeof fix, "; -s l1.hash=%s takes %u sets", rd_hash_name((enum rd_hash)h),
			 rd_config_sets(&c->config));
	if (*culprit && reason != why)
		snprintf(err, len, "-s %s: %s%s%s", culprit, reason, rule, fix);
	else
		snprintf(err, len, "%s%s%s", why, rule, fix);
}

static int build_config(cli *c)
{
	static char err[16384];
	rd_config base;
	rd_config_default(&c->config);
	if (c->preset && preset_load(c->preset, &c->config, err, sizeof err) < 0) {
		cli_print_errors(err);
		return EXIT_USAGE;
	}
	if (c->from_gpgpusim && gpgpusim_import(c->from_gpgpusim, &c->config, cli_gpgpusim_note, NULL,
						err, sizeof err) < 0) {
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	base = c->config;
	for (int i = 0; i < c->nsets; i++)
		if (cli_set(&c->config, c->sets[i]) < 0)
			return EXIT_USAGE;
	/* the part of it the command reads (profile measures on one fully
	 * associative set: only the line size and the GPU's keys count, and a
	 * hash that cannot take the sets of the configured cache is no reason
	 * to refuse; count: only l1.line) */
	rd_config chk = c->config;
	cli_commands[c->cmd].config(&c->config, &chk);
	if (rd_config_check(&chk, err, sizeof err) < 0) {
		explain_problem(c, &base, err, sizeof err);
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_batch_finish(cli *c)
{
	const cli_option *bad = foreign_option(c);
	if (bad) {
		char msg[64], opt[32];
		snprintf(msg, sizeof msg, "%%s: not an option of '%s'", cli_said(c->cmd));
		cli_option_name(bad, opt, sizeof opt);
		return cli_usage_error(msg, opt, NULL);
	}
	/* The command's own checks (its file), then, where it reads the
	 * model's configuration, the output options and the configuration. */
	int rc = cli_commands[c->cmd].check(c);
	if (rc != 0 || cli_commands[c->cmd].config == cli_config_none)
		return rc;
	/* Standard output holds the results unless -o moves them. */
	if (c->histogram && !strcmp(c->histogram, "-") && (!c->output || !strcmp(c->output, "-")))
		return cli_usage_error("%s -: standard output has the results (use -o FILE)",
				       "--histogram", NULL);
	if (c->plot && !strcmp(c->plot, "-") && (!c->output || !strcmp(c->output, "-")))
		return cli_usage_error("%s -: standard output has the results (use -o FILE)", "--plot",
				       NULL);
	if (c->top && c->by == OUTPUT_BY_NONE)
		return cli_usage_error("%s: without --by site|array there are no rows to list",
				       "--top", NULL);
	if ((c->plot_w || c->plot_hist) && !c->plot)
		return cli_usage_error("%s: without --plot FILE.svg there is no picture to shape",
				       c->plot_w ? "--plot-size" : "--plot-hist", NULL);
	if (c->jobs_arg && (parse_count(c->jobs_arg, 4096, &c->jobs) < 0 || c->jobs == 0))
		return cli_usage_error("-j: expected a number of threads from 1 to 4096, got '%s'",
				       c->jobs_arg, NULL);
	if (c->shard_arg && parse_shard(c) < 0)
		return cli_usage_error("--shard: expected K/N with 0 <= K < N, got '%s'", c->shard_arg,
				       NULL);
	rc = build_config(c);
	if (rc == 0 && c->by != OUTPUT_BY_NONE && c->config.model == RD_PROFILE_REF2013) {
		/* the command line is right; the combination is not: no usage */
		msg_error("--by: the reference-2013 profile has no breakdown by source (it "
			  "reproduces the 2013 code's totals); use -s model=paper");
		return EXIT_USAGE;
	}
	return rc;
}
