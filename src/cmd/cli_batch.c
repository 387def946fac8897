/*
 * The commands' checks on the command line (see cli_batch.h).
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
	/* profile measures on one fully associative set: only the line size
	 * and the GPU's keys of the configuration count (a hash that cannot
	 * take the sets of the configured cache is no reason to refuse) */
	rd_config chk = c->config;
	if (c->cmd == CLI_PROFILE)
		rd_config_profile(&c->config, &chk);
	if (c->cmd == CLI_COUNT) {
		/* count's caches are --levels, fully associative LRU: it reads
		 * only l1.line (count_run says the other keys have no effect),
		 * so only l1.line is checked, in a cache of one line (-s
		 * l1.size=5 was refused for the l1.ways it made, 0) */
		rd_config_default(&chk);
		chk.l1_line = c->config.l1_line;
		chk.l1_size = chk.l1_line;
		chk.l1_ways = 1;
		chk.l1_hash = RD_HASH_MOD;
	}
	if (rd_config_check(&chk, err, sizeof err) < 0) {
		explain_problem(c, &base, err, sizeof err);
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_batch_finish(cli *c)
{
	const cli_cmd *k = cli_cmd_of(c->cmd);
	const char *name = k->said ? k->said : k->name;
	const cli_option *bad = foreign_option(c);
	if (bad) {
		char msg[64], opt[32];
		snprintf(msg, sizeof msg, "%%s: not an option of '%s'", name);
		cli_option_name(bad, opt, sizeof opt);
		return cli_usage_error(msg, opt, NULL);
	}
	switch (c->cmd) {
	case CLI_PROFILE:
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		if (c->estimate && c->format == OUTPUT_CSV)
			return cli_usage_error("%s: text or JSON output (the CSV has a row per "
					       "distance)", "--estimate", NULL);
		break;
	case CLI_ESTIMATE:
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		if (c->format == OUTPUT_JSON && (c->methods == 0 || (c->methods & (c->methods - 1))))
			return cli_usage_error("%s: JSON has one miss rate per run (for compare): give "
					       "--method binomial, fa or learned", "-f json", NULL);
		break;
	case CLI_TRAIN:
		if (c->format != OUTPUT_TEXT)
			return cli_usage_error("%s: train writes a weights file (text)", "-f", NULL);
		if (c->ninputs)
			return cli_usage_error("train: unexpected argument '%s' (it generates its own "
					       "profiles)", c->inputs[0], NULL);
		break;
	case CLI_KDESC:
		if (!c->from_c || c->ninputs)
			return cli_usage_error("%s: --from-c FILE.c expected (and nothing else)", name,
					       NULL);
		return 0; /* no model configuration involved */
	case CLI_COUNT:
		if (c->ninputs != 1)
			return cli_usage_error("%s: one KDESC[:VARIANT] expected", name, NULL);
		break;
	case CLI_SWEEP:
		if (c->nvary == 0)
			return cli_usage_error("%s: no --vary KEY=V1,V2,... given (use 'run' for one point)",
					       name, NULL);
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		break;
	case CLI_COMPARE:
		if (c->ninputs != 2)
			return cli_usage_error("%s: two result files (A.json B.json) expected", name,
					       NULL);
		return 0; /* no model configuration involved */
	case CLI_VALIDATE:
		if (!c->measured)
			return cli_usage_error("%s: --measured FILE expected", name, NULL);
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		break;
	case CLI_CALIBRATE:
		if (!c->measured)
			return cli_usage_error("%s: --measured FILE expected", name, NULL);
		if (c->nfit == 0)
			return cli_usage_error("%s: --fit KEY[,KEY...] expected (the keys to fit)", name,
					       NULL);
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		if (c->output && !strcmp(c->output, "-"))
			return cli_usage_error("%s -: the report is on standard output; -o takes the "
					       "fitted preset's FILE", "-o", NULL);
		break;
	case CLI_NCU_ARGS:
		return 0; /* no model configuration involved */
	case CLI_PLACEMENTS:
		if (c->ninputs != 1)
			return cli_usage_error("%s: one INPUT expected", name, NULL);
		break;
	case CLI_ARRAYS:
		if (c->ninputs == 0)
			return cli_usage_error("%s: no INPUT given", name, NULL);
		return 0; /* no model configuration involved */
	case CLI_MERGE:
	case CLI_CHECK:
		if (c->ninputs == 0)
			return cli_usage_error("%s: no FILE given", name, NULL);
		return 0; /* no model configuration involved */
	case CLI_PRESETS:
		if (c->ninputs)
			return cli_usage_error("%s: takes no arguments", name, NULL);
		return 0;
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
	int rc = build_config(c);
	if (rc == 0 && c->by != OUTPUT_BY_NONE && c->config.model == RD_PROFILE_REF2013) {
		/* the command line is right; the combination is not: no usage */
		msg_error("--by: the reference-2013 profile has no breakdown by source (it "
			  "reproduces the 2013 code's totals); use -s model=paper");
		return EXIT_USAGE;
	}
	return rc;
}
