/*
 * The explorer's screen (curses, UI thread): the frame around the view on
 * screen -- title, parameters pane, status line, help -- and the screen's
 * text. Calls the views only through their ops; called by the loop and
 * the script runner.
 */
#ifndef UI_EXPLORER_SCREEN_H
#define UI_EXPLORER_SCREEN_H

#include <stdio.h>

#include "state.h"

/* Draw what flags name (R_*), then refresh the screen. */
void screen_draw(explorer *x, int flags);

/* Rows the parameters pane would like, frame included. */
int screen_params_rows(void);

/* Write the screen's text (UTF-8, trailing blanks trimmed) to f. */
void screen_dump(FILE *f);

#endif
