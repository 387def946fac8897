/* "0x" hexadecimal numbers (see hexnum.h). */
#include "hexnum.h"

int hexnum_parse(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return HEXNUM_NOT_HEX;
	p += 2;
	uint64_t x = 0;
	int n = 0;
	for (;; p++, n++) {
		unsigned c = (unsigned char)*p, d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (x >> 60)
			return HEXNUM_TOO_LARGE;
		x = x << 4 | d;
	}
	if (n == 0)
		return HEXNUM_NO_DIGITS;
	*pp = p;
	*v = x;
	return HEXNUM_OK;
}
