/* Fuzz harness: preset files (libconfig syntax, validation, inherits). */
#include "fuzz.h"
#include "preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[4096];
	rd_config c;
	rd_config_default(&c);
	preset_load(fuzz_file(data, size, ".cfg"), &c, err, sizeof err);
	return 0;
}
