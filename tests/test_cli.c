/*
 * The command line's tables (src/cmd/cli_table.c) and what is generated
 * from them: parsing, the commands' option checks, --help, and the man
 * page's OPTIONS and KEYS OF THE MODEL sections. Run from the source tree
 * (tests/run does), where man/ is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_man.h"
#include "cli_table.h"

static char out[1 << 16];

/* Run cli_parse on the words (NULL-ended, "rdscope" first) with standard
 * error caught into out; returns its status. */
static int parse(cli *c, const char *const *words)
{
	int argc = 0;
	char *argv[32];
	while (words[argc])
		argv[argc] = (char *)words[argc], argc++;
	argv[argc] = NULL;
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int rc = cli_parse(c, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(out, 1, sizeof out - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return rc;
}

/* The first line of what parse caught. */
static const char *first_line(void)
{
	char *nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	return out;
}

static void test_cli_table_rows(void **state)
{
	(void)state;
	size_t n = 0;
	for (const cli_option *o = cli_options; o->name; o++, n++) {
		assert_non_null(o->help);
		assert_non_null(o->man);
		assert_true(o->set || o->alone);
		/* a name (or letter) twice only for commands apart: each
		 * command finds its own (cli_option_find) */
		for (const cli_option *p = cli_options; p < o; p++) {
			if (!strcmp(p->name, o->name))
				assert_int_equal(p->commands & o->commands, 0);
			assert_false(o->letter && p->letter == o->letter);
		}
	}
	assert_true(n <= CLI_MAX_OPTIONS); /* cli.given has a bit each */
	assert_true(sizeof ((cli *)0)->given * 8 >= CLI_MAX_OPTIONS);
	/* --by is run's (site|array|none) and placements' (mem|inst) */
	assert_string_equal(cli_option_find("--by", CLI_RUN)->arg, "site|array|none");
	assert_string_equal(cli_option_find("--by", CLI_PLACEMENTS)->arg, "mem|inst");
	assert_string_equal(cli_option_find("--by", CLI_COUNT)->arg, "site|array|none");
	for (size_t i = 0; i < cli_ncmds; i++) {
		assert_ptr_equal(cli_cmd_of(cli_cmds[i].cmd), &cli_cmds[i]);
		if (cli_cmds[i].name)
			assert_ptr_equal(cli_cmd_find(cli_cmds[i].name), &cli_cmds[i]);
	}
	assert_non_null(cli_cmd_of(CLI_DEFAULT));
	assert_null(cli_cmd_find("--help"));
}

/* Each case {message, words...} refused with exit 2, its first line the
 * message. */
static void expect_usage(const char *const (*cases)[6], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *w[8] = {"rdscope"};
		for (int j = 1; j < 6 && cases[i][j]; j++)
			w[j] = cases[i][j];
		cli c;
		assert_int_equal(parse(&c, w), EXIT_USAGE);
		assert_string_equal(first_line(), cases[i][0]);
		cli_free(&c);
	}
}

/* Every command of CLI_COMMANDS has its functions: it runs, its arguments
 * are checked, its configuration is (or is not) read; and each of its
 * words is a row of cli_cmds[] (a row per command at most: the parser's
 * list of names for "did you mean" holds CLI_NCOMMANDS). */
static void test_cli_command_rows(void **state)
{
	(void)state;
	size_t n = 0;
	for (int e = 0; e < CLI_NCOMMANDS; e++) {
		const cli_command_fns *f = &cli_commands[e];
		if (!f->run || !f->check || !f->config)
			fail_msg("command %d lacks its run, check or config function", e);
		const cli_cmd *k = cli_cmd_of((enum cli_command)e);
		if (e == CLI_VERSION) /* --version alone: no row of its own */
			assert_null(k);
		else
			assert_non_null(k);
		n += k != NULL;
	}
	assert_int_equal(n, cli_ncmds);
	/* the no-command form runs as run does; keys, help and version read
	 * no configuration; profile and count check only what they read */
	assert_ptr_equal(cli_commands[CLI_DEFAULT].run, cli_commands[CLI_RUN].run);
	assert_ptr_equal(cli_commands[CLI_KEYS].config, cli_config_none);
	assert_ptr_equal(cli_commands[CLI_COMPARE].config, cli_config_none);
	rd_config cfg, chk;
	rd_config_default(&cfg);
	cfg.l1_line = 64;
	cfg.l1_size = 5; /* no whole number of ways: refused, but count reads only l1.line */
	chk = cfg;
	cli_commands[CLI_COUNT].config(&cfg, &chk);
	char err[256];
	assert_int_equal(rd_config_check(&chk, err, sizeof err), 0);
	assert_int_equal(chk.l1_line, 64);
	chk = cfg;
	cli_commands[CLI_RUN].config(&cfg, &chk);
	assert_true(rd_config_check(&chk, err, sizeof err) < 0);
	/* each command's own check, at the parser's end */
	static const char *const cases[][6] = {
		{"rdscope: sweep: no --vary KEY=V1,V2,... given (use 'run' for one point)", "sweep", "x"},
		{"rdscope: profile: no INPUT given", "profile"},
		{"rdscope: --estimate: text or JSON output (the CSV has a row per distance)", "profile",
		 "--estimate", "-f", "csv", "x"},
		{"rdscope: train: unexpected argument 'x' (it generates its own profiles)", "train", "x"},
		{"rdscope: count: one KDESC[:VARIANT] expected", "count", "a", "b"},
		{"rdscope: kdesc: --from-c FILE.c expected (and nothing else)", "kdesc"},
		{"rdscope: compare: two result files (A.json B.json) expected", "compare", "a"},
		{"rdscope: calibrate: --fit KEY[,KEY...] expected (the keys to fit)", "calibrate",
		 "--measured", "m", "x"},
		{"rdscope: placements: one INPUT expected", "placements"},
		{"rdscope: check: no FILE given", "check"},
		{"rdscope: presets: takes no arguments", "presets", "x"},
		{"rdscope: --as: unknown format 'x' (preset, gpgpusim or gpgpusim4)", "preset", "--as",
		 "x"},
	};
	expect_usage(cases, sizeof cases / sizeof cases[0]);
}

/* "did you mean" looks at every option, past any fixed count (the parser
 * once compared the first 64 alone). */
static void test_cli_option_suggest(void **state)
{
	(void)state;
	static char names[200][16];
	static cli_option table[201];
	const char *(*set)(cli *, const cli_option *, const char *) = cli_options[0].set;
	for (int i = 0; i < 200; i++) {
		snprintf(names[i], sizeof names[i], "opt%03d", i * 7);
		table[i] = (cli_option){.name = names[i], .set = set};
	}
	snprintf(names[150], sizeof names[150], "zebra-stripes");
	char buf[64];
	const char *hint = cli_option_suggest(table, "--zebra-stripe", buf, sizeof buf);
	assert_non_null(hint);
	assert_string_equal(hint, "--zebra-stripes");
	assert_null(cli_option_suggest(table, "--giraffe", buf, sizeof buf));
	table[150].set = NULL; /* alone (--version): not after the first word */
	assert_null(cli_option_suggest(table, "--zebra-stripe", buf, sizeof buf));
	hint = cli_option_suggest(cli_options, "--prest", buf, sizeof buf);
	assert_non_null(hint);
	assert_string_equal(hint, "--preset");
}

/* Options set what their rows say, in either form. */
static void test_cli_parse_ok(void **state)
{
	(void)state;
	cli c;
	const char *w1[] = {"rdscope", "sweep", "-sl1.ways=8", "--set", "l1.size=32K", "--vary=l1.ways=2,4",
			    "-j", "3", "--shard=1/4", "-qf", "csv", "--no-timing", "--kernel", "k", "-",
			    "--", "-x", NULL};
	/* -qf: -q takes no value */
	assert_int_equal(parse(&c, w1), EXIT_USAGE);
	assert_string_equal(first_line(), "rdscope: option '-q' takes no value");
	cli_free(&c);
	const char *w2[] = {"rdscope", "sweep", "-sl1.ways=8", "--set", "l1.size=32K", "--vary=l1.ways=2,4",
			    "-j", "3", "--shard=1/4", "-q", "--format=csv", "--no-timing", "--kernel", "k",
			    "-", "--", "-x", NULL};
	assert_int_equal(parse(&c, w2), 0);
	assert_string_equal(out, "");
	assert_int_equal(c.cmd, CLI_SWEEP);
	assert_int_equal(c.nsets, 2);
	assert_string_equal(c.sets[1], "l1.size=32K");
	assert_int_equal(c.config.l1_ways, 8);
	assert_int_equal(c.config.l1_size, 32768);
	assert_int_equal(c.nvary, 1);
	assert_string_equal(c.vary[0], "l1.ways=2,4");
	assert_int_equal(c.jobs, 3);
	assert_int_equal(c.shard_k, 1);
	assert_int_equal(c.shard_n, 4);
	assert_int_equal(c.quiet, 1);
	assert_int_equal(c.no_timing, 1);
	assert_int_equal(c.format, OUTPUT_CSV);
	assert_string_equal(c.kernel, "k");
	assert_int_equal(c.ninputs, 2);
	assert_string_equal(c.inputs[0], "-");
	assert_string_equal(c.inputs[1], "-x");
	input_opts o = cli_input_opts(&c);
	assert_string_equal(o.kernel, "k");
	assert_null(o.format);
	cli_free(&c);
	/* -h anywhere: the help, the rest unread */
	const char *w3[] = {"rdscope", "run", "--color", "never", "-h", "--bogus", NULL};
	assert_int_equal(parse(&c, w3), 0);
	assert_int_equal(c.cmd, CLI_HELP);
	assert_string_equal(c.color, "never");
	cli_free(&c);
	const char *w4[] = {"rdscope", "--version", NULL};
	assert_int_equal(parse(&c, w4), 0);
	assert_int_equal(c.cmd, CLI_VERSION);
	cli_free(&c);
}

/* Usage errors: the message (first line), exit status 2. */
static void test_cli_parse_errors(void **state)
{
	(void)state;
	/* the message (first line), then the words after "rdscope" */
	static const char *const cases[][6] = {
		{"rdscope: '--version' takes no arguments", "--version", "x"},
		{"rdscope: 'keys' takes no arguments", "keys", "-q"},
		{"rdscope: unknown option '--version'", "run", "--version"},
		{"rdscope: unknown option '--prest'; did you mean '--preset'?", "run", "--prest", "x"},
		{"rdscope: unknown option '-Q'", "run", "-Q"},
		{"rdscope: option '-s' needs a value", "run", "-s"},
		{"rdscope: option '--quiet' takes no value", "run", "--quiet=1"},
		{"rdscope: unknown format 'xml' (text, csv or json)", "run", "-f", "xml"},
		{"rdscope: --color: 'pink' is not auto, always or never", "--color", "pink"},
		{"rdscope: --input-format: unknown format 'x' (auto|ocelot|nvbit|accelsim|rdt|kdesc)",
		 "--input-format", "x"},
		{"rdscope: unknown command 'swep' (and no such file); did you mean 'sweep'?", "swep"},
		{"rdscope: -j: not an option of 'count'", "count", "-j", "2", "x"},
		{"rdscope: --log: not an option of 'rdscope'", "samples", "--log", "x"},
		{"rdscope: --from-gpgpusim: not an option of 'merge'", "merge", "--from-gpgpusim", "x",
		 "f"},
		{"rdscope: -o: not an option of 'presets'", "presets", "--vary", "x", "-o", "y"},
		{"rdscope: run: no INPUT given", "run"},
		{"rdscope: l1.wayz: unknown key; did you mean 'l1.ways'?", "run", "-s", "l1.wayz=2", "x"},
	};
	expect_usage(cases, sizeof cases / sizeof cases[0]);
}

/* --help: one line per option and command from the tables. */
static void test_cli_help(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	cli_help(f);
	rewind(f);
	size_t n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	fclose(f);
	assert_non_null(strstr(out, "usage: rdscope [OPTIONS] [INPUT]\n       rdscope run [-p PRESET]"));
	assert_non_null(strstr(out, "\n  -p, --preset NAME|FILE  start from a preset (see 'rdscope presets')\n"));
	assert_non_null(strstr(out, "\n      --histogram FILE write the reuse-distance histograms"));
	assert_non_null(strstr(out, "\n  -f, --format FMT     output format"));
	assert_non_null(strstr(out, "\n  (none)    model INPUT, or the built-in sample"));
	assert_non_null(strstr(out, "\n  l1.hash=mod|xor|fermi|smod:N|prime\n"
				    "                             set-index function [fermi]\n"));
	for (const cli_option *o = cli_options; o->name; o++)
		assert_non_null(strstr(out, o->help));
	for (const rd_key *k = rd_keys; k->name; k++)
		assert_non_null(strstr(out, k->help));
}

/* The man page documents exactly the tables: `make man-gen` fixes it. */
static void test_cli_man_page(void **state)
{
	(void)state;
	char *man = man_read("man/rdscope.1"), *upd = man ? cli_man_update(man) : NULL;
	assert_non_null(upd);
	if (strcmp(man, upd) != 0)
		fail_msg("man/rdscope.1: OPTIONS or KEYS OF THE MODEL differs from the tables in "
			 "src/cmd/cli_table.c and model/config.c; run 'make man-gen'");
	free(upd);
	free(man);
	/* Every option and key, with its text, is in its section. */
	char *opts = cli_man_options(), *keys = cli_man_model_keys();
	assert_non_null(strstr(opts, ".SH OPTIONS\n"));
	for (const cli_option *o = cli_options; o->name; o++)
		assert_non_null(strstr(opts, o->man));
	assert_non_null(strstr(opts, "\n.BR \\-p \", \" \\-\\-preset \" \\fINAME\\fR|\\fIFILE\"\n"));
	assert_non_null(strstr(opts, "\n.B \\-\\-no\\-timing\n"));
	assert_non_null(strstr(opts, "\n.BR \\-\\-shard \" \\fIK\\fB/\\fIN\"\n.RB ( sweep )\n"));
	assert_non_null(strstr(keys, ".SH KEYS OF THE MODEL\n"));
	for (const rd_key *k = rd_keys; k->name; k++)
		assert_non_null(strstr(keys, k->doc ? k->doc : k->help + 1));
	assert_non_null(strstr(keys, "\n.BI l1.size \" = BYTES\"\nL1 cache size: at least one set\n"));
	assert_non_null(strstr(keys, "smod:\\fIN\\fB | prime\n"));
	assert_non_null(strstr(keys, "\nDefault\n.BR fermi .\n"));
	free(opts);
	free(keys);
	/* SYNOPSIS: every command of the table, with its usage's options */
	char *syn = cli_man_synopsis();
	assert_non_null(strstr(syn, ".SH SYNOPSIS\n"));
	for (size_t i = 0; i < cli_ncmds; i++) {
		char want[64];
		if (!cli_cmds[i].name || cli_cmds[i].cmd == CLI_HELP)
			continue;
		char esc[32]; /* a command's hyphen as roff writes it */
		size_t e = 0;
		for (const char *q = cli_cmds[i].name; *q && e + 3 < sizeof esc; q++) {
			if (*q == '-')
				esc[e++] = '\\';
			esc[e++] = *q;
		}
		esc[e] = '\0';
		snprintf(want, sizeof want, "\\fBrdscope\\fR \\fB%s", esc);
		if (!strstr(syn, want))
			fail_msg("SYNOPSIS lacks %s", cli_cmds[i].name);
	}
	assert_non_null(strstr(syn, "[\\fB\\-\\-plot\\fR \\fIFILE\\fB.svg\\fR]"));
	assert_non_null(strstr(syn, "\\fBrdscope\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n"));
	free(syn);
}

/* rdscope-preset.5's KEYS OF THE MODEL is the key table's, as a preset
 * file writes the keys: every key once, under its group, with its row's
 * text, profiles and condition. */
static void test_preset_man_page(void **state)
{
	(void)state;
	char *man = man_read("man/rdscope-preset.5"), *upd = man ? cli_man_preset_update(man) : NULL;
	assert_non_null(upd);
	if (strcmp(man, upd) != 0)
		fail_msg("man/rdscope-preset.5: KEYS OF THE MODEL differs from the key table in "
			 "model/config.c; run 'make man-gen'");
	free(upd);
	free(man);
	assert_true(cli_man_preset_groups_cover());
	char *keys = cli_man_preset_keys();
	assert_non_null(keys);
	for (const rd_key *k = rd_keys; k->name; k++) {
		char head[96];
		snprintf(head, sizeof head, "\n.TP\n.B %s\n", k->name);
		const char *at = strstr(keys, head);
		if (!at && !strchr(k->name, '_'))
			fail_msg("%s: no entry", k->name);
		if (at) /* once */
			assert_null(strstr(at + 1, head));
		assert_non_null(strstr(keys, k->doc ? k->doc : k->help + 1));
	}
	assert_non_null(strstr(keys, "\n.B l1.banks\nInteger, 1 to 1024.\n"));
	assert_non_null(strstr(keys, "Read under\n.B model=rdgc\nonly"));
	assert_non_null(strstr(keys, "Read only while\n.BR latency.model=adaptive .\n"));
	assert_non_null(strstr(keys, "Under\n.B model=rdgc\nthe default is 32.\nDefault 64.\n"));
	free(keys);
}

static void test_man_section_replace(void **state)
{
	(void)state;
	const char *page = ".TH X 1\n.SH NAME\nx\n.SH OPTIONS\nold\n.TP\nold\n.SH KEYS\nk\n";
	char *a = man_section_replace(page, "OPTIONS", ".SH OPTIONS\nnew\n");
	assert_string_equal(a, ".TH X 1\n.SH NAME\nx\n.SH OPTIONS\nnew\n.SH KEYS\nk\n");
	/* Idempotent; the last section runs to the end; a title is whole. */
	char *b = man_section_replace(a, "OPTIONS", ".SH OPTIONS\nnew\n");
	assert_string_equal(a, b);
	char *c = man_section_replace(b, "KEYS", ".SH KEYS\n");
	assert_string_equal(c, ".TH X 1\n.SH NAME\nx\n.SH OPTIONS\nnew\n.SH KEYS\n");
	assert_null(man_section_replace(page, "OPT", ".SH OPT\n"));
	assert_null(man_section_replace(".SH KEYS OF THE MODEL\nk\n", "KEYS", "x"));
	char *d = man_section_replace(".SH KEYS OF THE MODEL\nk\n", "KEYS OF THE MODEL", ".SH K\n");
	assert_string_equal(d, ".SH K\n");
	assert_null(cli_man_update(page)); /* no KEYS OF THE MODEL */
	free(a);
	free(b);
	free(c);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_table_rows),
		cmocka_unit_test(test_cli_command_rows),
		cmocka_unit_test(test_cli_option_suggest),
		cmocka_unit_test(test_cli_parse_ok),
		cmocka_unit_test(test_cli_parse_errors),
		cmocka_unit_test(test_cli_help),
		cmocka_unit_test(test_cli_man_page),
		cmocka_unit_test(test_man_section_replace),
		cmocka_unit_test(test_preset_man_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
