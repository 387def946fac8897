/*
 * One call off the UI thread (no curses here): the explorer's opening and
 * saving of preset files. Opening a file may block for ever (open() of a
 * FIFO with no writer waits for one; a slow disk or network file system
 * takes its time) and reading may never end (/dev/zero): on the UI thread
 * that froze the explorer, deaf to q and to signals. The call runs on a
 * thread of its own, which blocks the usual signals so that they reach the
 * UI thread; the UI poll()s bgcall_fd with the keyboard and takes the
 * result when it is readable.
 *
 * A call cannot be stopped (a thread blocked in open() or read() has no
 * safe way out: cancelling it in the middle of a library's stdio leaks its
 * FILE and whatever it allocated). The UI drops a call it no longer wants
 * (Esc, quitting) and goes on; the thread frees the call when, if ever,
 * its function returns. At exit, bgcall_running() says whether some thread
 * is still stuck: see explorer_run, which then ends the process with
 * _exit() rather than exit(), whose flushing of every stdio stream could
 * wait for ever on a stream the stuck thread holds locked.
 */
#ifndef UI_BGCALL_H
#define UI_BGCALL_H

#include <pthread.h>
#include <stddef.h>

typedef struct bgcall bgcall;

/*
 * Run fn(arg) on a new thread. arg belongs to the call from now on: the UI
 * reads it only once bgcall_done says so; free_arg(arg) frees it with the
 * call (NULL: nothing to free). NULL, with the reason in err, when no
 * thread could be started (arg freed).
 */
bgcall *bgcall_start(void (*fn)(void *arg), void *arg, void (*free_arg)(void *arg), char *err,
		     size_t len);

/* Readable once fn has returned. */
int bgcall_fd(const bgcall *b);

/* Has fn returned? Then arg (bgcall_arg) holds its results. */
int bgcall_done(bgcall *b);
void *bgcall_arg(const bgcall *b);

/* The UI's last word on b (done or not): freed now if fn has returned,
 * else by its thread when fn returns. */
void bgcall_drop(bgcall *b);

/*
 * pthread_create of fn(arg) (detached: not to be joined) with every signal
 * but the faults blocked in the new thread, so that signals reach the UI
 * thread, which poll()s; for the model thread too. pthread_create's
 * return value.
 */
int bgcall_thread(pthread_t *th, int detached, void *(*fn)(void *), void *arg);

/* Calls whose function has not returned yet, dropped ones included. */
int bgcall_running(void);

#endif
