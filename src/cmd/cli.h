/*
 * The command line: subcommands, options and the help texts, generated
 * from the option and command tables (cli_table.h) and the model's key
 * table.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>
#include <string.h>

#include "readers/readers.h"
#include "writers/writers.h"
#include "rdscope.h"

/* The most rows cli_options[] may have (cli.given is a bit set of them). */
#define CLI_MAX_OPTIONS 256

/* Exit statuses: the contract with scripts, see the man page. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/*
 * The commands, one line each: the command (its enum cli_command), the
 * function that runs it, the one that checks its arguments after parsing
 * (cli_batch_finish; 0, or the exit status of the usage error it printed)
 * and the part of the model configuration it checks (cli_batch_finish
 * gives it a copy of the configuration to narrow to what the command
 * reads; cli_config_none: the command reads none, and neither it nor the
 * output options are checked). The list makes enum cli_command, the
 * functions' declarations and cli_commands[] (commands.c); the command's
 * words, usage and help are its row of cli_cmds[] (cli_table.c), its
 * options the rows of cli_options[] that name it. (cli_parse itself says
 * run's "no INPUT given" and the no-command form's "one INPUT at most",
 * before --teach and --log, as it always has.)
 */
#define CLI_COMMANDS(X)                                                                            \
	/* no subcommand: `rdscope [OPTIONS] [INPUT]` (on a terminal main.c opens the explorer) */ \
	X(CLI_DEFAULT,    batch_run,         cli_check_none,         cli_config_whole)             \
	X(CLI_RUN,        batch_run,         cli_check_none,         cli_config_whole)             \
	/* alone as the first word (cli_common.c) */                                               \
	X(CLI_KEYS,       cli_keys_run,      cli_check_none,         cli_config_none)              \
	X(CLI_HELP,       cli_help_run,      cli_check_none,         cli_config_none)              \
	X(CLI_VERSION,    cli_version_run,   cli_check_none,         cli_config_none)              \
	/* the other commands, each in its file: sweep_run.c, merge.c, preset_cmd.c ... */         \
	X(CLI_SWEEP,      sweep_run,         sweep_check,            cli_config_whole)             \
	X(CLI_MERGE,      merge_run,         merge_check,            cli_config_none)              \
	X(CLI_CHECK,      preset_cmd_check,  preset_cmd_check_check, cli_config_none)              \
	X(CLI_PRESETS,    preset_cmd_list,   preset_cmd_list_check,  cli_config_none)              \
	X(CLI_PRESET,     preset_cmd_show,   preset_cmd_show_check,  cli_config_whole)             \
	X(CLI_CONVERT,    trace_cmd_convert, cli_check_none,         cli_config_whole)             \
	X(CLI_SAMPLES,    trace_cmd_samples, cli_check_none,         cli_config_whole)             \
	/* reuse profiles, on one fully associative set (rd_config_profile) */                     \
	X(CLI_PROFILE,    profile_run,       profile_check,          rd_config_profile)            \
	X(CLI_COMPARE,    compare_run,       compare_check,          cli_config_none)              \
	X(CLI_TRAIN,      train_run,         train_check,            cli_config_whole)             \
	X(CLI_ESTIMATE,   estimate_run,      estimate_check,         cli_config_whole)             \
	/* a description's exact misses; of the configuration only l1.line */                      \
	X(CLI_COUNT,      count_run,         count_check,            count_config)                 \
	X(CLI_KDESC,      trace_cmd_kdesc,   trace_cmd_kdesc_check,  cli_config_none)              \
	X(CLI_ARRAYS,     arrays_run,        arrays_check,           cli_config_none)              \
	X(CLI_PLACEMENTS, placements_run,    placements_check,       cli_config_whole)             \
	X(CLI_VALIDATE,   validate_run,      validate_check,         cli_config_whole)             \
	X(CLI_CALIBRATE,  calibrate_run,     calibrate_check,        cli_config_whole)             \
	X(CLI_NCU_ARGS,   validate_ncu_args, cli_check_none,         cli_config_none)

#define CLI_ENUM(e, run, check, config) e,
enum cli_command { CLI_COMMANDS(CLI_ENUM) CLI_NCOMMANDS };
#undef CLI_ENUM

typedef struct cli {
	enum cli_command cmd;
	enum cli_command help_of;  /* --help after a command: that command's help */
	rd_config config;          /* defaults with every -s applied */
	enum output_format format;
	const char *output;        /* -o FILE, NULL: standard output */
	const char *log;           /* --log FILE, NULL: no event log */
	int quiet;
	int no_timing; /* --no-timing */
	/* The explorer (ui/explorer.c). */
	const char *script;        /* --script FILE: keys from FILE (screen tests) */
	const char *color;         /* --color: auto, always or never (checked); NULL: auto.
				      The explorer parses it (theme_parse_mode). */
	int teach;                 /* --teach: class mode, the paper's Tables 1-5 */
	const char **inputs;       /* INPUT arguments (into argv) */
	int ninputs;
	/* Batch commands (cli_batch.c); strings point into argv. */
	const char *preset;        /* -p NAME|FILE, applied before every -s */
	const char **sets;         /* -s KEY=VALUE, in order */
	int nsets;
	const char **vary;         /* sweep --vary KEY=V1,V2,... */
	int nvary;
	const char *jobs_arg;      /* sweep -j N */
	const char *shard_arg;     /* sweep --shard K/N */
	unsigned jobs;             /* parsed -j; 0: number of online CPUs */
	unsigned shard_k, shard_n; /* parsed --shard; shard_n 0: not sharded */
	const char *histogram;     /* --histogram FILE */
	const char *plot;          /* --plot FILE.svg */
	unsigned plot_w, plot_h;   /* --plot-size WxH; 0: the default (plot.h) */
	const char *plot_hist;     /* --plot-hist all|none|RUN,...; NULL: all */
	enum output_by by;         /* --by site|array|none */
	unsigned top;              /* --top N: rows of the text's --by table, 0 all */
	int l1b;                   /* --l1b: RDGC's L1B run too (metrics L2_Hit_L1B, L2_Trans_L1B) */
	const char *from_gpgpusim; /* preset --from-gpgpusim STR */
	const char *as;            /* preset --as preset|gpgpusim|gpgpusim4 */
	const char *input_format;  /* --input-format FMT (input.h), NULL: by content */
	const char *kernel;        /* --kernel NAME|INDEX, NULL: every kernel */
	unsigned long interval;    /* profile --interval N: per N requests too, 0: whole only */
	int estimate;              /* profile --estimate: the estimates beside the detailed model */
	/* train */
	unsigned samples;          /* --samples N per cell, 0: the default (50) */
	unsigned long long train_seed; /* --seed S (default 1) */
	int quick;                 /* --quick: a tiny grid (tests) */
	unsigned epochs;           /* --epochs N, 0: the default */
	const char *layers;        /* --layers W,W,...: hidden widths */
	/* estimate */
	const char *model_file;    /* --model FILE, NULL: the shipped one */
	unsigned methods;          /* --method: bits of enum estimate_method, 0: all */
	const char **defines;      /* -D NAME=VALUE over a description's params, in order */
	int ndefines;
	const char *levels;        /* count --levels SIZE,...; NULL: 32K,512K */
	int skip_stores;           /* count --stores skip */
	int stream;                /* count --stream: every access counted (no flat path) */
	const char *from_c;        /* kdesc --from-c FILE.c */
	int one_thread;            /* convert --one-thread: every access thread 0's, in order */
	const char *arrays;        /* --arrays FILE: a trace's arrays (CSV), NULL: found by gaps */
	unsigned long long gap;    /* --gap BYTES: the detection's gap (0: the default) */
	/* placements */
	const char *only;          /* --only A,B: the arrays to place, NULL: every array */
	int rank_inst;             /* --by inst: rank by issued instructions (mem: Tmem) */
	const char *sample_times;  /* --sample FILE: the sample placement's measured times */
	const char *measured;      /* validate, calibrate --measured FILE: measured hit rates */
	const char **fit;          /* calibrate --fit KEY[,KEY...], in order */
	int nfit;
	const char **ranges;       /* calibrate --range KEY=V1,V2,...|KEY=LO:HI:STEP */
	int nranges;
	/* bit i: cli_options[i] was given (a bit set, not one word: the
	 * table may grow past 64; test_cli checks it fits) */
	unsigned char given[CLI_MAX_OPTIONS / 8];
} cli;

/* The functions of CLI_COMMANDS, declared from the list. */
typedef int cli_run_fn(const cli *c);
typedef int cli_check_fn(const cli *c);
typedef void cli_config_fn(const rd_config *config, rd_config *checked);
#define CLI_DECLARE(e, run, check, config)                                                  \
	cli_run_fn run;                                                                     \
	cli_check_fn check;                                                                 \
	cli_config_fn config;
CLI_COMMANDS(CLI_DECLARE)
#undef CLI_DECLARE

/* One row per command, indexed by enum cli_command (commands.c). */
typedef struct cli_command_fns {
	cli_run_fn *run;
	cli_check_fn *check;
	cli_config_fn *config;
} cli_command_fns;
extern const cli_command_fns cli_commands[CLI_NCOMMANDS];

/* In cli_common.c: cli_check_none, no argument to check; cli_config_whole,
 * the whole configuration is checked (narrowed in nothing); cli_config_none
 * marks a command that reads no model configuration (cli_batch_finish then
 * checks neither it nor the output options). */

/*
 * Parse argv into c (cli.c). Returns 0 when c->cmd can run (CLI_HELP:
 * print the help), or an exit status after having printed the problem.
 */
int cli_parse(cli *c, int argc, char **argv);
void cli_free(cli *c);

/* How c's INPUTs are read (--input-format, --kernel). */
/* Was gpu.max_threads given with -s? */
static inline int cli_max_threads_given(const cli *c)
{
	for (int i = 0; i < c->nsets; i++)
		if (!strncmp(c->sets[i], "gpu.max_threads=", 16))
			return 1;
	return 0;
}

/* How commands read inputs: a description's max_threads gives way to an
 * explicit -s gpu.max_threads (0: every thread). */
static inline input_opts cli_input_opts(const cli *c)
{
	return (input_opts){.format = c->input_format,
			    .kernel = c->kernel,
			    .line = c->config.l1_line,
			    .defines = c->defines,
			    .ndefines = (size_t)c->ndefines,
			    .max_threads_set = cli_max_threads_given(c),
			    .max_threads = c->config.max_threads};
}

/* What the command line prints (cli_common.c, beneath the parser). */
void cli_usage(FILE *f);
void cli_help(FILE *f);
/* The help of one command (`rdscope run --help`): its usage, what it does
 * and the options it takes, from the same tables; cli_help for CLI_DEFAULT. */
void cli_help_command(FILE *f, enum cli_command cmd);
/* The key table with each key's value in config (the defaults for `keys`). */
void cli_keys(FILE *f, const rd_config *config);
/* What a key's value looks like: its choices, "0|1", its unit in capitals
 * ("BYTES"), or N (X for a number with a fraction). */
void cli_key_placeholder(const rd_key *k, char *buf, size_t len);

/* Print "rdscope: " fmt (with arg), a hint, and the usage; EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg, const char *hint);
/* How messages name cmd ("count"; the no-command form, convert and
 * samples: "rdscope"). */
const char *cli_said(enum cli_command cmd);
/* A command's usage error: cli_usage_error with fmt's one %s its name. */
int cli_command_error(const cli *c, const char *fmt);

/* Print one GPGPU-Sim import/export note (a gpgpusim_note_fn). */
void cli_gpgpusim_note(void *ctx, const char *msg);

/* Print preset_load's problems, one "rdscope: FILE:LINE: ..." line each. */
void cli_print_errors(const char *errs);

/* Apply one "KEY=VALUE"; prints "rdscope: ..." and returns -1 on error. */
int cli_set(rd_config *config, const char *assignment);

#endif
