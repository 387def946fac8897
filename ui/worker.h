/*
 * The explorer's model thread (no curses here). The UI thread submits a
 * configuration with a generation number; one worker thread runs the model
 * on its own rd_model (which keeps the pipeline stages an edit does not
 * affect) and hands results back through a latest-wins slot guarded by a
 * mutex, waking the UI through a self-pipe it poll()s with the keyboard.
 *
 * A run whose generation is no longer the newest stops at the model's
 * next progress check (rd_callbacks.progress returns nonzero). A run done
 * "quick" also publishes the model's snapshots of the as-configured case
 * while the breakdown runs (partial results: totals and histogram so far,
 * miss classes pending), throttled so short runs do not flicker. The
 * breakdown's cases run on up to four threads of the model's own.
 */
#ifndef UI_WORKER_H
#define UI_WORKER_H

#include <stddef.h>

#include "rdscope.h"
#include "snap.h"

typedef struct worker worker;

/* Start the thread over kernel k (which must outlive the worker). Blocks
 * the usual signals in the new thread so they reach the UI thread. */
worker *worker_start(const rd_kernel *k, char *err, size_t len);

/*
 * The same over a kernel modelled in parts (shape: its shape, no
 * accesses): each breakdown is run(parts, cfg, stop, ctx, res, err, len)
 * (explorer_opts.parts_run), stopped between parts by a newer generation,
 * its fraction of parts done the progress; the parts' L1 result so far
 * published as a partial result (snap.parts_done of snap.parts_total,
 * throttled as the quick runs' snapshots are), no other jobs (the views
 * that need the accesses are not offered), no speculation. The worker
 * owns parts: free_parts(parts) when it stops (or fails to start).
 */
typedef int worker_parts_fn(void *parts, const rd_config *cfg, int (*stop)(void *ctx, double done),
			    void (*partial)(void *ctx, const rd_result *r, unsigned done,
					    unsigned total),
			    void *ctx, rd_result *res, char *err, size_t len);
worker *worker_start_parts(const rd_kernel *shape, worker_parts_fn *run,
			   void (*free_parts)(void *parts), void *parts, char *err, size_t len);

/* Stop and join the thread, free everything (an untaken result too). */
void worker_stop(worker *w);

/* Read end of the self-pipe: readable when a result or progress is new. */
int worker_fd(const worker *w);

/*
 * Make gen the newest generation: a run of an older one stops. With cfg,
 * also ask for a run of cfg (replacing any request not yet started);
 * without (NULL: the UI had the result already), only cancel.
 */
void worker_submit(worker *w, unsigned long gen, const rd_config *cfg, int quick);

/*
 * Ask for a teaching view's run of cfg (JOB_STEPS, or JOB_CURVES sweeping
 * key) as part of generation gen (made the newest, like worker_submit);
 * it runs after any breakdown asked for, and replaces a request of its
 * kind not yet started.
 */
void worker_submit_job(worker *w, int kind, unsigned long gen, const rd_config *cfg,
		       const char *key);

/*
 * Drain the pipe and take a newest published result (NULL if none since
 * the last take): each kind has its own latest-wins slot, so call it until
 * it gives NULL. *prog_gen and *prog receive the generation of a
 * breakdown in progress and its fraction (0..1), or 0 when none runs.
 */
snap *worker_take(worker *w, unsigned long *prog_gen, double *prog);

/*
 * While nothing else is asked for, run the breakdown of up to two
 * configurations the user may well ask for next (the neighbours of the
 * selected parameter) and publish each as a JOB_SPEC result for the UI to
 * keep: stepping there is then instant. They belong to generation gen and
 * stop, unpublished, as soon as a newer generation or any request comes.
 * Replaces the configurations of an earlier call.
 */
void worker_speculate(worker *w, unsigned long gen, const rd_config *cfgs, int n);

/* Runs started (speculative ones apart), for tests. */
unsigned long worker_runs(worker *w);
unsigned long worker_spec_runs(worker *w);

#endif
