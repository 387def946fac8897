/*
 * Output files that appear whole or not at all: a regular (or new) file is
 * written to a temporary FILE.tmp.XXXXXX next to FILE and renamed over it
 * only on success, so a failed or interrupted run never leaves a truncated
 * file and never clobbers the previous one; through a symbolic link, the
 * link's target is replaced and the link kept. What is not a regular file
 * (a device, a FIFO, a socket, anything under /dev/ or /proc/) is opened
 * and written through, never replaced; rdscope's own standard output under
 * any name ("-", /dev/stdout) is written directly. A directory is refused
 * when the output is opened, before any work.
 */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
	FILE *f;           /* write here */
	char *path;        /* final name (a link resolved); NULL for standard output */
	char *tmp;         /* temporary name while open; NULL when written through */
} outfile;

/* Is path written through (or as standard output) by its name alone:
 * "-", /dev/stdout and the like, anything under /dev/ or /proc/? (What is
 * not a regular file is written through too, whatever its name.) */
int outfile_by_name_direct(const char *path);

/* Returns 0, or -1 with "path: reason" in err. */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* Flush, close and rename into place. Returns 0, or -1 (file removed). */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Close and remove the temporary file; safe on a never-opened outfile. */
void outfile_abort(outfile *o);

/*
 * Remove open temporary files when a signal ends the process (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
 * SIGXCPU, SIGXFSZ; the signal then takes its default course). Call once.
 */
void outfile_catch_signals(void);

#endif
