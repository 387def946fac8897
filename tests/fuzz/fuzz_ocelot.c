/* Fuzz harness: the Ocelot .trc reader (plain, gzip and xz input), through
 * the input layer (format forced). The model has tests of its own; here
 * only the parser is exercised, so each input is fast. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_input(data, size, ".trc", "ocelot");
	return 0;
}
