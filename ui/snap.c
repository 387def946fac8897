/* Result snapshots (see snap.h). Calls the model, steplog_free and rprof_free. */
#include "snap.h"

#include <stdlib.h>

#include "rprof.h"
#include "steplog.h"

snap *snap_new(int kind, unsigned long gen, const rd_config *cfg)
{
	snap *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->refs = 1;
	s->kind = kind;
	s->gen = gen;
	s->cfg = *cfg;
	s->status = RD_OK;
	return s;
}

snap *snap_ref(snap *s)
{
	if (s)
		s->refs++;
	return s;
}

void snap_unref(snap *s)
{
	if (s && --s->refs == 0) {
		rd_result_free(&s->res);
		steplog_free(s->steps);
		free(s->curves);
		rprof_free(s->prof);
		free(s);
	}
}
