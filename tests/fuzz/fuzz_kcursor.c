/* Fuzz harness: a description's threads streamed by cursors
 * (src/kdesc/kdesc_cursor.c) against the kernel the builder makes. Every
 * thread of every launch (a few launches, at most 256 threads each) gives
 * the built kernel's accesses in program order, read in batches of odd
 * sizes; where the builder fails, the first thread that fails fails with
 * the same message (its load and step limits aside: a cursor has its own
 * step limit and no load limit). */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "kdesc.h"
#include "rdscope.h"
#include "readers/readers.h"

/* Thread tid's access number i in the built kernel (0: none). */
typedef struct walk {
	uint64_t l, lend, s, send, p;
} walk;

static int built_next(const rd_kernel *k, walk *w, uint64_t *a, uint16_t *b, uint8_t *st)
{
	if (w->s < w->send && k->store_pos[w->s] == w->p) {
		*a = k->store_addr[w->s], *b = k->store_bytes[w->s++], *st = 1;
	} else if (w->l < w->lend) {
		*a = k->addr[w->l], *b = k->bytes[w->l++], *st = 0;
	} else {
		return 0;
	}
	w->p++;
	return 1;
}

/* The cursor of thread t of block b against the kernel's thread tid (k:
 * NULL when the builder failed): 0, or -1 with its error in err. */
static int check_thread(const kd_stream *s, const rd_kernel *k, uint64_t b, uint32_t t,
			uint32_t tid, uint32_t batch, char *err, size_t errlen)
{
	kd_cursor *c = kd_cursor_new(s, b, t);
	if (!c)
		__builtin_trap();
	walk w = {0};
	if (k && tid < k->nthreads)
		w.l = k->thread_first[tid], w.lend = k->thread_first[tid + 1];
	if (k && k->nstores)
		rd_kernel_store_range(k, tid, tid + 1, &w.s, &w.send);
	uint64_t a[64], x;
	uint16_t by[64], y;
	uint8_t st[64], z;
	int rc = 0;
	for (;;) {
		int64_t n = kd_cursor_next(c, a, by, st, batch);
		if (n < 0) {
			snprintf(err, errlen, "%s", kd_cursor_error(c));
			rc = -1;
			break;
		}
		if (!n)
			break;
		for (int64_t i = 0; k && i < n; i++)
			if (!built_next(k, &w, &x, &y, &z) || x != a[i] || y != by[i] || z != st[i])
				__builtin_trap(); /* not the builder's access */
	}
	if (k && (rc || built_next(k, &w, &x, &y, &z)))
		__builtin_trap(); /* an error, or fewer accesses than the builder's */
	kd_cursor_free(c);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".kdesc");
	char err[1024], berr[1024], cerr[1024];
	int oom = 0;
	textin *t = textin_open(path, 1 << 20, err, sizeof err, &oom);
	trace_reader *r = t ? kdesc_reader(t, path, NULL, NULL, 0, err, sizeof err, &oom) : NULL;
	if (!r)
		return 0;
	kdesc_set_max_threads(r, 256);
	const char *name;
	for (size_t launch = 0; launch < 4 && r->next(r, &name) == 1; launch++) {
		rd_kernel *k = NULL;
		int rc = r->load(r, &k);
		snprintf(berr, sizeof berr, "%s", err);
		kd_stream *s = kd_stream_new(r, launch);
		if (!s) {
			if (rc == TRACE_OK || strcmp(err, berr))
				__builtin_trap(); /* the launch's errors are the builder's */
			break;
		}
		uint64_t nb = kd_stream_blocks(s);
		uint32_t bs = kd_stream_block_size(s);
		int limit = rc != TRACE_OK && (strstr(berr, " loads in one ") ||
					      strstr(berr, " stores in one ") ||
					      strstr(berr, " steps (") || strstr(berr, "out of memory"));
		int found = rc == TRACE_OK || limit;
		for (uint64_t b = 0; b < nb && !limit; b++)
			for (uint32_t i = 0; i < bs; i++) {
				uint32_t tid = (uint32_t)(b * bs + i);
				if (check_thread(s, rc == TRACE_OK ? k : NULL, b, i, tid,
						 1 + (tid * 7) % 64, cerr, sizeof cerr) < 0) {
					if (strcmp(cerr, berr))
						__builtin_trap(); /* not the builder's error */
					found = 1;
					b = nb;
					break;
				}
			}
		if (!found)
			__builtin_trap(); /* the builder failed, no cursor did */
		kd_stream_free(s);
		rd_kernel_free(k);
		if (rc != TRACE_OK)
			break;
	}
	r->close(r);
	return 0;
}
