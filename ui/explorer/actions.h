/*
 * The explorer's key actions: one key code (the keyboard's or a script's)
 * in, the reaction flags (state.h R_*) out. Keys are looked up in the key
 * table (keys.h) by the scope on screen; the explorer's own keys have
 * handlers here, prompts' keys go to prompt.c, and the rest to the views
 * through their ops table. Calls the state, the prompts and, for Ctrl-L,
 * curses; called by the loop and the script runner.
 */
#ifndef UI_EXPLORER_ACTIONS_H
#define UI_EXPLORER_ACTIONS_H

#include "state.h"

/* React to one key code. */
int explorer_key(explorer *x, int ch);

#endif
