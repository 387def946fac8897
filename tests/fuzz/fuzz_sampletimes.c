/* Fuzz harness: placements --sample FILE (src/readers/sampletimes.c). A
 * parsed file holds finite times within their bounds; a refusal always
 * names the file. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "readers/sampletimes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sample_times t;
	char err[512];
	if (sampletimes_parse((const char *)data, size, "fuzz.txt", &t, err, sizeof err) == 0) {
		const double v[] = {t.tcomp, t.tmem, t.toverlap, t.inst_per_warp, t.warps_per_sm,
				    t.wserial};
		for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
			if (!isfinite(v[i]) || v[i] < 0)
				__builtin_trap();
		if (t.tmem <= 0 || t.inst_per_warp <= 0 || t.warps_per_sm <= 0 ||
		    t.wserial >= t.tcomp || t.toverlap > t.tmem || t.toverlap > t.tcomp)
			__builtin_trap();
	} else if (strncmp(err, "fuzz.txt", 8) != 0) {
		__builtin_trap();
	}
	return 0;
}
