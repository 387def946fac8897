/* Fuzz harness: the --arrays CSV reader (src/readers/arrays.c). A parsed
 * map is sorted by base, disjoint, of valid names and sizes, and finds
 * each array's first and last byte; a refusal always says FILE:LINE why. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "readers/arrays.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rd_arrays *as;
	char err[512];
	int rc = arrays_parse((const char *)data, size, "fuzz.csv", &as, err, sizeof err);
	if (rc == 0) {
		if (!as || as->n == 0)
			__builtin_trap();
		for (uint32_t i = 0; i < as->n; i++) {
			const rd_array *a = &as->a[i];
			if (!a->bytes || !a->elem || a->bytes % a->elem || !a->name[0] ||
			    !strcmp(a->name, "global") || a->base + a->bytes < a->base)
				__builtin_trap();
			if (a->width && (a->bytes / a->elem) % a->width)
				__builtin_trap();
			if (i && as->a[i - 1].base + as->a[i - 1].bytes > a->base)
				__builtin_trap(); /* sorted and disjoint */
			if (rd_arrays_find(as, a->base) != i ||
			    rd_arrays_find(as, a->base + a->bytes - 1) != i ||
			    rd_arrays_named(as, a->name) != i)
				__builtin_trap();
		}
		rd_arrays_free(as);
	} else if (rc == -1) {
		if (strncmp(err, "fuzz.csv:", 9) != 0 || as)
			__builtin_trap(); /* every refusal names the file and line */
	}
	return 0;
}
