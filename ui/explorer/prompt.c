/*
 * Prompts, export and open (see prompt.h). No curses: the status line
 * draws the prompt (screen.c). Calls the state, params, keys and the
 * preset services of explorer_opts.
 */
#include "prompt.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "keys.h"
#include "params.h"
#include "typed.h"

/* The longest file or input name taken at the prompt: the state keeps
 * names in 600 bytes (input_buf, pfile), ".cfg" or ".svg" added. */
#define NAME_MAX_TYPED 590

static int prompt_open(explorer *x, int kind, const char *label, const char *init)
{
	x->prompt = kind;
	snprintf(x->plabel, sizeof x->plabel, "%s", label);
	snprintf(x->pbuf, sizeof x->pbuf, "%s", init);
	x->pfresh = *init != '\0';
	x->pfull = 0;
	return R_STATUS;
}

/* Default preset file name from the input: "samples/a.trc.gz" -> "a.cfg",
 * "builtin:colcopy:96" -> "colcopy-96.cfg". */
static void default_file_name(const char *input, const char *builtin, const char *fext, char *buf,
			      size_t len)
{
	const char *b = input;
	if (builtin && strncmp(b, builtin, strlen(builtin)) == 0)
		b += strlen(builtin);
	else if (strrchr(b, '/'))
		b = strrchr(b, '/') + 1;
	char name[200];
	size_t n = 0;
	for (; *b && n + 1 < sizeof name; b++)
		name[n++] = isalnum((unsigned char)*b) || *b == '_' || *b == '.' ? *b : '-';
	name[n] = '\0';
	static const char *const ext[] = {".gz", ".xz", ".trc", ".kdesc", ".rdt", ".traceg"};
	for (int i = 0; i < 6; i++) {
		size_t el = strlen(ext[i]);
		if (n > el && strcmp(name + n - el, ext[i]) == 0)
			name[n -= el] = '\0';
	}
	if (!n)
		snprintf(name, sizeof name, "rdscope");
	snprintf(buf, len, "%s%s", name, fext);
}

/* Quote a word for the shell if it needs it. */
static void shell_word(const char *w, char *buf, size_t len)
{
	int plain = *w != '\0';
	for (const char *p = w; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/._-:+=,@%", *p))
			plain = 0;
	if (plain) {
		snprintf(buf, len, "%s", w);
		return;
	}
	size_t o = 0;
	buf[o++] = '\'';
	for (const char *p = w; *p && o + 5 < len; p++) {
		if (*p == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

/* ---------------------------------------------------------------- files */

/*
 * Opening and exporting run off the UI thread (bgcall.h): a preset named
 * by the user may be a FIFO, a device, a file on a hung file system. The
 * status line says what is under way; Esc stops waiting for it; q and
 * signals quit whatever it does.
 */
typedef struct file_job {
	int kind; /* P_OPEN, P_EXPORT, P_INPUT, P_TYPED or P_SVG */
	int (*load)(const char *spec, rd_config *cfg, char *err, size_t len);
	int (*input_load)(const char *spec, int (*stop)(void *ctx), void *ctx, rd_kernel **k,
			  char *err, size_t len);
	rd_kernel *k;    /* P_INPUT, P_TYPED: the kernel read or made */
	int (*save)(const char *path, const rd_config *cfg, const char *name,
		    const char *description, int replace, char *err, size_t len);
	int (*svg)(const char *path, const char *input, const char *kernel,
		   const explorer_svg_run *runs, int nruns, int panels, int replace, char *err,
		   size_t len);
	/* P_SVG: the result on screen and, in compare mode, the pinned one
	 * (their histograms copied), their configurations and labels; the
	 * panels the screen shows */
	rd_result res, res2;
	rd_config cfg2;
	char desc2[600];
	int nruns, panels;
	int (*source)(const char *input, char **text, char *err, size_t len);
	char *src_text;  /* P_SOURCE: the description's text read */
	/* P_COUNT: what to count, the result; P_COUNT and P_INPUT: the
	 * stop flag (Esc) */
	int (*count)(const char *input, const char *const *defines, size_t ndefines, uint32_t line,
		     const uint64_t *bytes, int nlevels, int (*stop)(void *ctx), void *ctx,
		     explorer_count *out, char *err, size_t len);
	char defs[EXPLORER_COUNT_PARAMS][48];
	int ndefs;
	uint32_t line;
	uint64_t bytes[EXPLORER_COUNT_LEVELS];
	int nlevels;
	atomic_int stop;
	explorer_count cres;
	char input[600], kernel[200];
	char text[PROMPT_MAX]; /* the preset to open, the file to export to, the addresses */
	char name[200], desc[600];
	rd_config cfg;   /* read, or to write; P_TYPED: the one on screen */
	/* P_TYPED: does the timing change the answer? The hits under cfg
	 * and without latency (the textbook's: latency 0), when they or the
	 * distances differ (timing 1), else timing 0. */
	int timing;
	uint64_t hits_cfg, hits_free;
	int replace;
	int rc;
	char err[2048];
} file_job;

/* Exports under way, those the UI stopped waiting for too: one at a time
 * (writing a file changes the process's umask for a moment and tracks
 * its temporary file for the signal handlers, src/writers/outfile.c). */
static atomic_int exporting;

static void file_job_free(void *arg)
{
	file_job *j = arg;
	rd_kernel_free(j->k);
	free(j->res.hist);
	free(j->res.l2.hist);
	free(j->res2.hist);
	free(j->res2.l2.hist);
	free(j->src_text);
	free(j->cres.refs);
	free(j);
}

/* Has the UI left the job (P_COUNT, P_INPUT)? Asked on the job's thread. */
static int job_stop(void *ctx)
{
	file_job *j = ctx;
	return atomic_load(&j->stop);
}

/* The picture's file (off the UI thread: a name may be on a hung file
 * system): .svg added to a name that lacks it and names nothing yet; an
 * existing device, FIFO or file is written as named; a directory refused. */
static int svg_path(char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	size_t n = strlen(path);
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%.600s is a directory: give a file name", path);
			return -1;
		}
		return 0;
	}
	if ((n < 4 || strcmp(path + n - 4, ".svg") != 0) && n + 4 < len)
		strcat(path, ".svg");
	return 0;
}

/* Without latency, cfg: the textbook's stack distances (each request
 * sees the one before it done). */
static void latency_zero(const rd_config *cfg, rd_config *out)
{
	*out = *cfg;
	out->latency_miss = out->latency_hit = 0;
	out->latency_stddev = 0;
}

/* P_TYPED (on the job's thread): the typed addresses under the timing on
 * screen and under latency 0; j->timing set when the hits or the reuse
 * distances differ (a few hundred loads: microseconds). */
static void typed_timing(file_job *j)
{
	rd_config free_cfg;
	latency_zero(&j->cfg, &free_cfg);
	if (rd_config_equal(&free_cfg, &j->cfg))
		return;
	rd_model *m = rd_model_new(j->k);
	if (!m)
		return;
	rd_result a, b;
	if (rd_model_run(m, &j->cfg, 1 << RD_CASE_FULL, NULL, &a) == RD_OK) {
		if (rd_model_run(m, &free_cfg, 1 << RD_CASE_FULL, NULL, &b) == RD_OK) {
			j->hits_cfg = a.hits;
			j->hits_free = b.hits;
			j->timing = a.hits != b.hits || a.hist_inf != b.hist_inf ||
				    a.hist_len != b.hist_len ||
				    (a.hist_len && memcmp(a.hist, b.hist, a.hist_len * sizeof *a.hist));
			rd_result_free(&b);
		}
		rd_result_free(&a);
	}
	rd_model_free(m);
}

static void file_job_run(void *arg)
{
	file_job *j = arg;
	if (j->kind == P_INPUT) {
		j->rc = j->input_load(j->text, job_stop, j, &j->k, j->err, sizeof j->err);
	} else if (j->kind == P_TYPED) {
		typed_seq *sq = malloc(sizeof *sq);
		j->rc = -1;
		if (!sq)
			snprintf(j->err, sizeof j->err, "out of memory");
		else if (typed_parse(j->text, sq, j->err, sizeof j->err) == 0 &&
			 !(j->k = typed_kernel(sq, "typed")))
			snprintf(j->err, sizeof j->err, "out of memory");
		j->rc = j->k ? 0 : -1;
		if (j->k)
			typed_timing(j);
		free(sq);
	} else if (j->kind == P_OPEN) {
		rd_config_default(&j->cfg);
		j->rc = j->load(j->text, &j->cfg, j->err, sizeof j->err);
	} else if (j->kind == P_SOURCE) {
		j->rc = j->source(j->text, &j->src_text, j->err, sizeof j->err);
	} else if (j->kind == P_COUNT) {
		const char *defs[EXPLORER_COUNT_PARAMS];
		for (int i = 0; i < j->ndefs; i++)
			defs[i] = j->defs[i];
		j->rc = j->count(j->text, defs, (size_t)j->ndefs, j->line, j->bytes, j->nlevels,
				 job_stop, j, &j->cres, j->err, sizeof j->err);
	} else if (j->kind == P_SVG) {
		j->rc = svg_path(j->text, sizeof j->text, j->err, sizeof j->err);
		if (j->rc == 0) {
			explorer_svg_run runs[2] = {{j->desc, &j->cfg, &j->res},
						    {j->desc2, &j->cfg2, &j->res2}};
			j->rc = j->svg(j->text, j->input, j->kernel, runs, j->nruns, j->panels,
				       j->replace, j->err, sizeof j->err);
		}
		atomic_fetch_sub(&exporting, 1);
	} else {
		j->rc = j->save(j->text, &j->cfg, j->name, j->desc, j->replace, j->err,
				sizeof j->err);
		atomic_fetch_sub(&exporting, 1);
	}
}

/* At most this many calls stuck in the background (each a thread). */
#define STUCK_MAX 4

static int file_job_start(explorer *x, file_job *j, const char *what)
{
	const char *verb = j->kind == P_EXPORT ? "export"
			   : j->kind == P_SOURCE ? "sources"
			   : j->kind == P_COUNT	 ? "count"
			   : j->kind == P_SVG	 ? "svg"
			   : j->kind == P_TYPED	 ? "typed"
						 : "open";
	int export = j->kind == P_EXPORT || j->kind == P_SVG;
	const char *why = x->busy ? x->busy_what
			  : bgcall_running() >= STUCK_MAX ? "earlier files are still being read or written"
			  : export && atomic_load(&exporting)
				  ? "an earlier export is still being written"
				  : NULL;
	if (why) {
		explorer_message(x, 1, "%s: %s", verb, why);
		file_job_free(j);
		return R_STATUS;
	}
	char err[256];
	if (export)
		atomic_fetch_add(&exporting, 1);
	x->busy = bgcall_start(file_job_run, j, file_job_free, err, sizeof err); /* j is the call's */
	if (!x->busy) {
		if (export)
			atomic_fetch_sub(&exporting, 1);
		explorer_message(x, 1, "%s: %s", verb, err);
		return R_STATUS;
	}
	snprintf(x->busy_what, sizeof x->busy_what, "%s %.600s... (Esc stops waiting)", what,
		 j->text);
	return R_STATUS;
}

static file_job *file_job_new(explorer *x, int kind)
{
	file_job *j = calloc(1, sizeof *j);
	if (!j) {
		explorer_message(x, 1, "out of memory");
		return NULL;
	}
	j->kind = kind;
	atomic_init(&j->stop, 0);
	j->load = x->opts->preset_load;
	j->input_load = x->opts->input_load;
	j->save = x->opts->preset_save;
	j->svg = x->opts->svg_save;
	j->source = x->opts->source_text;
	return j;
}

/* Hand the result of a call a view asked for (explorer.calls) to the
 * views' took op: reaction flags (*res NULL when a view kept it). */
static int took(explorer *x, int kind, void **res)
{
	for (const view_ops *const *v = x->views; *v; v++) {
		int f = (*v)->took ? (*v)->took(x, kind, res) : -1;
		if (f >= 0)
			return f;
	}
	return R_NONE;
}

static int prompt_source(explorer *x)
{
	if (!x->opts->source_text) {
		explorer_message(x, 1, "sources: this explorer cannot read descriptions");
		return R_STATUS;
	}
	if (x->made) { /* its label names no file */
		void *none = NULL;
		snprintf(x->call_err, sizeof x->call_err,
			 "%s are not a kernel description: there is no text to show", x->made);
		explorer_message(x, 1, "sources: %s", x->call_err);
		return took(x, P_SOURCE, &none) | R_STATUS;
	}
	file_job *j = file_job_new(x, P_SOURCE);
	if (!j)
		return R_STATUS;
	snprintf(j->text, sizeof j->text, "%s", x->input);
	return file_job_start(x, j, "reading");
}

/* The description's text (P_SOURCE), for the sources view. */
static int sourced(explorer *x, file_job *j)
{
	void *text = NULL;
	if (j->rc < 0 || !j->src_text) {
		snprintf(x->call_err, sizeof x->call_err, "%.1000s", j->err);
		explorer_message(x, 1, "sources: %s", j->err);
		return took(x, P_SOURCE, &text) | R_STATUS;
	}
	if (strcmp(j->text, x->input) != 0) /* another input since */
		return R_NONE;
	text = j->src_text;
	int f = took(x, P_SOURCE, &text);
	j->src_text = text; /* NULL: the view's now */
	return f;
}

/* The configuration in one line, as the picture's caption. */
static void config_caption(const rd_config *c, char *buf, size_t len)
{
	char h[32];
	rd_config_get(c, "l1.hash", h, sizeof h);
	unsigned kib = c->l1_size / 1024;
	char size[32];
	if (c->l1_size % 1024 == 0)
		snprintf(size, sizeof size, "%u KiB", kib);
	else
		snprintf(size, sizeof size, "%u B", c->l1_size);
	char mshrs[32];
	if (c->l1_mshrs)
		snprintf(mshrs, sizeof mshrs, "%u MSHRs", c->l1_mshrs);
	else
		snprintf(mshrs, sizeof mshrs, "unlimited MSHRs");
	snprintf(buf, len, "%s, %u-way, %u B lines, %s, %s, latency %u", size, c->l1_ways,
		 c->l1_line, h, mshrs, c->latency_miss);
}

/* The picture's bar label: the kernel, then the configuration. */
static void svg_caption(const char *kernel, const rd_config *c, char *buf, size_t len)
{
	char cfg[200];
	config_caption(c, cfg, sizeof cfg);
	snprintf(buf, len, "%.120s: %s", kernel, cfg);
	/* the arrays placed outside global memory (the placement view) */
	for (uint32_t i = 0; i < c->mem_n; i++) {
		size_t o = strlen(buf);
		snprintf(buf + o, len - o, ", %s=%s", c->mem[i].name, rd_space_name(c->mem[i].space));
	}
}

/* A result for the picture, kept while the file is written (the snapshot
 * may go meanwhile): its counts, and copies of the L1's and the L2's
 * read histograms (what is drawn); 0, or -1 out of memory. */
static int svg_result(rd_result *dst, const rd_result *src)
{
	*dst = *src;
	dst->hist = NULL;
	dst->hist_w = NULL; /* (not drawn) */
	dst->hist_w_len = 0;
	dst->set_ids = NULL;
	dst->set_requests = dst->set_misses = NULL;
	dst->nsets = 0;
	dst->sites = NULL;
	dst->nsites = 0;
	dst->l2.hist = dst->l2.hist_w = NULL;
	dst->l2.hist_w_len = 0;
	dst->l2.bank_requests = dst->l2.bank_misses = NULL;
	if (src->hist_len) {
		dst->hist = malloc(src->hist_len * sizeof *dst->hist);
		if (!dst->hist)
			return -1;
		memcpy(dst->hist, src->hist, src->hist_len * sizeof *dst->hist);
	}
	if (src->has_l2 && src->l2.hist_len && src->l2.hist) {
		dst->l2.hist = malloc(src->l2.hist_len * sizeof *dst->l2.hist);
		if (!dst->l2.hist)
			return -1;
		memcpy(dst->l2.hist, src->l2.hist, src->l2.hist_len * sizeof *dst->l2.hist);
	} else {
		dst->l2.hist_len = 0;
	}
	return 0;
}

/* The panels beyond the L1's that the screen shows: the L2 when its pane
 * is on screen (side by side with the L1's when each gets 44 columns, as
 * views/breakdown.c lays them out, or in focus), the DRAM in the placement
 * view (issue 40 item 5). */
static int svg_panels(const explorer *x, const snap *s)
{
	int panels = 0;
	int l2 = x->cfg.l2_size && x->cfg.model != RD_PROFILE_REF2013 && s->res.has_l2;
	if (l2 && (x->view == V_PLACE || x->level == 2 || x->lay.side.w >= 2 * 44))
		panels |= EXPLORER_SVG_L2;
	if (s->res.has_dram && x->view == V_PLACE)
		panels |= EXPLORER_SVG_DRAM;
	return panels;
}

/* Write what the screen shows as an SVG (replace: an existing file may
 * go): the result on screen, in compare mode the pinned one beside it,
 * the L2 and the DRAM where the screen has them. */
static int svg_to(explorer *x, const char *path, int replace)
{
	const snap *s = x->cur;
	if (!s || s->partial || s->status != RD_OK) {
		explorer_message(x, 1, "svg: no result on screen yet (the model is running)");
		return R_STATUS;
	}
	if (!x->opts->svg_save) {
		explorer_message(x, 1, "svg: this explorer cannot write pictures");
		return R_STATUS;
	}
	file_job *j = file_job_new(x, P_SVG);
	if (!j)
		return R_STATUS;
	const snap *b = x->base && x->base->status == RD_OK && !x->base->partial ? x->base : NULL;
	memset(&j->res, 0, sizeof j->res);
	memset(&j->res2, 0, sizeof j->res2);
	if (svg_result(&j->res, &s->res) < 0 || (b && svg_result(&j->res2, &b->res) < 0)) {
		free(j->res.hist);
		free(j->res.l2.hist);
		free(j->res2.hist);
		free(j->res2.l2.hist);
		free(j);
		explorer_message(x, 1, "svg: out of memory");
		return R_STATUS;
	}
	snprintf(j->text, sizeof j->text, "%s", path);
	snprintf(j->input, sizeof j->input, "%s", x->input);
	snprintf(j->kernel, sizeof j->kernel, "%s", x->k->name);
	char cap[sizeof j->desc - 16];
	svg_caption(x->k->name, &s->cfg, cap, sizeof cap);
	snprintf(j->desc, sizeof j->desc, "%s%s", b ? "now: " : "", cap);
	j->cfg = s->cfg;
	j->nruns = 1;
	if (b) {
		svg_caption(x->k->name, &b->cfg, cap, sizeof cap);
		snprintf(j->desc2, sizeof j->desc2, "pinned: %s", cap);
		j->cfg2 = b->cfg;
		j->nruns = 2;
	}
	j->panels = svg_panels(x, s);
	j->replace = replace;
	return file_job_start(x, j, "writing the picture to");
}

/* The typed file name with its extension ext (".cfg") added when it
 * lacks it (ext NULL: as typed): 0, or -1 (said on the status line as
 * verb's) when empty or a directory's name ending in '/'. */
static int typed_path(explorer *x, const char *verb, const char *text, const char *ext,
		      char *path, size_t len)
{
	while (*text == ' ')
		text++;
	size_t n = strlen(text), e = ext ? strlen(ext) : 0;
	if (!*text) {
		explorer_message(x, 1, "%s: no file name given", verb);
		return -1;
	}
	if (text[n - 1] == '/') {
		explorer_message(x, 1, "%s: %s is a directory: give a file name", verb, text);
		return -1;
	}
	snprintf(path, len, "%s%s", text,
		 !ext || (n >= e && strcmp(text + n - e, ext) == 0) ? "" : ext);
	return 0;
}

static int do_svg(explorer *x, const char *text)
{
	char path[600];
	return typed_path(x, "svg", text, NULL, path, sizeof path) < 0 ? R_STATUS
									 : svg_to(x, path, 0);
}

/* Export to path (replace: an existing file may be replaced). */
static int export_to(explorer *x, const char *path, int replace)
{
	file_job *j = file_job_new(x, P_EXPORT);
	if (!j)
		return R_STATUS;
	snprintf(j->text, sizeof j->text, "%s", path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(j->name, sizeof j->name, "%.*s", (int)(strlen(base) - 4), base);
	snprintf(j->desc, sizeof j->desc, "exported from the rdscope explorer on %s", x->input);
	j->cfg = x->cfg;
	j->replace = replace;
	return file_job_start(x, j, "exporting to");
}

static int do_export(explorer *x, const char *text)
{
	/* A preset file ends in .cfg (a bare name means a built-in preset). */
	char path[600];
	return typed_path(x, "export", text, ".cfg", path, sizeof path) < 0 ? R_STATUS
									      : export_to(x, path, 0);
}

static int do_open(explorer *x, const char *text)
{
	while (*text == ' ')
		text++;
	if (!*text) {
		explorer_message(x, 1, "open: no preset given");
		return R_STATUS;
	}
	file_job *j = file_job_new(x, P_OPEN);
	if (!j)
		return R_STATUS;
	snprintf(j->text, sizeof j->text, "%s", text);
	return file_job_start(x, j, "opening");
}

/* Another input (P_INPUT) or a typed sequence (P_TYPED): explore it under
 * the configuration on screen. */
static int do_input(explorer *x, int kind, const char *text)
{
	while (*text == ' ')
		text++;
	if (!*text) {
		explorer_message(x, 1, kind == P_TYPED ? "typed: no addresses (type e.g. 0 4 16 20 0)"
						       : "open: no input given");
		return R_STATUS;
	}
	if (kind == P_INPUT && !x->opts->input_load) {
		explorer_message(x, 1, "open: this explorer cannot open inputs");
		return R_STATUS;
	}
	file_job *j = file_job_new(x, kind);
	if (!j)
		return R_STATUS;
	snprintf(j->text, sizeof j->text, "%s", text);
	j->cfg = x->cfg;
	return file_job_start(x, j, kind == P_TYPED ? "modelling the addresses" : "opening");
}

static int loaded(explorer *x, file_job *j)
{
	const char *verb = j->kind == P_TYPED ? "typed" : "open";
	if (j->rc < 0 || !j->k) {
		/* typed_parse's messages name themselves */
		if (strncmp(j->err, "typed: ", 7) == 0)
			explorer_message(x, 1, "%s", j->err);
		else
			explorer_message(x, 1, "%s: %s", verb, j->err);
		return R_STATUS;
	}
	char name[sizeof x->input_buf];
	if (j->kind == P_TYPED)
		snprintf(name, sizeof name, "typed: %.560s", j->text);
	else
		snprintf(name, sizeof name, "%.599s", j->text); /* (accept: names fit) */
	rd_config c = x->cfg;
	rd_kernel *k = j->k;
	j->k = NULL; /* explorer_switch's now */
	int teach = x->teach;
	x->teach = -1; /* the lesson's story ends with another input */
	if (explorer_switch(x, k, x->input, &c) < 0) {
		x->teach = teach;
		return R_ALL;
	}
	memcpy(x->input_buf, name, sizeof name);
	x->input = x->input_buf;
	if (j->kind == P_TYPED)
		x->made = "the typed addresses";
	if (j->kind == P_TYPED && j->timing && rd_config_equal(&j->cfg, &x->cfg)) {
		/* Latency changes the answer: the textbook's has none. Said
		 * now, by i (as what to try) and atop the step-through. */
		static char hint[600];
		snprintf(hint, sizeof hint,
			 "These addresses run under GPU timing (latency.miss %u steps): a line "
			 "is in flight until it arrives, which changes their hits and reuse "
			 "distances (%llu hits here, %llu with latency 0). The textbook's stack "
			 "distances have no latency: set latency.miss to 0 (and latency.stddev "
			 "and latency.hit to 0), or start rdscope with -s latency.miss=0 "
			 "-s latency.stddev=0.",
			 x->cfg.latency_miss, (unsigned long long)j->hits_cfg,
			 (unsigned long long)j->hits_free);
		x->try_hint = hint;
		x->typed_timing = 1;
		explorer_message(x, 0,
				 "exploring the typed addresses (%llu loads) under GPU timing: %llu "
				 "hits; latency 0 gives the textbook's stack distances (%llu hits): "
				 "set latency.miss and latency.stddev to 0 (i says more)",
				 (unsigned long long)x->k->nloads, (unsigned long long)j->hits_cfg,
				 (unsigned long long)j->hits_free);
	} else if (j->kind == P_TYPED)
		explorer_message(x, 0, "exploring the typed addresses (%llu loads)",
				 (unsigned long long)x->k->nloads);
	else
		explorer_message(x, 0, "opened %.600s (%llu loads)", name,
				 (unsigned long long)x->k->nloads);
	return R_ALL | R_RERUN | R_RESIZE;
}

/* The preset read (P_OPEN) made the configuration on screen. */
static int opened(explorer *x, file_job *j)
{
	char err[2048];
	if (j->rc < 0) {
		explorer_message(x, 1, "open: %s", j->err);
		return R_STATUS;
	}
	if (rd_config_check(&j->cfg, err, sizeof err) < 0) {
		explorer_message(x, 1, "open: %s: %s", j->text, err);
		return R_STATUS;
	}
	x->hash_user = -1; /* the preset's hash is the user's */
	int f = explorer_set_config(x, &j->cfg, 1);
	explorer_message(x, 0, "opened %s%s", j->text, f ? "" : " (the same configuration)");
	return f | R_STATUS;
}

/* The export (P_EXPORT) or picture (P_SVG) done, refused, or waiting for
 * a yes to replace. */
static int exported(explorer *x, file_job *j)
{
	const char *verb = j->kind == P_SVG ? "svg" : "export";
	if (j->rc < 0) {
		explorer_message(x, 1, "%s: %s", verb, j->err);
		return R_STATUS;
	}
	if (j->rc > 0) { /* the file is there: ask */
		x->prompt = P_CONFIRM;
		x->pconfirm = j->kind;
		snprintf(x->pfile, sizeof x->pfile, "%.599s", j->text);
		return R_STATUS;
	}
	if (j->kind == P_SVG) {
		explorer_message(x, 0, "wrote %s (%s)", j->text, j->desc);
		return R_STATUS;
	}
	char qp[700], qi[700];
	shell_word(j->text, qp, sizeof qp);
	shell_word(x->input, qi, sizeof qi);
	explorer_message(x, 0, "saved; same result: rdscope run -p %s %s", qp, qi);
	return R_STATUS;
}

/* The count view's result (P_COUNT). */
static int count_done(explorer *x, file_job *j)
{
	void *res = NULL;
	if (j->rc != 0) {
		/* the view says why at once, in its pane (and the status line) */
		snprintf(x->call_err, sizeof x->call_err, "%.1000s", atomic_load(&j->stop) ? "" : j->err);
		explorer_message(x, 1, "count: %s", j->err);
		return took(x, P_COUNT, &res) | R_STATUS;
	}
	explorer_count *c = malloc(sizeof *c);
	if (!c) {
		explorer_message(x, 1, "count: out of memory");
		return R_STATUS;
	}
	*c = j->cres;
	j->cres.refs = NULL; /* now c's */
	res = c;
	int f = took(x, P_COUNT, &res);
	if (res) { /* no view kept it */
		free(c->refs);
		free(c);
	}
	return f;
}

static int prompt_count(explorer *x, const char (*defs)[48], int ndefs, uint32_t line,
		 const uint64_t *bytes, int nlevels)
{
	if (!x->opts->count) {
		explorer_message(x, 1, "count: this explorer cannot count");
		return R_STATUS;
	}
	if (x->made) { /* its label names no file: say so, not "no such file" */
		void *none = NULL;
		snprintf(x->call_err, sizeof x->call_err,
			 "%s are not a kernel description (made in the explorer, they name no "
			 "file to count)",
			 x->made);
		explorer_message(x, 1, "count: %s", x->call_err);
		return took(x, P_COUNT, &none) | R_STATUS;
	}
	file_job *j = file_job_new(x, P_COUNT);
	if (!j)
		return R_STATUS;
	j->count = x->opts->count;
	snprintf(j->text, sizeof j->text, "%s", x->input);
	for (int i = 0; i < ndefs && i < EXPLORER_COUNT_PARAMS; i++)
		snprintf(j->defs[i], sizeof j->defs[i], "%s", defs[i]);
	j->ndefs = ndefs < EXPLORER_COUNT_PARAMS ? ndefs : EXPLORER_COUNT_PARAMS;
	j->line = line;
	j->nlevels = nlevels < EXPLORER_COUNT_LEVELS ? nlevels : EXPLORER_COUNT_LEVELS;
	memcpy(j->bytes, bytes, (size_t)j->nlevels * sizeof *bytes);
	return file_job_start(x, j, "counting");
}

int prompt_busy_done(explorer *x)
{
	if (!x->busy || !bgcall_done(x->busy))
		return R_NONE;
	file_job *j = bgcall_arg(x->busy);
	int f = j->kind == P_OPEN ? opened(x, j)
		: j->kind == P_EXPORT || j->kind == P_SVG ? exported(x, j)
		: j->kind == P_SOURCE			 ? sourced(x, j)
		: j->kind == P_COUNT			 ? count_done(x, j)
				      : loaded(x, j);
	bgcall_drop(x->busy);
	x->busy = NULL;
	return f | R_STATUS;
}

int prompt_busy_cancel(explorer *x)
{
	file_job *j = bgcall_arg(x->busy);
	int f = R_STATUS;
	if (j->kind == P_INPUT) {
		/* its thread ends at the next block of input it reads, freeing
		 * what it built (a description's run, a pipe, a file system
		 * that hangs: when it returns) */
		atomic_store(&j->stop, 1);
		explorer_message(x, 1, "open: stopped reading %s", j->text);
	} else if (j->kind == P_OPEN)
		explorer_message(x, 1, "open: stopped waiting for %s", j->text);
	else if (j->kind == P_TYPED)
		explorer_message(x, 1, "typed: stopped waiting");
	else if (j->kind == P_COUNT) {
		atomic_store(&j->stop, 1); /* its thread ends at the next check */
		void *none = NULL;
		x->call_err[0] = '\0'; /* stopped */
		f |= took(x, P_COUNT, &none);
		explorer_message(x, 1, "count: stopped");
	} else if (j->kind == P_SOURCE) {
		void *none = NULL;
		took(x, P_SOURCE, &none);
		explorer_message(x, 1, "sources: stopped waiting for %s", j->text);
	} else
		explorer_message(x, 1, "%s: stopped waiting; %s may still be written",
				 j->kind == P_SVG ? "svg" : "export", j->text);
	bgcall_drop(x->busy);
	x->busy = NULL;
	return f;
}

int prompt_value(explorer *x)
{
	char val[64], label[64];
	const param_field *f = &param_fields[x->sel];
	if (!f->key)
		return R_NONE;
	rd_config_get(&x->cfg, f->key, val, sizeof val);
	snprintf(label, sizeof label, "%s = ", f->key);
	return prompt_open(x, P_VALUE, label, val);
}

int prompt_export(explorer *x)
{
	char name[256];
	default_file_name(x->input, x->opts->builtin_prefix, ".cfg", name, sizeof name);
	return prompt_open(x, P_EXPORT, "export preset to file: ", name);
}

int prompt_svg(explorer *x)
{
	char name[256];
	default_file_name(x->input, x->opts->builtin_prefix, ".svg", name, sizeof name);
	return prompt_open(x, P_SVG, "write the view as SVG to file: ", name);
}

int prompt_preset(explorer *x)
{
	return prompt_open(x, P_OPEN, "open preset (file or name): ", "");
}

int prompt_input(explorer *x)
{
	return prompt_open(x, P_INPUT, "open input (file, sample:NAME, builtin:NAME): ", "");
}

int prompt_typed(explorer *x)
{
	char label[64];
	snprintf(label, sizeof label, "addresses (bytes, or THREAD:ADDR; warps of %u): ",
		 x->cfg.warp_size);
	return prompt_open(x, P_TYPED, label, "");
}

int prompt_goto(explorer *x)
{
	return prompt_open(x, P_GOTO, "go to request (N, or tN for time step N): ", "");
}

/* A prompt opened for a view (P_GOTO: the step-through's): its text goes
 * to the views' answer op. */
static int answer(explorer *x, int kind, const char *text)
{
	for (const view_ops *const *v = x->views; *v; v++) {
		int f = (*v)->answer ? (*v)->answer(x, kind, text) : -1;
		if (f >= 0)
			return f;
	}
	return R_STATUS;
}

static int accept(explorer *x)
{
	int kind = x->prompt;
	char text[sizeof x->pbuf];
	memcpy(text, x->pbuf, sizeof text);
	x->prompt = P_NONE;
	if (x->pfull) {
		/* a pasted list cut at the prompt's end became a shorter one
		 * (20,000 addresses, 135 loads): refused, not taken */
		const char *verb = kind == P_TYPED		    ? "typed"
				   : kind == P_INPUT || kind == P_OPEN ? "open"
				   : kind == P_EXPORT		    ? "export"
				   : kind == P_SVG		    ? "svg"
				   : kind == P_GOTO		    ? "go to"
							    : "value";
		explorer_message(x, 1, "%s: the text is longer than the prompt holds (%d characters: "
				       "the rest was dropped); nothing done%s",
				 verb, PROMPT_MAX - 1,
				 kind == P_TYPED ? " (a typed sequence has at most 512 loads)" : "");
		x->pfull = 0;
		return R_STATUS;
	}
	if ((kind == P_INPUT || kind == P_OPEN || kind == P_EXPORT || kind == P_SVG) &&
	    strlen(text) > NAME_MAX_TYPED) {
		/* the explorer keeps an input's or a file's name in 600 bytes */
		explorer_message(x, 1, "%s: a name of at most %d characters, please (got %zu)",
				 kind == P_EXPORT ? "export" : kind == P_SVG ? "svg" : "open",
				 NAME_MAX_TYPED, strlen(text));
		return R_STATUS;
	}
	if (kind == P_GOTO)
		return answer(x, kind, text);
	if (kind == P_INPUT || kind == P_TYPED)
		return do_input(x, kind, text);
	if (kind == P_EXPORT)
		return do_export(x, text);
	if (kind == P_SVG)
		return do_svg(x, text);
	if (kind == P_OPEN)
		return do_open(x, text);
	rd_config c = x->cfg;
	char err[512], note[256];
	int uh = x->hash_user;
	if (param_set_text_auto(&c, x->sel, text, &uh, err, sizeof err, note, sizeof note) < 0) {
		explorer_message(x, 1, "%s", err);
		return R_STATUS;
	}
	return explorer_apply_edit(x, &c, uh, note) | R_STATUS;
}

int prompt_key(explorer *x, int ch)
{
	if (x->prompt == P_CONFIRM) { /* y replaces; any other key keeps the file */
		x->prompt = P_NONE;
		int svg = x->pconfirm == P_SVG;
		if (ch == 'y' || ch == 'Y')
			return svg ? svg_to(x, x->pfile, 1) : export_to(x, x->pfile, 1);
		explorer_message(x, 0, "%s: not saved, %s kept", svg ? "svg" : "export", x->pfile);
		return R_STATUS;
	}
	const ui_key *k = keys_lookup(KS_PROMPT, ch);
	int fresh = x->pfresh;
	x->pfresh = 0;
	size_t n = strlen(x->pbuf);
	if (k) {
		switch (k->id) {
		case K_ACCEPT:
			return accept(x);
		case K_CANCEL:
			x->prompt = P_NONE;
			break;
		case K_ERASE:
			if (n)
				x->pbuf[n - 1] = '\0';
			break;
		case K_KILL:
			x->pbuf[0] = '\0';
			x->pfull = 0;
			break;
		default:
			break;
		}
		return R_STATUS;
	}
	if (fresh && ch >= 32 && ch < 127) {
		x->pbuf[0] = '\0'; /* a new value, not an edit of the offered one */
		n = 0;
	}
	if (ch >= 32 && ch < 127) {
		if (n + 1 < sizeof x->pbuf) {
			x->pbuf[n] = (char)ch;
			x->pbuf[n + 1] = '\0';
		} else {
			x->pfull = 1; /* said on the prompt line, refused on Enter */
		}
	}
	return R_STATUS;
}

const explorer_calls prompt_calls = {.source = prompt_source, .count = prompt_count};
