/*
 * The explorer's loop (explorer_run, see explorer.h): the terminal set-up,
 * the signals, and the poll of keys and results.
 *
 * The UI thread owns every curses call. It poll()s the keyboard together
 * with the model thread's self-pipe (worker.h), so it never waits on the
 * model. --script FILE replaces the keyboard with a file of actions for
 * the screen tests (script.h).
 *
 * The top of the explorer: may call everything in ui/explorer/ and the
 * views' table (views/table.c), which it hands to the state; nothing
 * calls it but src/cmd/main.c.
 */
#include "explorer.h"

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
#include <unistd.h>

#include "actions.h"
#include "bgcall.h"
#include "draw.h"
#include "lessons.h"
#include "now.h"
#include "prompt.h"
#include "screen.h"
#include "script.h"
#include "state.h"
#include "termseq.h"
#include "theme.h"

/* "rdscope: MESSAGE" on standard error, made safe (draw_safe): messages
 * quote file and kernel names. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char m[2048], safe[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	fprintf(stderr, "rdscope: %s\n", draw_safe(safe, sizeof safe, m));
}

/* ---------------------------------------------------------------- signals */

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

/* The handlers of the loop, and the ones they replaced. */
#define NSIGS 3
typedef struct signals {
	struct sigaction old[NSIGS], old_stop, stop;
} signals;

static const int quit_sigs[NSIGS] = {SIGINT, SIGTERM, SIGHUP};

/* Quit cleanly (terminal restored) on interrupt, hang-up, termination. */
static void signals_install(signals *sg)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSIGS; i++)
		sigaction(quit_sigs[i], &sa, &sg->old[i]);
	memset(&sg->stop, 0, sizeof sg->stop);
	sg->stop.sa_handler = on_stop;
	sigemptyset(&sg->stop.sa_mask);
	sigaction(SIGTSTP, &sg->stop, &sg->old_stop);
}

static void signals_restore(const signals *sg)
{
	for (int i = 0; i < NSIGS; i++)
		sigaction(quit_sigs[i], &sg->old[i], NULL);
	sigaction(SIGTSTP, &sg->old_stop, NULL);
}

/* ---------------------------------------------------------------- terminal */

/* Curses on the terminal, colours and glyphs chosen; NULL when the
 * terminal cannot be used (said on standard error). */
static SCREEN *terminal_start(explorer *x, enum color_mode mode)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* "0.5", whatever the language */
	x->utf8 = theme_locale_utf8();
	/* for a fatal signal's exit (opts.terminal): the modes curses is about
	 * to change */
	struct termios tmodes;
	int have_modes = tcgetattr(STDOUT_FILENO, &tmodes) == 0;
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		say("cannot use the terminal (TERM=%s)", getenv("TERM") ? getenv("TERM") : "");
		return NULL;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	x->color = theme_use_color(mode, getenv("NO_COLOR"), has_colors());
	if (x->color) { /* COLORS and COLOR_PAIRS are known after start_color */
		start_color();
		if (COLORS < 8 || COLOR_PAIRS <= E_NELEM)
			x->color = 0;
	}
	theme_start(x->color, x->utf8);
	if (have_modes && x->opts->terminal) {
		char seq[128];
		termseq_restore(seq, sizeof seq);
		x->opts->terminal(STDOUT_FILENO, seq, &tmodes);
	}
	return scr;
}

static void terminal_end(explorer *x, SCREEN *scr)
{
	if (x->opts->terminal)
		x->opts->terminal(-1, NULL, NULL);
	endwin();
	delscreen(scr);
}

/* ---------------------------------------------------------------- loop */

/* How long an edit may keep the old frame while its result is coming:
 * switching straight to the new result beats flashing "modelling...". */
#define DEFER_S 0.06

/* Keys, script actions and results until the user quits. */
static void loop(explorer *x, script *sc, const signals *sg)
{
	int flags = R_RESIZE;
	int done = 0;
	double defer_until = 0;
	while (!(flags & R_QUIT) && !done && !sc->failed) {
		if (got_signal)
			break;
		explorer_flush(x); /* the model thread starts while this draws */
		if (got_stop) {
			got_stop = 0;
			explorer_suspend(&sg->stop);
			flags |= R_RESIZE;
		}
		if (flags & R_RESIZE) {
			layout_compute(LINES, COLS, screen_params_rows(), &x->lay);
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
			screen_draw(x, flags);
			flags = R_NONE;
		}

		int timeout = -1;
		int wait = 0;
		if (sc->f && !defer_until && !flags) {
			flags |= script_step(x, sc, &wait, &done);
			if (done || sc->failed || (flags & R_QUIT))
				continue;
			timeout = wait ? 20 : 0;
		}
		if (defer_until) {
			int ms = (int)((defer_until - now_s()) * 1000) + 1;
			if (timeout < 0 || ms < timeout)
				timeout = ms < 0 ? 0 : ms;
		}
		/* The keyboard, the model thread, a preset being opened or
		 * exported (bgcall.h: never on this thread, which stays free
		 * for q and signals). */
		explorer_flush(x); /* e.g. a script step's edit */
		struct pollfd pf[3] = {{STDIN_FILENO, POLLIN, 0},
				       {worker_fd(x->w), POLLIN, 0},
				       {x->busy ? bgcall_fd(x->busy) : -1, POLLIN, 0}};
		int n = poll(pf, 3, timeout);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pf[1].revents & POLLIN))
			flags |= explorer_take_results(x);
		if (n > 0 && (pf[2].revents & POLLIN))
			flags |= prompt_busy_done(x);
		/* Keys (and KEY_RESIZE after a SIGWINCH interrupted the poll). */
		int ch;
		while ((ch = getch()) != ERR) {
			if (sc->f && ch != KEY_RESIZE)
				continue; /* a script owns the keyboard */
			flags |= explorer_key(x, ch);
			if (flags & R_QUIT)
				break;
		}
		if (n > 0 && (pf[0].revents & (POLLHUP | POLLERR)) && !sc->f)
			break;
	}
}

/* The kernel and the model thread: class mode's first lesson, or the
 * input's kernel (o->load). 0, or an exit status (said on standard error). */
static int explorer_start(explorer *x, const explorer_opts *o, int scripted)
{
	if (o->teach) {
		if (explorer_lesson(x, LESSON_FIRST) < 0) {
			say("%s", x->msg);
			return EXPLORER_ERUNTIME;
		}
		return 0;
	}
	char err[1024];
	rd_kernel *k = NULL;
	int interactive = !scripted && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	/* too large to load whole: SM by SM, where it can be (clearly too
	 * large: without trying) */
	void *parts = NULL;
	if (!o->parts_open || o->parts_open(o, 0, &k, &parts) < 0) {
		int st = o->load(o, interactive, &k, err, sizeof err);
		if (st != 0 && (!o->parts_open || o->parts_open(o, 1, &k, &parts) < 0)) {
			say("%s", err);
			return st;
		}
	}
	if (explorer_switch_parts(x, k, parts, o->input, &o->config) < 0) {
		say("%s", x->msg);
		return EXPLORER_ERUNTIME;
	}
	x->try_hint = o->try_hint; /* the info screen (i) repeats it */
	if (o->try_hint) /* a sample that shows an effect: how to see it */
		explorer_message(x, 0, "try: %s", o->try_hint);
	return 0;
}

int explorer_run(const explorer_opts *o)
{
	static explorer xs;
	explorer *x = &xs;
	memset(x, 0, sizeof *x);
	x->opts = o;
	x->views = view_table;
	x->no_timing = o->no_timing;
	x->calls = &prompt_calls;
	x->teach = -1;
	enum color_mode mode = COLOR_AUTO;
	if (o->color && theme_parse_mode(o->color, &mode) != 0) {
		say("--color: '%s' is not auto, always or never", o->color);
		return EXPLORER_EUSAGE;
	}
	if (o->teach && !o->script && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) {
		say("--teach: class mode needs a terminal");
		return EXPLORER_EUSAGE;
	}
	char why[256];
	if (!explorer_terminal_ok(why, sizeof why)) {
		say("%s; the explorer needs one that can", why);
		return EXPLORER_ERUNTIME;
	}
	script sc = {0};
	if (o->script) {
		sc.path = o->script;
		sc.f = fopen(o->script, "r");
		if (!sc.f) {
			say("%s: cannot open the script", o->script);
			return EXPLORER_EUSAGE;
		}
	}
	if (explorer_views_start(x) < 0) {
		explorer_views_end(x);
		say("out of memory");
		if (sc.f)
			fclose(sc.f);
		return EXPLORER_ERUNTIME;
	}
	int rc = explorer_start(x, o, sc.f != NULL);
	signals sg;
	SCREEN *scr = NULL;
	if (rc == 0) {
		signals_install(&sg);
		scr = terminal_start(x, mode);
		if (scr) {
			loop(x, &sc, &sg);
			terminal_end(x, scr);
		} else {
			rc = EXPLORER_ERUNTIME;
		}
		signals_restore(&sg);
	}
	explorer_free(x);
	explorer_views_end(x);
	bgcall_drop(x->busy);
	x->busy = NULL;
	if (sc.f) {
		fclose(sc.f);
		if (rc == 0 && sc.failed) {
			char safe[sizeof sc.err];
			fprintf(stderr, "%s\n", draw_safe(safe, sizeof safe, sc.err));
			rc = sc.failed == 2 ? EXPLORER_EUSAGE : EXPLORER_ERUNTIME;
		}
	}
	/*
	 * A preset still being opened or exported may never end (a FIFO with
	 * no writer blocks open() for ever) and cannot be stopped safely
	 * (bgcall.h). The terminal is restored: end the process here, without
	 * exit(), whose flush of every stdio stream could wait for ever on the
	 * stream that thread holds locked.
	 */
	if (bgcall_running()) {
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	return rc;
}

int explorer_terminal_ok(char *why, size_t len)
{
	const char *term = getenv("TERM");
	char safe[128];
	draw_safe(safe, sizeof safe, term ? term : "");
	int ok = termseq_can_address(STDOUT_FILENO);
	if (ok < 0)
		snprintf(why, len, "the terminal (TERM=%s) is unknown to terminfo", safe);
	else if (!ok)
		snprintf(why, len, "the terminal (TERM=%s) cannot move the cursor", safe);
	return ok > 0;
}
