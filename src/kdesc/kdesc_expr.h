/*
 * Integer expressions of kernel descriptions (see man/rdscope-kernel.5):
 * C's operators and precedence on 64-bit signed integers, names resolved
 * to variable slots when parsed, a few functions (min, max, abs, hash).
 * Parsed once into a node arena, evaluated many times (once per thread
 * and loop iteration), so evaluation is a tight walk over small nodes.
 */
#ifndef KDESC_EXPR_H
#define KDESC_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* Node kinds every user may look at: a constant and a variable (slot a). */
#define KX_OP_NUM 0
#define KX_OP_VAR 1

typedef struct kx_node {
	uint8_t op;
	uint16_t depth;    /* levels of the tree below and including this node */
	int32_t a, b, c;   /* children (node indices) or a variable slot */
	int64_t v;         /* a constant */
} kx_node;

/* One instruction of compiled code (kx_compile): an operator with, for
 * a binary one, its right operand in place (a slot or a constant) or on
 * the stack; a jump's target in a. */
typedef struct kx_ins {
	uint8_t op;
	int32_t a;         /* a variable slot, or a jump's target */
	int64_t v;         /* a constant */
} kx_ins;

typedef struct kx_prog {
	kx_node *n;
	size_t len, cap;
	kx_ins *code;      /* compiled expressions (kx_compile), each ending in a stop */
	size_t code_len, code_cap;
} kx_prog;

/* Resolve a name (len bytes, may contain one '.') to a slot, or -1. */
typedef int (*kx_resolve_fn)(void *ctx, const char *name, size_t len);

typedef struct kx_parser {
	kx_prog *prog;
	const char *src;       /* the whole text, for messages */
	const char *p;         /* cursor */
	kx_resolve_fn resolve;
	void *ctx;
	char *err;             /* message on failure (no file:line) */
	size_t errlen;
	int oom;
	int nest;              /* parentheses, unary operators, ?: being parsed */
} kx_parser;

/* An expression nests at most this deep, as written (parentheses, prefix
 * operators, function arguments, ?:) and as a tree (a + a + ... + a is a
 * chain of that many nodes): the parser and the evaluator recurse, and a
 * deeper input would exhaust the stack instead of being refused. */
#define KX_MAX_DEPTH 256

/* Skip blanks at the cursor. */
void kx_skip(kx_parser *ps);

/*
 * Parse an expression at the cursor (stops at the first character that
 * cannot continue it: ',', ']', ';', ')', '=' of an assignment ...).
 * Returns its node index, or -1 with the message in ps->err.
 */
int kx_parse(kx_parser *ps);

/* A name at the cursor ([A-Za-z_][A-Za-z0-9_]*, with ".x"-style
 * members), advancing past it; its length, 0 if none. */
size_t kx_name(kx_parser *ps, const char **name);

/* Report a problem at the cursor; always returns -1. */
int kx_fail(kx_parser *ps, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* A node reading variable slot. */
int kx_var(kx_parser *ps, int slot);
/* a OP b for a binary operator token ("+", "<<", ...), folded if constant. */
int kx_binary(kx_parser *ps, const char *tok, int a, int b);

/* Add a constant node; -1 when out of memory. */
int kx_const(kx_prog *p, int64_t v);
/* Is node i a constant (folded)? */
int kx_is_const(const kx_prog *p, int i, int64_t *v);

/* Errors of evaluation: what C leaves undefined (kdesc_expr.c says why an
 * overflow is one). */
enum kx_error {
	KX_OK = 0, KX_DIVZERO, KX_SHIFT, KX_OVERFLOW_ADD, KX_OVERFLOW_SUB, KX_OVERFLOW_MUL,
	KX_OVERFLOW_NEG, KX_OVERFLOW_ABS, KX_OVERFLOW_DIV, KX_OVERFLOW_SHL
};

/* Evaluate node i over the variable values; *e set on an error (the
 * first of the expression; left as it is when already set). */
int64_t kx_eval(const kx_node *n, int i, const int64_t *vals, int *e);

const char *kx_strerror(int e);

/*
 * Compile expression i into p's code, once, for kx_run: postfix code with
 * variables and constants folded into the operators that read them and
 * jumps for &&, || and ?:, evaluated by a loop instead of a walk over
 * the tree. Its start in p->code, or -1 when out of memory.
 */
int32_t kx_compile(kx_prog *p, int i);

/* Is code (a start from kx_compile) a variable plus or minus a constant
 * (its value vals[*slot] + *k, with the same overflow)? */
int kx_code_var_plus(const kx_ins *code, int *slot, int64_t *k);

/* Run code compiled by kx_compile (code: p->code + its start): the value
 * and error kx_eval gives (the same operations in the same order, the
 * first error reported in *e). */
int64_t kx_run(const kx_ins *code, const int64_t *vals, int *e);

void kx_prog_free(kx_prog *p);

/* For counting's loops (kdesc_count.c). Does expression i read variable
 * slot? Is it affine in it (c0 + c1 * slot with c0, c1 free of slot; an
 * expression that does not read it is)? Is it a comparison of slot alone
 * with an expression free of it: the comparison as slot OP bound (KX_CMP_*,
 * turned round when slot is on the right) with bound's node in *bound,
 * else 0. */
enum { KX_CMP_LT = 1, KX_CMP_LE, KX_CMP_GT, KX_CMP_GE, KX_CMP_NE };
int kx_uses(const kx_node *n, int i, int slot);
int kx_affine(const kx_node *n, int i, int slot);
int kx_cmp_var(const kx_node *n, int i, int slot, int *bound);
/* kx_affine with the coefficient also free of slots lo..hi-1 (a kernel's
 * locals): c0 + c1 * slot with c1 fixed for the whole run. */
int kx_affine_fixed(const kx_node *n, int i, int slot, int lo, int hi);
/* The coefficient c1 of such an expression at vals (its free factors
 * evaluated); *e set when it cannot be had. */
int64_t kx_coef(const kx_node *n, int i, int slot, const int64_t *vals, int *e);

#endif
