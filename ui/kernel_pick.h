/* Choosing one kernel of a multi-kernel input before the explorer opens. */
#ifndef UI_KERNEL_PICK_H
#define UI_KERNEL_PICK_H

#include <stddef.h>

/*
 * Show the kernels' names as a list on the terminal (Up/Down or j/k to
 * move, Enter to choose, q or Esc to give up). Returns the chosen index,
 * or -1. Runs its own short curses session.
 */
int kernel_pick(const char *input, char **names, size_t n);

#endif
