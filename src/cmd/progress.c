/*
 * Progress line (see progress.h). Redrawn only when the whole percentage
 * changes: the model calls back often and terminals are slow.
 */
#include "progress.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(progress *p, int enabled, const char *label)
{
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->last = -1;
	p->width = 0;
	p->start = now();
	snprintf(p->label, sizeof p->label, "%s", label);
	str_make_safe(p->label); /* an input's name */
}

void progress_update(progress *p, double fraction)
{
	if (!p->enabled)
		return;
	if (!(fraction >= 0))
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	int pct = (int)(fraction * 100);
	if (pct == p->last)
		return;
	p->last = pct;
	/* after 2 s, the time left at the pace so far */
	char left[48] = "";
	double t = now() - p->start;
	if (t >= 2 && fraction >= 0.01 && fraction < 1) {
		double r = t * (1 - fraction) / fraction;
		if (r < 3600 * 99)
			snprintf(left, sizeof left, ", about %d:%02d left", (int)(r / 60),
				 (int)r % 60);
	}
	int w = fprintf(stderr, "\rrdscope: %s %3d%%%s", p->label, pct, left) - 1;
	if (w < p->width) /* a shorter line: blank the old one's end */
		fprintf(stderr, "%*s", p->width - w, "");
	if (w > p->width)
		p->width = w;
	fflush(stderr);
}

void progress_done(progress *p)
{
	if (!p->enabled || p->width <= 0)
		return;
	fprintf(stderr, "\r%*s\r", p->width, "");
	fflush(stderr);
	p->width = 0;
	p->last = -1;
}
