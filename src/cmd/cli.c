/*
 * Command-line parsing. Hand-written rather than getopt_long, which is not
 * POSIX; the grammar is small: a subcommand, short options with attached or
 * separate values, --long and --long=value forms, and "--".
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_batch.h"
#include "readers/readers.h"
#include "util/util.h"

static const char *const cli_commands[] = {"run",   "keys",  "help",   "sweep",  "merge",
					   "check", "presets", "preset", "convert", "samples"};

void cli_usage(FILE *f)
{
	fputs("usage: rdscope [OPTIONS] [INPUT]\n"
	      "       rdscope run [-p PRESET] [-s KEY=VALUE]... [-f text|csv|json] [-o FILE]\n"
	      "             [--log FILE] [--histogram FILE] [--plot FILE.svg] [-q] INPUT...\n"
	      "       rdscope sweep [-p PRESET] [-s KEY=VALUE]... --vary KEY=V1,V2,...\n"
	      "             [-j N] [--shard K/N] [-f FMT] [-o FILE] [--histogram FILE]\n"
	      "             [--plot FILE.svg] [--no-timing] INPUT...\n"
	      "       rdscope merge [-o FILE] FILE...\n"
	      "       rdscope presets | check PRESET... | preset [-p PRESET] [-s ...] [--as FMT]\n"
	      "       rdscope preset --from-gpgpusim STRING\n"
	      "       rdscope convert [--input-format FMT] [--kernel K] INPUT OUT.rdt\n"
	      "       rdscope samples\n"
	      "       rdscope keys\n"
	      "       rdscope --help | --version\n",
	      f);
}

void cli_help(FILE *f)
{
	fputs("rdscope " RD_VERSION " - GPU L1 cache model based on reuse distance\n\n", f);
	cli_usage(f);
	fputs("\nCommands:\n"
	      "  run       model each INPUT and print one result per input\n"
	      "  sweep     run every combination of the --vary values on each INPUT\n"
	      "  merge     join the CSV or JSON outputs of --shard runs into one\n"
	      "  presets   list the presets on the search path\n"
	      "  check     validate preset files; exit 2 on any problem\n"
	      "  preset    print a preset (-p, -s) as a preset file or GPGPU-Sim string\n"
	      "  convert   write INPUT's kernels (any format) as a binary .rdt trace\n"
	      "  samples   list the shipped samples (sample:NAME inputs)\n"
	      "  keys      list the model's keys with their default values\n"
	      "  (none)    model INPUT, or the built-in sample, and print text results\n"
	      "\nOptions:\n"
	      "  -p, --preset NAME|FILE  start from a preset (see 'rdscope presets')\n"
	      "  -s, --set KEY=VALUE  set a key of the model (repeatable, after -p)\n"
	      "  -f, --format FMT     output format: text (default), csv or json\n"
	      "  -o, --output FILE    write results to FILE (replaced only on success)\n"
	      "      --log FILE       write the per-request event log (CSV) of one INPUT\n"
	      "  -q, --quiet          no progress indicator\n"
	      "      --no-timing      leave wall-clock times out (reproducible output)\n"
	      "      --color WHEN     explorer colours: auto (default), always or never\n"
	      "      --script FILE    explorer: take the keys from FILE (screen tests)\n"
	      "      --teach          explorer in class mode: the paper's Tables 1-5, step by step\n"
	      "      --histogram FILE write the reuse-distance histograms as long CSV\n"
	      "      --plot FILE.svg  write an SVG of the miss breakdown and histograms\n"
	      "      --vary KEY=V,... sweep: values of a key (NUMx: times the base value)\n"
	      "  -j, --jobs N         sweep: worker threads (default: online CPUs)\n"
	      "      --shard K/N      sweep: only runs K, K+N, K+2N, ... (0 <= K < N)\n"
	      "      --from-gpgpusim STRING  preset: import a -gpgpu_cache:dl1 string\n"
	      "      --as FMT         preset: print as preset, gpgpusim or gpgpusim4\n"
	      "      --input-format FMT  read INPUTs as " INPUT_FORMATS " (default: by content)\n"
	      "      --kernel NAME|INDEX  only this kernel of multi-kernel INPUTs (default: all)\n"
	      "  -h, --help           show this help\n"
	      "      --version        show the version\n"
	      "\nINPUT is a trace: Ocelot .trc, NVBit mem_trace output, Accel-Sim .traceg,\n"
	      "kernelslist.g or traces directory, rdscope .rdt, or a kernel description\n"
	      "(FILE[:VARIANT], see rdscope-kernel(5)); gzip and xz are undone; - is standard\n"
	      "input. Or a shipped sample, sample:NAME[:VARIANT] (see 'rdscope samples'), or\n"
	      "builtin:fig3 (seed paper Figure 3, height 256) or\n"
	      "builtin:colcopy:HEIGHT[:WIDTH[:ELEMBYTES]].\n"
	      "\nKeys of the model (-s KEY=VALUE; defaults in brackets):\n",
	      f);
	rd_config def;
	rd_config_default(&def);
	for (const rd_key *k = rd_keys; k->name; k++) {
		char val[64], lhs[128];
		if (rd_config_get(&def, k->name, val, sizeof val) < 0)
			val[0] = '\0';
		/* "KEY=WHAT": the choices, or the unit in capitals as a placeholder. */
		int n = snprintf(lhs, sizeof lhs, "%s=", k->name);
		if (k->type == RD_KEY_ENUM && k->choices)
			snprintf(lhs + n, sizeof lhs - (size_t)n, "%s", k->choices);
		else if (k->type == RD_KEY_BOOL)
			snprintf(lhs + n, sizeof lhs - (size_t)n, "0|1");
		else if (k->unit && *k->unit)
			for (const char *u = k->unit; *u && (size_t)n + 1 < sizeof lhs; u++)
				lhs[n++] = (char)toupper((unsigned char)*u), lhs[n] = '\0';
		else
			snprintf(lhs + n, sizeof lhs - (size_t)n, "%s", k->type == RD_KEY_DOUBLE ? "X" : "N");
		if (strlen(lhs) > 26)
			fprintf(f, "  %s\n  %-26s", lhs, "");
		else
			fprintf(f, "  %-26s", lhs);
		fprintf(f, " %s [%s]\n", k->help, val);
	}
	fputs("\nExit status: 0 ok, 1 runtime error, 2 usage, input or configuration error.\n",
	      f);
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
		putc('\n', f);
	}
}

int cli_usage_error(const char *fmt, const char *arg, const char *hint)
{
	fputs("rdscope: ", stderr);
	fprintf(stderr, fmt, arg);
	if (hint)
		fprintf(stderr, "; did you mean '%s'?", hint);
	fputc('\n', stderr);
	cli_usage(stderr);
	fputs("Try 'rdscope --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

int cli_set(rd_config *config, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment) {
		fprintf(stderr, "rdscope: -s expects KEY=VALUE, got '%s'\n", assignment);
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
		fprintf(stderr, "rdscope: %s\n", err);
	} else {
		const char *hint = suggest_key(key);
		if (hint)
			fprintf(stderr, "rdscope: %s; did you mean '%s'?\n", err, hint);
		else
			fprintf(stderr, "rdscope: %s (see 'rdscope keys')\n", err);
	}
	return -1;
}

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

/* Options shared by `run` and the no-subcommand form, from argv[first]. */
static int cli_parse_run(cli *c, int argc, char **argv, int first)
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
		static const char *const with_value[] = {
			"-s", "--set", "-f", "--format", "-o", "--output", "--log",
			"-p", "--preset", "--vary", "-j", "--jobs", "--shard", "--histogram",
			"--plot", "--from-gpgpusim", "--as", "--color", "--script",
			"--input-format", "--kernel"};
		static const char *const flags[] = {"-q", "--quiet", "-h", "--help", "--no-timing",
						    "--teach"};
		int takes_value = 0, is_flag = 0;
		for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
			takes_value |= !strcmp(opt, with_value[k]);
		for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
			is_flag |= !strcmp(opt, flags[k]);
		if (!takes_value && !is_flag) {
			static const char *const longs[] = {
				"--set",  "--format",    "--output", "--log",   "--quiet",
				"--help", "--no-timing", "--preset", "--vary",  "--jobs",
				"--shard", "--histogram", "--plot", "--from-gpgpusim", "--as",
				"--color", "--script", "--input-format", "--kernel", "--teach"};
			return cli_usage_error("unknown option '%s'", a,
					       a[1] == '-' ? suggest_closest(opt, longs, sizeof longs / sizeof longs[0])
							   : NULL);
		}
		if (takes_value) {
			const char *v = option_value(argc, argv, &i, attached);
			if (!v)
				return cli_usage_error("option '%s' needs a value", opt, NULL);
			if (!strcmp(opt, "-s") || !strcmp(opt, "--set")) {
				c->sets[c->nsets++] = v; /* applied after -p: cli_batch_finish */
			} else if (cli_batch_option(c, opt, v)) {
				continue;
			} else if (!strcmp(opt, "--color")) {
				static const char *const when[] = {"auto", "always", "never"};
				c->color = -1;
				for (int w = 0; w < 3; w++)
					if (!strcmp(v, when[w]))
						c->color = w;
				if (c->color < 0)
					return cli_usage_error("--color: '%s' is not auto, always or never",
							       v, NULL);
			} else if (!strcmp(opt, "--script")) {
				c->script = v;
			} else if (!strcmp(opt, "--input-format")) {
				if (!input_format_known(v))
					return cli_usage_error("--input-format: unknown format '%s' "
							       "(" INPUT_FORMATS ")", v, NULL);
				c->input_format = v;
			} else if (!strcmp(opt, "--kernel")) {
				c->kernel = v;
			} else if (!strcmp(opt, "-f") || !strcmp(opt, "--format")) {
				if (output_format_parse(v, &c->format) < 0)
					return cli_usage_error("unknown format '%s' (text, csv or json)", v,
							       NULL);
			} else if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
				c->output = v;
			} else {
				c->log = v;
			}
			continue;
		}
		if (attached)
			return cli_usage_error("option '%s' takes no value", opt, NULL);
		if (!strcmp(opt, "-q") || !strcmp(opt, "--quiet")) {
			c->quiet = 1;
		} else if (!strcmp(opt, "--no-timing")) {
			c->no_timing = 1;
		} else if (!strcmp(opt, "--teach")) {
			c->teach = 1;
		} else {
			c->cmd = CLI_HELP;
			return -1;
		}
	}
	return -1;
}

int cli_parse(cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	rd_config_default(&c->config);
	c->format = OUTPUT_TEXT;
	c->inputs = calloc((size_t)argc + 1, sizeof *c->inputs);
	c->sets = calloc((size_t)argc + 1, sizeof *c->sets);
	c->vary = calloc((size_t)argc + 1, sizeof *c->vary);
	if (!c->inputs || !c->sets || !c->vary) {
		fputs("rdscope: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	int first = 1;
	if (argc > 1) {
		const char *a = argv[1];
		if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
			c->cmd = CLI_HELP;
			return argc > 2 ? cli_usage_error("'%s' takes no arguments", a, NULL) : -1;
		}
		if (!strcmp(a, "--version")) {
			c->cmd = CLI_VERSION;
			return argc > 2 ? cli_usage_error("'%s' takes no arguments", a, NULL) : -1;
		}
		if (!strcmp(a, "keys")) {
			c->cmd = CLI_KEYS;
			return argc > 2 ? cli_usage_error("'%s' takes no arguments", a, NULL) : -1;
		}
		if (!strcmp(a, "run")) {
			c->cmd = CLI_RUN;
			first = 2;
		} else if (!strcmp(a, "convert") || !strcmp(a, "samples")) {
			c->cmd = a[0] == 'c' ? CLI_CONVERT : CLI_SAMPLES;
			first = 2;
		} else if (cli_batch_command(c, a)) {
			first = 2;
		} else if (a[0] != '-' && !looks_like_input(a)) {
			return cli_usage_error("unknown command '%s' (and no such file)", a,
					       suggest_closest(a, cli_commands,
							       sizeof cli_commands / sizeof cli_commands[0]));
		}
	}
	int rc = cli_parse_run(c, argc, argv, first);
	if (rc >= 0 || c->cmd == CLI_HELP)
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
	/* How every INPUT is read, for run, sweep, convert and the explorer. */
	input_set_defaults(&(input_opts){.format = c->input_format, .kernel = c->kernel});
	/* -p, then every -s, then the whole-configuration check. */
	return cli_batch_finish(c);
}

void cli_free(cli *c)
{
	free(c->inputs);
	free(c->sets);
	free(c->vary);
	c->inputs = NULL;
	c->sets = c->vary = NULL;
}
