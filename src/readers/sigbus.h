/*
 * A mapped input that shrinks while rdscope reads it (another program
 * truncating a .rdt in place: .rdt kernels are read from the mapping for
 * as long as they live) raises SIGBUS at the next read of the lost pages.
 * rdscope then says so and exits with status 1 instead of dying with a
 * core dump; in the explorer the terminal is restored first.
 */
#ifndef SIGBUS_H
#define SIGBUS_H

#include <termios.h>

/* Install the handler (once, at start-up). */
void sigbus_install(void);

/*
 * The explorer's way back to a normal terminal, for the handler: bytes to
 * write to fd (leave the alternate screen, show the cursor) and the
 * terminal modes to restore there. Prepared beforehand, since a handler
 * may not allocate or call curses. seq NULL: nothing to restore.
 */
void sigbus_terminal(int fd, const char *seq, const struct termios *saved);

#endif
