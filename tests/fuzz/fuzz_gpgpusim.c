/* Fuzz harness: GPGPU-Sim L1 cache strings, imported and exported back. */
#include "fuzz.h"
#include "preset_gpgpusim.h"

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], out[512];
	rd_config c;
	rd_config_default(&c);
	if (gpgpusim_import(fuzz_string(data, size), &c, quiet, NULL, err, sizeof err) == 0) {
		gpgpusim_export(&c, GPGPUSIM_3X, out, sizeof out, quiet, NULL);
		gpgpusim_export(&c, GPGPUSIM_4X, out, sizeof out, quiet, NULL);
	}
	return 0;
}
