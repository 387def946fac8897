/* Fuzz harness: the learned estimator's weights file (model/learn.c,
 * rd_mlp_parse). A parsed file predicts values in [0, 1] and writes back
 * to text that parses to the same text again; every refusal says why. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rdscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rd_mlp *m;
	char err[256] = "";
	int rc = rd_mlp_parse((const char *)data, size, &m, err, sizeof err);
	if (rc < 0) {
		if (!err[0])
			__builtin_trap();
		return 0;
	}
	double x[RD_LEARN_NFEAT], y[RD_LEARN_NOUT];
	for (int i = 0; i < RD_LEARN_NFEAT; i++)
		x[i] = (double)i / RD_LEARN_NFEAT;
	rd_mlp_predict(m, x, y);
	for (int o = 0; o < RD_LEARN_NOUT; o++)
		if (!(y[o] >= 0 && y[o] <= 1))
			__builtin_trap();
	char *a = rd_mlp_format(m, "fuzz");
	rd_mlp *m2;
	if (a && rd_mlp_parse(a, strlen(a), &m2, err, sizeof err) == 0) {
		char *b = rd_mlp_format(m2, "fuzz");
		if (b && strcmp(a, b))
			__builtin_trap();
		free(b);
		rd_mlp_free(m2);
	} else if (a) {
		__builtin_trap(); /* its own text refused */
	}
	free(a);
	rd_mlp_free(m);
	return 0;
}
