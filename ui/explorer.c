/*
 * The explorer's loop: keys in, edits out, results in (see explorer.h).
 *
 * The UI thread owns every curses call. It poll()s the keyboard together
 * with the model thread's self-pipe, so it never waits on the model; each
 * change of the configuration bumps a generation, which stops any run of
 * an older one. Recent final results are memoised (configuration ->
 * result), so stepping back to a value is instant. Key handlers come from
 * the key table (keys.h) and return what to redraw.
 *
 * --script FILE replaces the keyboard with a file of actions (key names,
 * `type TEXT`, `wait`, `dump-screen FILE`, ...) for the screen tests; see
 * script_step.
 */
#include "explorer.h"
#include "kernel_pick.h"

#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "keys.h"
#include "lessons.h"
#include "now.h"
#include "params.h"
#include "preset.h"
#include "script.h"
#include "sigbus.h"
#include "termseq.h"
#include "theme.h"
#include "xstate.h"

/* ---------------------------------------------------------------- helpers */

/* Configurations compare by their keys' text: every key the model has, so
 * a key added to the model needs no change here. */
int explorer_cfg_same(const rd_config *a, const rd_config *b)
{
	for (const rd_key *k = rd_keys; k->name; k++) {
		char va[64], vb[64];
		if (rd_config_get(a, k->name, va, sizeof va) < 0 ||
		    rd_config_get(b, k->name, vb, sizeof vb) < 0 || strcmp(va, vb) != 0)
			return 0;
	}
	return 1;
}

#define cfg_same explorer_cfg_same

static void vmessage(explorer *x, int err, const char *fmt, va_list ap)
{
	vsnprintf(x->msg, sizeof x->msg, fmt, ap);
	/* One line: the first line of a multi-line error. */
	x->msg[strcspn(x->msg, "\n")] = '\0';
	x->msg_err = err;
}

static void message(explorer *x, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(x, err, fmt, ap);
	va_end(ap);
}

void explorer_message(explorer *x, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(x, err, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- memo */

/* Where c's final result is kept, or -1. */
static int memo_index(const explorer *x, const rd_config *c)
{
	for (int i = 0; i < MEMO_N && x->memo[i]; i++)
		if (cfg_same(&x->memo[i]->cfg, c))
			return i;
	return -1;
}

static snap *memo_find(explorer *x, const rd_config *c)
{
	int i = memo_index(x, c);
	if (i < 0)
		return NULL;
	snap *s = x->memo[i];
	/* Most recently used first. */
	memmove(&x->memo[1], &x->memo[0], (size_t)i * sizeof x->memo[0]);
	x->memo[0] = s;
	return s;
}

static void memo_put(explorer *x, snap *s)
{
	if (memo_index(x, &s->cfg) >= 0)
		return;
	snap_unref(x->memo[MEMO_N - 1]);
	memmove(&x->memo[1], &x->memo[0], (MEMO_N - 1) * sizeof x->memo[0]);
	x->memo[0] = snap_ref(s);
}

/* ---------------------------------------------------------------- edits */

/*
 * Let the model thread, when it has nothing else to do, compute the two
 * configurations one step of the selected parameter away: a step there is
 * then answered from the memo at once. (A typed value cannot be guessed;
 * a step is the explorer's most common edit.)
 */
static void speculate(explorer *x)
{
	rd_config next[2];
	int n = 0;
	char msg[512];
	for (int dir = 1; dir >= -1; dir -= 2) {
		rd_config c = x->cfg;
		if (param_step(&c, x->sel, dir, msg, sizeof msg) == 0 && !cfg_same(&c, &x->cfg) &&
		    memo_index(x, &c) < 0)
			next[n++] = c;
	}
	worker_speculate(x->w, x->gen, next, n);
}

/* Make nc the configuration on screen: from the memo at once, or by a run. */
int explorer_set_config(explorer *x, const rd_config *nc, int push_undo)
{
	if (cfg_same(nc, &x->cfg))
		return R_NONE;
	if (push_undo) {
		if (x->nundo == UNDO_N) {
			memmove(&x->undo[0], &x->undo[1], (UNDO_N - 1) * sizeof x->undo[0]);
			x->nundo--;
		}
		x->undo[x->nundo++] = x->cfg;
	}
	x->cfg = *nc;
	x->gen++;
	if (x->pin_pending) { /* it was for the configuration before */
		x->pin_pending = 0;
		message(x, 1, "compare: not pinned, the configuration changed before its run "
			      "finished");
	}
	snap_unref(x->cur);
	x->cur = NULL;
	x->progress = 0;
	snap *m = memo_find(x, nc);
	if (m) {
		x->cur = snap_ref(m);
		x->last_seconds = m->seconds;
		worker_submit(x->w, x->gen, NULL, 0); /* stop what runs */
	} else {
		worker_submit(x->w, x->gen, nc, 1);
	}
	views_request(x); /* the view's own run, after the breakdown */
	speculate(x);     /* and, after all that, the next step's */
	return R_ALL | R_RERUN;
}

#define set_config explorer_set_config

static int pin_now(explorer *x);

/* One result from the model thread. */
static int on_result(explorer *x, snap *s)
{
	int flags = R_NONE;
	if (s->kind == JOB_SPEC) { /* kept for a step there, never drawn */
		if (s->status == RD_OK && !s->partial)
			memo_put(x, s);
		snap_unref(s);
		return flags;
	}
	if (s->kind != JOB_BREAKDOWN) {
		flags = views_result(x, s);
		snap_unref(s);
		return flags;
	}
	if (s->status == RD_OK && !s->partial)
		memo_put(x, s);
	/* Only the newest configuration's results are ever drawn. */
	if (s->gen == x->gen && !x_settled(x)) {
		snap_unref(x->cur);
		x->cur = snap_ref(s);
		if (!s->partial)
			x->last_seconds = s->seconds;
		if (s->status != RD_OK)
			message(x, 1, "model: %s", rd_strerror(s->status));
		if (x->pin_pending && !s->partial)
			pin_now(x);
		flags |= R_ALL;
	}
	snap_unref(s);
	return flags;
}

/* Results and progress from the model thread: one slot per kind. */
static int on_results(explorer *x)
{
	unsigned long pg;
	double p;
	int flags = R_NONE;
	snap *s;
	while ((s = worker_take(x->w, &pg, &p)))
		flags |= on_result(x, s);
	if (pg == x->gen && !x_settled(x) && p != x->progress) {
		x->progress = p;
		flags |= R_STATUS;
	}
	return flags;
}

/* ---------------------------------------------------------------- prompts */

static void prompt_open(explorer *x, int kind, const char *label, const char *init)
{
	x->prompt = kind;
	snprintf(x->plabel, sizeof x->plabel, "%s", label);
	snprintf(x->pbuf, sizeof x->pbuf, "%s", init);
	x->pfresh = *init != '\0';
}

/* Default preset file name from the input: "samples/a.trc.gz" -> "a.cfg",
 * "builtin:colcopy:96" -> "colcopy-96.cfg". */
static void default_preset_name(const char *input, char *buf, size_t len)
{
	const char *b = input;
	if (strncmp(b, INPUT_BUILTIN_PREFIX, strlen(INPUT_BUILTIN_PREFIX)) == 0)
		b += strlen(INPUT_BUILTIN_PREFIX);
	else if (strrchr(b, '/'))
		b = strrchr(b, '/') + 1;
	char name[200];
	size_t n = 0;
	for (; *b && n + 1 < sizeof name; b++)
		name[n++] = isalnum((unsigned char)*b) || *b == '_' || *b == '.' ? *b : '-';
	name[n] = '\0';
	static const char *const ext[] = {".gz", ".trc"};
	for (int i = 0; i < 2; i++) {
		size_t el = strlen(ext[i]);
		if (n > el && strcmp(name + n - el, ext[i]) == 0)
			name[n -= el] = '\0';
	}
	if (!n)
		snprintf(name, sizeof name, "rdscope");
	snprintf(buf, len, "%s.cfg", name);
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

static int do_export(explorer *x, const char *text)
{
	char path[600];
	while (*text == ' ')
		text++;
	if (!*text) {
		message(x, 1, "export: no file name given");
		return R_STATUS;
	}
	/* A preset file ends in .cfg (a bare name means a built-in preset). */
	size_t n = strlen(text);
	if (n >= 4 && strcmp(text + n - 4, ".cfg") == 0)
		snprintf(path, sizeof path, "%s", text);
	else
		snprintf(path, sizeof path, "%s.cfg", text);
	char name[200], desc[600], err[1024];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 4), base);
	snprintf(desc, sizeof desc, "exported from the rdscope explorer on %s", x->input);
	if (preset_save(path, &x->cfg, name, desc, err, sizeof err) < 0) {
		message(x, 1, "export: %s", err);
		return R_STATUS;
	}
	char qp[700], qi[700];
	shell_word(path, qp, sizeof qp);
	shell_word(x->input, qi, sizeof qi);
	message(x, 0, "saved; same result: rdscope run -p %s %s", qp, qi);
	return R_STATUS;
}

static int do_open(explorer *x, const char *text)
{
	while (*text == ' ')
		text++;
	if (!*text) {
		message(x, 1, "open: no preset given");
		return R_STATUS;
	}
	rd_config c;
	rd_config_default(&c);
	char err[2048];
	if (preset_load(text, &c, err, sizeof err) < 0) {
		message(x, 1, "open: %s", err);
		return R_STATUS;
	}
	if (rd_config_check(&c, err, sizeof err) < 0) {
		message(x, 1, "open: %s: %s", text, err);
		return R_STATUS;
	}
	int f = set_config(x, &c, 1);
	message(x, 0, "opened %s%s", text, f ? "" : " (the same configuration)");
	return f | R_STATUS;
}

/* ---------------------------------------------------------------- handlers */

static int step_sel(explorer *x, int dir)
{
	size_t i = x->sel;
	for (;;) {
		if (dir < 0 && i == 0)
			return R_NONE;
		if (dir > 0 && i + 1 >= param_nfields)
			return R_NONE;
		i = dir > 0 ? i + 1 : i - 1;
		if (param_editable(i))
			break;
	}
	x->sel = i;
	speculate(x); /* the new parameter's neighbours instead */
	return R_PARAMS;
}

static int step_value(explorer *x, int dir)
{
	rd_config c = x->cfg;
	char err[512];
	if (param_step(&c, x->sel, dir, err, sizeof err) < 0) {
		message(x, 1, "%s", err);
		return R_STATUS;
	}
	return set_config(x, &c, 1);
}

static int key_HELP(explorer *x)
{
	x->help = 1;
	x->help_top = 0;
	return R_ALL;
}

static int key_QUIT(explorer *x)
{
	(void)x;
	return R_QUIT;
}

static int key_FOCUS(explorer *x)
{
	x->focus = x->focus == F_PARAMS ? F_HIST : F_PARAMS;
	return R_PARAMS | R_HIST;
}

/* Pin the current final result as the baseline. */
static int pin_now(explorer *x)
{
	x->pin_pending = 0;
	if (x->cur->status != RD_OK) {
		message(x, 1, "compare: no result to pin (the model failed)");
		return R_STATUS;
	}
	x->base = snap_ref(x->cur);
	message(x, 0, "baseline pinned: changes now show against it (c unpins)");
	return R_ALL;
}

static int key_PIN(explorer *x)
{
	if (x->base || x->pin_pending) {
		snap_unref(x->base);
		x->base = NULL;
		x->pin_pending = 0;
		message(x, 0, "baseline unpinned");
		return R_ALL;
	}
	if (!x_settled(x)) {
		/* The run going is for the configuration on screen: pin it when
		 * its final result is in. */
		x->pin_pending = 1;
		message(x, 0, "compare: the baseline is pinned when this run finishes");
		return R_STATUS;
	}
	return pin_now(x);
}

static int key_UNDO(explorer *x)
{
	if (!x->nundo) {
		message(x, 1, "nothing to undo");
		return R_STATUS;
	}
	rd_config c = x->undo[--x->nundo];
	return set_config(x, &c, 0);
}

static int key_RESET(explorer *x)
{
	rd_config c = x->start_cfg;
	int f = set_config(x, &c, 1);
	if (!f)
		message(x, 0, "already the starting configuration");
	return f | R_STATUS;
}

static int key_YSCALE(explorer *x)
{
	x->hist_log = !x->hist_log;
	return R_HIST;
}

static int key_EXPORT(explorer *x)
{
	char name[256];
	default_preset_name(x->input, name, sizeof name);
	prompt_open(x, P_EXPORT, "export preset to file: ", name);
	return R_STATUS;
}

static int key_OPEN(explorer *x)
{
	prompt_open(x, P_OPEN, "open preset (file or name): ", "");
	return R_STATUS;
}

static int key_REDRAW(explorer *x)
{
	(void)x;
	clearok(curscr, TRUE);
	return R_ALL | R_RESIZE;
}

static int key_UP(explorer *x)
{
	return step_sel(x, -1);
}

static int key_DOWN(explorer *x)
{
	return step_sel(x, 1);
}

static int key_DEC(explorer *x)
{
	return step_value(x, -1);
}

static int key_INC(explorer *x)
{
	return step_value(x, 1);
}

static int key_EDIT(explorer *x)
{
	char val[64], label[64];
	const param_field *f = &param_fields[x->sel];
	if (!f->key)
		return R_NONE;
	rd_config_get(&x->cfg, f->key, val, sizeof val);
	snprintf(label, sizeof label, "%s = ", f->key);
	prompt_open(x, P_VALUE, label, val);
	return R_STATUS;
}

static int key_SCROLL_L(explorer *x)
{
	if (x->hist_first > 0)
		x->hist_first--;
	return R_HIST;
}

static int key_SCROLL_R(explorer *x)
{
	x->hist_first++; /* clamped when drawn */
	return R_HIST;
}

static int key_ACCEPT(explorer *x)
{
	int kind = x->prompt;
	char text[sizeof x->pbuf];
	memcpy(text, x->pbuf, sizeof text);
	x->prompt = P_NONE;
	if (kind == P_EXPORT)
		return do_export(x, text);
	if (kind == P_OPEN)
		return do_open(x, text);
	rd_config c = x->cfg;
	char err[512];
	if (param_set_text(&c, x->sel, text, err, sizeof err) < 0) {
		message(x, 1, "%s", err);
		return R_STATUS;
	}
	return set_config(x, &c, 1) | R_STATUS;
}

static int key_CANCEL(explorer *x)
{
	x->prompt = P_NONE;
	return R_STATUS;
}

static int key_ERASE(explorer *x)
{
	size_t n = strlen(x->pbuf);
	if (n)
		x->pbuf[n - 1] = '\0';
	return R_STATUS;
}

static int key_KILL(explorer *x)
{
	x->pbuf[0] = '\0';
	return R_STATUS;
}

static int key_HELP_UP(explorer *x)
{
	if (x->help_top > 0)
		x->help_top -= x->help_top > 5 ? 5 : x->help_top;
	return R_ALL;
}

static int key_HELP_DOWN(explorer *x)
{
	x->help_top += 5; /* clamped when drawn */
	return R_ALL;
}

/* The teaching views' keys are in views.c. */
#define VIEW_KEY(id) int key_##id(explorer *x);
VIEW_KEYS(VIEW_KEY)
#undef VIEW_KEY

static int (*const handlers[K_NKEYS])(explorer *) = {
#define KEY_HANDLER(id, ...) [K_##id] = key_##id,
	UI_KEYS(KEY_HANDLER)
#undef KEY_HANDLER
};

int explorer_key(explorer *x, int ch)
{
	if (ch == KEY_RESIZE)
		return R_RESIZE;
	if (x->help) {
		const ui_key *k = keys_lookup(KS_HELP, ch);
		if (k)
			return handlers[k->id](x);
		x->help = 0;
		return R_ALL;
	}
	if (x->prompt) {
		const ui_key *k = keys_lookup(KS_PROMPT, ch);
		int fresh = x->pfresh;
		x->pfresh = 0;
		if (k)
			return handlers[k->id](x);
		if (fresh && ch >= 32 && ch < 127)
			x->pbuf[0] = '\0'; /* a new value, not an edit of the offered one */
		size_t n = strlen(x->pbuf);
		if (ch >= 32 && ch < 127 && n + 1 < sizeof x->pbuf) {
			x->pbuf[n] = (char)ch;
			x->pbuf[n + 1] = '\0';
		}
		return R_STATUS;
	}
	int flags = R_NONE;
	if (*x->msg) { /* a message lasts until the next key */
		x->msg[0] = '\0';
		flags |= R_STATUS;
	}
	enum key_scope scope = x->view == V_STEP	? KS_STEP
			       : x->focus == F_HIST ? KS_HIST
						    : KS_PARAMS;
	const ui_key *k = keys_lookup(scope, ch);
	if (!k) {
		if (ch >= 32 && ch < 127) {
			message(x, 1, "no key '%c' here (? shows the keys)", ch);
			flags |= R_STATUS;
		}
		return flags;
	}
	flags |= handlers[k->id](x);
	views_request(x); /* e.g. the curves follow the selected parameter */
	return flags;
}

/* ---------------------------------------------------------------- loop */

static volatile sig_atomic_t got_signal, got_stop;

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * Ctrl-Z: the handler only notes it (ncurses' own SIGTSTP handler, which
 * this one replaces by being installed first, calls curses from the signal
 * and does not keep errno); the loop then leaves curses, stops, and redraws
 * when continued.
 */
static void on_stop(int sig)
{
	(void)sig;
	got_stop = 1;
}

static void explorer_suspend(const struct sigaction *mine)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	endwin();
	sigaction(SIGTSTP, &dfl, NULL);
	raise(SIGTSTP); /* stopped here until SIGCONT */
	sigaction(SIGTSTP, mine, NULL);
	refresh(); /* back to the program's terminal modes */
}

/* Class mode starts on lesson i (before the model thread exists). */
static int lesson_open(explorer *x, int i)
{
	x->teach = i;
	x->view = V_STEP;
	snprintf(x->input_buf, sizeof x->input_buf, "%s", lessons[i].sample);
	x->input = x->input_buf;
	lesson_config(&lessons[i], &x->cfg);
	x->start_cfg = x->cfg;
	x->k = lesson_kernel(&lessons[i]);
	return x->k ? INPUT_OK : INPUT_ENOMEM;
}

int explorer_wanted(const cli *c)
{
	if (c->script || c->teach)
		return 1;
	if (c->output || c->log || c->quiet || c->format != OUTPUT_TEXT)
		return 0; /* batch-only options */
	if (c->ninputs && strcmp(c->inputs[0], "-") == 0)
		return 0;
	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* How long an edit may keep the old frame while its result is coming:
 * switching straight to the new result beats flashing "modelling...". */
#define DEFER_S 0.06

static void explorer_free(explorer *x)
{
	worker_stop(x->w);
	snap_unref(x->cur);
	snap_unref(x->base);
	snap_unref(x->steps);
	snap_unref(x->curves);
	for (int i = 0; i < MEMO_N; i++)
		snap_unref(x->memo[i]);
	rd_kernel_free(x->k);
}

int explorer_switch(explorer *x, rd_kernel *k, const char *input, const rd_config *c)
{
	char err[512];
	worker *w = worker_start(k, err, sizeof err);
	if (!w) {
		rd_kernel_free(k);
		message(x, 1, "%s", err);
		return -1;
	}
	/* Everything that belonged to the old kernel goes with it. */
	worker_stop(x->w);
	snap_unref(x->cur);
	snap_unref(x->base);
	snap_unref(x->steps);
	snap_unref(x->curves);
	x->cur = x->base = x->steps = x->curves = NULL;
	for (int i = 0; i < MEMO_N; i++) {
		snap_unref(x->memo[i]);
		x->memo[i] = NULL;
	}
	rd_kernel_free(x->k);
	x->k = k;
	x->w = w;
	if (input != x->input_buf)
		snprintf(x->input_buf, sizeof x->input_buf, "%s", input);
	x->input = x->input_buf;
	x->cfg = x->start_cfg = *c;
	x->nundo = 0;
	x->pin_pending = 0;
	x->progress = 0;
	x->step = 0;
	x->hist_first = 0;
	x->gen++;
	worker_submit(x->w, x->gen, &x->cfg, 1);
	views_request(x);
	speculate(x);
	return 0;
}

/*
 * The kernel to explore: the input's only one, the one --kernel names, or,
 * for a multi-kernel input on a terminal, the one picked from its list.
 */
static int explorer_load(explorer *x, const cli *c, int scripted, char *err, size_t len)
{
	char **names = NULL;
	size_t n = 0;
	if (c->kernel || scripted || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    input_names(x->input, NULL, &names, &n, err, len) != INPUT_OK || n < 2) {
		input_names_free(names, n);
		return input_load(x->input, &x->k, err, len);
	}
	int i = kernel_pick(x->input, names, n);
	input_names_free(names, n);
	if (i < 0) {
		snprintf(err, len, "%s: no kernel chosen", x->input);
		return INPUT_EINPUT;
	}
	char idx[24];
	snprintf(idx, sizeof idx, "%d", i);
	input_opts o = {.format = c->input_format, .kernel = idx};
	input *in;
	int st = input_open(x->input, &o, &in, err, len);
	if (st != INPUT_OK)
		return st;
	st = input_next(in, &x->k, err, len);
	input_close(in);
	return st;
}

int explorer_run(const cli *c)
{
	static explorer xs;
	explorer *x = &xs;
	memset(x, 0, sizeof *x);
	x->input = c->ninputs ? c->inputs[0] : INPUT_BUILTIN_PREFIX "fig3";
	x->no_timing = c->no_timing;
	x->cfg = x->start_cfg = c->config;
	x->teach = -1;

	if (c->teach && !c->script && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) {
		fprintf(stderr, "rdscope: --teach: class mode needs a terminal\n");
		return EXIT_USAGE;
	}
	script sc = {0};
	if (c->script) {
		sc.path = c->script;
		sc.f = fopen(c->script, "r");
		if (!sc.f) {
			fprintf(stderr, "rdscope: %s: cannot open the script\n", c->script);
			return EXIT_USAGE;
		}
	}
	char err[1024];
	int st = c->teach ? lesson_open(x, LESSON_FIRST) : explorer_load(x, c, sc.f != NULL, err,
								    sizeof err);
	if (c->teach && st != INPUT_OK)
		snprintf(err, sizeof err, "out of memory");
	if (st != INPUT_OK) {
		fprintf(stderr, "rdscope: %s\n", err);
		if (sc.f)
			fclose(sc.f);
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	x->w = worker_start(x->k, err, sizeof err);
	if (!x->w) {
		fprintf(stderr, "rdscope: %s\n", err);
		rd_kernel_free(x->k);
		if (sc.f)
			fclose(sc.f);
		return EXIT_RUNTIME;
	}
	x->gen = 1;
	worker_submit(x->w, x->gen, &x->cfg, 1);
	views_request(x);
	speculate(x);

	/* Quit cleanly (terminal restored) on interrupt, hang-up, termination. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction old[3], old_stop, stop;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	memset(&stop, 0, sizeof stop);
	stop.sa_handler = on_stop;
	sigemptyset(&stop.sa_mask);
	sigaction(SIGTSTP, &stop, &old_stop);

	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* "0.5", whatever the language */
	x->utf8 = theme_locale_utf8();
	/* for a SIGBUS exit (sigbus.h): the modes curses is about to change */
	struct termios tmodes;
	int have_modes = tcgetattr(STDOUT_FILENO, &tmodes) == 0;
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "rdscope: cannot use the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		explorer_free(x);
		if (sc.f)
			fclose(sc.f);
		return EXIT_RUNTIME;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	x->color = theme_use_color((enum color_mode)c->color, getenv("NO_COLOR"), has_colors());
	if (x->color) { /* COLORS and COLOR_PAIRS are known after start_color */
		start_color();
		if (COLORS < 8 || COLOR_PAIRS <= E_NELEM)
			x->color = 0;
	}
	theme_start(x->color, x->utf8);
	if (have_modes) {
		char seq[128];
		termseq_restore(seq, sizeof seq);
		sigbus_terminal(STDOUT_FILENO, seq, &tmodes);
	}

	int flags = R_RESIZE;
	int done = 0;
	double defer_until = 0;
	while (!(flags & R_QUIT) && !done && !sc.failed) {
		if (got_signal)
			break;
		if (got_stop) {
			got_stop = 0;
			explorer_suspend(&stop);
			flags |= R_RESIZE;
		}
		if (flags & R_RESIZE) {
			layout_compute(LINES, COLS, panes_params_rows(), &x->lay);
			erase();
			flags = (flags & ~R_RESIZE) | R_ALL;
		}
		/* An edit whose result is not in yet keeps the old frame a moment. */
		if (flags & R_RERUN) {
			flags &= ~R_RERUN;
			if (!x->cur && defer_until == 0)
				defer_until = now_s() + DEFER_S;
		}
		if (x->cur || (defer_until && now_s() >= defer_until))
			defer_until = 0;
		if (flags && !defer_until) {
			panes_draw(x, flags);
			flags = R_NONE;
		}

		int timeout = -1;
		int wait = 0;
		if (sc.f && !defer_until && !flags) {
			flags |= script_step(x, &sc, &wait, &done);
			if (done || sc.failed || (flags & R_QUIT))
				continue;
			timeout = wait ? 20 : 0;
		}
		if (defer_until) {
			int ms = (int)((defer_until - now_s()) * 1000) + 1;
			if (timeout < 0 || ms < timeout)
				timeout = ms < 0 ? 0 : ms;
		}
		struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {worker_fd(x->w), POLLIN, 0}};
		int n = poll(pf, 2, timeout);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pf[1].revents & POLLIN))
			flags |= on_results(x);
		/* Keys (and KEY_RESIZE after a SIGWINCH interrupted the poll). */
		int ch;
		while ((ch = getch()) != ERR) {
			if (sc.f && ch != KEY_RESIZE)
				continue; /* a script owns the keyboard */
			flags |= explorer_key(x, ch);
			if (flags & R_QUIT)
				break;
		}
		if (n > 0 && (pf[0].revents & (POLLHUP | POLLERR)) && !sc.f)
			break;
	}
	sigbus_terminal(-1, NULL, NULL);
	endwin();
	delscreen(scr);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGTSTP, &old_stop, NULL);
	explorer_free(x);
	int rc = EXIT_OK;
	if (sc.f) {
		fclose(sc.f);
		if (sc.failed) {
			fprintf(stderr, "%s\n", sc.err);
			rc = sc.failed == 2 ? EXIT_USAGE : EXIT_RUNTIME;
		}
	}
	return rc;
}
