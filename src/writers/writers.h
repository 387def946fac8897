/*
 * src/writers: everything rdscope writes. Result streams in text, CSV and
 * JSON behind one {begin, run, end} interface (output.h; the formats are
 * private, output_fmt.h), the same interface for every other command's
 * records (output_doc: the command's writer per format), the event log (output_log_*), files that appear
 * whole or not at all (outfile.h), and the side outputs of run and sweep:
 * the reuse-distance histogram CSV (histogram.h) and the SVG plot
 * (plot.h), opened and committed together (sidecar.h).
 *
 * The public header of the family: other folders include this one only.
 * May include: the model (rdscope.h), libc, src/util. Writers only
 * format: they never read inputs or run the model.
 */
#ifndef WRITERS_FAMILY_H
#define WRITERS_FAMILY_H

#include "output.h"
#include "outfile.h"
#include "sidecar.h"
#include "histogram.h"
#include "plot.h"

#endif
