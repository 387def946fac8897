/*
 * Atomic output files (see outfile.h). Only a regular file (or a new
 * one) is written to a temporary file and renamed over: renaming over a
 * device, a FIFO or a link would replace it with a regular file (run as
 * root, `-o /dev/null` once did). Those are written through; a link to a
 * regular file is followed and its target replaced.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files a signal handler must remove; slots are cleared before
 * the names are freed, and the handler only reads them. */
#define OUTFILE_PENDING 4
static char *volatile outfile_pending[OUTFILE_PENDING];

static void outfile_track(char *tmp, int on)
{
	for (int i = 0; i < OUTFILE_PENDING; i++) {
		if (on && !outfile_pending[i]) {
			outfile_pending[i] = tmp;
			return;
		}
		if (!on && outfile_pending[i] == tmp)
			outfile_pending[i] = NULL;
	}
}

static void outfile_on_signal(int sig)
{
	for (int i = 0; i < OUTFILE_PENDING; i++)
		if (outfile_pending[i])
			unlink(outfile_pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void outfile_catch_signals(void)
{
	/* Every signal whose default action ends the process without a core
	 * dump (and SIGXCPU, SIGXFSZ: limits reached mid-write). */
	static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,    SIGPIPE, SIGUSR1, SIGUSR2,
				   SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = outfile_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		/* A signal ignored by our parent (nohup, `trap '' INT`) stays so. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * mkstemp creates mode 0600; give the file the mode a plain fopen would
 * (0666 less the umask), or keep the mode of the file it replaces (old:
 * its stat, NULL for a new file).
 */
static void outfile_fix_mode(int fd, const struct stat *old)
{
	mode_t mode;
	if (old) {
		mode = old->st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	(void)fchmod(fd, mode);
}

/* Write straight into what is not a regular file: a device, a FIFO, a
 * socket, /dev/stdout. (A dangling link also lands here: its target is
 * created through it, as by a plain fopen.) */
static int outfile_direct(outfile *o, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY, 0666);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

static int same_file(const struct stat *st, int fd)
{
	struct stat s2;
	return fstat(fd, &s2) == 0 && s2.st_dev == st->st_dev && s2.st_ino == st->st_ino;
}

/* Names of standard output, recognised by name as well (as gawk does):
 * not every system makes /dev/stdout a link to descriptor 1. */
static int stdout_name(const char *path)
{
	static const char *const names[] = {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(path, names[i]) == 0)
			return 1;
	return 0;
}

int outfile_by_name_direct(const char *path)
{
	return stdout_name(path) || !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	if (stdout_name(path)) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		outfile_abort(o);
		return -1;
	}
	/* Our own standard output under another name (/dev/stdout,
	 * /proc/self/fd/1, or the file it is redirected to): write to it. */
	if (exists && same_file(&st, STDOUT_FILENO)) {
		free(o->path);
		o->path = NULL;
		o->f = stdout;
		return 0;
	}
	struct stat lst;
	int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if ((exists && !S_ISREG(st.st_mode)) || (is_link && !exists) || outfile_by_name_direct(path))
		return outfile_direct(o, path, err, errlen);
	/* A link to a regular file: the target is replaced, the link kept. */
	if (is_link) {
		char *real = realpath(path, NULL);
		if (!real) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			outfile_abort(o);
			return -1;
		}
		free(o->path);
		o->path = real;
	}
	size_t n = strlen(o->path);
	o->tmp = malloc(n + sizeof ".tmp.XXXXXX");
	if (!o->tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		outfile_abort(o);
		return -1;
	}
	memcpy(o->tmp, o->path, n);
	memcpy(o->tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return -1;
	}
	outfile_track(o->tmp, 1);
	outfile_fix_mode(fd, exists ? &st : NULL); /* st: the link's target too */
	o->f = fdopen(fd, "w");
	if (!o->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
	const char *shown = o->path ? o->path : "standard output";
	int failed = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;
	if (!o->path) {
		if (failed)
			snprintf(err, errlen, "%s: %s", shown, strerror(e ? e : EIO));
		return failed ? -1 : 0;
	}
	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (!failed && o->tmp && rename(o->tmp, o->path) != 0) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		snprintf(err, errlen, "%s: %s", shown, strerror(e ? e : EIO));
		outfile_abort(o);
		return -1;
	}
	if (o->tmp)
		outfile_track(o->tmp, 0);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void outfile_abort(outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		outfile_track(o->tmp, 0);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
