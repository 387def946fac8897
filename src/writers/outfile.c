/*
 * Atomic output files (see outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <signal.h>
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
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
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
 * (0666 less the umask), or keep the mode of the file it replaces.
 */
static void outfile_fix_mode(int fd, const char *path)
{
	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	(void)fchmod(fd, mode);
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	size_t n = strlen(path);
	o->path = strdup(path);
	o->tmp = malloc(n + sizeof ".tmp.XXXXXX");
	if (!o->path || !o->tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		outfile_abort(o);
		return -1;
	}
	memcpy(o->tmp, path, n);
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
	outfile_fix_mode(fd, path);
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
	if (!failed && rename(o->tmp, o->path) != 0) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		snprintf(err, errlen, "%s: %s", shown, strerror(e ? e : EIO));
		outfile_abort(o);
		return -1;
	}
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
