/*
 * Field formatting every writer shares (text, CSV, JSON, SVG, histogram
 * CSV): CSV quoting, UTF-8 checks and JSON strings, a key's value, a
 * percentage, the classes' keys. Beneath the format writers and output.c; calls only the
 * model and libc.
 */
#include "output_fmt.h"
#include "util/util.h"

#include <stddef.h>
#include <string.h>

/* (no bound here: one name too few or too many is a type conflict with
 * output.h's declaration) */
const char *const output_class_keys[] = {"compulsory", "capacity", "associativity", "latency",
					 "mshr",       "write_evict", "bypass",	  "sector"};

/* RFC 4180: quote a field only when it holds a separator, quote or newline. */
void output_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

void output_json_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	putc('"', f);
	while (*s) {
		size_t n = utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", f); /* a byte that is not UTF-8 */
			s++;
		} else if (*s == '"' || *s == '\\') {
			putc('\\', f);
			putc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f), s++;
		} else if (*s == '\t') {
			fputs("\\t", f), s++;
		} else if (*s < 0x20) {
			fprintf(f, "\\u%04x", *s++);
		} else {
			fwrite(s, 1, n, f);
			s += n;
		}
	}
	putc('"', f);
}

const char *output_config_value(const rd_config *c, const char *key, char *buf, size_t len)
{
	if (rd_config_get(c, key, buf, len) < 0)
		buf[0] = '\0';
	return buf;
}

const output_space_field output_space_fields[OUTPUT_NSPACE_FIELDS] = {
	{"instructions", offsetof(rd_space_stats, instructions)},
	{"requests", offsetof(rd_space_stats, requests)},
	{"hits", offsetof(rd_space_stats, hits)},
	{"misses", offsetof(rd_space_stats, misses)},
	{"replays", offsetof(rd_space_stats, replays)},
	{"address_instructions", offsetof(rd_space_stats, address_instructions)},
};

uint64_t output_space_value(const rd_space_stats *s, int f)
{
	uint64_t v;
	memcpy(&v, (const char *)s + output_space_fields[f].off, sizeof v);
	return v;
}

double output_percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Decimal digits at s: how many. */
static size_t digits(const char *s)
{
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

size_t output_json_number_len(const char *s)
{
	/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
	const char *p = s + (*s == '-');
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += digits(p);
	else
		return 0;
	if (*p == '.') {
		size_t n = digits(p + 1);
		if (!n)
			return 0;
		p += 1 + n;
	}
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1 + (p[1] == '+' || p[1] == '-');
		size_t n = digits(q);
		if (!n)
			return 0;
		p = q + n;
	}
	return (size_t)(p - s);
}
