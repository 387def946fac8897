/*
 * The kernel list (see kernel_pick.h): a multi-kernel trace (NVBit and
 * Accel-Sim traces hold every launch of a program) opens on the kernel the
 * user picks here, as `--kernel NAME|INDEX` would pick it.
 */
#include "kernel_pick.h"

#include <curses.h>
#include <stdio.h>

#include "draw.h"

int kernel_pick(const char *input, char **names, size_t n)
{
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return -1;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	size_t sel = 0, top = 0;
	int chosen = -1;
	for (;;) {
		int rows = LINES - 4 > 1 ? LINES - 4 : 1;
		if (sel < top)
			top = sel;
		if (sel >= top + (size_t)rows)
			top = sel - (size_t)rows + 1;
		erase();
		char safe[1024]; /* names from the input: no control characters */
		mvprintw(0, 0, "%s holds %zu kernels: choose one (Enter), q to quit",
			 draw_safe(safe, sizeof safe, input), n);
		for (int r = 0; r < rows && top + (size_t)r < n; r++) {
			size_t i = top + (size_t)r;
			if (i == sel)
				attron(A_REVERSE);
			draw_safe(safe, sizeof safe, names[i]);
			mvprintw(2 + r, 1, "%4zu  %.*s", i,
				 (int)draw_prefix_bytes(safe, COLS > 8 ? COLS - 8 : 1), safe);
			if (i == sel)
				attroff(A_REVERSE);
		}
		mvprintw(LINES - 1, 0, "Up/Down or j/k move, Enter chooses, q quits");
		refresh();
		int ch = getch();
		if ((ch == KEY_DOWN || ch == 'j') && sel + 1 < n)
			sel++;
		else if ((ch == KEY_UP || ch == 'k') && sel > 0)
			sel--;
		else if (ch == KEY_HOME || ch == 'g')
			sel = 0;
		else if (ch == KEY_END || ch == 'G')
			sel = n - 1;
		else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			chosen = (int)sel;
			break;
		} else if (ch == 'q' || ch == 27 || ch == ERR)
			break;
	}
	endwin();
	delscreen(scr);
	return chosen;
}
