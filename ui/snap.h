/*
 * The explorer's result snapshots: one immutable result of the model
 * thread (a breakdown, a step-through log or miss-rate curves), made on
 * the model thread and handed to the UI thread, which then shares it by
 * reference count. No curses; includes only the model (rdscope.h).
 */
#ifndef UI_SNAP_H
#define UI_SNAP_H

#include "rdscope.h"

struct steplog;
struct curves;
struct rprof;

/* What the model thread runs: the breakdown of the configuration on
 * screen first, then the teaching views' runs (jobs.h); when idle,
 * speculative breakdowns (JOB_SPEC results, worker_speculate). */
enum job_kind { JOB_BREAKDOWN = 0, JOB_STEPS, JOB_CURVES, JOB_SITES, JOB_L1B, JOB_PROFILE,
		JOB_NKINDS,
		JOB_SPEC = JOB_NKINDS };

/* An immutable result. After worker_take the UI thread owns it; refs is
 * touched by the UI thread only. */
typedef struct snap {
	int refs;
	int kind;       /* enum job_kind */
	unsigned long gen;
	rd_config cfg;
	int status;     /* RD_OK, or the model's error */
	int partial;    /* 1: a snapshot of a run still going (no class breakdown,
			 * unless parts_total) */
	unsigned parts_done, parts_total; /* a partial result of a kernel in parts:
			 * the L1 of parts_done of its parts_total SMs (classes
			 * too; no L2); 0, 0 else */
	double seconds; /* wall time of the model run */
	rd_result res;  /* JOB_BREAKDOWN, JOB_SITES (with its per-site counts), JOB_L1B (the
			 * run of cfg under rd_config_l1b: its L2 gives the L1B pair) */
	struct steplog *steps;  /* JOB_STEPS: the first requests, replayed */
	struct curves *curves;  /* JOB_CURVES: partial until curves->done */
	int any_cfg;    /* holds for other configurations than cfg too: the views
			 * decide (JOB_PROFILE: cfg is its rprof_key) */
	struct rprof *prof;     /* JOB_PROFILE: the reuse profile (rprof.h) */
	char key[32];   /* JOB_CURVES: the swept parameter as asked */
	char err[1024]; /* why status is not RD_OK, where more is known than
			 * rd_strerror says (a kernel in parts); "" else */
} snap;

/* A new snapshot of a kind (refs 1, status RD_OK), or NULL. */
snap *snap_new(int kind, unsigned long gen, const rd_config *cfg);

/* One more reference (s may be NULL); returns s. */
snap *snap_ref(snap *s);

/* One reference less (s may be NULL); the last frees s and what it holds. */
void snap_unref(snap *s);

#endif
