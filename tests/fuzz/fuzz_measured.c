/* Fuzz harness: validate --measured FILE (src/readers/measured.c). A parsed
 * file holds named kernels, each once, with hit rates in [0, 1] (L2 or
 * NAN); a refusal always names the file and line. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "readers/measured.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	measured_set s;
	char err[512];
	int rc = measured_parse((const char *)data, size, "fuzz.csv", &s, err, sizeof err);
	if (rc == 0) {
		if (!s.n)
			__builtin_trap();
		for (size_t i = 0; i < s.n; i++) {
			const measured_row *r = &s.rows[i];
			if (!r->kernel[0] || strchr(r->kernel, ',') || !(r->l1 >= 0 && r->l1 <= 1) ||
			    (!isnan(r->l2) && !(r->l2 >= 0 && r->l2 <= 1)) ||
			    measured_find(&s, r->kernel) != r)
				__builtin_trap();
		}
		measured_free(&s);
	} else if (rc == -1 && strncmp(err, "fuzz.csv", 8) != 0) {
		__builtin_trap();
	}
	return 0;
}
