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

enum cli_command {
	CLI_DEFAULT = 0, /* no subcommand: `rdscope [OPTIONS] [INPUT]` */
	CLI_RUN,
	CLI_KEYS,
	CLI_HELP,
	CLI_VERSION,
	CLI_SWEEP,   /* batch commands of cli_batch.c */
	CLI_MERGE,
	CLI_CHECK,
	CLI_PRESETS,
	CLI_PRESET,
	CLI_CONVERT, /* trace commands of trace_cmd.c */
	CLI_SAMPLES,
	CLI_PROFILE, /* reuse profiles (profile_cmd.c) */
	CLI_COMPARE, /* two result files' miss rates (compare_cmd.c) */
	CLI_TRAIN,    /* fit the learned estimator (train_cmd.c) */
	CLI_ESTIMATE, /* miss rates estimated from profiles (estimate_cmd.c) */
	CLI_COUNT,   /* a description's exact misses without a trace (count_cmd.c) */
	CLI_KDESC,   /* a description from C (trace_cmd.c) */
	CLI_ARRAYS,  /* the arrays of each kernel and their accesses (arrays_cmd.c) */
	CLI_PLACEMENTS, /* memory-space placements ranked (placements_cmd.c) */
	CLI_VALIDATE, /* the model against measured hit rates (validate_cmd.c) */
	CLI_CALIBRATE, /* keys fitted to measured hit rates (calibrate_cmd.c) */
	CLI_NCU_ARGS, /* the ncu command line that measures what validate reads (validate_cmd.c) */
};

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

/* Apply one "KEY=VALUE"; prints "rdscope: ..." and returns -1 on error. */
int cli_set(rd_config *config, const char *assignment);

#endif
