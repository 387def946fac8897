/*
 * SASS opcodes as memory accesses (see trace_sass.h).
 */
#include "trace_sass.h"

#include <string.h>

enum sass_kind sass_opcode(const char *op, size_t n, uint32_t *bytes, int *generic)
{
	size_t base = 0;
	while (base < n && op[base] != '.')
		base++;
	enum sass_kind kind = SASS_OTHER;
	*generic = 0;
	if ((base == 3 && !strncmp(op, "LDG", 3)) || (base == 6 && !strncmp(op, "LDGSTS", 6)))
		kind = SASS_LOAD;
	else if (base == 2 && !strncmp(op, "LD", 2))
		kind = SASS_LOAD, *generic = 1;
	else if (base == 3 && !strncmp(op, "STG", 3))
		kind = SASS_STORE;
	else if (base == 2 && !strncmp(op, "ST", 2))
		kind = SASS_STORE, *generic = 1;
	/* The width: a modifier that is a bit count, bare or after U / S. */
	*bytes = 4;
	for (size_t i = base; i < n;) {
		size_t j = ++i;
		while (j < n && op[j] != '.')
			j++;
		const char *tok = op + i;
		size_t len = j - i, d = (len && (tok[0] == 'U' || tok[0] == 'S')) ? 1 : 0;
		if (len > d && len - d <= 4) {
			unsigned bits = 0;
			size_t k = d;
			for (; k < len && (unsigned)(tok[k] - '0') < 10; k++)
				bits = bits * 10 + (unsigned)(tok[k] - '0');
			if (k == len && bits >= 8 && bits % 8 == 0)
				*bytes = bits / 8;
		}
		i = j;
	}
	return kind;
}
