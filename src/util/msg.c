/*
 * Safe text and the error message function (see msg.h).
 */
#include "msg.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	uint32_t cp, min;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F, min = 0x80;
	else if ((c & 0xF0) == 0xE0)
		n = 3, cp = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	/* A NUL terminator fails this test, so we never read past the end. */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/* The character at s: its length (1 for a byte that is not UTF-8), and
 * whether it may be shown as it is. */
static size_t char_at(const unsigned char *s, int *safe)
{
	size_t n = utf8_len(s);
	/* C0 controls, DEL, C1 controls (U+0080..U+009F: 0xC2 0x80..0x9F) */
	*safe = n && *s >= 0x20 && *s != 0x7f && !(*s == 0xC2 && s[1] < 0xA0);
	return n ? n : 1;
}

void fputs_safe(const char *str, FILE *f)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		int safe;
		size_t n = char_at(s, &safe);
		if (safe)
			fwrite(s, 1, n, f);
		else
			putc('?', f);
		s += n;
	}
}

void str_make_safe(char *str)
{
	unsigned char *s = (unsigned char *)str;
	while (*s) {
		int safe;
		size_t n = char_at(s, &safe);
		if (!safe)
			memset(s, '?', n);
		s += n;
	}
}

void msg_error(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fputs("rdscope: ", stderr);
	fputs_safe(buf, stderr);
	putc('\n', stderr);
}
