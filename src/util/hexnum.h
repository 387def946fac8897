/* "0x" hexadecimal numbers, as traces and kernel descriptions write
 * addresses. */
#ifndef HEXNUM_H
#define HEXNUM_H

#include <stdint.h>

enum hexnum_status {
	HEXNUM_OK = 0,
	HEXNUM_NOT_HEX = -1,   /* no "0x" prefix */
	HEXNUM_NO_DIGITS = -2, /* "0x" and no digit */
	HEXNUM_TOO_LARGE = -3, /* more than 64 bits */
};

/* Parse "0x" and hex digits at *pp into *v; on HEXNUM_OK advance *pp past
 * them (the next character is not a hex digit). */
int hexnum_parse(const char **pp, uint64_t *v);

#endif
