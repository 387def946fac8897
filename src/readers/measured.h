/*
 * Measured hit rates per kernel (rdscope validate --measured FILE; issue
 * 22). The format is told from the content (the first line that is not
 * blank, a '#' comment or a profiler's "==...==" line):
 *
 *  - plain CSV, one kernel a line, `kernel,l1_hit_rate[,l2_hit_rate]`:
 *    kernel is the name as rdscope reads it (1 to 255 bytes, no comma,
 *    quote or control character; spaces around it ignored), each name
 *    once; rates are decimal numbers from 0 to 1, or 0 to 100 followed by
 *    %; l2_hit_rate may be empty or absent. A first line starting with
 *    `kernel,` is a header. Lines of at most 1023 bytes.
 *  - Nsight Compute's CSV (`ncu --csv --metrics ...`): a header of quoted
 *    fields with "ID", "Kernel Name", "Metric Name", "Metric Value" (and
 *    "Metric Unit": "%" or empty), one row per launch per metric.
 *    l1tex__t_sector_hit_rate.pct (else
 *    l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct, else the
 *    section's "L1/TEX Hit Rate") is the L1 hit rate,
 *    lts__t_sector_hit_rate.pct (else "L2 Hit Rate") the L2's, in percent
 *    (thousands separators "1,234.5" taken, only between groups of three
 *    digits before the point: "0,96" is no number); other metrics are
 *    ignored.
 *  - Nsight Compute's raw page (`ncu --csv --page raw`): the header has
 *    "ID" and "Kernel Name" but no "Metric Name", one column per metric
 *    (the same names), an optional second row of units (its ID empty),
 *    then one row per launch.
 *  - nvprof's metrics CSV (`nvprof --csv --metrics ...`): header "Device",
 *    "Kernel", "Invocations", "Metric Name", "Metric Description", "Min",
 *    "Max", "Avg"; global_hit_rate (else l1_cache_global_hit_rate) is the
 *    L1 hit rate, l2_l1_read_hit_rate (else l2_read_hit_rate, else
 *    l2_hit_rate) the L2's, the Avg column in percent (with or without %).
 *  - nvprof's events CSV (`nvprof --csv --events ...`): header "Device",
 *    "Kernel", "Invocations", "Event Name", "Min", "Max", "Avg", "Total";
 *    the L1 hit rate is l1_global_load_hit / (l1_global_load_hit +
 *    l1_global_load_miss) from the Total column.
 *
 *  - Nsight Compute's text page (`ncu` without --csv, as people paste
 *    it): "[PID] PROCESS@HOST" lines, a launch per line
 *    "  NAME (GRID)x(BLOCK), Context C, Stream S, ...", and per section a
 *    table framed by dash lines ("Metric Name", "Metric Unit", "Metric
 *    Value"), its columns where the dashes are; the same metric names.
 *    Told from a first line "[PID] ..." or, after other output (the
 *    program's), such a line followed by a launch line.
 *
 * Profiler exports: lines starting with "==" (==PROF==, ==WARNING==,
 * ==1234==) are comments; fields split as RFC 4180 says (in double
 * quotes, "" a quote; a quoted field may hold newlines, its record's
 * line is its first); no row has more fields than the header (the
 * columns are read by place: nvprof's unquoted 1,234.5% is refused),
 * fewer only when every column read is there (ncu leaves trailing rule
 * columns out); records of at most 65535 bytes and 4096 fields;
 * kernel names of 1 to 65535 bytes (a record's). Each launch (ncu: each ID; the text
 * page: each launch line) is a row; a kernel's launches are numbered from 0
 * in ID order (nvprof: one row per kernel, launch 0; a kernel twice, as
 * from two devices, is refused). A launch without any of the metrics
 * above is kept with no rate (so that the numbering follows the
 * profiler's). Nsight Compute's metric names may also be "LABEL (NAME)"
 * (--print-metric-name label-name).
 *
 * Values out of range are data, not syntax: a profiler's percent below 0
 * or above 100 (ncu combines counters of several replay passes: 104.17 %
 * occurs) and the plain CSV's "N%" are clamped to 0 or 100 %, counted and
 * named in notes[] (FILE:LINE, kernel, metric); "n/a", "no data" and an
 * empty value are no value. The plain CSV's bare fraction above 1 stays
 * an error (a percent written without its %?).
 *
 * The L1 rate of Nsight Compute is, best first:
 * l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct (global loads,
 * what the model counts), l1tex__t_sector_hit_rate.pct and "L1/TEX Hit
 * Rate" (every L1 access: stores, local memory too; a note says which
 * launches use them).
 *
 * Matching (measured_match_next), one modelled kernel after another in
 * the inputs' order: NAME is matched with the measured kernel named NAME
 * or, failing that, whose name before '(' (a leading "void " dropped) is
 * NAME (nvprof's and ncu's demangled signatures "colcopy(float*, float*,
 * int)"); a kernel description's launch tag "[t=0]" (a name ending in
 * "[VAR=N,...]") is dropped first. The k-th modelled kernel of a name
 * matches the k-th measured launch of that name (from 0, in ID order).
 * NAME#K (K decimal), when no kernel is named NAME#K itself, selects launch
 * K and takes no turn. measured_find is the one-kernel form: NAME is launch
 * 0, NAME#K launch K.
 *
 * At most MEASURED_MAX rows (launches) and MEASURED_MAX_BYTES bytes.
 * Every refusal says "FILE:LINE: why".
 */
#ifndef READERS_MEASURED_H
#define READERS_MEASURED_H

#include <stddef.h>

#define MEASURED_MAX 10000
#define MEASURED_MAX_BYTES (16u << 20)

typedef struct measured_row {
	char *kernel;      /* the name as the file gives it */
	char *base;        /* profilers: the name before '(' (NULL: none, or the same) */
	unsigned launch;   /* the kernel's launch, from 0 (plain CSV: 0) */
	unsigned blaunch;  /* the same among the rows of its base name (base NULL: launch) */
	unsigned long long id; /* ncu's ID; the text page: its launch's place; else 0 */
	double l1, l2;     /* hit rates in [0, 1]; NAN when not given (plain: l1 always) */
	unsigned line;     /* in the file (ncu: the launch's first row) */
} measured_row;

typedef struct measured_set {
	measured_row *rows;
	size_t n;
	const char *format; /* "plain CSV", "Nsight Compute CSV", ... (static) */
	char **notes;       /* what was read as it should not be: clamped values, the L1 metric */
	size_t nnotes;
	unsigned long clamped; /* values clamped to 0..100 % (the first MEASURED_MAX_NOTES named) */
	/* the rows' places sorted by kernel name, and by base name (the
	 * kernel's when it has none), each name's in file order: launch k
	 * of a name is the k-th of its run (matching in O(log n)) */
	size_t *by_kernel, *by_base;
} measured_set;

#define MEASURED_MAX_NOTES 20

/* Matching the inputs' kernels, in order, with the measured launches. */
typedef struct measured_key {
	char *name;                  /* the name matched (launch tag dropped) */
	unsigned turn;               /* the next launch by turn */
	unsigned modelled, matched;  /* kernels of this name in the inputs, matched */
} measured_key;

typedef struct measured_match {
	const measured_set *s;
	measured_key *keys;
	size_t nkeys, cap;
	size_t *slots, nslots;       /* hash of keys: index + 1, 0 empty */
	unsigned char *used;         /* per row: matched */
} measured_match;

/* Parse text[0..n) (shown names it): 0 with *out; -1 "SHOWN:LINE: why"
 * in err; -2 out of memory. */
int measured_parse(const char *text, size_t n, const char *shown, measured_set *out, char *err,
		   size_t errlen);
/* The same from a file. */
int measured_read(const char *path, measured_set *out, char *err, size_t errlen);
/* The row rdscope's kernel name matches alone (see above), or NULL. */
const measured_row *measured_find(const measured_set *s, const char *name);

/* 0, or -2 out of memory. */
int measured_match_init(measured_match *m, const measured_set *s);
/* The next modelled kernel, named name: its row in *row (NULL: none);
 * 0, or -2 out of memory. */
int measured_match_next(measured_match *m, const char *name, const measured_row **row);
/* A kernel of the inputs that a selection (--kernel) leaves out: it takes
 * its name's turn but is not modelled. 0, or -2 out of memory. */
int measured_match_skip(measured_match *m, const char *name);
/* The set's notes, then the measured launches no kernel matched and the
 * kernels no launch matched, each said on standard error: shown names the
 * file, cmd the command ("validate"). */
void measured_match_notes(const measured_match *m, const char *shown, const char *cmd);
void measured_match_free(measured_match *m);
void measured_free(measured_set *s);

#endif
