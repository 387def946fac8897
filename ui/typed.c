/* Typed address sequences (see typed.h). */
#include "typed.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number: decimal, or 0x hexadecimal; the whole token. */
static int number(const char *t, size_t n, uint64_t *v)
{
	char buf[40];
	if (!n || n >= sizeof buf)
		return -1;
	memcpy(buf, t, n);
	buf[n] = '\0';
	int base = 10;
	const char *p = buf;
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (const char *q = p; *q; q++)
		if (base == 10 ? !isdigit((unsigned char)*q) : !isxdigit((unsigned char)*q))
			return -1;
	errno = 0;
	unsigned long long x = strtoull(p, NULL, base);
	if (errno)
		return -1;
	*v = x;
	return 0;
}

int typed_parse(const char *text, typed_seq *s, char *err, size_t len)
{
	s->n = 0;
	s->elem = 4;
	const char *p = text;
	int item = 0;
	while (*p) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " ,\t");
		item++;
		if (item == 1 && n > 5 && strncmp(p, "elem=", 5) == 0) {
			uint64_t e;
			if (number(p + 5, n - 5, &e) < 0 || (e != 1 && e != 2 && e != 4 && e != 8 &&
							     e != 16)) {
				snprintf(err, len, "typed: '%.*s': an element is 1, 2, 4, 8 or 16 bytes",
					 (int)(n > 40 ? 40 : n), p);
				return -1;
			}
			s->elem = (unsigned)e;
			p += n;
			item = 0;
			continue;
		}
		const char *colon = memchr(p, ':', n);
		uint64_t tid = 0, addr;
		if (colon && (number(p, (size_t)(colon - p), &tid) < 0 ||
			      number(colon + 1, n - (size_t)(colon - p) - 1, &addr) < 0)) {
			snprintf(err, len, "typed: item %d, '%.*s', is not THREAD:ADDRESS",
				 item, (int)(n > 40 ? 40 : n), p);
			return -1;
		}
		if (!colon && number(p, n, &addr) < 0) {
			snprintf(err, len, "typed: item %d, '%.*s', is not an address (decimal or 0x hex)",
				 item, (int)(n > 40 ? 40 : n), p);
			return -1;
		}
		if (tid >= TYPED_THREADS) {
			snprintf(err, len, "typed: item %d: thread %llu; threads are 0 to %d (one block)",
				 item, (unsigned long long)tid, TYPED_THREADS - 1);
			return -1;
		}
		if (addr > TYPED_ADDR_MAX) {
			snprintf(err, len, "typed: item %d: address %llu is above 2^48 - 1", item,
				 (unsigned long long)addr);
			return -1;
		}
		if (s->n == TYPED_MAX) {
			snprintf(err, len, "typed: more than %d loads", TYPED_MAX);
			return -1;
		}
		s->tid[s->n] = (uint32_t)tid;
		s->addr[s->n++] = addr;
		p += n;
	}
	if (!s->n) {
		snprintf(err, len, "typed: no addresses (type e.g. 0 4 16 20 0, or 0:0 1:4)");
		return -1;
	}
	return 0;
}

rd_kernel *typed_kernel(const typed_seq *s, const char *name)
{
	uint32_t threads = 1;
	for (size_t i = 0; i < s->n; i++)
		if (s->tid[i] + 1 > threads)
			threads = s->tid[i] + 1;
	rd_kernel_builder *b = rd_kernel_builder_new(name, threads, 1, 1);
	if (!b)
		return NULL;
	for (size_t i = 0; i < s->n; i++)
		if (rd_kernel_builder_add(b, s->tid[i], 0, s->addr[i], s->elem) < 0) {
			rd_kernel_builder_free(b);
			return NULL;
		}
	return rd_kernel_builder_finish(b);
}
