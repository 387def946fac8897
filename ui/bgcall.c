/* Calls off the UI thread (see bgcall.h). */
#include "bgcall.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bgcall {
	void (*fn)(void *);
	void (*free_arg)(void *);
	void *arg;
	int pipe[2];
	pthread_mutex_t mu; /* guards done and refs */
	int done;
	int refs;           /* the UI's and the thread's */
};

static atomic_int running;

static void unref(bgcall *b)
{
	pthread_mutex_lock(&b->mu);
	int last = --b->refs == 0;
	pthread_mutex_unlock(&b->mu);
	if (!last)
		return;
	if (b->free_arg)
		b->free_arg(b->arg);
	close(b->pipe[0]);
	close(b->pipe[1]);
	pthread_mutex_destroy(&b->mu);
	free(b);
}

static void *bgcall_main(void *p)
{
	bgcall *b = p;
	b->fn(b->arg);
	atomic_fetch_sub(&running, 1); /* before done: a done call never counts */
	pthread_mutex_lock(&b->mu);
	b->done = 1;
	pthread_mutex_unlock(&b->mu);
	char c = 1;
	ssize_t r = write(b->pipe[1], &c, 1); /* the pipe lives until our unref */
	(void)r;
	unref(b);
	return NULL;
}

int bgcall_thread(pthread_t *th, int detached, void *(*fn)(void *), void *arg)
{
	/* Signals (SIGWINCH for resizes, SIGINT, ...) go to the UI thread;
	 * not the faults, which only the faulting thread can take (blocked,
	 * they kill the process past its handlers: sigbus.h, sanitizers). */
	sigset_t all, old;
	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_attr_t at;
	pthread_attr_init(&at);
	if (detached)
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(th, &at, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&at);
	return rc;
}

bgcall *bgcall_start(void (*fn)(void *), void *arg, void (*free_arg)(void *), char *err,
		     size_t len)
{
	bgcall *b = calloc(1, sizeof *b);
	if (!b || pipe(b->pipe) < 0) {
		snprintf(err, len, "%s", b ? strerror(errno) : "out of memory");
		free(b);
		if (free_arg)
			free_arg(arg);
		return NULL;
	}
	for (int i = 0; i < 2; i++)
		fcntl(b->pipe[i], F_SETFD, FD_CLOEXEC);
	b->fn = fn;
	b->arg = arg;
	b->free_arg = free_arg;
	b->refs = 2;
	pthread_mutex_init(&b->mu, NULL);
	pthread_t th;
	atomic_fetch_add(&running, 1);
	int rc = bgcall_thread(&th, 1, bgcall_main, b);
	if (rc != 0) {
		atomic_fetch_sub(&running, 1);
		snprintf(err, len, "cannot start a thread: %s", strerror(rc));
		b->refs = 1;
		unref(b);
		return NULL;
	}
	return b;
}

int bgcall_fd(const bgcall *b)
{
	return b->pipe[0];
}

int bgcall_done(bgcall *b)
{
	pthread_mutex_lock(&b->mu);
	int d = b->done;
	pthread_mutex_unlock(&b->mu);
	return d;
}

void *bgcall_arg(const bgcall *b)
{
	return b->arg;
}

void bgcall_drop(bgcall *b)
{
	if (b)
		unref(b);
}

int bgcall_running(void)
{
	return atomic_load(&running);
}
