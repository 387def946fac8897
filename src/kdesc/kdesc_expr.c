/*
 * Expressions of kernel descriptions (see kdesc_expr.h): a recursive-
 * descent parser with C's precedence levels, constant folding, and an
 * evaluator with C's integer semantics made total: what C leaves undefined
 * is reported as an error instead (division by zero, a shift count outside
 * 0..63, and any result beyond the 64-bit range).
 *
 * Overflow is an error, not a wrap (issue 39 item 6). The values are
 * indices, sizes, loop bounds and steps: a sum that wraps turns
 * 9223372036854775807 + threadIdx.x into A[-1023], a loop that steps past
 * INT64_MAX into one that spins until the iteration cap, and C itself
 * leaves signed overflow undefined, so what a user means is never the
 * wrapped value. +, -, *, unary -, abs, / (INT64_MIN / -1) and << (a
 * result beyond 64 bits) report it; the value given with the error is the
 * wrapped one, so both evaluators (kx_eval, kx_run) agree on it too. hash()
 * stays a bit mixer (unsigned, no overflow), % by -1 is 0 (exact).
 */
#include "kdesc_expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum {
	OP_NUM = KX_OP_NUM, OP_VAR = KX_OP_VAR, OP_NEG, OP_NOT, OP_BNOT,
	OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_BAND, OP_BXOR, OP_BOR, OP_LAND, OP_LOR, OP_TERN,
	OP_MIN, OP_MAX, OP_ABS, OP_HASH,
};

int kx_fail(kx_parser *ps, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (ps->err[0])
		return -1; /* keep the first, innermost message */
	const char *at = ps->p;
	if (*at)
		snprintf(ps->err, ps->errlen, "%s at '%.20s' in \"%s\"", msg, at, ps->src);
	else
		snprintf(ps->err, ps->errlen, "%s at the end of \"%s\"", msg, ps->src);
	return -1;
}

static int node(kx_parser *ps, int op, int a, int b, int c, int64_t v)
{
	kx_prog *p = ps->prog;
	if (p->len == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		kx_node *n = realloc(p->n, cap * sizeof *n);
		if (!n) {
			ps->oom = 1;
			return kx_fail(ps, "out of memory");
		}
		p->n = n;
		p->cap = cap;
	}
	if (p->len >= INT32_MAX)
		return kx_fail(ps, "too many expressions");
	unsigned depth = 0;
	const int kids[3] = {a, b, c};
	for (int i = 0; i < 3; i++)
		if (op != OP_VAR && kids[i] >= 0 && p->n[kids[i]].depth > depth)
			depth = p->n[kids[i]].depth;
	if (depth >= KX_MAX_DEPTH)
		return kx_fail(ps, "expression nested too deeply (more than %d levels)", KX_MAX_DEPTH);
	kx_node *n = &p->n[p->len];
	n->op = (uint8_t)op;
	n->depth = (uint16_t)(depth + 1);
	n->a = a;
	n->b = b;
	n->c = c;
	n->v = v;
	return (int)p->len++;
}

int kx_const(kx_prog *p, int64_t v)
{
	char err[8] = "";
	kx_parser ps = {.prog = p, .src = "", .p = "", .err = err, .errlen = sizeof err};
	return node(&ps, OP_NUM, -1, -1, -1, v);
}

int kx_is_const(const kx_prog *p, int i, int64_t *v)
{
	if (p->n[i].op != OP_NUM)
		return 0;
	*v = p->n[i].v;
	return 1;
}

void kx_skip(kx_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

size_t kx_name(kx_parser *ps, const char **name)
{
	kx_skip(ps);
	const char *s = ps->p;
	if (!is_alpha(*s))
		return 0;
	const char *p = s + 1;
	while (is_alnum(*p))
		p++;
	/* one member: threadIdx.x */
	if (*p == '.' && is_alpha(p[1])) {
		p += 2;
		while (is_alnum(*p))
			p++;
	}
	*name = s;
	ps->p = p;
	return (size_t)(p - s);
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int64_t shr(int64_t x, int64_t s)
{
	return x < 0 ? ~(~x >> s) : x >> s;
}

/* The checked operations of both evaluators: the exact value, or the
 * wrapped one with *e set, unless an earlier error of the expression set
 * it (the first error is the one to report: what follows from a wrapped
 * value is not). */
#define FAIL(e, code) (*(e) ? (void)0 : (void)(*(e) = (code)))

static inline int64_t c_add(int64_t a, int64_t b, int *e)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		FAIL(e, KX_OVERFLOW_ADD);
	return r;
}

static inline int64_t c_sub(int64_t a, int64_t b, int *e)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		FAIL(e, KX_OVERFLOW_SUB);
	return r;
}

static inline int64_t c_mul(int64_t a, int64_t b, int *e)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		FAIL(e, KX_OVERFLOW_MUL);
	return r;
}

static inline int64_t c_neg(int64_t a, int *e)
{
	if (a == INT64_MIN)
		FAIL(e, KX_OVERFLOW_NEG);
	return (int64_t)(0 - (uint64_t)a);
}

static inline int64_t c_abs(int64_t a, int *e)
{
	if (a == INT64_MIN)
		FAIL(e, KX_OVERFLOW_ABS);
	return a < 0 ? (int64_t)(0 - (uint64_t)a) : a;
}

static inline int64_t c_div(int64_t a, int64_t b, int *e)
{
	if (b == 0) {
		FAIL(e, KX_DIVZERO);
		return 0;
	}
	if (b == -1) { /* (C's a / b traps at INT64_MIN / -1, 2^63) */
		if (a == INT64_MIN)
			FAIL(e, KX_OVERFLOW_DIV);
		return (int64_t)(0 - (uint64_t)a);
	}
	return a / b;
}

static inline int64_t c_mod(int64_t a, int64_t b, int *e)
{
	if (b == 0) {
		FAIL(e, KX_DIVZERO);
		return 0;
	}
	return b == -1 ? 0 : a % b;
}

static inline int64_t c_shl(int64_t a, int64_t b, int *e)
{
	if (b < 0 || b > 63) {
		FAIL(e, KX_SHIFT);
		return 0;
	}
	int64_t r = (int64_t)((uint64_t)a << b);
	if (shr(r, b) != a) /* bits (or the sign) shifted out: a * 2^b is beyond 64 bits */
		FAIL(e, KX_OVERFLOW_SHL);
	return r;
}

static inline int64_t c_shr(int64_t a, int64_t b, int *e)
{
	if (b < 0 || b > 63) {
		FAIL(e, KX_SHIFT);
		return 0;
	}
	return shr(a, b);
}

int64_t kx_eval(const kx_node *n, int i, const int64_t *vals, int *e)
{
	const kx_node *x = &n[i];
	switch (x->op) {
	case OP_NUM: return x->v;
	case OP_VAR: return vals[x->a];
	default: break;
	}
	int64_t a = kx_eval(n, x->a, vals, e);
	if (x->op == OP_LAND)
		return a && kx_eval(n, x->b, vals, e);
	if (x->op == OP_LOR)
		return a || kx_eval(n, x->b, vals, e);
	if (x->op == OP_TERN)
		return a ? kx_eval(n, x->b, vals, e) : kx_eval(n, x->c, vals, e);
	switch (x->op) {
	case OP_NEG: return c_neg(a, e);
	case OP_NOT: return !a;
	case OP_BNOT: return ~a;
	case OP_ABS: return c_abs(a, e);
	case OP_HASH: return (int64_t)(mix((uint64_t)a) >> 1);
	default: break;
	}
	int64_t b = kx_eval(n, x->b, vals, e);
	switch (x->op) {
	case OP_MUL: return c_mul(a, b, e);
	case OP_DIV: return c_div(a, b, e);
	case OP_MOD: return c_mod(a, b, e);
	case OP_ADD: return c_add(a, b, e);
	case OP_SUB: return c_sub(a, b, e);
	case OP_SHL: return c_shl(a, b, e);
	case OP_SHR: return c_shr(a, b, e);
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_BAND: return a & b;
	case OP_BXOR: return a ^ b;
	case OP_BOR: return a | b;
	case OP_MIN: return a < b ? a : b;
	case OP_MAX: return a > b ? a : b;
	default: return 0;
	}
}

const char *kx_strerror(int e)
{
	switch (e) {
	case KX_DIVZERO: return "division by zero";
	case KX_SHIFT: return "shift count outside 0..63";
	case KX_OVERFLOW_ADD: return "integer overflow: a sum beyond the 64-bit range";
	case KX_OVERFLOW_SUB: return "integer overflow: a difference beyond the 64-bit range";
	case KX_OVERFLOW_MUL: return "integer overflow: a product beyond the 64-bit range";
	case KX_OVERFLOW_NEG:
		return "integer overflow: -(-9223372036854775808) is beyond the 64-bit range";
	case KX_OVERFLOW_ABS: return "integer overflow: abs(-9223372036854775808) is beyond the "
				     "64-bit range";
	case KX_OVERFLOW_DIV: return "integer overflow: -9223372036854775808 / -1 is beyond the "
				     "64-bit range";
	case KX_OVERFLOW_SHL: return "integer overflow: a left shift beyond the 64-bit range";
	default: return "no error";
	}
}

/* A node for op over children, folded when they are all constants. */
static int make(kx_parser *ps, int op, int a, int b, int c)
{
	kx_node *n = ps->prog->n;
	int ca = a >= 0 && n[a].op == OP_NUM, cb = b < 0 || n[b].op == OP_NUM,
	    cc = c < 0 || n[c].op == OP_NUM;
	if (ca && cb && cc) {
		kx_node tmp[4];
		tmp[0] = (kx_node){.op = (uint8_t)op, .a = 1, .b = b < 0 ? -1 : 2, .c = c < 0 ? -1 : 3};
		tmp[1] = n[a];
		if (b >= 0)
			tmp[2] = n[b];
		if (c >= 0)
			tmp[3] = n[c];
		int e = KX_OK;
		int64_t v = kx_eval(tmp, 0, NULL, &e);
		if (e)
			return kx_fail(ps, "%s", kx_strerror(e));
		return node(ps, OP_NUM, -1, -1, -1, v);
	}
	return node(ps, op, a, b, c, 0);
}

static int parse_ternary(kx_parser *ps);

static int parse_primary(kx_parser *ps)
{
	kx_skip(ps);
	const char *p = ps->p;
	if (*p == '(') {
		ps->p++;
		int e = parse_ternary(ps);
		if (e < 0)
			return -1;
		kx_skip(ps);
		if (*ps->p != ')')
			return kx_fail(ps, "expected ')'");
		ps->p++;
		return e;
	}
	if (*p >= '0' && *p <= '9') {
		uint64_t v = 0;
		int h = hexnum_parse(&p, &v);
		if (h == HEXNUM_TOO_LARGE)
			return kx_fail(ps, "number too large");
		if (h == HEXNUM_NO_DIGITS)
			return kx_fail(ps, "expected hex digits after 0x");
		if (h == HEXNUM_NOT_HEX) {
			for (; *p >= '0' && *p <= '9'; p++) {
				unsigned d = (unsigned)(*p - '0');
				if (v > ((uint64_t)INT64_MAX - d) / 10)
					return kx_fail(ps, "number too large");
				v = v * 10 + d;
			}
		}
		while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
			p++;
		if (is_alnum(*p)) {
			ps->p = p;
			return kx_fail(ps, "malformed number");
		}
		if (v > (uint64_t)INT64_MAX)
			return kx_fail(ps, "number too large");
		ps->p = p;
		return node(ps, OP_NUM, -1, -1, -1, (int64_t)v);
	}
	const char *name;
	size_t len = kx_name(ps, &name);
	if (!len)
		return kx_fail(ps, *p ? "expected a number, a name or '('" : "expected an expression");
	kx_skip(ps);
	if (*ps->p == '(') {
		static const struct {
			const char *name;
			int op, nargs;
		} fns[] = {{"min", OP_MIN, 2}, {"max", OP_MAX, 2}, {"abs", OP_ABS, 1}, {"hash", OP_HASH, 1}};
		int f = -1;
		for (int i = 0; i < 4; i++)
			if (strlen(fns[i].name) == len && !strncmp(name, fns[i].name, len))
				f = i;
		if (f < 0) {
			ps->p = name;
			return kx_fail(ps, "unknown function '%.*s' (min, max, abs, hash)", (int)len, name);
		}
		ps->p++;
		int args[2] = {-1, -1};
		for (int i = 0; i < fns[f].nargs; i++) {
			if (i) {
				kx_skip(ps);
				if (*ps->p != ',')
					return kx_fail(ps, "%s takes %d arguments", fns[f].name, fns[f].nargs);
				ps->p++;
			}
			if ((args[i] = parse_ternary(ps)) < 0)
				return -1;
		}
		kx_skip(ps);
		if (*ps->p != ')')
			return kx_fail(ps, "%s takes %d argument%s; expected ')'", fns[f].name,
				       fns[f].nargs, fns[f].nargs > 1 ? "s" : "");
		ps->p++;
		return make(ps, fns[f].op, args[0], args[1], -1);
	}
	if (*ps->p == '[') {
		ps->p = name;
		return kx_fail(ps, "array '%.*s' in an expression: only loads and stores index "
				   "arrays (a description has addresses, not data)", (int)len, name);
	}
	int slot = ps->resolve(ps->ctx, name, len);
	if (slot < 0) {
		ps->p = name;
		return kx_fail(ps, "unknown name '%.*s'", (int)len, name);
	}
	return node(ps, OP_VAR, slot, -1, -1, 0);
}

/* Enter one level of written nesting; -1 past KX_MAX_DEPTH. */
static int nest_in(kx_parser *ps)
{
	if (++ps->nest > KX_MAX_DEPTH)
		return kx_fail(ps, "expression nested too deeply (more than %d levels)", KX_MAX_DEPTH);
	return 0;
}

static int parse_unary(kx_parser *ps)
{
	kx_skip(ps);
	char c = *ps->p;
	if ((c == '-' || c == '+') && ps->p[1] == c)
		return kx_fail(ps, "'%c%c' is not an expression (only a for step)", c, c);
	if (c == '-' || c == '!' || c == '~' || c == '+') {
		ps->p++;
		if (nest_in(ps) < 0)
			return -1;
		int a = parse_unary(ps);
		ps->nest--;
		if (a < 0)
			return -1;
		if (c == '+')
			return a;
		return make(ps, c == '-' ? OP_NEG : c == '!' ? OP_NOT : OP_BNOT, a, -1, -1);
	}
	return parse_primary(ps);
}

/* Binary levels, loosest first; each entry: token, op. */
typedef struct binop {
	const char *tok;
	int op;
} binop;

static const binop level_lor[] = {{"||", OP_LOR}, {NULL, 0}};
static const binop level_land[] = {{"&&", OP_LAND}, {NULL, 0}};
static const binop level_bor[] = {{"|", OP_BOR}, {NULL, 0}};
static const binop level_bxor[] = {{"^", OP_BXOR}, {NULL, 0}};
static const binop level_band[] = {{"&", OP_BAND}, {NULL, 0}};
static const binop level_eq[] = {{"==", OP_EQ}, {"!=", OP_NE}, {NULL, 0}};
static const binop level_rel[] = {{"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}, {NULL, 0}};
static const binop level_shift[] = {{"<<", OP_SHL}, {">>", OP_SHR}, {NULL, 0}};
static const binop level_add[] = {{"+", OP_ADD}, {"-", OP_SUB}, {NULL, 0}};
static const binop level_mul[] = {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {NULL, 0}};
static const binop *const levels[] = {level_lor,  level_land,  level_bor, level_bxor, level_band,
				      level_eq,   level_rel,   level_shift, level_add, level_mul};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Does the operator at p match tok and not a longer operator? */
static int op_at(const char *p, const char *tok)
{
	size_t n = strlen(tok);
	if (strncmp(p, tok, n) != 0)
		return 0;
	char next = p[n];
	/* "&" of "&&", "|" of "||", "<" of "<<"/"<=", compound assignments */
	if (n == 1 && (next == tok[0] || next == '='))
		return 0;
	if (n == 2 && tok[0] == tok[1] && (tok[0] == '<' || tok[0] == '>') && next == '=')
		return 0;
	if ((tok[0] == '+' || tok[0] == '-') && next == tok[0])
		return 0;
	return 1;
}

static int parse_level(kx_parser *ps, size_t lv)
{
	if (lv == NLEVELS)
		return parse_unary(ps);
	int a = parse_level(ps, lv + 1);
	while (a >= 0) {
		kx_skip(ps);
		const binop *hit = NULL;
		for (const binop *b = levels[lv]; b->tok; b++)
			if (op_at(ps->p, b->tok)) {
				hit = b;
				break;
			}
		if (!hit)
			break;
		ps->p += strlen(hit->tok);
		int b = parse_level(ps, lv + 1);
		if (b < 0)
			return -1;
		a = make(ps, hit->op, a, b, -1);
	}
	return a;
}

int kx_var(kx_parser *ps, int slot)
{
	return node(ps, OP_VAR, slot, -1, -1, 0);
}

int kx_binary(kx_parser *ps, const char *tok, int a, int b)
{
	for (size_t lv = 0; lv < NLEVELS; lv++)
		for (const binop *o = levels[lv]; o->tok; o++)
			if (strcmp(o->tok, tok) == 0)
				return make(ps, o->op, a, b, -1);
	return kx_fail(ps, "unknown operator '%s'", tok);
}

static int parse_ternary_in(kx_parser *ps);

static int parse_ternary(kx_parser *ps)
{
	if (nest_in(ps) < 0)
		return -1;
	int e = parse_ternary_in(ps);
	ps->nest--;
	return e;
}

static int parse_ternary_in(kx_parser *ps)
{
	int c = parse_level(ps, 0);
	if (c < 0)
		return -1;
	kx_skip(ps);
	if (*ps->p != '?')
		return c;
	ps->p++;
	int a = parse_ternary(ps);
	if (a < 0)
		return -1;
	kx_skip(ps);
	if (*ps->p != ':')
		return kx_fail(ps, "expected ':' of '?:'");
	ps->p++;
	int b = parse_ternary(ps);
	if (b < 0)
		return -1;
	return make(ps, OP_TERN, c, a, b);
}

int kx_parse(kx_parser *ps)
{
	return parse_ternary(ps);
}

void kx_prog_free(kx_prog *p)
{
	free(p->n);
	p->n = NULL;
	p->len = p->cap = 0;
	free(p->code);
	p->code = NULL;
	p->code_len = p->code_cap = 0;
}

/* ---------------------------------------------------------------- compiled code */

/*
 * The code is postfix with the top of the stack in a register (acc): a
 * leaf pushes, an operator takes its operands from acc and the stack and
 * leaves its value in acc. A binary operator whose right operand is a
 * variable or a constant reads it from the instruction (_V, _K) instead
 * of the stack (_S). Jumps are relative (a: instructions from the jump).
 */
#define KX_BINOPS(X)                                                                             \
	X(MUL) X(DIV) X(MOD) X(ADD) X(SUB) X(SHL) X(SHR) X(LT) X(LE) X(GT) X(GE) X(EQ) X(NE)     \
	X(BAND) X(BXOR) X(BOR) X(MIN) X(MAX)

enum {
	C_STOP, C_PUSHK, C_PUSHV, C_NEG, C_NOT, C_BNOT, C_ABS, C_HASH,
	C_LAND, /* acc == 0: the value is 0, jump; else pop, the right side follows */
	C_LOR,  /* acc != 0: the value is 1, jump; else pop */
	C_BOOL, /* acc = acc != 0 */
	C_JZ,   /* pop x; x == 0: jump */
	C_JMP,
#define X(o) C_##o##_S, C_##o##_V, C_##o##_K,
	KX_BINOPS(X)
#undef X
	C_NOPS
};

static int bin_code(int op)
{
	switch (op) {
#define X(o) case OP_##o: return C_##o##_S;
	KX_BINOPS(X)
#undef X
	default: return -1;
	}
}

static int32_t emit(kx_prog *p, int op, int32_t a, int64_t v)
{
	if (p->code_len == p->code_cap) {
		size_t cap = p->code_cap ? p->code_cap * 2 : 256;
		if (cap > INT32_MAX)
			return -1;
		kx_ins *c = realloc(p->code, cap * sizeof *c);
		if (!c)
			return -1;
		p->code = c;
		p->code_cap = cap;
	}
	p->code[p->code_len] = (kx_ins){.op = (uint8_t)op, .a = a, .v = v};
	return (int32_t)p->code_len++;
}

/* Point jump j at the next instruction. */
static void land(kx_prog *p, int32_t j)
{
	p->code[j].a = (int32_t)p->code_len - j;
}

static int gen(kx_prog *p, int i)
{
	const kx_node x = p->n[i];
	int32_t j, k;
	switch (x.op) {
	case OP_NUM: return emit(p, C_PUSHK, 0, x.v) < 0 ? -1 : 0;
	case OP_VAR: return emit(p, C_PUSHV, x.a, 0) < 0 ? -1 : 0;
	case OP_LAND:
	case OP_LOR:
		if (gen(p, x.a) < 0 || (j = emit(p, x.op == OP_LAND ? C_LAND : C_LOR, 0, 0)) < 0 ||
		    gen(p, x.b) < 0 || emit(p, C_BOOL, 0, 0) < 0)
			return -1;
		land(p, j);
		return 0;
	case OP_TERN:
		if (gen(p, x.a) < 0 || (j = emit(p, C_JZ, 0, 0)) < 0 || gen(p, x.b) < 0 ||
		    (k = emit(p, C_JMP, 0, 0)) < 0)
			return -1;
		land(p, j);
		if (gen(p, x.c) < 0)
			return -1;
		land(p, k);
		return 0;
	case OP_NEG:
	case OP_NOT:
	case OP_BNOT:
	case OP_ABS:
	case OP_HASH: {
		int op = x.op == OP_NEG ? C_NEG : x.op == OP_NOT ? C_NOT : x.op == OP_BNOT ? C_BNOT
		       : x.op == OP_ABS ? C_ABS : C_HASH;
		return gen(p, x.a) < 0 || emit(p, op, 0, 0) < 0 ? -1 : 0;
	}
	default: break;
	}
	int op = bin_code(x.op);
	if (op < 0 || gen(p, x.a) < 0)
		return -1;
	const kx_node *b = &p->n[x.b];
	if (b->op == OP_NUM)
		return emit(p, op + 2, 0, b->v) < 0 ? -1 : 0;
	if (b->op == OP_VAR)
		return emit(p, op + 1, b->a, 0) < 0 ? -1 : 0;
	return gen(p, x.b) < 0 || emit(p, op, 0, 0) < 0 ? -1 : 0;
}

int32_t kx_compile(kx_prog *p, int i)
{
	size_t start = p->code_len;
	if (gen(p, i) < 0 || emit(p, C_STOP, 0, 0) < 0) {
		p->code_len = start;
		return -1;
	}
	return (int32_t)start;
}

int kx_code_var_plus(const kx_ins *c, int *slot, int64_t *k)
{
	if (c[0].op != C_PUSHV)
		return 0;
	*slot = c[0].a;
	if (c[1].op == C_STOP) {
		*k = 0;
		return 1;
	}
	if ((c[1].op != C_ADD_K && c[1].op != C_SUB_K) || c[2].op != C_STOP ||
	    (c[1].op == C_SUB_K && c[1].v == INT64_MIN)) /* (x - -2^63 is not x + -2^63) */
		return 0;
	*k = c[1].op == C_ADD_K ? c[1].v : (int64_t)(0 - (uint64_t)c[1].v);
	return 1;
}

int64_t kx_run(const kx_ins *p, const int64_t *vals, int *e)
{
	/* the values below acc: at most one per level of the tree, and the
	 * first push's (unused) */
	int64_t stack[KX_MAX_DEPTH + 4], *sp = stack;
	int64_t acc = 0, b, x;
	for (;; p++) {
		switch (p->op) {
		case C_STOP: return acc;
		case C_PUSHK: *sp++ = acc; acc = p->v; break;
		case C_PUSHV: *sp++ = acc; acc = vals[p->a]; break;
		case C_NEG: acc = c_neg(acc, e); break;
		case C_NOT: acc = !acc; break;
		case C_BNOT: acc = ~acc; break;
		case C_ABS: acc = c_abs(acc, e); break;
		case C_HASH: acc = (int64_t)(mix((uint64_t)acc) >> 1); break;
		case C_LAND:
			if (!acc) {
				p += p->a - 1;
				break;
			}
			acc = *--sp;
			break;
		case C_LOR:
			if (acc) {
				acc = 1;
				p += p->a - 1;
				break;
			}
			acc = *--sp;
			break;
		case C_BOOL: acc = acc != 0; break;
		case C_JZ:
			x = acc;
			acc = *--sp;
			if (!x)
				p += p->a - 1;
			break;
		case C_JMP: p += p->a - 1; break;
#define BIN(o, EXPR)                                                                              \
		case C_##o##_S: b = acc; acc = *--sp; acc = (EXPR); break;                        \
		case C_##o##_V: b = vals[p->a]; acc = (EXPR); break;                               \
		case C_##o##_K: b = p->v; acc = (EXPR); break;
		BIN(MUL, c_mul(acc, b, e))
		BIN(DIV, c_div(acc, b, e))
		BIN(MOD, c_mod(acc, b, e))
		BIN(ADD, c_add(acc, b, e))
		BIN(SUB, c_sub(acc, b, e))
		BIN(SHL, c_shl(acc, b, e))
		BIN(SHR, c_shr(acc, b, e))
		BIN(LT, acc < b)
		BIN(LE, acc <= b)
		BIN(GT, acc > b)
		BIN(GE, acc >= b)
		BIN(EQ, acc == b)
		BIN(NE, acc != b)
		BIN(BAND, acc & b)
		BIN(BXOR, acc ^ b)
		BIN(BOR, acc | b)
		BIN(MIN, acc < b ? acc : b)
		BIN(MAX, acc > b ? acc : b)
#undef BIN
		default: return 0;
		}
	}
}

/* ---------------------------------------------------------------- analysis */

int kx_uses(const kx_node *n, int i, int slot)
{
	const kx_node *x = &n[i];
	if (x->op == OP_NUM)
		return 0;
	if (x->op == OP_VAR)
		return x->a == slot;
	return (x->a >= 0 && kx_uses(n, x->a, slot)) || (x->b >= 0 && kx_uses(n, x->b, slot)) ||
	       (x->c >= 0 && kx_uses(n, x->c, slot));
}

int kx_affine(const kx_node *n, int i, int slot)
{
	const kx_node *x = &n[i];
	if (!kx_uses(n, i, slot))
		return 1;
	switch (x->op) {
	case OP_VAR: return 1;
	case OP_NEG: return kx_affine(n, x->a, slot);
	case OP_ADD:
	case OP_SUB: return kx_affine(n, x->a, slot) && kx_affine(n, x->b, slot);
	case OP_MUL: /* one factor free of slot */
		return (!kx_uses(n, x->a, slot) && kx_affine(n, x->b, slot)) ||
		       (!kx_uses(n, x->b, slot) && kx_affine(n, x->a, slot));
	default: return 0;
	}
}

static int uses_range(const kx_node *n, int i, int lo, int hi)
{
	for (int s = lo; s < hi; s++)
		if (kx_uses(n, i, s))
			return 1;
	return 0;
}

int kx_affine_fixed(const kx_node *n, int i, int slot, int lo, int hi)
{
	const kx_node *x = &n[i];
	if (!kx_uses(n, i, slot))
		return 1;
	switch (x->op) {
	case OP_VAR: return 1;
	case OP_NEG: return kx_affine_fixed(n, x->a, slot, lo, hi);
	case OP_ADD:
	case OP_SUB:
		return kx_affine_fixed(n, x->a, slot, lo, hi) &&
		       kx_affine_fixed(n, x->b, slot, lo, hi);
	case OP_MUL: /* one factor free of slot and of every local */
		return (!kx_uses(n, x->a, slot) && !uses_range(n, x->a, lo, hi) &&
			kx_affine_fixed(n, x->b, slot, lo, hi)) ||
		       (!kx_uses(n, x->b, slot) && !uses_range(n, x->b, lo, hi) &&
			kx_affine_fixed(n, x->a, slot, lo, hi));
	default: return 0;
	}
}

int64_t kx_coef(const kx_node *n, int i, int slot, const int64_t *vals, int *e)
{
	const kx_node *x = &n[i];
	if (!kx_uses(n, i, slot))
		return 0;
	switch (x->op) {
	case OP_VAR: return 1;
	case OP_NEG: return c_neg(kx_coef(n, x->a, slot, vals, e), e);
	case OP_ADD:
		return c_add(kx_coef(n, x->a, slot, vals, e), kx_coef(n, x->b, slot, vals, e), e);
	case OP_SUB:
		return c_sub(kx_coef(n, x->a, slot, vals, e), kx_coef(n, x->b, slot, vals, e), e);
	case OP_MUL: {
		int f = !kx_uses(n, x->a, slot);
		int64_t k = kx_eval(n, f ? x->a : x->b, vals, e);
		int64_t c = kx_coef(n, f ? x->b : x->a, slot, vals, e);
		if (k && (c > INT32_MAX || c < -INT32_MAX || k > INT32_MAX || k < -INT32_MAX))
			*e = 1; /* [ours] out of range: not flat */
		return c_mul(k, c, e);
	}
	default: *e = 1; return 0;
	}
}

int kx_cmp_var(const kx_node *n, int i, int slot, int *bound)
{
	const kx_node *x = &n[i];
	int op;
	switch (x->op) {
	case OP_LT: op = KX_CMP_LT; break;
	case OP_LE: op = KX_CMP_LE; break;
	case OP_GT: op = KX_CMP_GT; break;
	case OP_GE: op = KX_CMP_GE; break;
	case OP_NE: op = KX_CMP_NE; break;
	default: return 0;
	}
	if (n[x->a].op == OP_VAR && n[x->a].a == slot && !kx_uses(n, x->b, slot)) {
		*bound = x->b;
		return op;
	}
	if (n[x->b].op == OP_VAR && n[x->b].a == slot && !kx_uses(n, x->a, slot)) {
		*bound = x->a; /* E < v is v > E */
		return op == KX_CMP_LT ? KX_CMP_GT : op == KX_CMP_LE ? KX_CMP_GE
		     : op == KX_CMP_GT ? KX_CMP_LT : op == KX_CMP_GE ? KX_CMP_LE : op;
	}
	return 0;
}
