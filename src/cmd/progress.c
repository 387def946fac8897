/*
 * Progress line (see progress.h). Redrawn only when the whole percentage
 * changes: the model calls back often and terminals are slow.
 */
#include "progress.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void progress_init(progress *p, int enabled, const char *label)
{
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->last = -1;
	p->width = 0;
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
	p->width = fprintf(stderr, "\rrdscope: %s %3d%%", p->label, pct) - 1;
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
