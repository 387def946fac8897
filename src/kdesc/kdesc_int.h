/*
 * Kernel descriptions, private to their three files: the compiled form of
 * a description (kdesc.c opens and closes it, kdesc_compile.c builds it,
 * kdesc_run.c runs a launch of it into a kernel).
 */
#ifndef KDESC_INT_H
#define KDESC_INT_H

#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>

#include "kdesc.h"
#include "kdesc_expr.h"
#include "readers/readers.h"
#include "util/util.h"

/* The kernel builder's (model/kernel.c), not yet in rdscope.h: a hint of
 * a kernel's loads, stores and threads (1 + its largest thread id), and
 * trips rounds of a loop's n accesses of one thread at once, access q of
 * a round at addr[q] + step[q] * round. */
void rd_kernel_builder_expect(rd_kernel_builder *b, uint64_t loads, uint64_t stores,
			      uint64_t threads);
int rd_kernel_builder_add_strided(rd_kernel_builder *b, uint32_t tid, int n,
				  const uint8_t *is_store, uint64_t *addr, const uint64_t *step,
				  const uint32_t *bytes, const uint32_t *site, uint64_t trips);
/* ... and the arrays of a kernel it finishes left their room (a chunk's:
 * the next chunk is built in them). */
void rd_kernel_builder_keep_room(rd_kernel_builder *b);

/* Variable slots of the builtins. */
enum { S_TX, S_TY, S_TZ, S_BX, S_BY, S_BZ, S_DX, S_DY, S_DZ, S_GX, S_GY, S_GZ, S_WARP, NBUILTIN };

#define MAX_DIMS 4
#define MAX_LAUNCH_VARS 8
#define MAX_LAUNCHES (1u << 20)
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MAX_LOOP (1ull << 14) /* make fuzz: same check, cheaper inputs */
#else
#define MAX_LOOP (1ull << 28) /* iterations of one loop instance */
#endif
/* Steps of one description: statements run and loop iterations, all
 * threads and launches together (kdesc_run.c). 2^30 is 8 for each load the load limit allows,
 * 10-20 s of work. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define KD_MAX_STEPS (1ull << 20)
#else
#define KD_MAX_STEPS (1ull << 30)
#endif

enum { SYM_BUILTIN, SYM_PARAM, SYM_LAUNCH, SYM_LOCAL };
enum { ORDER_CUDA = 0, ORDER_OCELOT = 1 };
enum { ST_LET, ST_LOAD, ST_STORE, ST_IF, ST_FOR };

typedef struct sym {
	char *name;
	int kind, slot, kernel, lv; /* lv: index among launch variables */
} sym;

typedef struct kd_array {
	char *name;
	uint64_t base;
	uint32_t elem;
	int ndims;
	int64_t dim[MAX_DIMS];
	int64_t total;
} kd_array;

typedef struct kd_ref {
	int array, nidx;
	int idx[MAX_DIMS];
	int32_t code[MAX_DIMS]; /* idx compiled (kx_compile) */
	int32_t vslot[MAX_DIMS]; /* idx is vals[vslot] + vk (kx_code_var_plus), or -1 */
	int64_t vk[MAX_DIMS];
	uint32_t bytes;
	const char *text; /* for messages: into the config, valid while loaded */
	unsigned text_len; /* the reference's own text, "b[k][j]" */
} kd_ref;

typedef struct kd_stmt {
	uint8_t kind;
	unsigned line;
	int slot;
	int e1, e2, e3;   /* let: e1; if: e1; for: init e1, cond e2, step e3 */
	int l1, n1;       /* if: then; for: body; load/store: refs */
	int l2, n2;       /* if: else */
	int32_t c1, c2, c3; /* e1, e2, e3 compiled (kx_compile), or -1 */
	/* for: a plain counting loop, its step affine in the variable and
	 * its condition comparing the variable with a bound free of it (cmp:
	 * KX_CMP_*, cbound: the bound compiled; 0: not such a loop) ... */
	uint8_t cmp;
	int32_t cbound;
	/* ... whose body is loads and stores only (at most KD_STRIDE_ACC
	 * references, of arrays with dims), each subscript affine in the
	 * variable: run by strides when its whole run is known to be in
	 * bounds (kdesc_run.c) */
	uint8_t strided;
	uint16_t nload, nstore; /* its load and store references */
	/* for: the body assigns no variable that the condition or the step
	 * reads, so a step that leaves the variable as it was leaves the
	 * loop where it was: an error at once (kdesc_run.c) */
	uint8_t still;
} kd_stmt;

#define KD_STRIDE_ACC 64

typedef struct kd_kernel {
	char *name;
	unsigned line;
	int grid[3], block[3];
	int body, nbody;
	int64_t max_threads;
	int order;
	unsigned lv_used; /* bit i: uses launch variable i */
	int nlocal0, nlocal1; /* its local slots */
} kd_kernel;

typedef struct kd_launch {
	int kernel;
	unsigned line;
	char *name;
	int64_t lv[MAX_LAUNCH_VARS];
} kd_launch;

typedef struct kdesc {
	trace_reader base;
	char *shown;
	char *text;
	config_t cf;
	int cf_live;
	kx_prog prog;
	sym *syms;
	int nsyms, nslots;
	int lv_slot[MAX_LAUNCH_VARS];
	int nlv;
	int64_t *init;          /* slot values of params (and 0 elsewhere) */
	kd_array *arrays;
	int narrays;
	kd_ref *refs;
	int nrefs, caprefs;
	kd_stmt *stmts;
	int nstmts, capstmts;
	int *lists;
	int nlists, caplists;
	kd_kernel *kernels;
	int nkernels;
	kd_launch *launches;
	size_t nlaunches, next;
	int64_t default_max_threads;
	int threads_set;         /* kdesc_set_max_threads: threads_cap for every kernel's */
	uint32_t threads_cap;
	int default_order;
	/* -D NAME=VALUE settings over the parameters (kdesc_reader's) */
	const char *const *defines;
	size_t ndefines;
	/* while compiling */
	int cur_kernel;         /* -1: launch context */
	unsigned cur_line;
	uint64_t steps;         /* work done by the launches loaded so far */
	/* the last part built (kd_load_blocks) with accesses: its launch + 1
	 * and its loads and stores, the next part's hint */
	size_t hint_launch;
	uint64_t hint_loads, hint_stores;
	/* the parts' arrays, each part built in the last one's (NULL: none
	 * made yet, or no memory for one) */
	rd_kernel_spare *spare;
	int oom;
} kdesc;

/* Errors (kdesc.c): each sets the reader's message and returns -1. The line
 * is the description's (0: none); kd_line looks a setting's line up. */
int kd_fail(kdesc *d, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int kd_oom(kdesc *d);
unsigned kd_sline(const config_setting_t *s);
unsigned kd_line(kdesc *d, const config_setting_t *s);
/* Does group s hold only the given keys? (else an error naming the first
 * other one, with a suggestion) */
int kd_known_keys(kdesc *d, const config_setting_t *s, const char *what, const char *const *keys,
		  size_t nkeys);

/* Parse d->text, check it and compile it, for the named variant (NULL:
 * the defaults); unrolls the launches (kdesc_compile.c). 0 or -1. */
int kd_compile(kdesc *d, const char *variant);

/* A launch being run (kdesc_run.c), into a kernel or a counter. */
typedef struct run {
	kdesc *d;
	const kd_kernel *k;
	int64_t *vals;
	rd_kernel_builder *b;
	uint32_t tid;
	uint64_t loads_left;     /* trace_max_loads(), counted down */
	uint64_t stores_left;    /* the same for stores (read once, not per store) */
	/* The work a description may take: KD_MAX_STEPS statements and loop
	 * iterations over all its threads and launches (d->steps), or what
	 * RDSCOPE_MAX_STEPS says. Loads alone are bounded by loads_left,
	 * loops alone by MAX_LOOP, but two nested loops of MAX_LOOP
	 * iterations, or one in each of 2^26 threads, would run for days.
	 * A part (keep set: one core's blocks) may take that much on its own:
	 * max_steps is then d->steps at its start plus the limit, so that a
	 * whole kernel in parts (132 of them on a 132-SM GPU) is bounded by
	 * its largest part, not stopped at a count of the whole. step_limit
	 * is the limit itself (the message's). */
	uint64_t max_steps;
	uint64_t step_limit;
	uint64_t stop_check;     /* the step at which to ask trace_stopped() next */
	int failed;
	int64_t *site;           /* [d->nrefs] a load reference's site id, or -1 */
	/* counting (kdesc_count): the accesses go to count instead of b */
	rd_count *count;
	uint32_t line;           /* the counter's line size */
	int skip_stores;
	uint64_t *fast;          /* [d->nrefs] accesses counted through a loop's repeats */
	/* progress: the launch's share and the outermost loops' iterations */
	int (*progress)(void *ctx, double f);
	void *pctx;
	double base, span;       /* fraction done before this thread, and its share */
	int depth;               /* loops entered */
	double loop_lo[2], loop_w[2]; /* the two outermost loops' current fractions */
	int stopped;
	/* counting's flat path (kdesc_flat.c) */
	struct kd_watch *watch;  /* each counted access's line is shown to it (see), or NULL */
	void (*see)(struct kd_watch *w, uint64_t line);
	/* the one-thread body by the flat path (kd_flat_body; a pointer, as
	 * kdesc_flat.c calls this file's functions): 0, 1 not taken, -1 */
	int (*flat_body)(struct run *r, const struct kd_kernel *K);
	int dry;                 /* addresses computed and checked, nothing counted */
	/* building a part (kd_load_blocks): only the blocks keep accepts;
	 * nblocks is the launch's block count (after max_threads) */
	int (*keep)(void *ctx, uint64_t block);
	void *keep_ctx;
	uint32_t *part_ids;      /* the blocks kept, ascending (their threads numbered densely) */
	uint32_t npart, part_all; /* kept so far, and in all */
	/* a part built in chunks (kd_load_chunks): each few blocks' kernel
	 * handed to sink once it has chunk accesses or more, the next chunk's
	 * first block in part_ids at chunk_first */
	int (*sink)(void *sctx, rd_kernel *chunk);
	void *sink_ctx;
	uint32_t chunk_first;
	uint64_t chunk;
	const char *lname;       /* the launch's name (its builders') */
	uint64_t nblocks;
	uint64_t grid_threads;   /* the launch's threads before max_threads */
	int flat_off;            /* --stream: every access counted */
	kdesc_flat_info *flat;   /* what the path did, or NULL */
} run;

/* The trip count of a plain counting loop (v = v0; v OP bound; v += c,
 * bound and c free of v; kd_stmt.cmp) at the current values: 0 with *v0,
 * *c, *trips; 1 not such a loop here (run it as usual); -1 more than
 * MAX_LOOP iterations (kd_run_fail said it). */
int kd_loop_trips(run *r, const kd_stmt *st, int64_t *v0, int64_t *c, uint64_t *trips);
/* Count launch K's one-thread body by the flat path (kdesc_flat.c): 0
 * counted; 1 not taken (r->flat->why says why; the counter is as it was
 * before); -1 failed (message set). */
int kd_flat_body(run *r, const kd_kernel *K);
/* Run statements list (start, count) of the current thread: 0 or -1. */
int kd_run_list(run *r, int start, int count);

/* A failure while running: "kernel K, block (..) thread (..): why" at the
 * statement's line; sets r->failed; returns -1. */
int kd_run_fail(run *r, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The byte address of reference ref of statement st at the current
 * values, its indices checked: 0, or -1 (kd_run_fail). */
int kd_ref_addr(run *r, const kd_stmt *st, const kd_ref *ref, uint64_t *addr);

/* The byte address of reference ref at values vals, its indices checked:
 * 0, or -1 with why (no kernel, block or thread: kd_run_fail adds them).
 * Pure: the builder (kd_ref_addr) and the cursors (kdesc_cursor.c). */
static inline int64_t kd_ref_index(const kx_ins *code, const kd_ref *ref, int j,
				   const int64_t *vals, int *e)
{
	int64_t x;
	if (ref->vslot[j] >= 0 && !__builtin_add_overflow(vals[ref->vslot[j]], ref->vk[j], &x))
		return x;
	return kx_run(code + ref->code[j], vals, e); /* (and its overflow's error) */
}

static inline int kd_addr(const kdesc *d, const kd_ref *ref, const int64_t *vals, uint64_t *addr,
			  char *why, size_t whylen)
{
	const kx_ins *code = d->prog.code;
	const kd_array *A = &d->arrays[ref->array];
	int e = 0;
	int64_t flat;
	if (ref->nidx == 1) {
		flat = kd_ref_index(code, ref, 0, vals, &e);
		if (!e && A->ndims && (flat < 0 || flat >= A->total)) {
			snprintf(why, whylen, "%s[%lld]: index outside 0..%lld", A->name,
				 (long long)flat, (long long)A->total - 1);
			return -1;
		}
	} else {
		flat = 0;
		for (int j = 0; j < ref->nidx && !e; j++) {
			int64_t x = kd_ref_index(code, ref, j, vals, &e);
			if (!e && (x < 0 || x >= A->dim[j])) {
				snprintf(why, whylen, "%s: index %d is %lld, outside 0..%lld", A->name,
					 j + 1, (long long)x, (long long)A->dim[j] - 1);
				return -1;
			}
			flat = flat * A->dim[j] + x;
		}
	}
	if (e) {
		snprintf(why, whylen, "%s", kx_strerror(e));
		return -1;
	}
	/* An array without dims takes any index: its byte offset must
	 * still be a 64-bit number (found by make fuzz). */
	int64_t off; /* (the product's overflow: no division per access) */
	if (__builtin_mul_overflow(flat, (int64_t)A->elem, &off)) {
		snprintf(why, whylen, "%s[%lld]: the address is beyond 64 bits", A->name,
			 (long long)flat);
		return -1;
	}
	if (off < 0 && (uint64_t)0 - (uint64_t)off > A->base) {
		snprintf(why, whylen, "%s[%lld] is below address 0", A->name, (long long)flat);
		return -1;
	}
	*addr = A->base + (uint64_t)off;
	return 0;
}

/* The name of variable slot (for messages), or "its variable". */
const char *kd_slot_name(const kdesc *d, int slot);
/* A loop that does not advance (kd_stmt.still), with the variable's name
 * and value; a loop past MAX_LOOP iterations, with MAX_LOOP. */
#define KD_STUCK_FMT "the loop does not advance: its step leaves %s at %lld, so it would never end"
#define KD_LOOP_FMT "loop runs more than %llu iterations"

/*
 * Plain loop st (kd_stmt.cmp: v = v0; v OP bound; v = v + c) at values
 * vals: 0 with *v0, *c (a constant, not 0) and *trips, else 1 (run it as
 * usual). vals[st->slot] is changed on the way and restored. See
 * kdesc_run.c.
 */
int kd_loop_header(const kdesc *d, int64_t *vals, const kd_stmt *st, int64_t *v0, int64_t *c,
		   uint64_t *trips);
/* Reference R over such a loop's trips iterations (variable slot from v0
 * by c): its address at the first iteration and its step, when every
 * index stays in bounds all the way; else 1 (run the loop as usual).
 * vals[slot] restored. */
int kd_stride_ref(const kdesc *d, int64_t *vals, const kd_ref *R, int slot, int64_t v0, int64_t c,
		  uint64_t trips, uint64_t *a0, uint64_t *step);

/* Launch L's values (vals: d->nslots of them: parameters, launch
 * variables, grid and block sizes), grid g[3], block bd[3], its blocks
 * after max_threads and its threads before: 0, or -1 (kd_fail said why). */
int kd_launch_setup(kdesc *d, const kd_launch *L, int64_t *vals, int64_t *g, int64_t *bd,
		    uint64_t *nblocks, uint64_t *grid_threads);
/* The block and thread ids of thread t of block b (the launch's number,
 * in its kernel's block order) into vals, its locals cleared. */
void kd_thread_vals(const kd_kernel *K, const int64_t *g, const int64_t *bd, uint64_t b, uint64_t t,
		    int64_t *vals);
/* ... its halves: the block's (blockIdx) and the thread's (threadIdx, and
 * the kernel's locals zeroed) */
void kd_block_vals(const kd_kernel *K, const int64_t *g, uint64_t b, int64_t *vals);
void kd_tid_vals(const kd_kernel *K, const int64_t *bd, uint64_t t, int64_t *vals);

/* Run launch L (its blocks and threads, in the description's order) into
 * r's counter or, without one, a new kernel builder r->b. 0 or -1 (the
 * message set); r->d, r->count and the counting fields set by the caller. */
int kd_run_launch(run *r, const kd_launch *L);

/* Counting: a for loop whose body is loads and stores only, with
 * subscripts affine in its variable, a step of a constant and a
 * comparison with a bound (kdesc_count.c): run by lines, each iteration
 * after the first on the same lines counted by rd_count_repeat. 0 when
 * done, 1 when the loop is not of that kind (run it as usual), -1 on an
 * error. */
int kd_count_loop(run *r, const kd_stmt *st);

/* The trace_reader load callback: the current launch run thread by thread
 * into a kernel (kdesc_run.c). */
int kd_load(trace_reader *rr, rd_kernel **out);
int kd_load_blocks(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   uint64_t *nblocks, rd_kernel **out);
/* kdesc_part.c: trace_reader.load_stream and its source's error and
 * freeing, for descriptions. */
int kd_load_stream(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   rd_kernel **shape, rd_access_src **src);
const char *kd_stream_part_error(const rd_access_src *src);
void kd_stream_part_free(rd_access_src *src);
/* The description's arrays (seed 002's unit of placement), as a kernel of
 * it has them; NULL: no memory. */
rd_arrays *kd_arrays_new(const kdesc *d);
int kd_load_chunks(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
		   int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, rd_kernel **out);

#endif
