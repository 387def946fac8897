/*
 * --script FILE: a file of actions in place of the keyboard, for the
 * screen tests. One action a line: a key name (up, down, left, right,
 * enter, tab, esc, space, home, end, pageup, pagedown, ctrl-l, ... or one
 * character), `key NAME`, `type TEXT`, `sleep MS`, `wait` (for the model
 * and the view's own run), `wait-size ROWS COLS`, `dump-screen FILE`,
 * `dump-curves FILE` (the curve values as CSV); `#` starts a comment.
 * Called by the loop; calls the key actions and the screen.
 */
#ifndef UI_SCRIPT_H
#define UI_SCRIPT_H

#include <stdio.h>

#include "state.h"

typedef struct script {
	FILE *f;
	const char *path;
	int line;
	double deadline;     /* of the current wait */
	char pending[1024];  /* the action being waited on */
	int have_pending;
	const char *typing;  /* rest of a `type` action */
	char typebuf[512];
	int failed;          /* exit status to leave with (2: a bad script), or 0 */
	char err[1400];
} script;

/*
 * Run script actions until one has to wait. Returns the reaction flags of
 * the keys fed; *wait is set when the script waits for the model (or a
 * resize), *done at its end.
 */
int script_step(explorer *x, script *sc, int *wait, int *done);

#endif
