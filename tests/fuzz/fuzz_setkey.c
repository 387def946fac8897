/* Fuzz harness: `-s KEY=VALUE` parsing (rd_config_set) and the whole-
 * configuration check, on every key. */
#include <string.h>

#include "fuzz.h"
#include "rdscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = (char *)fuzz_string(data, size), err[256], buf[64];
	rd_config c;
	rd_config_default(&c);
	/* several KEY=VALUE settings, one per line */
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (rd_config_set(&c, line, eq + 1, err, sizeof err) == 0 &&
		    rd_config_get(&c, line, buf, sizeof buf) != 0)
			__builtin_trap(); /* a key that was set must read back */
	}
	rd_config_check(&c, err, sizeof err);
	return 0;
}
