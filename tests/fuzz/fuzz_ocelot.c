/* Fuzz harness: the Ocelot .trc reader (plain and gzip input). */
#include "fuzz.h"
#include "trace_ocelot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	rd_kernel *k = NULL;
	if (trace_ocelot_read(fuzz_file(data, size, ".trc"), &k, err, sizeof err) == TRACE_OK) {
		rd_model *m = rd_model_new(k);
		rd_config c;
		rd_config_default(&c);
		rd_result r;
		/* small inputs only reach the model: the fuzzer hunts parser
		 * bugs, and huge thread ids make the schedule big, not wrong */
		if (m && k->nloads < 4096 && k->nthreads < 65536 &&
		    rd_model_run(m, &c, RD_ALL_CASES, NULL, &r) == RD_OK)
			rd_result_free(&r);
		rd_model_free(m);
	}
	rd_kernel_free(k);
	return 0;
}
