/*
 * The arrays CSV (see arrays.h): a strict line-by-line parser into the
 * model's array map (rd_arrays), so every malformed line is refused with
 * its file, line and reason instead of being half taken.
 */
#include "arrays.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NAME_MAX_LEN 63

typedef struct actx {
	const char *shown;
	unsigned line;
	char *err;
	size_t errlen;
} actx;

__attribute__((format(printf, 2, 3))) static int bad(actx *x, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(x->err, x->errlen, "%s:%u: %s", x->shown, x->line, why);
	return -1;
}

/* A field without its surrounding spaces, as a string (at most cap - 1). */
static void field_text(const char *s, size_t n, char *out, size_t cap)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* Decimal or 0x hex, the whole field, no sign. */
static int parse_u64(const char *s, uint64_t *v)
{
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F') ||
		      ((*p == 'x' || *p == 'X') && p == s + 1 && *s == '0')))
			return -1;
	errno = 0;
	char *end;
	unsigned long long u = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		return -1;
	*v = u;
	return 0;
}

static int name_ok(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '.'))
			return 0;
	return 1;
}

/* One array as its line gives it (the map is built once every line is
 * read: adding them one by one looked each name up among all before it,
 * 65,536 lines took 18 s). */
typedef struct arec {
	char *name;
	uint64_t base, bytes;
	uint32_t elem, width;
	unsigned line;
} arec;

/* One data line (n bytes, no line end) into *r. 0, -1 bad, -2 out of
 * memory. */
static int parse_line(actx *x, const char *s, size_t n, arec *r)
{
	const char *f[6];
	size_t len[6];
	int nf = 0;
	const char *start = s;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == ',') {
			if (nf == 5)
				return bad(x, "expected 4 or 5 fields 'name,base,bytes,elem[,width]', got "
					      "more than 5");
			f[nf] = start;
			len[nf] = (size_t)(s + i - start);
			nf++;
			start = s + i + 1;
		}
	}
	if (nf < 4)
		return bad(x, "expected 4 or 5 fields 'name,base,bytes,elem[,width]', got %d", nf);
	char name[NAME_MAX_LEN + 2], t[4][64];
	field_text(f[0], len[0], name, sizeof name);
	if (!name[0])
		return bad(x, "empty array name");
	if (strlen(name) > NAME_MAX_LEN)
		return bad(x, "array name longer than %d characters", NAME_MAX_LEN);
	if (!name_ok(name))
		return bad(x, "array name '%s': a letter or '_' first, then letters, digits, '_' or "
			      "'.'", name);
	if (!strcmp(name, "global"))
		return bad(x, "'global' names the accesses outside every array; choose another name");
	static const char *const what[] = {"base", "bytes", "elem", "width"};
	uint64_t v[4] = {0, 0, 0, 0};
	for (int i = 1; i < nf; i++) {
		if (len[i] >= sizeof t[0])
			return bad(x, "%s: not a number (too long)", what[i - 1]);
		field_text(f[i], len[i], t[i - 1], sizeof t[0]);
		if (i == 4 && !t[3][0])
			continue; /* an empty width: 1D */
		if (parse_u64(t[i - 1], &v[i - 1]) < 0)
			return bad(x, "%s: expected an unsigned integer (decimal or 0x hex), got '%s'",
				   what[i - 1], t[i - 1]);
	}
	uint64_t base = v[0], bytes = v[1], elem = v[2], width = v[3];
	if (bytes == 0)
		return bad(x, "bytes: an array of 0 bytes");
	if (base + bytes < base)
		return bad(x, "base + bytes: past the end of the 64-bit address space");
	if (elem < 1 || elem > 65535)
		return bad(x, "elem: element size must be 1 to 65535 bytes, got %llu",
			   (unsigned long long)elem);
	if (bytes % elem)
		return bad(x, "bytes: %llu is not a whole number of %llu-byte elements",
			   (unsigned long long)bytes, (unsigned long long)elem);
	if (nf == 5 && t[3][0]) {
		if (width < 1 || width > UINT32_MAX)
			return bad(x, "width: elements per row must be 1 to 2^32 - 1, got %llu",
				   (unsigned long long)width);
		if ((bytes / elem) % width)
			return bad(x, "width: %llu elements are not a whole number of rows of %llu",
				   (unsigned long long)(bytes / elem), (unsigned long long)width);
	}
	size_t nl = strlen(name) + 1;
	if (!(r->name = malloc(nl)))
		return -2;
	memcpy(r->name, name, nl);
	r->base = base;
	r->bytes = bytes;
	r->elem = (uint32_t)elem;
	r->width = (uint32_t)width;
	r->line = x->line;
	return 0;
}

/* ------------------------------------------------ names and overlaps */

/* Records by pointer: by name or by base, ties in line order (their
 * order in the one array they are in). */
static int by_name(const void *a, const void *b)
{
	const arec *p = *(const arec *const *)a, *q = *(const arec *const *)b;
	int c = strcmp(p->name, q->name);
	return c ? c : (p > q) - (p < q);
}

static int by_base(const void *a, const void *b)
{
	const arec *p = *(const arec *const *)a, *q = *(const arec *const *)b;
	return p->base != q->base ? (p->base > q->base) - (p->base < q->base) : (p > q) - (p < q);
}

/* A Fenwick tree over the records' places in base order: which of them
 * are in the map so far, the one before and after a place in O(log n). */
static void bit_add(uint32_t *t, uint32_t n, uint32_t r)
{
	for (uint32_t i = r + 1; i <= n; i += i & -i)
		t[i]++;
}

/* Records in places 0..r-1. */
static uint32_t bit_before(const uint32_t *t, uint32_t r)
{
	uint32_t s = 0;
	for (uint32_t i = r; i; i -= i & -i)
		s += t[i];
	return s;
}

/* The place of the k-th (1-based) record in. */
static uint32_t bit_kth(const uint32_t *t, uint32_t n, uint32_t k)
{
	uint32_t pos = 0, step = 1;
	while (step * 2 <= n)
		step *= 2;
	for (; step; step /= 2)
		if (pos + step <= n && t[pos + step] < k) {
			pos += step;
			k -= t[pos];
		}
	return pos; /* 0-based place */
}

/*
 * The records r[0..n) (in line order) as a map, refusing, as line by line
 * would, the first line whose name an earlier line took or whose range
 * overlaps an earlier line's: n log n. 0 with *out; -1 (err set); -2 out of
 * memory. The names move into the map.
 */
static int build_map(actx *x, arec *r, uint32_t n, rd_arrays *as)
{
	arec **idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
	uint32_t *first = malloc((size_t)(n ? n : 1) * sizeof *first),
		 *place = malloc((size_t)(n ? n : 1) * sizeof *place),
		 *tree = calloc((size_t)n + 1, sizeof *tree);
	rd_array *a = malloc((size_t)(n ? n : 1) * sizeof *a);
	int rc = -2;
	if (!idx || !first || !place || !tree || !a)
		goto out;
	/* first[i]: the first line with r[i]'s name */
	for (uint32_t k = 0; k < n; k++)
		idx[k] = &r[k];
	qsort(idx, n, sizeof *idx, by_name);
	for (uint32_t k = 0; k < n; k++)
		first[idx[k] - r] = k && !strcmp(idx[k]->name, idx[k - 1]->name)
					   ? first[idx[k - 1] - r]
					   : (uint32_t)(idx[k] - r);
	qsort(idx, n, sizeof *idx, by_base);
	for (uint32_t k = 0; k < n; k++)
		place[idx[k] - r] = k;
	rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		x->line = r[i].line;
		if (first[i] != i) {
			rc = bad(x, "array '%s' named twice (first on line %u)", r[i].name,
				 r[first[i]].line);
			break;
		}
		/* the arrays in so far are disjoint: only the one before and
		 * the one after in base order can overlap */
		uint32_t before = bit_before(tree, place[i]), in = bit_before(tree, n);
		const arec *o = NULL;
		if (before) {
			const arec *p = idx[bit_kth(tree, n, before)];
			if (p->base + p->bytes > r[i].base)
				o = p;
		}
		if (!o && before < in) {
			const arec *q = idx[bit_kth(tree, n, before + 1)];
			if (q->base < r[i].base + r[i].bytes)
				o = q;
		}
		if (o) {
			rc = bad(x, "%s [0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx) of line %u",
				 r[i].name, (unsigned long long)r[i].base,
				 (unsigned long long)(r[i].base + r[i].bytes), o->name,
				 (unsigned long long)o->base, (unsigned long long)(o->base + o->bytes),
				 o->line);
			break;
		}
		bit_add(tree, n, place[i]);
	}
	if (rc == 0) {
		for (uint32_t k = 0; k < n; k++) {
			arec *p = idx[k];
			a[k] = (rd_array){.name = p->name, .base = p->base, .bytes = p->bytes,
					  .elem = p->elem, .width = p->width};
			p->name = NULL; /* the map's now */
		}
		as->a = a;
		as->n = as->cap = n;
		a = NULL;
	}
out:
	free(idx);
	free(first);
	free(place);
	free(tree);
	free(a);
	return rc;
}

static int is_header(const char *s, size_t n)
{
	char t[64];
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < sizeof t; i++)
		if (s[i] != ' ' && s[i] != '\t')
			t[k++] = s[i];
	t[k] = '\0';
	return !strcmp(t, "name,base,bytes,elem") || !strcmp(t, "name,base,bytes,elem,width");
}

int arrays_parse(const char *text, size_t n, const char *shown, rd_arrays **out, char *err,
		 size_t errlen)
{
	actx x = {.shown = shown, .line = 0, .err = err, .errlen = errlen};
	*out = NULL;
	err[0] = '\0';
	if (n > ARRAYS_MAX_BYTES) {
		snprintf(err, errlen, "%s: more than %u bytes: not an arrays file", shown,
			 ARRAYS_MAX_BYTES);
		return -1;
	}
	rd_arrays *as = rd_arrays_new();
	arec *recs = NULL;
	uint32_t nrec = 0, cap = 0;
	if (!as)
		return -2;
	/* Every line's fields first; a line's own error waits until the
	 * earlier lines' names and ranges are checked (the first bad line in
	 * the file is the one said). */
	int rc = 0, seen = 0;
	char lerr[512];
	size_t i = 0;
	while (i < n && rc == 0) {
		size_t e = i;
		while (e < n && text[e] != '\n')
			e++;
		x.line++;
		size_t len = e - i;
		if (len && text[i + len - 1] == '\r')
			len--;
		const char *s = text + i;
		if (memchr(s, '\0', len)) {
			rc = bad(&x, "a NUL byte: not a text file");
			break;
		}
		size_t k = 0;
		while (k < len && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k == len || s[k] == '#') {
			/* blank or a comment */
		} else if (!seen && is_header(s, len)) {
			seen = 1;
		} else {
			seen = 1;
			if (nrec >= ARRAYS_MAX) {
				rc = bad(&x, "more than %d arrays", ARRAYS_MAX);
				break;
			}
			if (nrec == cap) {
				uint32_t nc = cap ? cap * 2 : 64;
				arec *v = realloc(recs, (size_t)nc * sizeof *v);
				if (!v) {
					rc = -2;
					break;
				}
				recs = v;
				cap = nc;
			}
			rc = parse_line(&x, s, len, &recs[nrec]);
			if (rc == 0)
				nrec++;
		}
		i = e + 1;
	}
	if (rc == 0 && nrec == 0) {
		snprintf(err, errlen, "%s:%u: no arrays (expected lines 'name,base,bytes,elem[,width]')",
			 shown, x.line ? x.line : 1);
		rc = -1;
	} else if (rc != -2) {
		/* a line's own error, unless an earlier line's name or range
		 * is refused first */
		snprintf(lerr, sizeof lerr, "%s", err);
		int brc = build_map(&x, recs, nrec, as);
		if (brc)
			rc = brc;
		else if (rc)
			snprintf(err, errlen, "%s", lerr);
	}
	for (uint32_t k = 0; k < nrec; k++)
		free(recs[k].name);
	free(recs);
	if (rc) {
		rd_arrays_free(as);
		return rc;
	}
	*out = as;
	return 0;
}

int arrays_read(const char *path, rd_arrays **out, char *err, size_t errlen)
{
	char *t;
	size_t n;
	int oom = 0;
	*out = NULL;
	if (read_text_file(path, ARRAYS_MAX_BYTES, &t, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? -2 : -1;
	int rc = arrays_parse(t, n, path, out, err, errlen);
	free(t);
	return rc;
}
