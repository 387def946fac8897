/*
 * A kernel description from the #pragma scop region of a C file (rdscope
 * kdesc --from-c, seed 004's input class): for loops, ifs, blocks and
 * assignments whose array subscripts, bounds and conditions are integer
 * expressions of the loop variables and parameters; scalars live in
 * registers (no accesses); each array's element size comes from its
 * declared type; parameters are #define'd integers, or names given with
 * -D. Each statement's accesses are its reads in source order (a compound
 * assignment's own element first), then its write, as HayStack orders
 * them. The result is one serial kernel (a grid and a block of one
 * thread). Anything outside that class is refused with FILE:LINE.
 */
#include "kdesc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---------------------------------------------------------------- tokens */

enum { T_END, T_ID, T_NUM, T_PUNCT, T_PRAGMA_SCOP, T_PRAGMA_END, T_DEFINE };

typedef struct tok {
	int kind;
	const char *s; /* into the text */
	size_t len;
	unsigned line;
} tok;

#define MAX_NAMES 512
#define MAX_DEPTH 64

typedef struct arr {
	char name[64];
	unsigned elem;
	int ndims;
	char dims[8][128];
} arr;

typedef struct cc {
	const char *text, *end, *p, *shown;
	unsigned line;
	tok t;           /* the current token */
	char *err;
	size_t errlen;
	int failed;
	/* what the declarations said */
	arr arrays[MAX_NAMES];
	int narrays;
	int used[MAX_NAMES];
	char params[MAX_NAMES][64];
	long long pval[MAX_NAMES];
	int pknown[MAX_NAMES], pused[MAX_NAMES];
	int nparams;
	char loopvars[MAX_NAMES][64];
	int nloopvars;
	rd_buf out;         /* the body */
	int depth;
	int first[MAX_DEPTH + 2]; /* no item written yet in the list at this depth */
	int blocks; /* bare { } blocks open: no list of their own, but the parser
		       recurses on them as on for and if (depth + blocks <= MAX_DEPTH) */
} cc;

static int fail(cc *c, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(cc *c, unsigned line, const char *fmt, ...)
{
	if (c->failed)
		return -1;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%u: %s", c->shown, line, msg);
	c->failed = 1;
	return -1;
}

static int is_id0(int ch)
{
	return isalpha(ch) || ch == '_';
}

/* The next token (comments and blanks skipped; preprocessor lines are
 * tokens of their own: #pragma scop / endscop, #define, others refused
 * inside the region by the parser). */
static void next(cc *c)
{
	const char *p = c->p;
	for (;;) {
		while (p < c->end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' ||
				      *p == '\v')) {
			if (*p == '\n')
				c->line++;
			p++;
		}
		if (p + 1 < c->end && p[0] == '/' && p[1] == '/') {
			while (p < c->end && *p != '\n')
				p++;
			continue;
		}
		if (p + 1 < c->end && p[0] == '/' && p[1] == '*') {
			p += 2;
			while (p + 1 < c->end && !(p[0] == '*' && p[1] == '/')) {
				if (*p == '\n')
					c->line++;
				p++;
			}
			p = p + 1 < c->end ? p + 2 : c->end;
			continue;
		}
		break;
	}
	c->t.s = p;
	c->t.line = c->line;
	if (p >= c->end) {
		c->t.kind = T_END;
		c->t.len = 0;
		c->p = p;
		return;
	}
	if (*p == '#') { /* a preprocessor line, to its end */
		const char *e = p;
		while (e < c->end && *e != '\n')
			e++;
		c->t.len = (size_t)(e - p);
		const char *w = p + 1;
		while (w < e && (*w == ' ' || *w == '\t'))
			w++;
		c->t.kind = T_PUNCT;
		/* (the text need not end in a NUL: every comparison is bounded) */
		if (e - w >= 6 && !strncmp(w, "pragma", 6)) {
			const char *x = w + 6;
			while (x < e && (*x == ' ' || *x == '\t'))
				x++;
			if (e - x >= 7 && !strncmp(x, "endscop", 7))
				c->t.kind = T_PRAGMA_END;
			else if (e - x >= 4 && !strncmp(x, "scop", 4))
				c->t.kind = T_PRAGMA_SCOP;
		} else if (e - w >= 6 && !strncmp(w, "define", 6)) {
			c->t.kind = T_DEFINE;
		}
		c->p = e;
		return;
	}
	const char *q = p;
	if (is_id0((unsigned char)*p)) {
		while (q < c->end && (is_id0((unsigned char)*q) || isdigit((unsigned char)*q)))
			q++;
		c->t.kind = T_ID;
	} else if (isdigit((unsigned char)*p) || (*p == '.' && q + 1 < c->end && isdigit((unsigned char)p[1]))) {
		while (q < c->end && (isalnum((unsigned char)*q) || *q == '.' ||
				      ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
			q++;
		c->t.kind = T_NUM;
	} else {
		static const char *const two[] = {"+=", "-=", "*=", "/=", "%=", "<=", ">=", "==",
						  "!=", "&&", "||", "++", "--", "<<", ">>", "->",
						  "&=", "|=", "^="};
		q = p + 1;
		for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
			if (p + 1 < c->end && p[0] == two[i][0] && p[1] == two[i][1])
				q = p + 2;
		c->t.kind = T_PUNCT;
	}
	c->t.len = (size_t)(q - p);
	c->p = q;
}

static int is(const cc *c, const char *s)
{
	return (c->t.kind == T_PUNCT || c->t.kind == T_ID) && c->t.len == strlen(s) &&
	       !strncmp(c->t.s, s, c->t.len);
}

static int expect(cc *c, const char *s)
{
	if (!is(c, s))
		return fail(c, c->t.line, "expected '%s', found '%.*s'", s,
			    c->t.kind == T_END ? 3 : (int)(c->t.len > 40 ? 40 : c->t.len),
			    c->t.kind == T_END ? "end" : c->t.s);
	next(c);
	return 0;
}

/* ---------------------------------------------------------------- names */

static unsigned type_size(const char *s, size_t n)
{
	static const struct { const char *w; unsigned b; } t[] = {
		{"float", 4}, {"double", 8}, {"int", 4}, {"long", 8}, {"short", 2},
		{"char", 1}, {"unsigned", 4}, {"signed", 4}, {"size_t", 8},
		{"int32_t", 4}, {"int64_t", 8}, {"uint32_t", 4}, {"uint64_t", 8},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (n == strlen(t[i].w) && !strncmp(s, t[i].w, n))
			return t[i].b;
	return 0;
}

static int find_array(const cc *c, const char *s, size_t n)
{
	for (int i = 0; i < c->narrays; i++)
		if (strlen(c->arrays[i].name) == n && !strncmp(c->arrays[i].name, s, n))
			return i;
	return -1;
}

static int find_param(const cc *c, const char *s, size_t n)
{
	for (int i = 0; i < c->nparams; i++)
		if (strlen(c->params[i]) == n && !strncmp(c->params[i], s, n))
			return i;
	return -1;
}

static int find_loopvar(const cc *c, const char *s, size_t n)
{
	for (int i = c->nloopvars - 1; i >= 0; i--)
		if (strlen(c->loopvars[i]) == n && !strncmp(c->loopvars[i], s, n))
			return i;
	return -1;
}

static int add_param(cc *c, const char *s, size_t n, unsigned line)
{
	int i = find_param(c, s, n);
	if (i >= 0)
		return i;
	if (n >= sizeof c->params[0])
		return fail(c, line, "a name of %zu characters: at most %zu", n, sizeof c->params[0] - 1);
	if (c->nparams == MAX_NAMES)
		return fail(c, line, "more than %d names", MAX_NAMES);
	snprintf(c->params[c->nparams], sizeof c->params[0], "%.*s", (int)n, s);
	return c->nparams++;
}

/* "#define NAME VALUE": an integer parameter. Other defines (a type, a
 * function-like macro) are refused: run the file through cpp first. */
static int define(cc *c)
{
	const char *p = c->t.s + 1, *e = c->t.s + c->t.len;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	p += 6; /* define */
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	const char *n0 = p;
	while (p < e && (is_id0((unsigned char)*p) || isdigit((unsigned char)*p)))
		p++;
	size_t n = (size_t)(p - n0);
	if (!n || (p < e && *p == '('))
		return fail(c, c->t.line, "a #define other than NAME INTEGER (run the file through cpp "
					  "first)");
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	char v[64];
	size_t vl = (size_t)(e - p);
	while (vl && (p[vl - 1] == ' ' || p[vl - 1] == '\t' || p[vl - 1] == '\r'))
		vl--;
	snprintf(v, sizeof v, "%.*s", (int)(vl < 63 ? vl : 63), p);
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 0);
	if (!vl || errno || *end)
		return fail(c, c->t.line, "#define %.*s %s: a parameter must be an integer (run the file "
					  "through cpp first for other macros)", (int)n, n0, v);
	int i = add_param(c, n0, n, c->t.line);
	if (i < 0)
		return -1;
	if (!c->pknown[i]) { /* -D came first and wins */
		c->pval[i] = x;
		c->pknown[i] = 1;
	}
	return 0;
}

/* A declaration after its type word(s): NAME[dims]... or NAME, more after
 * commas, to ';' or ')' (a function's parameter list). */
static int declaration(cc *c, unsigned size)
{
	for (;;) {
		while (is(c, "*") || is(c, "const") || is(c, "restrict"))
			next(c);
		if (c->t.kind != T_ID)
			return 0; /* not a declaration after all (a cast, a call) */
		tok name = c->t;
		next(c);
		if (is(c, "[")) {
			if (name.len >= sizeof c->arrays[0].name)
				return fail(c, name.line, "an array name of %zu characters: at most %zu",
					    name.len, sizeof c->arrays[0].name - 1);
			if (c->narrays == MAX_NAMES)
				return fail(c, name.line, "more than %d arrays", MAX_NAMES);
			arr *a = &c->arrays[c->narrays];
			memset(a, 0, sizeof *a);
			snprintf(a->name, sizeof a->name, "%.*s", (int)name.len, name.s);
			a->elem = size;
			while (is(c, "[")) {
				const char *d0 = c->p;
				int nest = 1;
				next(c);
				const char *last = d0;
				while (c->t.kind != T_END && nest) {
					if (is(c, "["))
						nest++;
					if (is(c, "]") && !--nest)
						break;
					last = c->t.s + c->t.len;
					next(c);
				}
				if (a->ndims == 8 || (size_t)(last - d0) >= sizeof a->dims[0])
					return fail(c, name.line, "%s: more than 8 dimensions, or a long one",
						    a->name);
				snprintf(a->dims[a->ndims++], sizeof a->dims[0], "%.*s", (int)(last - d0), d0);
				if (expect(c, "]") < 0)
					return -1;
			}
			int old = find_array(c, name.s, name.len);
			if (old < 0)
				c->narrays++;
			else
				c->arrays[old] = *a;
		} else if (size && (is(c, ",") || is(c, ";") || is(c, ")") || is(c, "="))) {
			/* an integer scalar may be a parameter (its value from -D or a
			 * define); float scalars live in registers */
			(void)name;
		}
		if (is(c, "=")) { /* an initialiser: skip it */
			while (c->t.kind != T_END && !is(c, ",") && !is(c, ";") && !is(c, ")"))
				next(c);
		}
		if (!is(c, ","))
			return 0;
		next(c);
		if (c->t.kind == T_ID && type_size(c->t.s, c->t.len)) /* f(int a, float b[N]) */
			return 0;
	}
}

/* ---------------------------------------------------------------- expressions */

/* A blank between the text so far (ending in last) and the current token,
 * as C is usually written: none inside brackets and before commas, none
 * between a function's name and its '(', none after a unary minus. */
static int spaced(char last, const cc *c)
{
	char t = c->t.s[0];
	if (last == '(' || last == '[' || t == ')' || t == ']' || t == ',' || t == '[')
		return 0;
	if (t == '(' && (isalnum((unsigned char)last) || last == '_'))
		return 0;
	return 1;
}

/* Is the next character after the current token '(' (a call)? */
static int call_follows(const cc *c)
{
	const char *p = c->p;
	while (p < c->end && (*p == ' ' || *p == '\t'))
		p++;
	return p < c->end && *p == '(';
}

/* Copy an integer expression (a bound, a condition, a subscript) from the
 * current token to the first of the stop characters at nesting 0, into
 * dst; its names must be loop variables or parameters (noted as used). */
static int int_expr(cc *c, const char *stops, char *dst, size_t len, const char *what)
{
	size_t o = 0;
	int nest = 0;
	dst[0] = '\0';
	unsigned line = c->t.line;
	while (c->t.kind != T_END) {
		if (!nest && c->t.len == 1 && strchr(stops, c->t.s[0]))
			break;
		if (is(c, "(") || is(c, "["))
			nest++;
		if (is(c, ")") || is(c, "]")) {
			if (!nest)
				break;
			nest--;
		}
		if (c->t.kind == T_ID) {
			tok id = c->t;
			int a = find_array(c, id.s, id.len);
			if (a >= 0)
				return fail(c, id.line, "%s: %.*s: an array element in an integer expression "
							"(data-dependent: not a static control program)",
					    what, (int)id.len, id.s);
			int fn = id.len == 3 && (!strncmp(id.s, "min", 3) || !strncmp(id.s, "max", 3) ||
						 !strncmp(id.s, "abs", 3));
			if (!fn && call_follows(c))
				return fail(c, id.line, "%s: %.*s(...): only min, max and abs are "
							"supported in integer expressions", what,
					    (int)id.len, id.s);
			if (!fn && find_loopvar(c, id.s, id.len) < 0) {
				if (type_size(id.s, id.len))
					return fail(c, id.line, "%s: a cast or declaration is not supported "
								"here", what);
				int p = add_param(c, id.s, id.len, id.line);
				if (p < 0)
					return -1;
				c->pused[p] = 1;
			}
		} else if (c->t.kind == T_NUM) {
			for (size_t i = 0; i < c->t.len; i++)
				if (c->t.s[i] == '.' || c->t.s[i] == 'e' || c->t.s[i] == 'E')
					if (!(c->t.s[0] == '0' && (c->t.s[1] == 'x' || c->t.s[1] == 'X')))
						return fail(c, c->t.line, "%s: %.*s: not an integer", what,
							    (int)c->t.len, c->t.s);
		} else if (is(c, "->") || is(c, ".") || is(c, "&") || (is(c, "*") && o == 0)) {
			return fail(c, c->t.line, "%s: pointers and structures are not supported", what);
		}
		if (o + c->t.len + 2 >= len)
			return fail(c, c->t.line, "%s: too long", what);
		if (o && spaced(dst[o - 1], c))
			dst[o++] = ' ';
		memcpy(dst + o, c->t.s, c->t.len);
		o += c->t.len;
		dst[o] = '\0';
		next(c);
	}
	if (!o)
		return fail(c, line, "%s: empty", what);
	return 0;
}

typedef struct refs {
	char load[4096];
	size_t nl;
} refs;

static int add_ref(cc *c, refs *r, const char *ref, unsigned line)
{
	size_t n = strlen(ref);
	if (r->nl + n + 3 >= sizeof r->load)
		return fail(c, line, "a statement with too many accesses");
	if (r->nl) {
		memcpy(r->load + r->nl, ", ", 2);
		r->nl += 2;
	}
	memcpy(r->load + r->nl, ref, n + 1);
	r->nl += n;
	return 0;
}

/* An array reference at the current token (its name): "A[i][j]" into ref. */
static int array_ref(cc *c, char *ref, size_t len)
{
	tok name = c->t;
	int a = find_array(c, name.s, name.len);
	c->used[a] = 1;
	size_t o = (size_t)snprintf(ref, len, "%.*s", (int)name.len, name.s);
	next(c);
	int k = 0;
	while (is(c, "[")) {
		next(c);
		char sub[256];
		if (int_expr(c, "]", sub, sizeof sub, "a subscript") < 0 || expect(c, "]") < 0)
			return -1;
		if (o + strlen(sub) + 3 >= len)
			return fail(c, name.line, "a reference too long");
		o += (size_t)snprintf(ref + o, len - o, "[%s]", sub);
		k++;
	}
	if (k != c->arrays[a].ndims)
		return fail(c, name.line, "%s: %d subscripts for %d dimensions (pointers are not "
					  "supported)", c->arrays[a].name, k, c->arrays[a].ndims);
	return 0;
}

/* The reads of an expression up to one of stops at nesting 0, in order. */
static int reads(cc *c, refs *r, const char *stops)
{
	int nest = 0;
	while (c->t.kind != T_END) {
		if (!nest && c->t.len == 1 && strchr(stops, c->t.s[0]))
			return 0;
		if (is(c, "(") || is(c, "["))
			nest++;
		if (is(c, ")") || is(c, "]")) {
			if (!nest)
				return 0;
			nest--;
		}
		if (c->t.kind == T_ID && find_array(c, c->t.s, c->t.len) >= 0) {
			char ref[512];
			unsigned line = c->t.line;
			if (array_ref(c, ref, sizeof ref) < 0 || add_ref(c, r, ref, line) < 0)
				return -1;
			continue;
		}
		if (is(c, "=") || is(c, "+=") || is(c, "-=") || is(c, "*=") || is(c, "/=") ||
		    is(c, "++") || is(c, "--") || is(c, "->") || is(c, "&") || is(c, "%=") ||
		    is(c, "&=") || is(c, "|=") || is(c, "^="))
			return fail(c, c->t.line, "'%.*s' inside an expression is not supported",
				    (int)c->t.len, c->t.s);
		next(c);
	}
	return fail(c, c->t.line, "unexpected end of file in an expression");
}

/* ---------------------------------------------------------------- statements */

/* The start of an item of the list at the current depth: libconfig wants
 * commas between items, not after the last (written before the next). */
static void item(cc *c)
{
	rd_buf_printf(&c->out, "%*s%s", 6 + 2 * c->depth, "", c->first[c->depth] ? "" : ", ");
	c->first[c->depth] = 0;
}

static void indent(cc *c)
{
	rd_buf_printf(&c->out, "%*s", 6 + 2 * c->depth, "");
}

static int statement(cc *c);

static int block_or_statement(cc *c)
{
	if (is(c, "{")) {
		next(c);
		while (!is(c, "}")) {
			if (c->t.kind == T_END || c->t.kind == T_PRAGMA_END)
				return fail(c, c->t.line, "expected '}'");
			if (statement(c) < 0)
				return -1;
		}
		next(c);
		return 0;
	}
	return statement(c);
}

static int for_loop(cc *c)
{
	unsigned line = c->t.line;
	next(c);
	if (expect(c, "(") < 0)
		return -1;
	if (c->t.kind == T_ID && type_size(c->t.s, c->t.len))
		next(c);
	if (c->t.kind != T_ID)
		return fail(c, c->t.line, "for: expected the loop variable");
	tok v = c->t;
	if (v.len >= sizeof c->loopvars[0])
		return fail(c, v.line, "for: a loop variable of %zu characters: at most %zu", v.len,
			    sizeof c->loopvars[0] - 1);
	if (find_array(c, v.s, v.len) >= 0)
		return fail(c, v.line, "for: the loop variable must be an integer scalar");
	next(c);
	if (expect(c, "=") < 0)
		return -1;
	char init[256], cond[512], step[256];
	if (int_expr(c, ";", init, sizeof init, "a loop's start") < 0 || expect(c, ";") < 0)
		return -1;
	if (c->nloopvars == MAX_NAMES)
		return fail(c, line, "more than %d loops", MAX_NAMES);
	snprintf(c->loopvars[c->nloopvars++], sizeof c->loopvars[0], "%.*s", (int)v.len, v.s);
	if (int_expr(c, ";", cond, sizeof cond, "a loop's condition") < 0 || expect(c, ";") < 0)
		return -1;
	/* the step: v++, ++v, v--, --v, v += E, v -= E, v = E */
	size_t o = 0;
	step[0] = '\0';
	while (c->t.kind != T_END && !is(c, ")")) {
		if (c->t.kind == T_ID && !(c->t.len == v.len && !strncmp(c->t.s, v.s, v.len)) &&
		    find_loopvar(c, c->t.s, c->t.len) < 0) {
			int p = add_param(c, c->t.s, c->t.len, c->t.line);
			if (p < 0)
				return -1;
			c->pused[p] = 1;
		}
		if (o + c->t.len + 2 >= sizeof step)
			return fail(c, c->t.line, "a loop's step: too long");
		if (o && (c->t.kind == T_ID || c->t.kind == T_NUM) &&
		    (isalnum((unsigned char)step[o - 1]) || step[o - 1] == '_'))
			step[o++] = ' ';
		else if (o && !is(c, "++") && !is(c, "--") && step[o - 1] != '+' && step[o - 1] != '-' &&
			 spaced(step[o - 1], c))
			step[o++] = ' ';
		memcpy(step + o, c->t.s, c->t.len);
		o += c->t.len;
		step[o] = '\0';
		next(c);
	}
	if (expect(c, ")") < 0)
		return -1;
	if (c->depth + c->blocks >= MAX_DEPTH)
		return fail(c, line, "loops nested more than %d deep", MAX_DEPTH);
	item(c);
	rd_buf_printf(&c->out, "{ for = \"%.*s = %s; %s; %s\"; do = (   # line %u\n", (int)v.len, v.s, init, cond,
	    step, line);
	c->depth++;
	c->first[c->depth] = 1;
	int rc = block_or_statement(c);
	c->depth--;
	c->nloopvars--;
	indent(c);
	rd_buf_printf(&c->out, "); }\n");
	return rc;
}

static int if_stmt(cc *c)
{
	unsigned line = c->t.line;
	next(c);
	if (expect(c, "(") < 0)
		return -1;
	char cond[512];
	if (int_expr(c, ")", cond, sizeof cond, "a condition") < 0 || expect(c, ")") < 0)
		return -1;
	if (c->depth + c->blocks >= MAX_DEPTH)
		return fail(c, line, "statements nested more than %d deep", MAX_DEPTH);
	item(c);
	rd_buf_printf(&c->out, "{ if = \"%s\"; then = (   # line %u\n", cond, line);
	c->depth++;
	c->first[c->depth] = 1;
	if (block_or_statement(c) < 0)
		return -1;
	if (is(c, "else")) {
		next(c);
		indent(c);
		rd_buf_printf(&c->out, "); else = (\n");
		c->first[c->depth] = 1;
		if (block_or_statement(c) < 0)
			return -1;
	}
	c->depth--;
	indent(c);
	rd_buf_printf(&c->out, "); }\n");
	return 0;
}

/* LHS op= RHS;  x++;  A[i]++;  f(...); (a call of no arrays) */
static int assignment(cc *c)
{
	unsigned line = c->t.line;
	refs r = {0};
	char lhs[512] = "";
	int compound = 0;
	if (is(c, "++") || is(c, "--")) {
		next(c);
		compound = 1;
	}
	if (c->t.kind == T_ID && find_array(c, c->t.s, c->t.len) >= 0) {
		if (array_ref(c, lhs, sizeof lhs) < 0)
			return -1;
	} else if (c->t.kind == T_ID) {
		if (find_loopvar(c, c->t.s, c->t.len) >= 0)
			return fail(c, line, "%.*s: a loop variable assigned in the loop's body",
				    (int)c->t.len, c->t.s);
		next(c); /* a scalar, in a register */
		if (is(c, "(")) { /* a call: its arguments' reads */
			next(c);
			if (reads(c, &r, ")") < 0 || expect(c, ")") < 0)
				return -1;
			goto done;
		}
	} else {
		return fail(c, line, "'%.*s': expected a statement (for, if, an assignment)",
			    (int)(c->t.len > 40 ? 40 : c->t.len), c->t.s);
	}
	if (is(c, "++") || is(c, "--")) {
		next(c);
		compound = 1;
	} else if (is(c, "=")) {
		next(c);
		if (reads(c, &r, ";") < 0)
			return -1;
	} else if (is(c, "+=") || is(c, "-=") || is(c, "*=") || is(c, "/=") || is(c, "%=") ||
		   is(c, "&=") || is(c, "|=") || is(c, "^=")) {
		next(c);
		compound = 1;
		if (reads(c, &r, ";") < 0)
			return -1;
	} else if (!compound) {
		return fail(c, c->t.line, "expected an assignment");
	}
	if (compound && lhs[0]) { /* the element's own read comes first */
		refs all = {0};
		if (add_ref(c, &all, lhs, line) < 0 || (r.nl && add_ref(c, &all, r.load, line) < 0))
			return -1;
		r = all;
	}
done:
	if (expect(c, ";") < 0)
		return -1;
	/* the statement's load and store on one line: one line of the
	 * description per C statement */
	if (r.nl) {
		item(c);
		rd_buf_printf(&c->out, "\"load %s\"", r.load);
	}
	if (lhs[0]) {
		if (r.nl) {
			rd_buf_printf(&c->out, ", ");
		} else {
			item(c);
		}
		rd_buf_printf(&c->out, "\"store %s\"", lhs);
	}
	if (r.nl || lhs[0])
		rd_buf_printf(&c->out, "   # line %u\n", line);
	return 0;
}

static int statement(cc *c)
{
	if (c->failed)
		return -1;
	if (c->t.kind == T_PUNCT && c->t.s[0] == '#') {
		if (c->t.kind == T_DEFINE)
			return define(c) < 0 ? -1 : (next(c), 0);
		return fail(c, c->t.line, "a preprocessor line inside the scop (run cpp first)");
	}
	if (c->t.kind == T_DEFINE) {
		if (define(c) < 0)
			return -1;
		next(c);
		return 0;
	}
	if (is(c, ";")) {
		next(c);
		return 0;
	}
	if (is(c, "{")) { /* a bare block: nested as deep as for and if may be */
		if (c->depth + c->blocks >= MAX_DEPTH)
			return fail(c, c->t.line, "blocks nested more than %d deep", MAX_DEPTH);
		c->blocks++;
		int rc = block_or_statement(c);
		c->blocks--;
		return rc;
	}
	if (is(c, "for"))
		return for_loop(c);
	if (is(c, "if"))
		return if_stmt(c);
	static const char *const bad[] = {"while", "do", "goto", "break", "continue", "return",
					  "switch", "else"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (is(c, bad[i]))
			return fail(c, c->t.line, "'%s' is not in the class (for loops with affine "
						  "bounds, ifs, assignments)", bad[i]);
	if (c->t.kind == T_ID && type_size(c->t.s, c->t.len)) {
		/* a declaration inside the scop: a scalar (a register) */
		unsigned sz = type_size(c->t.s, c->t.len);
		while (c->t.kind == T_ID && type_size(c->t.s, c->t.len))
			next(c);
		int before = c->narrays;
		if (declaration(c, sz) < 0)
			return -1;
		if (c->narrays != before)
			return fail(c, c->t.line, "an array declared inside the scop");
		return expect(c, ";");
	}
	/* a label: S0: */
	if (c->t.kind == T_ID) {
		const char *save = c->p;
		tok t = c->t;
		unsigned l = c->line;
		next(c);
		if (is(c, ":")) {
			next(c);
			return statement(c);
		}
		c->p = save;
		c->t = t;
		c->line = l;
	}
	return assignment(c);
}

/* ---------------------------------------------------------------- whole file */

int kdesc_from_c(const char *text, size_t len, const char *shown, const char *const *defines,
		 size_t ndefines, char **out, char *err, size_t errlen)
{
	*out = NULL;
	cc *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->text = c->p = text;
	c->end = text + len;
	c->shown = shown;
	c->line = 1;
	c->err = err;
	c->errlen = errlen;
	err[0] = '\0';
	int rc = -1;
	if (memchr(text, '\0', len)) {
		fail(c, 1, "a NUL byte: not a C file");
		goto done;
	}
	for (size_t i = 0; i < ndefines; i++) {
		const char *d = defines[i], *eq = strchr(d, '=');
		char *end;
		errno = 0;
		long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
		if (!eq || eq == d || errno || end == eq + 1 || *end) {
			snprintf(err, errlen, "-D %s: expected NAME=INTEGER", d);
			goto done;
		}
		int p = add_param(c, d, (size_t)(eq - d), 0);
		if (p < 0)
			goto done;
		c->pval[p] = v;
		c->pknown[p] = 1;
	}
	/* before the region: defines and declarations */
	next(c);
	while (c->t.kind != T_END && c->t.kind != T_PRAGMA_SCOP && !c->failed) {
		if (c->t.kind == T_DEFINE) {
			if (define(c) < 0)
				goto done;
			next(c);
			continue;
		}
		if (c->t.kind == T_ID && type_size(c->t.s, c->t.len)) {
			/* the last word, but "long int", "short int": the first's;
			 * "long double": 16 */
			unsigned sz = 0, prev = 0;
			while (c->t.kind == T_ID && type_size(c->t.s, c->t.len)) {
				unsigned s2 = type_size(c->t.s, c->t.len);
				int is_int = c->t.len == 3 && !strncmp(c->t.s, "int", 3);
				int is_double = c->t.len == 6 && !strncmp(c->t.s, "double", 6);
				sz = is_int && prev && prev != 4 ? prev : is_double && prev == 8 ? 16 : s2;
				prev = sz;
				next(c);
			}
			if (declaration(c, sz) < 0)
				goto done;
			continue;
		}
		next(c);
	}
	if (c->failed)
		goto done;
	if (c->t.kind != T_PRAGMA_SCOP) {
		fail(c, c->line, "no #pragma scop");
		goto done;
	}
	unsigned scop_line = c->t.line;
	next(c);
	c->depth = 1;
	c->first[1] = 1;
	while (c->t.kind != T_PRAGMA_END) {
		if (c->t.kind == T_END) {
			fail(c, scop_line, "#pragma scop without #pragma endscop");
			goto done;
		}
		if (statement(c) < 0)
			goto done;
	}
	if (c->out.oom) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	/* every parameter used has a value */
	for (int i = 0; i < c->nparams; i++)
		if (c->pused[i] && !c->pknown[i]) {
			fail(c, scop_line, "%s: no value for this parameter (add -D %s=VALUE)",
			     c->params[i], c->params[i]);
			goto done;
		}
	/* The file's name as shown: without control characters (a newline
	 * would end the comment, an escape reach the terminal), and quoted
	 * for the description's string. */
	size_t sn = strlen(shown);
	char *safe = malloc(sn + 1), *quoted = malloc(2 * sn + 1);
	if (!safe || !quoted) {
		free(safe);
		free(quoted);
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	memcpy(safe, shown, sn + 1);
	str_make_safe(safe);
	size_t q = 0;
	for (const char *p = safe; *p; p++) {
		if (*p == '"' || *p == '\\')
			quoted[q++] = '\\';
		quoted[q++] = *p;
	}
	quoted[q] = '\0';
	rd_buf b = {0};
	rd_buf_printf(&b, "# Generated by rdscope kdesc --from-c from %s: its #pragma scop region as one\n"
		"# serial program (each statement's reads in source order, then its write;\n"
		"# scalars in registers). \"# line N\" is the C file's line.\n"
		"format = \"rdscope-kernel\";\nversion = 1;\n"
		"description = \"the scop of %s, serial\";\n\nparams = {", safe, quoted);
	free(safe);
	free(quoted);
	for (int i = 0; i < c->nparams; i++)
		if (c->pknown[i])
			/* libconfig 1.5 reads an integer beyond 32 bits only with an L */
			rd_buf_printf(&b, " %s = %lld%s;", c->params[i], c->pval[i],
				      c->pval[i] > INT32_MAX || c->pval[i] < INT32_MIN ? "L" : "");
	rd_buf_printf(&b, " };\n\narrays = {\n");
	for (int i = 0; i < c->narrays; i++) {
		if (!c->used[i])
			continue;
		const arr *a = &c->arrays[i];
		if (!a->elem) {
			fail(c, scop_line, "%s: no element type", a->name);
			free(b.s);
			goto done;
		}
		rd_buf_printf(&b, "  %s = { elem = %u; dims = [", a->name, a->elem);
		for (int k = 0; k < a->ndims; k++) {
			/* the dims' names must be parameters with values */
			for (const char *p = a->dims[k]; *p;) {
				if (is_id0((unsigned char)*p)) {
					const char *q = p;
					while (is_id0((unsigned char)*q) || isdigit((unsigned char)*q))
						q++;
					int pi = find_param(c, p, (size_t)(q - p));
					if (pi < 0 || !c->pknown[pi]) {
						fail(c, scop_line, "%s: its size %s needs a value for %.*s "
								   "(add -D %.*s=VALUE)", a->name, a->dims[k],
						     (int)(q - p), p, (int)(q - p), p);
						free(b.s);
						goto done;
					}
					p = q;
				} else {
					p++;
				}
			}
			rd_buf_printf(&b, "%s\"%s\"", k ? ", " : "", a->dims[k]);
		}
		rd_buf_printf(&b, "]; };\n");
	}
	rd_buf_printf(&b, "};\n\nkernels = (\n  { name = \"scop\";\n    grid = [1];\n    block = [1];\n"
		"    body = (\n%s    );\n  }\n);\n", c->out.s ? c->out.s : "");
	if (b.oom) {
		free(b.s);
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	*out = b.s;
	rc = 0;
done:
	free(c->out.s);
	free(c);
	return rc;
}
