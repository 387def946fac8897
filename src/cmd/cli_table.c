/*
 * The command line's tables (see cli_table.h): every option and command
 * is one row here.
 */
#include "cli_table.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "util/util.h"

/* The no-command form and run model inputs alike. */
#define RUN_LIKE (CLI_CMD(CLI_DEFAULT) | CLI_CMD(CLI_RUN))

static const char *set_str(cli *c, const cli_option *o, const char *v)
{
	*(const char **)((char *)c + o->field) = v;
	return NULL;
}

static const char *set_flag(cli *c, const cli_option *o, const char *v)
{
	(void)v;
	*(int *)((char *)c + o->field) = 1;
	return NULL;
}

/* Append v to a list (cli_parse makes every list as long as argv). */
static const char *set_list(cli *c, const cli_option *o, const char *v)
{
	const char **list = *(const char ***)((char *)c + o->field);
	int *n = (int *)((char *)c + o->count);
	list[(*n)++] = v;
	return NULL;
}

static const char *set_format(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	return output_format_parse(v, &c->format) < 0 ? "unknown format '%s' (text, csv or json)"
						      : NULL;
}

static const char *set_color(cli *c, const cli_option *o, const char *v)
{
	static const char *const when[] = {"auto", "always", "never"};
	(void)o;
	for (int w = 0; w < 3; w++) {
		if (!strcmp(v, when[w])) {
			c->color = v;
			return NULL;
		}
	}
	return "--color: '%s' is not auto, always or never";
}

static const char *set_input_format(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	if (!input_format_known(v))
		return "--input-format: unknown format '%s' (" INPUT_FORMATS ")";
	c->input_format = v;
	return NULL;
}

static const char *set_plot_size(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	return plot_size_parse(v, &c->plot_w, &c->plot_h) < 0
		       ? "--plot-size: expected WxH in pixels, each 320 to 16384 (1920x1080, "
			 "1280x720), got '%s'"
		       : NULL;
}

static const char *set_plot_hist(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	if (plot_hists_check(v) < 0)
		return "--plot-hist: expected all, none or run numbers (0,5,...), got '%s'";
	c->plot_hist = v;
	return NULL;
}

static const char *set_by(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	if (c->cmd == CLI_PLACEMENTS) {
		if (strcmp(v, "mem") && strcmp(v, "inst"))
			return "--by: expected mem or inst, got '%s'";
		c->rank_inst = !strcmp(v, "inst");
		return NULL;
	}
	return output_by_parse(v, &c->by) < 0 ? "--by: expected site, array or none, got '%s'"
					      : NULL;
}

static const char *set_top(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	char *end;
	errno = 0;
	unsigned long n = *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
	if (*v < '0' || *v > '9' || errno || *end || n > 1000000)
		return "--top: expected a number of rows from 0 (all) to 1000000, got '%s'";
	c->top = (unsigned)n;
	return NULL;
}

static const char *set_interval(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	char *end;
	errno = 0;
	unsigned long n = *v >= '1' && *v <= '9' ? strtoul(v, &end, 10) : 0;
	if (!n || errno || *end || n > 1000000000000ul)
		return "--interval: expected a number of requests from 1 to 10^12, got '%s'";
	c->interval = n;
	return NULL;
}

/* A whole decimal number from 1 to max into *out (unsigned or unsigned
 * long long, by size). */
static int whole(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long n = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
	if (*v < '0' || *v > '9' || errno || *end || n > max)
		return -1;
	*out = n;
	return 0;
}

static const char *set_samples(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	unsigned long long n;
	if (whole(v, 100000, &n) < 0 || !n)
		return "--samples: expected profiles per cell of the grid from 1 to 100000, got '%s'";
	c->samples = (unsigned)n;
	return NULL;
}

static const char *set_epochs(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	unsigned long long n;
	if (whole(v, 100000, &n) < 0 || !n)
		return "--epochs: expected passes over the data from 1 to 100000, got '%s'";
	c->epochs = (unsigned)n;
	return NULL;
}

static const char *set_train_seed(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	if (whole(v, ~0ull, &c->train_seed) < 0)
		return "--seed: expected a number from 0 to 2^64 - 1, got '%s'";
	return NULL;
}

static const char *set_method(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	static const char *const names[] = {"binomial", "fa", "learned"};
	if (!strcmp(v, "all")) {
		c->methods = 7;
		return NULL;
	}
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(v, names[i])) {
			c->methods = 1u << i;
			return NULL;
		}
	}
	return "--method: expected binomial, fa, learned or all, got '%s'";
}

static const char *set_stores(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	if (strcmp(v, "allocate") && strcmp(v, "skip"))
		return "--stores: expected allocate or skip, got '%s'";
	c->skip_stores = !strcmp(v, "skip");
	return NULL;
}

static const char *set_gap(cli *c, const cli_option *o, const char *v)
{
	(void)o;
	char *end;
	errno = 0;
	int hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
	const char *digits = hex ? v + 2 : v;
	unsigned long long n = 0;
	end = (char *)digits;
	if ((*digits >= '0' && *digits <= '9') || (hex && strchr("abcdefABCDEF", *digits) && *digits))
		n = strtoull(digits, &end, hex ? 16 : 10);
	if (!n || errno || *end)
		return "--gap: expected a number of bytes of at least 1 (decimal or 0x hex), got '%s'";
	c->gap = n;
	return NULL;
}

static const char *set_help(cli *c, const cli_option *o, const char *v)
{
	(void)o, (void)v;
	c->help_of = c->cmd; /* `rdscope run --help`: run's own help */
	c->cmd = CLI_HELP;   /* the rest of the line is not looked at */
	return NULL;
}

/* In the order of --help and the man page. */
const cli_option cli_options[] = {
	{
		.name = "preset", .letter = 'p', .arg = "NAME|FILE",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PRESET) | CLI_CMD(CLI_PROFILE) |
			    CLI_CMD(CLI_ESTIMATE) | CLI_CMD(CLI_COUNT) | CLI_CMD(CLI_PLACEMENTS) | CLI_CMD(CLI_VALIDATE) |
			    CLI_CMD(CLI_CALIBRATE),
		.set = set_str, .field = offsetof(cli, preset),
		.help = "start from a preset (see 'rdscope presets')",
		.man = "Start from a preset instead of the defaults: a name from the search path\n"
		       "(see\n"
		       ".BR \"rdscope presets\" )\n"
		       "or a file (a path with a\n"
		       ".B /\n"
		       "or ending in\n"
		       ".BR .cfg ).\n"
		       "Every\n"
		       ".B \\-s\n"
		       "applies on top of it, wherever it is written.\n"
		       "The format is described in\n"
		       ".BR rdscope\\-preset (5).",
	},
	{
		.name = "set", .letter = 's', .arg = "KEY=VALUE",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PRESET) | CLI_CMD(CLI_PROFILE) |
			    CLI_CMD(CLI_ESTIMATE) | CLI_CMD(CLI_COUNT) | CLI_CMD(CLI_PLACEMENTS) | CLI_CMD(CLI_VALIDATE) |
			    CLI_CMD(CLI_CALIBRATE),
		.set = set_list, .field = offsetof(cli, sets), .count = offsetof(cli, nsets),
		.help = "set a key of the model (repeatable, after -p)",
		.man = "Set a key of the model (see\n"
		       ".BR \"KEYS OF THE MODEL\" ).\n"
		       "May be repeated; later settings win.\n"
		       "Each value is checked as it is given, the whole configuration after the last\n"
		       ".BR \\-s .",
	},
	{
		.name = "format", .letter = 'f', .arg = "FMT",
		.commands = CLI_ALL_COMMANDS,
		.set = set_format,
		.help = "output format: text (default), csv or json",
		.man = "Output format:\n"
		       ".B text\n"
		       "(the default; for people),\n"
		       ".B csv\n"
		       "(a header line with a column for every key of the model, then one row\n"
		       "per input) or\n"
		       ".B json\n"
		       "(one document,\n"
		       ".BR {\"format\":\"rdscope-results\",\"version\":1,\"runs\":[...]} ,\n"
		       "with the configuration, counts, miss rates, misses of each case, the\n"
		       "reuse-distance histogram, the L2's results, RDGC's metrics and timings of\n"
		       "each input; see\n"
		       ".BR RESULTS ).",
	},
	{
		.name = "output", .letter = 'o', .arg = "FILE",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PRESET) | CLI_CMD(CLI_MERGE) |
			    CLI_CMD(CLI_PROFILE) | CLI_CMD(CLI_COMPARE) | CLI_CMD(CLI_TRAIN) |
			    CLI_CMD(CLI_ESTIMATE) | CLI_CMD(CLI_COUNT) | CLI_CMD(CLI_KDESC) |
			    CLI_CMD(CLI_ARRAYS) | CLI_CMD(CLI_PLACEMENTS) | CLI_CMD(CLI_VALIDATE) |
			    CLI_CMD(CLI_CALIBRATE),
		.set = set_str, .field = offsetof(cli, output),
		.help = "write results to FILE (replaced only on success; calibrate: the fitted preset)",
		.man = "Write the results to\n"
		       ".I FILE\n"
		       "instead of standard output.\n"
		       "The file is written under a temporary name next to it and renamed into place\n"
		       "only when every input succeeded, so a failed run leaves an existing\n"
		       ".I FILE\n"
		       "untouched.\n"
		       "That holds for a regular file (or a new one); through a symbolic link, the\n"
		       "link's target is replaced and the link kept.\n"
		       "A device, a FIFO or a socket is opened and written through, never replaced;\n"
		       ".IR /dev/stdout \" and \" \\-\n"
		       "mean standard output; a directory is refused before any input is read.\n"
		       "The same holds for every file rdscope writes.\n"
		       "For\n"
		       ".BR calibrate ,\n"
		       ".I FILE\n"
		       "receives the fitted configuration as a preset file (the report stays on\n"
		       "standard output).",
	},
	{
		.name = "log", .arg = "FILE",
		.commands = RUN_LIKE,
		.set = set_str, .field = offsetof(cli, log),
		.help = "write the per-request event log (CSV) of one INPUT",
		.man = "Write the event log of the as-configured case to\n"
		       ".I FILE\n"
		       "(CSV, one row per request in issue order: time, core, block, warp, leader\n"
		       "thread, coalesced threads, load index, address, line, set, reuse distance,\n"
		       "outcome, miss class, latency, effect time, MSHRs in use, load or store,\n"
		       "then level (1 the L1, 2 the L2), partition, bank, port and the free entries\n"
		       "of the request's MSHR set).\n"
		       "Outcomes:\n"
		       ".BR hit ,\n"
		       ".BR miss ,\n"
		       ".B cancel\n"
		       "(no MSHR),\n"
		       ".B evict\n"
		       "and\n"
		       ".B bypass\n"
		       "(stores under\n"
		       ".BR l1.stores=evict ),\n"
		       "and under\n"
		       ".B model=rdgc\n"
		       "and at the L2\n"
		       ".B rf\n"
		       "(a reservation fail: no MSHR entry or merge slot),\n"
		       ".B merge\n"
		       "(merged into an entry in flight) and\n"
		       ".B fill\n"
		       "(a line arriving, a row of its own).\n"
		       "Needs exactly one\n"
		       ".IR INPUT ;\n"
		       "written like\n"
		       ".BR \\-o .",
	},
	{
		.name = "quiet", .letter = 'q',
		.commands = CLI_ALL_COMMANDS,
		.set = set_flag, .field = offsetof(cli, quiet),
		.help = "no progress indicator",
		.man = "Show no progress indicator.\n"
		       "Without it a one-line indicator is drawn on standard error when that is a\n"
		       "terminal, and erased when done.",
	},
	{
		.name = "no-timing",
		.commands = CLI_ALL_COMMANDS,
		.set = set_flag, .field = offsetof(cli, no_timing),
		.help = "leave wall-clock times out (reproducible output)",
		.man = "Leave the wall-clock times out of the results (the JSON\n"
		       ".B timing\n"
		       "object and the CSV\n"
		       ".B model_s\n"
		       "value), so that two runs with the same inputs, keys and\n"
		       ".B seed\n"
		       "give byte-identical output.\n"
		       "In the explorer: show no model time on the status line.",
	},
	{
		.name = "color", .arg = "WHEN",
		.commands = CLI_CMD(CLI_DEFAULT),
		.set = set_color,
		.help = "explorer colours: auto (default), always or never",
		.man = "Colours in the explorer:\n"
		       ".B auto\n"
		       "(the default: colours when the terminal has them and the environment\n"
		       "variable\n"
		       ".B NO_COLOR\n"
		       "is not set to a non-empty value),\n"
		       ".B always\n"
		       "(even with\n"
		       ".BR NO_COLOR )\n"
		       "or\n"
		       ".BR never .\n"
		       "Without colours every miss class is drawn with a glyph of its own.",
	},
	{
		.name = "script", .arg = "FILE",
		.commands = CLI_CMD(CLI_DEFAULT),
		.set = set_str, .field = offsetof(cli, script),
		.help = "explorer: take the keys from FILE (screen tests)",
		.man = "Open the explorer (standard output must be a terminal) and take its keys\n"
		       "from\n"
		       ".I FILE\n"
		       "instead of the keyboard, one action a line:\n"
		       "a key name\n"
		       ".RB ( up \", \" down \", \" left \", \" right \", \" enter \", \" tab \", \" esc \", \"\n"
		       ".BR backspace \", \" space \", \" f1 \", \" ctrl\\-l \", \" ctrl\\-u ,\n"
		       "or a single character),\n"
		       ".BI \"type \" TEXT\n"
		       "(each character as a key),\n"
		       ".B wait\n"
		       "(until the model's final result for the current configuration is on the\n"
		       "screen, and the open view's own run: the step-through's requests, the\n"
		       "curves),\n"
		       ".BI \"dump\\-screen \" FILE\n"
		       "(wait, then write the screen's text to\n"
		       ".IR FILE ),\n"
		       ".BI \"dump\\-curves \" FILE\n"
		       "(wait, then write the curves view's values as CSV:\n"
		       ".BR curve , key , value , l1.size , l1.ways , requests , misses , miss_rate ),\n"
		       ".BI \"wait\\-size \" \"ROWS COLS\"\n"
		       "or\n"
		       ".BI \"sleep \" MS\\c\n"
		       "\\&; blank lines and lines starting with\n"
		       ".B #\n"
		       "are skipped.\n"
		       "The explorer quits at the end of the script.\n"
		       "A wait longer than 60 seconds fails with exit status 1.\n"
		       "For tests and demonstrations.",
	},
	{
		.name = "teach",
		.commands = CLI_CMD(CLI_DEFAULT),
		.set = set_flag, .field = offsetof(cli, teach),
		.help = "explorer in class mode: the paper's Tables 1-5, step by step",
		.man = "Open the explorer in class mode: the step-through view of the paper's\n"
		       "Table 1 (the built-in copy of\n"
		       ".I samples/paper/table1.trc\n"
		       "under the\n"
		       ".B toy\\-table2\n"
		       "preset), with a one-line explanation of each request.\n"
		       ".B n\n"
		       "and\n"
		       ".B p\n"
		       "go to the next and previous table of the story, Table 1 to Table 5, each\n"
		       "with its toy preset and trace.\n"
		       "Takes no\n"
		       ".IR INPUT ,\n"
		       ".B \\-p\n"
		       "or\n"
		       ".BR \\-s ;\n"
		       "needs a terminal.",
	},
	{
		.name = "histogram", .arg = "FILE",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP),
		.set = set_str, .field = offsetof(cli, histogram),
		.help = "write the reuse-distance histograms as long CSV",
		.man = "Write the reuse-distance histogram of every result to\n"
		       ".I FILE\n"
		       "as long-form CSV, one row per distance with a count:\n"
		       ".BR run,point,input,kernel,ways,distance,count ,\n"
		       ".B inf\n"
		       "for first touches;\n"
		       ".B ways\n"
		       "is the hit/miss cut-off (a request hits when its distance is below it).\n"
		       "For\n"
		       ".BR run ,\n"
		       "input\n"
		       ".I i\n"
		       "is run\n"
		       ".IR i ,\n"
		       "point 0.\n"
		       "Written like\n"
		       ".BR \\-o .",
	},
	{
		.name = "plot", .arg = "FILE.svg",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_VALIDATE),
		.set = set_str, .field = offsetof(cli, plot),
		.help = "write an SVG of the miss breakdown and histograms (validate: a scatter)",
		.man = "Write an SVG picture for slides (size:\n"
		       ".BR \\-\\-plot\\-size ).\n"
		       "Left, one horizontal stacked bar per result: the hits and the misses of\n"
		       "each class as shares of requests (one\n"
		       ".B <g class=\"point\">\n"
		       "per bar), the share of each segment printed in it where it fits, the miss\n"
		       "rate at its end, and labelled with its kernel or, in a sweep, the values of\n"
		       "its point\n"
		       ".RB ( \"l1.ways=4 latency.miss=100\" ;\n"
		       "points of several inputs under a heading per input).\n"
		       "Right, the reuse-distance histogram of every result (one\n"
		       ".B <g class=\"histogram\">\n"
		       "each), titled like its bar, bars split into hits and misses at the\n"
		       "associativity with a dashed cut-off line, the counts of its tallest bins\n"
		       "above them.\n"
		       "Colours: the Okabe\\(enIto palette, as in the explorer (see\n"
		       ".BR COLOURS ).\n"
		       "With\n"
		       ".BR validate ,\n"
		       "a scatter plot instead: the model's hit rate (y) against the measured one\n"
		       "(x), 0% to 100% on both axes, one marker per kernel and level with both\n"
		       "rates (L1 a blue circle, L2 a vermillion square; one\n"
		       ".B <g class=\"point l1\">\n"
		       "or\n"
		       ".B <g class=\"point l2\">\n"
		       "each, labelled with the kernel), the diagonal model = measured dashed, and\n"
		       "the mean absolute error of each level in the title.\n"
		       "Written like\n"
		       ".BR \\-o .",
	},
	{
		.name = "plot-size", .arg = "WxH",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_VALIDATE),
		.set = set_plot_size,
		.help = "--plot canvas in pixels (default 1920x1080)",
		.man = "The size of the\n"
		       ".B \\-\\-plot\n"
		       "picture in pixels, for instance\n"
		       ".B 1280x720\n"
		       "(each side 320 to 16384; the default is\n"
		       ".BR 1920x1080 ,\n"
		       "16:9 for slides).\n"
		       "Text is 1/54 of the height (20 px at 1080, and never below 16 px down to\n"
		       "720), headings 1/45.\n"
		       "The picture is exactly\n"
		       ".IR W x H\n"
		       "unless more results are plotted than fit at that text size: then it grows\n"
		       "downward, keeping its width\n"
		       ".RB ( \\-\\-plot\\-hist\n"
		       "picks fewer histograms).",
	},
	{
		.name = "plot-hist", .arg = "RUNS",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP),
		.set = set_plot_hist,
		.help = "--plot: histograms of RUNS: all (default), none, N,N,...",
		.man = "The runs whose reuse-distance histograms the\n"
		       ".B \\-\\-plot\n"
		       "picture draws:\n"
		       ".B all\n"
		       "(the default),\n"
		       ".B none\n"
		       "(the bars take the whole width), or run numbers separated by commas, as in\n"
		       "the results'\n"
		       ".B run\n"
		       "column (for\n"
		       ".BR run ,\n"
		       "input\n"
		       ".I i\n"
		       "is run\n"
		       ".IR i ).\n"
		       "A sweep of a dozen points fits a 1280x720 slide with two or three of them.",
	},
	{
		.name = "by", .arg = "site|array|none",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP),
		.set = set_by,
		.help = "results by source: per load site or per array (default none)",
		.man = "Break each result down by where its loads come from:\n"
		       ".B site\n"
		       "gives a row per source site \\(em a kernel description's load reference\n"
		       "(its line and text, e.g.\n"
		       ".BR \"line 27 b[k][j]\" ),\n"
		       "an Accel-Sim instruction's PC, or, for traces without PCs (Ocelot,\n"
		       "NVBit's mem_trace), the per-thread load number \\(em and\n"
		       ".B array\n"
		       "sums the sites of each array of a description.\n"
		       "Each row has the requests, hits, misses, each miss class and the\n"
		       "reuse-distance histogram in powers of two, and the rows sum exactly to\n"
		       "the kernel's counts (the breakdown's differences are shared among the\n"
		       "sites in proportion to their own).\n"
		       "Text prints a table sorted by misses\n"
		       ".RB ( \\-\\-top ),\n"
		       "JSON adds\n"
		       ".B sites\n"
		       "to each run:\n"
		       ".BR site ,\n"
		       ".BR pc ,\n"
		       ".B line\n"
		       "or\n"
		       ".BR load ,\n"
		       ".BR reference ,\n"
		       ".BR array ,\n"
		       ".B counts\n"
		       "and\n"
		       ".BR histogram .\n"
		       "The paper profile only (reference\\-2013 reproduces the 2013 code's totals).",
	},
	{
		.name = "top", .arg = "N",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP),
		.set = set_top,
		.help = "--by: the text shows the N sites with most misses (0: all)",
		.man = "With\n"
		       ".BR \\-\\-by ,\n"
		       "the text output lists only the\n"
		       ".I N\n"
		       "rows with the most misses (0, the default, lists all); JSON keeps every row.",
	},
	{
		.name = "define", .letter = 'D', .arg = "NAME=VALUE",
		.commands = RUN_LIKE | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PROFILE) | CLI_CMD(CLI_COUNT) |
			    CLI_CMD(CLI_CONVERT) | CLI_CMD(CLI_KDESC) | CLI_CMD(CLI_PLACEMENTS) | CLI_CMD(CLI_VALIDATE) |
			    CLI_CMD(CLI_CALIBRATE),
		.set = set_list, .field = offsetof(cli, defines), .count = offsetof(cli, ndefines),
		.help = "set a kernel description's parameter (repeatable; after :VARIANT)",
		.man = "Set parameter\n"
		       ".I NAME\n"
		       "of a kernel description input to the integer\n"
		       ".I VALUE\n"
		       "(a problem size: gemm's\n"
		       ".BR \"\\-D D=1024\" ),\n"
		       "over its\n"
		       ".B params\n"
		       "and any\n"
		       ".BI : VARIANT\n"
		       "chosen; may be repeated. A name the description does not declare, or any\n"
		       "other kind of input, is refused.",
	},
	{
		.name = "levels", .arg = "SIZE,...",
		.commands = CLI_CMD(CLI_COUNT),
		.set = set_str, .field = offsetof(cli, levels),
		.help = "count: the cache sizes counted (default 32K,512K)",
		.man = "The fully associative cache sizes\n"
		       ".B count\n"
		       "counts, in bytes with an optional\n"
		       ".B K\n"
		       "or\n"
		       ".B M\n"
		       "(1024, 1024\\(mu1024), comma-separated, each a whole number of lines, at\n"
		       "most 16 (the default\n"
		       ".BR 32K,512K ,\n"
		       "HayStack's).",
	},
	{
		.name = "stores", .arg = "allocate|skip",
		.commands = CLI_CMD(CLI_COUNT),
		.set = set_stores,
		.help = "count: stores are accesses that allocate (default), or left out",
		.man = "With\n"
		       ".B skip\n"
		       "the description's stores are left out of the stream; with\n"
		       ".B allocate\n"
		       "(the default, HayStack's) every store is an access that allocates its line.",
	},
	{
		.name = "measured", .arg = "FILE",
		.commands = CLI_CMD(CLI_VALIDATE) | CLI_CMD(CLI_CALIBRATE) | CLI_CMD(CLI_DEFAULT),
		.set = set_str, .field = offsetof(cli, measured),
		.help = "validate, calibrate, the explorer: measured hit rates (plain CSV, ncu pages, nvprof CSV)",
		.man = "The measured hit rates to compare with (in the explorer, the breakdown shows\n"
		       "the kernel's measured L1 hit rate beside the model's), in one of seven layouts told from\n"
		       "the content (and named in the output's first line):\n"
		       "a plain CSV, one kernel a line,\n"
		       ".BR kernel , l1_hit_rate [, l2_hit_rate ]\n"
		       "(rates from 0 to 1, or 0% to 100%; a first line starting with\n"
		       ".B kernel,\n"
		       "is a header;\n"
		       ".B #\n"
		       "comments);\n"
		       "Nsight Compute's CSV, its metrics page\n"
		       ".RB ( \"ncu \\-\\-csv \\-\\-metrics\"\n"
		       ".IR METRICS ,\n"
		       "the metrics below) or details page\n"
		       ".RB ( \"\\-\\-section MemoryWorkloadAnalysis\" ,\n"
		       "any\n"
		       ".BR \\-\\-print\\-units ):\n"
		       "a row per launch and metric, columns\n"
		       ".BR ID ,\n"
		       ".BR \"Kernel Name\" ,\n"
		       ".BR \"Metric Name\" ,\n"
		       ".BR \"Metric Value\" ;\n"
		       "its raw page\n"
		       ".RB ( \"\\-\\-page raw\" :\n"
		       "a column per metric, a row of units);\n"
		       "its text page (without\n"
		       ".BR \\-\\-csv ,\n"
		       "as printed or pasted: a line per launch\n"
		       "\"NAME (GRID)x(BLOCK), Context C, Stream S, ...\",\n"
		       "tables framed by dashes; the program's output before it skipped);\n"
		       "nvprof's metrics CSV\n"
		       ".RB ( \"nvprof \\-\\-csv \\-\\-metrics global_hit_rate,l2_l1_read_hit_rate\" ;\n"
		       "the\n"
		       ".B Avg\n"
		       "column) or events CSV\n"
		       ".RB ( \"\\-\\-events l1_global_load_hit,l1_global_load_miss\" ;\n"
		       "L1 hit rate = hit / (hit + miss) of the\n"
		       ".B Total\n"
		       "column).\n"
		       "The L1 metric is\n"
		       ".B l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\n"
		       "(global loads, what the model counts; else\n"
		       ".BR l1tex__t_sector_hit_rate.pct ,\n"
		       "else the details page's \"L1/TEX Hit Rate\", every L1 access: a note says so),\n"
		       ".B global_hit_rate\n"
		       "(else\n"
		       ".BR l1_cache_global_hit_rate );\n"
		       "the L2's the L1s' reads',\n"
		       ".B lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\n"
		       "over\n"
		       ".B lts__t_sectors_srcunit_tex_op_read.sum\n"
		       "(what the model's L2 takes; a note says so), else\n"
		       ".B lts__t_sector_hit_rate.pct\n"
		       "(every source; else \"L2 Hit Rate\"),\n"
		       ".B l2_l1_read_hit_rate\n"
		       "(else\n"
		       ".BR l2_read_hit_rate ,\n"
		       ".BR l2_hit_rate );\n"
		       "profilers' values are percents (thousands separators taken,\n"
		       ".B n/a\n"
		       "and\n"
		       ".B no data\n"
		       "are no value) and their\n"
		       ".BR ==PROF== ,\n"
		       ".B ==WARNING==\n"
		       "and\n"
		       ".B ==PID==\n"
		       "lines comments.\n"
		       "A percent below 0 or above 100 (ncu's replay passes give 104.17) is\n"
		       "clamped, counted and named in a note on standard error, not refused.\n"
		       "A kernel named\n"
		       ".I NAME\n"
		       "(a description's launch tag\n"
		       ".B [t=0]\n"
		       "dropped) matches the kernel named\n"
		       ".IR NAME ,\n"
		       "or whose signature's name before\n"
		       ".B (\n"
		       "is\n"
		       ".I NAME\n"
		       "(\"colcopy(float*, float*, int)\"; a leading \"void \" dropped):\n"
		       "the k-th kernel of a name among the inputs (with\n"
		       ".BR \\-\\-kernel ,\n"
		       "the ones left out counted) matches its k-th launch, counted from 0 in ID\n"
		       "order (nvprof gives one row per kernel: launch 0);\n"
		       ".IR NAME # N\n"
		       "selects launch\n"
		       ".IR N .\n"
		       "Launches and kernels left unmatched are said and left out.\n"
		       "Sectors: Nsight Compute counts 32-byte sectors, the model requests of\n"
		       ".B l1.line\n"
		       "bytes; the two compare only when every request fetches whole lines\n"
		       "(see\n"
		       ".BR rdscope\\-formats (5),\n"
		       "MEASURED FILES).\n"
		       "A bad line is refused with\n"
		       ".IR FILE : LINE\n"
		       "(exit 2).",
	},
	{
		.name = "fit", .arg = "KEY,...",
		.commands = CLI_CMD(CLI_CALIBRATE),
		.set = set_list, .field = offsetof(cli, fit), .count = offsetof(cli, nfit),
		.help = "calibrate: the keys to fit (comma-separated or repeated)",
		.man = "The keys of the model to fit (see\n"
		       ".BR \"KEYS OF THE MODEL\" ),\n"
		       "comma-separated or repeated. Each is searched over its\n"
		       ".B \\-\\-range\n"
		       "or, without one, a grid of its own: both values of a 0|1 key, every choice\n"
		       "of a key with choices (a choice that takes\n"
		       ".BI : N\n"
		       "only at its current value), and a power-of-two key's value times\n"
		       "1/4, 1/2, 1, 2 and 4 (within its bounds). Other number keys need a\n"
		       ".BR \\-\\-range .",
	},
	{
		.name = "range", .arg = "KEY=V,...|KEY=LO:HI:STEP",
		.commands = CLI_CMD(CLI_CALIBRATE),
		.set = set_list, .field = offsetof(cli, ranges), .count = offsetof(cli, nranges),
		.help = "calibrate: the values of a --fit key (a list, or LO:HI:STEP)",
		.man = "The values of one\n"
		       ".B \\-\\-fit\n"
		       "key: a list as\n"
		       ".B \\-\\-vary\n"
		       "takes it (with\n"
		       ".IB X x\n"
		       "values), or, for a number key,\n"
		       ".IR LO : HI : STEP\n"
		       "(LO, LO+STEP, ... up to HI). Repeat for more keys.\n"
		       "The grid (every combination) is at most 10000 points.",
	},
	{
		.name = "stream",
		.commands = CLI_CMD(CLI_COUNT),
		.set = set_flag, .field = offsetof(cli, stream),
		.help = "count: count every access (not the flat path)",
		.man = "Count every access, one by one (with loop repeats), even where the flat\n"
		       "path applies: the two give the same numbers, which is how the tests\n"
		       "check the flat path (see\n"
		       ".BR count ).",
	},
	{
		.name = "from-c", .arg = "FILE.c",
		.commands = CLI_CMD(CLI_KDESC),
		.set = set_str, .field = offsetof(cli, from_c),
		.help = "kdesc: the C file whose #pragma scop region becomes a description",
		.man = "The C file whose\n"
		       ".B #pragma scop\n"
		       "region\n"
		       ".B rdscope kdesc\n"
		       "turns into a kernel description (see\n"
		       ".BR COMMANDS ).",
	},
	{
		.name = "one-thread",
		.commands = CLI_CMD(CLI_CONVERT),
		.set = set_flag, .field = offsetof(cli, one_thread),
		.help = "convert: all kernels as one kernel of one thread (a serial program)",
		.man = "Write the input as one serial program: one kernel named\n"
		       ".BR serial ,\n"
		       "of one thread, holding each kernel's accesses in turn, in each thread 0's,\n"
		       "then thread 1's, and so on, each thread's loads and stores in program\n"
		       "order. The model then sees the order\n"
		       ".B rdscope count\n"
		       "counts (compare them with one fully associative set,\n"
		       ".BR gpu.warp_size=1 ,\n"
		       "zero latency and unlimited MSHRs).",
	},
	{
		.name = "interval", .arg = "N",
		.commands = CLI_CMD(CLI_PROFILE),
		.set = set_interval,
		.help = "profile: also a profile per N requests of each core",
		.man = "Also print a profile for each interval of\n"
		       ".I N\n"
		       "requests of each core's stream (the distances still measured over the\n"
		       "whole stream: nothing is reset at an interval's start).",
	},
	{
		.name = "estimate",
		.commands = CLI_CMD(CLI_PROFILE),
		.set = set_flag, .field = offsetof(cli, estimate),
		.help = "profile: the estimates from the profile beside the detailed model",
		.man = "After each kernel's profiles, the hit rates estimated from them alone for\n"
		       "the configured cache (its sets, ways and line): the binomial (SDCM-style)\n"
		       "set-associative estimate and the fully associative LRU rate (Mattson),\n"
		       "beside the detailed model's hit rate for the same stream (the as-configured\n"
		       "cache with its hash, no latency, unlimited MSHRs), and the estimate's\n"
		       "absolute error. Text and JSON only.",
	},
	{
		.name = "arrays", .arg = "FILE",
		.commands = CLI_CMD(CLI_ARRAYS) | CLI_CMD(CLI_RUN) | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PLACEMENTS),
		.set = set_str, .field = offsetof(cli, arrays),
		.help = "arrays: name a trace's arrays (CSV name,base,bytes,elem[,width])",
		.man = "Name the arrays of a trace (seed 002's unit of placement) from a CSV\n"
		       "file, one array per line:\n"
		       ".BR name , base , bytes , elem [, width ]\n"
		       "(base and bytes decimal or 0x hex; elem the element size in bytes;\n"
		       "width, for a 2D layout, the elements per row). Names start with a letter\n"
		       "or\n"
		       ".BR _ ,\n"
		       "then letters, digits,\n"
		       ".B _\n"
		       "or\n"
		       ".BR . ;\n"
		       ".B global\n"
		       "is reserved. Arrays must not overlap; bytes must be whole elements (and\n"
		       "rows). Blank lines,\n"
		       ".B #\n"
		       "comments and a header line are skipped. A bad line is refused with its\n"
		       ".IR FILE : LINE\n"
		       "and the reason (exit 2). It replaces a kernel description's own arrays.\n"
		       "Without it, a trace's arrays are found by\n"
		       ".BR \\-\\-gap .\n"
		       "In\n"
		       ".B run\n"
		       "and\n"
		       ".BR sweep ,\n"
		       "the arrays that\n"
		       ".BI mem. NAME\n"
		       "keys place (see\n"
		       ".BR \"Memory spaces\" ).",
	},
	{
		.name = "gap", .arg = "BYTES",
		.commands = CLI_CMD(CLI_ARRAYS) | CLI_CMD(CLI_RUN) | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_PLACEMENTS),
		.set = set_gap,
		.help = "arrays: untouched bytes that separate two found arrays (default 65536)",
		.man = "Without\n"
		       ".B \\-\\-arrays\n"
		       "(and for a trace, which names no arrays), the arrays are found in the\n"
		       "accesses: the touched byte ranges (loads and stores) sorted by address\n"
		       "belong to one array until at least\n"
		       ".I BYTES\n"
		       "(default 65536, decimal or 0x hex) lie untouched before the next; they are\n"
		       "named\n"
		       ".BR a0 \", \" a1 \", ...\"\n"
		       "in address order, their element the most common access size.\n"
		       "Arrays closer than the gap merge; a strided walk with larger holes splits.",
	},	{
		/* placements' --by (cli_option_find picks it for that command) */
		.name = "by", .arg = "mem|inst",
		.commands = CLI_CMD(CLI_PLACEMENTS),
		.set = set_by,
		.help = "placements: rank by memory time (mem, default) or by instructions (inst)",
		.man = "How\n"
		       ".B placements\n"
		       "ranks the placements:\n"
		       ".B mem\n"
		       "(the default) by the relative memory time\n"
		       ".IR Tmem ,\n"
		       ".B inst\n"
		       "by the change in issued instructions per warp (addressing and replays,\n"
		       "Eq. 3); ties by the other.",
	},
	{
		.name = "only", .arg = "A,B,...",
		.commands = CLI_CMD(CLI_PLACEMENTS),
		.set = set_str, .field = offsetof(cli, only),
		.help = "placements: place only these arrays (the others keep their space)",
		.man = "Enumerate the placements of these arrays only (comma-separated names);\n"
		       "the other arrays keep the space the configuration gives them. Without it\n"
		       "every array with an access is placed. A name the kernel has no array of is\n"
		       "refused (exit 2).",
	},
	{
		.name = "sample", .arg = "FILE",
		.commands = CLI_CMD(CLI_PLACEMENTS),
		.set = set_str, .field = offsetof(cli, sample_times),
		.help = "placements: the sample placement's measured times (predict kernel times)",
		.man = "The configuration's own placement (the sample) measured on the GPU, one\n"
		       ".IB name \" = \" value\n"
		       "per line:\n"
		       ".BR tcomp ,\n"
		       ".BR tmem ,\n"
		       ".B toverlap\n"
		       "(one unit of time for the three),\n"
		       ".B inst_per_warp\n"
		       "(issued instructions per warp) and\n"
		       ".BR warps_per_sm ,\n"
		       "and optionally\n"
		       ".B wserial\n"
		       "(Eq. 2's serialisation, default 0);\n"
		       ".B #\n"
		       "starts a comment. With it each placement also gets a predicted kernel time\n"
		       "by seed 002's Eqs. 1, 2, 4 and 12, marked approximate: see\n"
		       ".BR \"Data placement\" .",
	},

	{
		.name = "samples", .arg = "N",
		.commands = CLI_CMD(CLI_TRAIN),
		.set = set_samples,
		.help = "train: profiles per cell of the grid (default 50)",
		.man = "Generate\n"
		       ".I N\n"
		       "profiles for each cell of the training grid (peaks x MaxRD); the\n"
		       "default is MLCRP's 50 (5 with\n"
		       ".BR \\-\\-quick ).",
	},
	{
		.name = "seed", .arg = "S",
		.commands = CLI_CMD(CLI_TRAIN),
		.set = set_train_seed,
		.help = "train: seed of the profiles, traces and fit (default 1)",
		.man = "Seed of everything random in training: the profiles' peaks, ratios,\n"
		       "widths and cold shares, the traces generated from them, the initial\n"
		       "weights and the order of the batches (default 1).\n"
		       "The same seed and options give the same weights file.",
	},
	{
		.name = "quick",
		.commands = CLI_CMD(CLI_TRAIN),
		.set = set_flag, .field = offsetof(cli, quick),
		.help = "train: a tiny grid in seconds (tests)",
		.man = "Train on a tiny grid (2 and 3 peaks, MaxRD 16 and 128, 5 profiles a\n"
		       "cell of 2,000 accesses, 6 geometries, 40 epochs): seconds, for tests,\n"
		       "not for estimates.",
	},
	{
		.name = "epochs", .arg = "N",
		.commands = CLI_CMD(CLI_TRAIN),
		.set = set_epochs,
		.help = "train: passes over the training data (default 60)",
		.man = "Fit for\n"
		       ".I N\n"
		       "passes over the training data (default 60; 40 with\n"
		       ".BR \\-\\-quick ).",
	},
	{
		.name = "layers", .arg = "W,...",
		.commands = CLI_CMD(CLI_TRAIN),
		.set = set_str, .field = offsetof(cli, layers),
		.help = "train: hidden layer widths (default 64,32; MLCRP's 1024,128,32)",
		.man = "The widths of the hidden layers, up to 5 of at most 1024 units (default\n"
		       ".BR 64,32 ;\n"
		       "MLCRP's is\n"
		       ".BR 1024,128,32 ).",
	},
	{
		.name = "model", .arg = "FILE",
		.commands = CLI_CMD(CLI_ESTIMATE),
		.set = set_str, .field = offsetof(cli, model_file),
		.help = "estimate: the learned estimator's weights (default: the shipped one)",
		.man = "Take the learned estimator's weights from\n"
		       ".I FILE\n"
		       "(written by\n"
		       ".BR \"rdscope train\" )\n"
		       "instead of the shipped\n"
		       ".IR samples/models/mlcrp.txt .\n"
		       "A file fitted on other features than this rdscope computes is refused.",
	},
	{
		.name = "method", .arg = "NAME",
		.commands = CLI_CMD(CLI_ESTIMATE),
		.set = set_method,
		.help = "estimate: binomial, fa, learned or all (default)",
		.man = "Which estimate:\n"
		       ".B binomial\n"
		       "(the SDCM-style set-associative estimate),\n"
		       ".B fa\n"
		       "(the fully associative LRU cache of the same lines, Mattson),\n"
		       ".B learned\n"
		       "(the learned estimator, with the MSHR merge rate) or\n"
		       ".B all\n"
		       "(the default; text and CSV only: JSON has one miss rate per run).",
	},
	{
		.name = "l1b",
		.commands = CLI_CMD(CLI_RUN) | CLI_CMD(CLI_SWEEP),
		.set = set_flag, .field = offsetof(cli, l1b),
		.help = "with an L2: RDGC's L1B run too (metrics L2_Hit_L1B, L2_Trans_L1B)",
		.man = "With an L2\n"
		       ".RB ( l2.size\n"
		       "not 0), model each input a second time with the L1 off for loads and\n"
		       "stores\n"
		       ".RB ( l1.loads=bypass\n"
		       "and\n"
		       ".BR l1.stores=evict :\n"
		       "RDGC's RWON, the\n"
		       ".I L1B\n"
		       "configuration of seed 001 section 5), everything else as configured, and\n"
		       "report\n"
		       "its L2's hit ratio and transactions as the metrics\n"
		       ".B L2_Hit_L1B\n"
		       "and\n"
		       ".B L2_Trans_L1B\n"
		       "(see\n"
		       ".BR RESULTS ).\n"
		       "Without it, or without an L2, they are null in JSON and empty in CSV.\n"
		       "The second run (its as-configured case only) sends every request to the L2,\n"
		       "so it can cost much more than the first; CSV's\n"
		       ".B model_s\n"
		       "and JSON's\n"
		       ".B timing\n"
		       "include it.",
	},
	{
		.name = "vary", .arg = "KEY=V,...",
		.commands = CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_ESTIMATE),
		.set = set_list, .field = offsetof(cli, vary), .count = offsetof(cli, nvary),
		.help = "sweep, estimate: values of a key (NUMx: times the base value)",
		.man = "The values of one key to sweep; repeat for more keys.\n"
		       "A value\n"
		       ".IB X x\n"
		       "(for instance\n"
		       ".BR 0.5x )\n"
		       "is\n"
		       ".I X\n"
		       "times the key's value after\n"
		       ".B \\-p\n"
		       "and\n"
		       ".BR \\-s ,\n"
		       "for numeric keys; sizes and counts must come out whole.\n"
		       "Every point is checked before anything runs.",
	},
	{
		.name = "jobs", .letter = 'j', .arg = "N",
		.commands = CLI_CMD(CLI_RUN) | CLI_CMD(CLI_SWEEP) | CLI_CMD(CLI_TRAIN) |
			    CLI_CMD(CLI_CALIBRATE) | CLI_CMD(CLI_VALIDATE),
		.set = set_str, .field = offsetof(cli, jobs_arg),
		.help = "run, sweep, train, calibrate, validate: worker threads (default: online CPUs)",
		.man = "Model\n"
		       ".I N\n"
		       "points (sweep, calibrate) or training profiles (train) at a time on worker\n"
		       "threads, or (run, validate) the parts of a kernel modelled core by core\n"
		       "(several cores) or else the miss breakdown's cases of each input, at most\n"
		       "four (default: the number of online CPUs).\n"
		       "The output does not depend on\n"
		       ".IR N .",
	},
	{
		.name = "shard", .arg = "K/N",
		.commands = CLI_CMD(CLI_SWEEP),
		.set = set_str, .field = offsetof(cli, shard_arg),
		.help = "sweep: only runs K, K+N, K+2N, ... (0 <= K < N)",
		.man = "Run only runs\n"
		       ".IR K ,\n"
		       ".IR K + N ,\n"
		       ".IR K +2 N ,\n"
		       "\\&... (0 \\(<=\n"
		       ".I K\n"
		       "<\n"
		       ".IR N ),\n"
		       "to spread one sweep over\n"
		       ".I N\n"
		       "jobs of a cluster or of\n"
		       ".BR parallel (1);\n"
		       "join their outputs with\n"
		       ".BR \"rdscope merge\" .",
	},
	{
		.name = "from-gpgpusim", .arg = "STRING",
		.commands = CLI_CMD(CLI_PRESET),
		.set = set_str, .field = offsetof(cli, from_gpgpusim),
		.help = "preset: import a -gpgpu_cache:dl1 string",
		.man = "Take the cache from a GPGPU-Sim\n"
		       ".B \\-gpgpu_cache:dl1\n"
		       "string, in the 3.x form\n"
		       ".B 32:128:4,L:L:m:N:H,A:32:8,8\n"
		       "or the 4.x/Accel-Sim form with a leading\n"
		       ".B N:\n"
		       "or\n"
		       ".B S:\n"
		       "(sector) and trailing fields: sets, line size and ways give\n"
		       ".BR l1.size ,\n"
		       ".B l1.line\n"
		       "and\n"
		       ".BR l1.ways ;\n"
		       "the set index\n"
		       ".BR L ,\n"
		       ".B X\n"
		       "and\n"
		       ".B H\n"
		       "give\n"
		       ".BR mod ,\n"
		       ".B xor\n"
		       "and\n"
		       ".BR fermi ;\n"
		       "the MSHR entries give\n"
		       ".BR l1.mshrs .\n"
		       "Every other field (replacement, write and allocation policies, MSHR merges,\n"
		       "queues, sectors) is not modelled and reported on standard error, one line\n"
		       "each.",
	},
	{
		.name = "as", .arg = "FMT",
		.commands = CLI_CMD(CLI_PRESET),
		.set = set_str, .field = offsetof(cli, as),
		.help = "preset: print as preset, gpgpusim or gpgpusim4",
		.man = "Print a preset file (the default), a GPGPU-Sim 3.x cache string or a 4.x\n"
		       "one; what the string cannot carry (latencies, per-warp MSHRs, the GPU\n"
		       "keys) is reported on standard error.",
	},
	{
		.name = "input-format", .arg = "FMT",
		.commands = CLI_ALL_COMMANDS,
		.set = set_input_format,
		.help = "read INPUTs as " INPUT_FORMATS " (default: by content)",
		.man = "Read every\n"
		       ".I INPUT\n"
		       "as the format\n"
		       ".I FMT\n"
		       "names, one of\n"
		       ".B " INPUT_FORMATS "\n"
		       "(see\n"
		       ".BR \"INPUT FORMATS\" ),\n"
		       "instead of telling the format by its content;\n"
		       ".B auto\n"
		       "is the default.",
	},
	{
		.name = "kernel", .arg = "NAME|INDEX[,...]",
		.commands = CLI_ALL_COMMANDS,
		.set = set_str, .field = offsetof(cli, kernel),
		.help = "only these kernels of multi-kernel INPUTs (default: all)",
		.man = "Of an\n"
		       ".I INPUT\n"
		       "with several kernels, model only the kernel named\n"
		       ".I NAME\n"
		       "(a description's launch loops name launches\n"
		       ".IB KERNEL [ VAR = VALUE ]\\fR;\n"
		       "the bare kernel name selects all of its launches) or the one at position\n"
		       ".I INDEX\n"
		       "(from 0); a comma-separated list selects each kernel it names, in the\n"
		       "input's order (a name with commas of its own is taken whole when a\n"
		       "kernel has it).\n"
		       "An unknown name or index is an error listing the kernels.",
	},
	{
		.name = "help", .letter = 'h',
		.commands = CLI_ALL_COMMANDS, .alone = CLI_HELP,
		.set = set_help,
		.help = "show this help (after a command: that command's own)",
		.man = "Print the usage, the options and the keys of the model, then exit.\n"
		       "After a command\n"
		       ".RB ( \"rdscope run \\-\\-help\" ),\n"
		       "print that command's usage, what it does and the options it takes.",
	},
	{
		.name = "version",
		.commands = 0, .alone = CLI_VERSION,
		.help = "show the version",
		.man = "Print the version, then exit.",
	},
	{.name = NULL},
};

const cli_option *cli_option_find(const char *opt, enum cli_command cmd)
{
	const cli_option *first = NULL;
	for (const cli_option *o = cli_options; o->name; o++) {
		if (!o->set)
			continue;
		if (opt[0] == '-' && opt[1] == '-' ? !strcmp(opt + 2, o->name)
						     : o->letter && opt[1] == o->letter && !opt[2]) {
			if (o->commands & CLI_CMD(cmd))
				return o; /* a name two commands use differently: cmd's */
			if (!first)
				first = o;
		}
	}
	return first;
}

const char *cli_option_suggest(const cli_option *table, const char *opt, char *buf, size_t len)
{
	/* "--name" of every row taken after the first word, one after another in text */
	size_t n = 0, bytes = 1;
	for (const cli_option *o = table; o->name; o++)
		if (o->set)
			n++, bytes += strlen(o->name) + 3;
	const char **names = malloc((n ? n : 1) * sizeof *names);
	char *text = malloc(bytes), *p = text;
	const char *best = NULL;
	if (names && text) {
		n = 0;
		for (const cli_option *o = table; o->name; o++)
			if (o->set) {
				names[n++] = p;
				p += sprintf(p, "--%s", o->name) + 1;
			}
		if ((best = suggest_closest(opt, names, n)) != NULL)
			snprintf(buf, len, "%s", best);
	}
	free(names);
	free(text);
	return best ? buf : NULL;
}

void cli_option_name(const cli_option *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c", o->letter);
	else
		snprintf(buf, len, "--%s", o->name);
}

/* In the order of --help's Commands; the usage lists the no-command form
 * first, then the others' lines in this order. */
const cli_cmd cli_cmds[] = {
	{.name = "run", .cmd = CLI_RUN,
	 .usage = "run [-p PRESET] [-s KEY=VALUE]... [-f text|csv|json] [-o FILE]\n"
		  "             [--log FILE] [--histogram FILE] [--plot FILE.svg] [-j N] [-q] INPUT...",
	 .help = "model each INPUT and print one result per input"},
	{.name = "sweep", .cmd = CLI_SWEEP,
	 .usage = "sweep [-p PRESET] [-s KEY=VALUE]... --vary KEY=V1,V2,...\n"
		  "             [-j N] [--shard K/N] [-f FMT] [-o FILE] [--histogram FILE]\n"
		  "             [--plot FILE.svg] [--no-timing] INPUT...",
	 .help = "run every combination of the --vary values on each INPUT"},
	{.name = "profile", .cmd = CLI_PROFILE,
	 .usage = "profile [-p PRESET] [-s KEY=VALUE]... [--interval N] [--estimate]\n"
		  "             [-f FMT] [-o FILE] INPUT...",
	 .help = "print the reuse profile of each core's L1 request stream"},
	{.name = "estimate", .cmd = CLI_ESTIMATE,
	 .usage = "estimate [-p PRESET] [-s KEY=VALUE]... [--vary KEY=V1,V2,...]...\n"
		  "             [--method NAME] [--model FILE] [-f FMT] [-o FILE] INPUT...",
	 .help = "miss rates estimated from each INPUT's reuse profile"},
	{.name = "train", .cmd = CLI_TRAIN,
	 .usage = "train [-o FILE] [--samples N] [--seed S] [--epochs N] [--layers W,...]\n"
		  "             [-j N] [--quick]",
	 .help = "fit the learned estimator on generated profiles; write its weights"},
	{.name = "compare", .cmd = CLI_COMPARE, .usage = "compare [-f FMT] [-o FILE] A.json B.json",
	 .help = "MAE, R^2 and Spearman's rho of two result files' miss rates"},
	{.name = "count", .cmd = CLI_COUNT,
	 .usage = "count [-D NAME=VALUE]... [--levels SIZE,...] [-s l1.line=BYTES]\n"
		  "             [--stores allocate|skip] [-f FMT] [-o FILE] KDESC[:VARIANT]",
	 .help = "exact fully associative misses of a kernel description, without a trace"},
	{.name = "kdesc", .cmd = CLI_KDESC,
	 .usage = "kdesc --from-c FILE.c [-D NAME=VALUE]... [-o FILE]",
	 .help = "a kernel description from a C file's #pragma scop region"},
	{.name = "arrays", .cmd = CLI_ARRAYS,
	 .usage = "arrays [--arrays FILE] [--gap BYTES] [-f FMT] [-o FILE] INPUT...",
	 .help = "list each kernel's arrays with their accesses, loads and stores"},
	{.name = "placements", .cmd = CLI_PLACEMENTS,
	 .usage = "placements [-p PRESET] [-s KEY=VALUE]... [--arrays FILE] [--gap BYTES]\n"
		  "             [--only A,B,...] [--by mem|inst] [--sample FILE] [-f FMT] [-o FILE]\n"
		  "             INPUT",
	 .help = "rank the allowed memory-space placements of a kernel's arrays"},
	{.name = "validate", .cmd = CLI_VALIDATE,
	 .usage = "validate --measured FILE [-p PRESET] [-s KEY=VALUE]... [-j N] [-f FMT]\n"
		  "             [-o FILE] [--plot FILE.svg] [--plot-size WxH] INPUT...",
	 .help = "the model's hit rates beside measured ones: errors, MAE, R^2, rho"},
	{.name = "calibrate", .cmd = CLI_CALIBRATE,
	 .usage = "calibrate --measured FILE --fit KEY[,KEY...] [--range KEY=V1,V2,...|\n"
		  "             KEY=LO:HI:STEP]... [-p PRESET] [-s KEY=VALUE]... [-j N]\n"
		  "             [-o PRESET_OUT] [-f FMT] INPUT...",
	 .help = "fit keys to measured L1 hit rates on a grid (and leave-one-out); -o: the preset"},
	{.name = "ncu-args", .cmd = CLI_NCU_ARGS, .usage = "ncu-args [INPUT...]",
	 .help = "print the ncu command line that measures what validate reads (INPUTs' kernels)"},
	{.name = "merge", .cmd = CLI_MERGE, .usage = "merge [-o FILE] FILE...",
	 .help = "join the CSV or JSON outputs of --shard runs into one"},
	{.name = "presets", .cmd = CLI_PRESETS,
	 .usage = "presets | check PRESET... | preset [-p PRESET] [-s ...] [--as FMT]",
	 .synopsis = "presets",
	 .help = "list the presets on the search path"},
	{.name = "check", .cmd = CLI_CHECK, .synopsis = "check PRESET...",
	 .help = "validate preset files; exit 2 on any problem"},
	{.name = "preset", .cmd = CLI_PRESET, .usage = "preset --from-gpgpusim STRING",
	 .synopsis = "preset [-p PRESET] [-s KEY=VALUE]... [--as FMT] [-o FILE]\n"
		     "       rdscope preset --from-gpgpusim STRING",
	 .help = "print a preset (-p, -s) as a preset file or GPGPU-Sim string"},
	/* Their usage errors have always said 'rdscope'. */
	{.name = "convert", .cmd = CLI_CONVERT, .said = "rdscope",
	 .usage = "convert [--input-format FMT] [--kernel K] [-D NAME=VALUE]... [--one-thread]\n"
		  "             INPUT OUT.rdt",
	 .help = "write INPUT's kernels (any format) as a binary .rdt trace"},
	{.name = "samples", .cmd = CLI_SAMPLES, .said = "rdscope", .usage = "samples",
	 .help = "list the shipped samples (sample:NAME inputs)"},
	{.name = "keys", .cmd = CLI_KEYS, .no_args = 1, .usage = "keys",
	 .help = "list the model's keys with their default values"},
	{.name = NULL, .cmd = CLI_DEFAULT, .said = "rdscope", .usage = "[OPTIONS] [INPUT]",
	 .help = "model INPUT, or the built-in sample, and print text results"},
	{.name = "help", .cmd = CLI_HELP, .no_args = 1, .usage = "--help | --version"},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];

const cli_cmd *cli_cmd_find(const char *word)
{
	for (size_t i = 0; i < cli_ncmds; i++)
		if (cli_cmds[i].name && !strcmp(cli_cmds[i].name, word))
			return &cli_cmds[i];
	return NULL;
}

const cli_cmd *cli_cmd_of(enum cli_command cmd)
{
	for (size_t i = 0; i < cli_ncmds; i++)
		if (cli_cmds[i].cmd == cmd)
			return &cli_cmds[i];
	return NULL;
}
