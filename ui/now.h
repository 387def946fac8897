/*
 * The one clock of the explorer: monotonic seconds, for deadlines and
 * throttling (the loop's redraw deferral, the script's timeouts, the model
 * thread's progress pokes). Pure: no curses; safe on any thread. Includes
 * only the C library.
 */
#ifndef UI_NOW_H
#define UI_NOW_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin). */
double now_s(void);

#endif
