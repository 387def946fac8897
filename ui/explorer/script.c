/*
 * The screen tests' script runner (see script.h). Calls the key actions,
 * the screen (for dump-screen), the state's x_ready, the curves view's
 * csv op (for dump-curves), keys and curses.
 */
#include "script.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actions.h"
#include "keys.h"
#include "now.h"
#include "screen.h"

#define SCRIPT_TIMEOUT 60.0

static const struct { const char *name; int code; } key_names[] = {
	{"up", KEY_UP},	      {"down", KEY_DOWN},	{"left", KEY_LEFT},
	{"right", KEY_RIGHT}, {"enter", '\r'},		{"tab", '\t'},
	{"btab", KEY_BTAB},   {"esc", 27},		{"backspace", KEY_BACKSPACE},
	{"space", ' '},	      {"home", KEY_HOME},	{"end", KEY_END},
	{"pageup", KEY_PPAGE}, {"pagedown", KEY_NPAGE}, {"f1", KEY_F(1)},
	{"ctrl-l", KC_CTRL('l')}, {"ctrl-u", KC_CTRL('u')}, {"ctrl-g", KC_CTRL('g')},
};

static int key_code(const char *name)
{
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
		if (strcmp(name, key_names[i].name) == 0)
			return key_names[i].code;
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	return -1;
}

static void script_fail(script *sc, int status, const char *what)
{
	snprintf(sc->err, sizeof sc->err, "rdscope: %s:%d: %s", sc->path, sc->line, what);
	sc->failed = status;
}

int script_step(explorer *x, script *sc, int *wait, int *done)
{
	int flags = R_NONE;
	*wait = 0;
	for (int budget = 0; budget < 64; budget++) {
		if (sc->typing) {
			int ch = (unsigned char)*sc->typing++;
			if (!*sc->typing)
				sc->typing = NULL;
			return flags | explorer_key(x, ch);
		}
		if (!sc->have_pending) {
			char buf[1024];
			if (!fgets(buf, sizeof buf, sc->f)) {
				*done = 1;
				return flags;
			}
			sc->line++;
			buf[strcspn(buf, "\r\n")] = '\0';
			char *p = buf;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || *p == '#')
				continue;
			snprintf(sc->pending, sizeof sc->pending, "%s", p);
			sc->have_pending = 1;
			sc->deadline = now_s() + SCRIPT_TIMEOUT;
		}
		char *act = sc->pending;
		char *arg = act + strcspn(act, " ");
		if (*arg)
			*arg++ = '\0';
		else
			arg = act + strlen(act);
		/* Waiting actions keep their text for the next call. */
		if (strcmp(act, "wait") == 0 || strcmp(act, "dump-screen") == 0 ||
		    strcmp(act, "dump-curves") == 0) {
			if (!x_ready(x)) {
				if (now_s() > sc->deadline)
					script_fail(sc, 1, "timed out waiting for the model");
				if (*arg)
					arg[-1] = ' ';
				*wait = 1;
				return flags;
			}
			if (strcmp(act, "dump-curves") == 0) {
				const view_ops *cv = x->views[V_CURVES];
				FILE *f = fopen(arg, "w");
				if (!f || !cv->csv || cv->csv(x, f) < 0) {
					script_fail(sc, 1, f ? "dump-curves: no curves (press g first)"
							     : "dump-curves: cannot write the file");
					if (f)
						fclose(f);
					return flags;
				}
				if (fclose(f) != 0)
					script_fail(sc, 1, "dump-curves: cannot write the file");
			} else if (act[0] == 'd') {
				screen_draw(x, R_ALL);
				FILE *f = fopen(arg, "w");
				if (!f) {
					script_fail(sc, 1, "dump-screen: cannot write the file");
					return flags;
				}
				screen_dump(f);
				if (fclose(f) != 0)
					script_fail(sc, 1, "dump-screen: cannot write the file");
			}
			sc->have_pending = 0;
			continue;
		}
		if (strcmp(act, "wait-size") == 0) {
			int rows, cols;
			if (sscanf(arg, "%d %d", &rows, &cols) != 2) {
				script_fail(sc, 2, "wait-size needs ROWS COLS");
				return flags;
			}
			if (LINES != rows || COLS != cols) {
				if (now_s() > sc->deadline)
					script_fail(sc, 1, "timed out waiting for the terminal size");
				arg[-1] = ' ';
				*wait = 1;
				return flags;
			}
			sc->have_pending = 0;
			continue;
		}
		sc->have_pending = 0;
		if (strcmp(act, "sleep") == 0) {
			struct timespec ts = {0, (long)(atoi(arg) % 1000) * 1000000L};
			ts.tv_sec = atoi(arg) / 1000;
			nanosleep(&ts, NULL);
			continue;
		}
		if (strcmp(act, "type") == 0) {
			snprintf(sc->typebuf, sizeof sc->typebuf, "%s", arg);
			sc->typing = *sc->typebuf ? sc->typebuf : NULL;
			continue;
		}
		if (strcmp(act, "key") == 0)
			act = arg;
		int code = key_code(act);
		if (code < 0) {
			char m[1100];
			snprintf(m, sizeof m, "unknown action or key '%.1000s'", act);
			script_fail(sc, 2, m);
			return flags;
		}
		return flags | explorer_key(x, code);
	}
	return flags;
}

