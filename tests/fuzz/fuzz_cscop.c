/* Fuzz harness: rdscope kdesc --from-c's C reader (src/kdesc/kdesc_c.c).
 * Every failure says why; a description it writes opens as one. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kdesc/kdesc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out, err[1024];
	static const char *const defs[] = {"N=16", "n=8"};
	if (kdesc_from_c((const char *)data, size, "fuzz.c", defs, 2, &out, err, sizeof err) == 0) {
		/* what it writes is a description rdscope reads (or refuses
		 * with a message, as for an index out of its array) */
		fuzz_input((const uint8_t *)out, strlen(out), ".kdesc", "kdesc");
		free(out);
	} else if (!err[0]) {
		__builtin_trap();
	}
	return 0;
}
