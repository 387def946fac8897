/* The terminal's own way back from curses, for an emergency exit. */
#ifndef TERMSEQ_H
#define TERMSEQ_H

#include <stddef.h>

/* Into buf: the current terminal's sequences that leave the alternate
 * screen and show the cursor (terminfo rmcup and cnorm; empty where the
 * terminal has none). Call after curses has started. */
void termseq_restore(char *buf, size_t len);

#endif
