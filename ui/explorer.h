/*
 * The live explorer: `rdscope [-p PRESET] [-s KEY=VALUE]... [INPUT]` on a
 * terminal. Panes for the parameters, the miss breakdown and the
 * reuse-distance histogram, redrawn from the model thread's results as the
 * parameters are edited. See man/rdscope.1, THE EXPLORER and KEYS.
 *
 * The explorer is ui/explorer/ (its state, key actions, prompts, screen,
 * script runner and loop) and ui/views/ (one file a view). It includes
 * only the model and ui/: what it needs of src/ (reading inputs, preset
 * files, the SIGBUS handler's terminal) comes in explorer_opts, which
 * src/cmd/main.c fills.
 */
#ifndef UI_EXPLORER_H
#define UI_EXPLORER_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

struct termios;

/* explorer_run's exit statuses: rdscope's own (see the man page). */
enum { EXPLORER_OK = 0, EXPLORER_ERUNTIME = 1, EXPLORER_EUSAGE = 2 };

/* The exact counts of a kernel description run as one serial program
 * (rdscope count, seed 004), for the explorer's count view: fully
 * associative LRU caches of each of nlevels sizes; per reference too. */
#define EXPLORER_COUNT_LEVELS 16
#define EXPLORER_COUNT_PARAMS 8
typedef struct explorer_count_ref {
	unsigned line;   /* its statement's line in the description */
	char text[64];   /* "b[k][j]" */
	int store;
	uint64_t accesses, compulsory, capacity[EXPLORER_COUNT_LEVELS];
} explorer_count_ref;
typedef struct explorer_count {
	uint32_t line;   /* bytes */
	int nlevels;
	uint64_t bytes[EXPLORER_COUNT_LEVELS];
	uint64_t accesses, compulsory, capacity[EXPLORER_COUNT_LEVELS], lines;
	int nrefs;
	explorer_count_ref *refs; /* malloc'ed */
	int nparams;     /* the description's parameters, as counted */
	char pname[EXPLORER_COUNT_PARAMS][32];
	long long pval[EXPLORER_COUNT_PARAMS];
	double seconds;
	char path[160];  /* "flat path (loop i)" or "streamed: why" (rdscope count's) */
} explorer_count;

/* One run of w's picture: its bar's label, configuration and result. */
typedef struct explorer_svg_run {
	const char *caption;
	const rd_config *cfg;
	const rd_result *res;
} explorer_svg_run;

/* The picture's panels beyond the L1's (explorer_opts.svg_save). */
enum { EXPLORER_SVG_L2 = 1, EXPLORER_SVG_DRAM = 2 };

typedef struct explorer_opts {
	const char *input;   /* the input's name (INPUT, or a built-in sample's) */
	const char *builtin_prefix; /* names of built-in samples start so ("builtin:") */
	rd_config config;    /* the configuration to start from */
	int no_timing;       /* --no-timing: no model times on screen */
	const char *script;  /* --script FILE: actions instead of keys, or NULL */
	const char *color;   /* --color WHEN: auto, always or never; NULL: auto */
	int teach;           /* --teach: class mode, the paper's Tables 1-5 */
	const char *try_hint; /* what to try with this input (a sample's `try`
				 line), shown when it opens; NULL: none */
	void *ctx;           /* for the callbacks */
	/*
	 * Load the kernel to explore from o->input; interactive: standard
	 * input and output are a terminal the user may be asked on (to pick
	 * one kernel of several). 0 with *k, or an exit status
	 * (EXPLORER_ERUNTIME, EXPLORER_EUSAGE) with the reason in err.
	 */
	int (*load)(const struct explorer_opts *o, int interactive, rd_kernel **k, char *err,
		    size_t len);
	/*
	 * A kernel too large to load whole (refused: load refused it; else
	 * asked before load: clearly past the load limit) that its reader
	 * builds SM by SM, where the configuration allows modelling it so (as
	 * rdscope run does: rd_parts): 0 with *k its shape (name, block size,
	 * arrays; no accesses) and *parts the handle for parts_run, which
	 * parts_free frees (after *k's last run, before *k is freed); -1
	 * when it cannot be (or, not refused, need not). NULL: never.
	 */
	int (*parts_open)(const struct explorer_opts *o, int refused, rd_kernel **k, void **parts);
	/*
	 * parts' kernel under cfg, all cases, one SM's blocks at a time:
	 * RD_OK with *res (what the whole kernel's rd_model_run gives), or
	 * an RD_* status with why in err. stop(ctx, done) is asked between
	 * parts with the fraction of them done: nonzero ends the run with
	 * RD_ECANCELED. partial(ctx, r, done, total), after each part but the
	 * last: the L1 result of the done of total parts so far (r->partial;
	 * unscaled, no L2 or DRAM: rd_parts_peek), valid during the call.
	 * stop and partial are called one at a time, maybe from other
	 * threads. Off the UI thread (the model thread); may take long.
	 */
	int (*parts_run)(void *parts, const rd_config *cfg, int (*stop)(void *ctx, double done),
			 void (*partial)(void *ctx, const rd_result *r, unsigned done,
					 unsigned total),
			 void *ctx, rd_result *res, char *err, size_t len);
	void (*parts_free)(void *parts);
	/*
	 * Read a preset (file or name) over *cfg: 0, or -1 with the reason in
	 * err. Write cfg as a preset file at path: 0; 1 when path exists and
	 * replace is 0 (nothing written: the explorer asks); -1 with the reason
	 * in err, also for a file in rdscope's own preset folders, which are
	 * never written. Both are called off the UI thread (ui/bgcall.h), one
	 * at a time, and may block.
	 */
	int (*preset_load)(const char *spec, rd_config *cfg, char *err, size_t len);
	/*
	 * Load another input to explore (the explorer's i key): spec is a
	 * file, sample:NAME or builtin:NAME, optionally followed by
	 * " --kernel NAME|INDEX". 0 with *k, or -1 with the reason in err.
	 * Called off the UI thread (ui/bgcall.h); may block. stop(ctx) is
	 * asked as the input is read: nonzero (the user left it with Esc)
	 * ends the read (-1) and frees what it built. NULL: the explorer
	 * cannot open inputs.
	 */
	int (*input_load)(const char *spec, int (*stop)(void *ctx), void *ctx, rd_kernel **k,
			  char *err, size_t len);
	int (*preset_save)(const char *path, const rd_config *cfg, const char *name,
			   const char *description, int replace, char *err, size_t len);
	/*
	 * Write the result on screen as an SVG for slides at path (the
	 * explorer's w key): its bars and histogram, labelled with caption
	 * (the configuration). 0; 1 when path exists and replace is 0;
	 * -1 with the reason in err. Off the UI thread; may block. NULL: the
	 * explorer cannot write pictures.
	 */
	/*
	 * The text of a kernel-description input (the sources view shows it
	 * annotated): 0 with *text (malloc'ed), or -1 with the reason in err.
	 * Off the UI thread; may block. NULL: no texts.
	 */
	int (*source_text)(const char *input, char **text, char *err, size_t len);
	/*
	 * The measured hit rates of kernel (--measured FILE: the breakdown
	 * shows them beside the model's): 0 with *l1 and *l2 (NAN where the
	 * file gives none), -1 when the file has no such kernel. Quick (the
	 * file was read before the explorer started): called on the UI
	 * thread. NULL: no measurements; measured_name then NULL too, else
	 * the file's name for the label.
	 */
	int (*measured)(void *ctx, const char *kernel, double *l1, double *l2);
	const char *measured_name;
	/*
	 * w's picture of what the screen shows (--plot's SVG): runs[0] the
	 * result on screen, runs[1] the pinned baseline in compare mode;
	 * panels EXPLORER_SVG_L2 and EXPLORER_SVG_DRAM when the screen shows
	 * the L2 (side by side, or in focus) or the DRAM (the placement
	 * view). 0, 1 when path exists and replace is 0 (ask), or -1 with the
	 * reason in err. Off the UI thread. NULL: no pictures.
	 */
	int (*svg_save)(const char *path, const char *input, const char *kernel,
			const explorer_svg_run *runs, int nruns, int panels, int replace,
			char *err, size_t len);
	/*
	 * Count input (a kernel description; ndefines "NAME=VALUE" over its
	 * parameters) as rdscope count does, with `line`-byte lines and
	 * nlevels sizes: 0 with *out filled (free out->refs), or -1 with the
	 * reason in err. stop(ctx) is asked now and then: nonzero ends the
	 * count (-1). Off the UI thread; may take long. NULL: no counting.
	 */
	/* The learned estimator (seed 003; the shipped weights, read before
	 * the explorer starts), for the profile view's estimates; NULL: none. */
	const rd_mlp *learned;
	int (*count)(const char *input, const char *const *defines, size_t ndefines, uint32_t line,
		     const uint64_t *bytes, int nlevels, int (*stop)(void *ctx), void *ctx,
		     explorer_count *out, char *err, size_t len);
	/* Tell a fatal-signal handler how to restore the terminal (fd -1: no
	 * longer); NULL: nobody to tell. */
	void (*terminal)(int fd, const char *seq, const struct termios *saved);
} explorer_opts;

/* Run the explorer until the user quits. Returns an exit status. */
int explorer_run(const explorer_opts *o);

/*
 * Can the explorer use the terminal on standard output (its TERM known to
 * terminfo, with cursor addressing)? 1, or 0 with the reason in why (for
 * TERM=dumb: "the terminal (TERM=dumb) cannot move the cursor").
 */
int explorer_terminal_ok(char *why, size_t len);

#endif
