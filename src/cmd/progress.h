/*
 * A one-line progress indicator on standard error for long batch runs,
 * shown only when someone is watching (stderr is a terminal) and erased
 * when done so it never mixes with results or ends up in logs.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

typedef struct progress {
	int enabled;
	int last;        /* last percentage drawn, -1 for none */
	int width;       /* characters drawn, for erasing */
	char label[80];
	double start;    /* when it began (monotonic seconds) */
} progress;

/* enabled: the caller's wish (not -q); the terminal test is done here. */
void progress_init(progress *p, int enabled, const char *label);
/* Draw fraction (0..1) if the shown percentage changed; after two
 * seconds with the time left at the pace so far. */
void progress_update(progress *p, double fraction);
/* Erase the line. */
void progress_done(progress *p);

#endif
