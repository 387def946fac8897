/*
 * "Type your own": an address sequence typed at the explorer's prompt
 * (key a) made into a kernel. Items are separated by blanks or commas:
 * a byte address (decimal, or hexadecimal with 0x), a load of thread 0,
 * or THREAD:ADDRESS, a load of that thread; each thread's loads keep the
 * order typed. Every load reads a 4-byte element unless the text starts
 * with elem=N (1, 2, 4, 8 or 16 bytes). The threads form one block; the
 * configuration on screen makes them warps (gpu.warp_size) and caches.
 * Pure (no curses, no threads): unit-tested.
 */
#ifndef UI_TYPED_H
#define UI_TYPED_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

#define TYPED_MAX 512       /* loads */
#define TYPED_THREADS 1024  /* thread ids 0 .. TYPED_THREADS - 1 (one block) */
#define TYPED_ADDR_MAX ((1ull << 48) - 1)

typedef struct typed_seq {
	size_t n;
	unsigned elem;               /* bytes per load */
	uint32_t tid[TYPED_MAX];
	uint64_t addr[TYPED_MAX];
} typed_seq;

/* Parse text: 0, or -1 with a message naming the item and the rule. */
int typed_parse(const char *text, typed_seq *s, char *err, size_t len);

/* The kernel of a parsed sequence, named name; NULL out of memory. */
rd_kernel *typed_kernel(const typed_seq *s, const char *name);

#endif
