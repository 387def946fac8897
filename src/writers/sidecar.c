/*
 * Side outputs (see sidecar.h).
 */
#include "sidecar.h"

#include <string.h>

#include "histogram.h"
#include "util/util.h"

int sidecar_open(sidecar *s, const char *histogram, const char *svg, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	if (histogram) {
		if (outfile_open(&s->hist, histogram, err, errlen) < 0)
			return -1;
		s->want_hist = 1;
		histogram_header(s->hist.f);
	}
	if (svg) {
		if (outfile_open(&s->svg, svg, err, errlen) < 0 || !(s->plot = plot_new())) {
			if (s->svg.f)
				snprintf(err, errlen, "%s: out of memory", svg);
			sidecar_abort(s);
			return -1;
		}
		s->want_svg = 1;
	}
	return 0;
}

int sidecar_add(sidecar *s, unsigned long run, unsigned long point, const char *input,
		const char *kernel, const char *label, const rd_config *cfg, const rd_result *r)
{
	if (s->want_hist)
		histogram_write(s->hist.f, run, point, input, kernel, cfg, r);
	if (s->want_svg)
		return plot_add(s->plot, run, input, kernel, label, cfg, r);
	return 0;
}

int sidecar_commit(sidecar *s, char *err, size_t errlen)
{
	if (s->want_svg) {
		/* --plot-hist naming a run the picture lacks drew nothing for it,
		 * and said nothing */
		char miss[160], runs[160];
		size_t n = plot_hists_missing(s->plot, miss, sizeof miss);
		if (n) {
			plot_runs(s->plot, runs, sizeof runs);
			msg_error("warning: --plot-hist: no run%s %s among the runs plotted (%s): %s",
				  n == 1 ? "" : "s", miss, runs,
				  n == 1 ? "its histogram is not drawn" : "their histograms are not drawn");
		}
		plot_write(s->plot, s->svg.f);
	}
	if ((s->want_hist && outfile_commit(&s->hist, err, errlen) < 0) ||
	    (s->want_svg && outfile_commit(&s->svg, err, errlen) < 0)) {
		sidecar_abort(s);
		return -1;
	}
	sidecar_abort(s); /* frees the plot; the committed files stay */
	return 0;
}

void sidecar_abort(sidecar *s)
{
	outfile_abort(&s->hist);
	outfile_abort(&s->svg);
	plot_free(s->plot);
	memset(s, 0, sizeof *s);
}
