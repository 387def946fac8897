/* Fuzz harness: the rp: input's profile reader (src/readers/rpinput.c),
 * CSV or Gaussian mixture; a parsed profile is a distribution. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "readers/rpinput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *p;
	uint32_t maxrd;
	char err[256];
	if (rp_parse((const char *)data, size, &p, &maxrd, err, sizeof err) == 0) {
		double sum = 0;
		for (uint32_t i = 0; i < maxrd + 2; i++) {
			if (!(p[i] >= 0) || !isfinite(p[i]))
				__builtin_trap();
			sum += p[i];
		}
		if (fabs(sum - 1) > 1e-6)
			__builtin_trap();
		free(p);
	} else if (!err[0]) {
		__builtin_trap(); /* every failure says why */
	}
	return 0;
}
