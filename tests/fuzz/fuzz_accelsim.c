/* Fuzz harness: the accelsim reader, through the input layer (format forced). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_input(data, size, ".traceg", "accelsim");
	return 0;
}
