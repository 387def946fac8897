/* The terminal's own way back from curses, for an emergency exit. */
#ifndef TERMSEQ_H
#define TERMSEQ_H

#include <stddef.h>

/* Into buf: the current terminal's sequences that leave the alternate
 * screen and show the cursor (terminfo rmcup and cnorm; empty where the
 * terminal has none). Call after curses has started. */
void termseq_restore(char *buf, size_t len);

/* Does the terminal on fd (TERM, terminfo) move the cursor? 1 yes; 0
 * not (no cursor addressing: TERM=dumb); -1 TERM is not in terminfo. */
int termseq_can_address(int fd);

#endif
