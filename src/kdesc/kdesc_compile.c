/*
 * Kernel descriptions, compiling (see kdesc.c): the settings checked and
 * turned into symbols, arrays, statements over expression nodes, kernels
 * and the unrolled list of launches.
 */
#include "kdesc_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *const builtin_names[NBUILTIN] = {
	"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
	"blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
	"gridDim.y",   "gridDim.z",   "warpSize"};

/* ---------------------------------------------------------------- names */

static int sym_find(const kdesc *d, const char *name, size_t len, int kernel)
{
	for (int i = 0; i < d->nsyms; i++) {
		const sym *s = &d->syms[i];
		if (strlen(s->name) == len && strncmp(s->name, name, len) == 0 &&
		    (s->kind != SYM_LOCAL || s->kernel == kernel))
			return i;
	}
	return -1;
}

static int sym_add(kdesc *d, const char *name, size_t len, int kind)
{
	sym *s = realloc(d->syms, (size_t)(d->nsyms + 1) * sizeof *s);
	if (!s)
		return kd_oom(d);
	d->syms = s;
	char *n = malloc(len + 1);
	if (!n)
		return kd_oom(d);
	memcpy(n, name, len);
	n[len] = '\0';
	s[d->nsyms] = (sym){.name = n, .kind = kind, .slot = d->nslots++, .kernel = d->cur_kernel};
	return d->nsyms++;
}

/* The resolver of expressions: builtins only inside a kernel, locals of
 * the kernel being compiled, parameters and launch variables anywhere. */
static int resolve(void *ctx, const char *name, size_t len)
{
	kdesc *d = ctx;
	int i = sym_find(d, name, len, d->cur_kernel);
	if (i < 0)
		return -1;
	sym *s = &d->syms[i];
	if (s->kind == SYM_BUILTIN && d->cur_kernel < 0)
		return -1;
	if (s->kind == SYM_LAUNCH && d->cur_kernel >= 0)
		d->kernels[d->cur_kernel].lv_used |= 1u << s->lv;
	return s->slot;
}

static void parser_init(kdesc *d, kx_parser *ps, const char *src, char *err, size_t errlen)
{
	*ps = (kx_parser){.prog = &d->prog, .src = src, .p = src, .resolve = resolve, .ctx = d,
			  .err = err, .errlen = errlen};
	err[0] = '\0';
}

/* Compile a whole string as one expression; -1 after kd_fail. */
static int expr_string(kdesc *d, const char *src, unsigned line, const char *what)
{
	char err[400];
	kx_parser ps;
	parser_init(d, &ps, src, err, sizeof err);
	int e = kx_parse(&ps);
	if (e >= 0) {
		kx_skip(&ps);
		if (*ps.p)
			e = kx_fail(&ps, "unexpected text");
	}
	if (e < 0) {
		if (ps.oom)
			return kd_oom(d);
		return kd_fail(d, line, "%s: %s", what, err);
	}
	return e;
}

/* A number or an expression string. */
static int expr_setting(kdesc *d, const config_setting_t *s, const char *what)
{
	int t = config_setting_type(s);
	if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
		int e = kx_const(&d->prog, (int64_t)config_setting_get_int64(s));
		return e < 0 ? kd_oom(d) : e;
	}
	if (t == CONFIG_TYPE_STRING)
		return expr_string(d, config_setting_get_string(s), kd_line(d, s), what);
	return kd_fail(d, kd_sline(s), "%s: expected an integer or an expression string, got %s", what,
		       cfgtype_name(t));
}

/* Evaluate a compiled expression with the parameter values. */
static int64_t eval_static(kdesc *d, int e, int *err)
{
	return kx_eval(d->prog.n, e, d->init, err);
}

/* ---------------------------------------------------------------- arrays */

static int grow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return 0;
	int n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int is_ident(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int load_arrays(kdesc *d, const config_setting_t *arrays)
{
	static const char *const keys[] = {"elem", "dims", "base"};
	int n = config_setting_length(arrays);
	if (config_setting_type(arrays) != CONFIG_TYPE_GROUP)
		return kd_fail(d, kd_sline(arrays), "arrays: expected a group of arrays, got %s",
			       cfgtype_name(config_setting_type(arrays)));
	d->arrays = calloc((size_t)n + 1, sizeof *d->arrays);
	if (!d->arrays)
		return kd_oom(d);
	uint64_t cursor = 1ull << 28;
	for (int i = 0; i < n; i++) {
		config_setting_t *a = config_setting_get_elem(arrays, (unsigned)i);
		kd_array *A = &d->arrays[d->narrays];
		const char *name = config_setting_name(a);
		char what[96];
		snprintf(what, sizeof what, "arrays.%s", name);
		if (config_setting_type(a) != CONFIG_TYPE_GROUP)
			return kd_fail(d, kd_sline(a), "%s: expected a group { elem = ...; dims = [...]; }, "
						    "got %s", what, cfgtype_name(config_setting_type(a)));
		if (kd_known_keys(d, a, what, keys, 3) < 0)
			return -1;
		for (int j = 0; j < d->narrays; j++)
			if (!strcmp(d->arrays[j].name, name))
				return kd_fail(d, kd_sline(a), "%s: a second array of that name", what);
		if (sym_find(d, name, strlen(name), -1) >= 0)
			return kd_fail(d, kd_sline(a), "%s: the name is taken by a parameter or builtin",
				       what);
		if (!is_ident(name))
			return kd_fail(d, kd_sline(a), "%s: a name of letters, digits and _", what);
		A->name = strdup(name);
		if (!A->name)
			return kd_oom(d);
		d->narrays++;
		A->elem = 4;
		config_setting_t *e = config_setting_get_member(a, "elem");
		if (e) {
			int t = config_setting_type(e);
			long long v = config_setting_get_int64(e);
			if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) || v < 1 || v > 65535)
				return kd_fail(d, kd_sline(e), "%s.elem: expected bytes 1..65535", what);
			A->elem = (uint32_t)v;
		}
		A->total = 1;
		config_setting_t *dims = config_setting_get_member(a, "dims");
		if (dims) {
			int t = config_setting_type(dims);
			int nd = config_setting_length(dims);
			if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || nd < 1 || nd > MAX_DIMS)
				return kd_fail(d, kd_sline(dims), "%s.dims: expected 1 to %d sizes, e.g. "
							       "[\"NI\", \"NJ\"]", what, MAX_DIMS);
			A->ndims = nd;
			for (int k = 0; k < nd; k++) {
				config_setting_t *x = config_setting_get_elem(dims, (unsigned)k);
				char w2[128];
				snprintf(w2, sizeof w2, "%s.dims[%d]", what, k);
				int ex = expr_setting(d, x, w2);
				if (ex < 0)
					return -1;
				int err = 0;
				int64_t v = eval_static(d, ex, &err);
				if (err)
					return kd_fail(d, kd_line(d, x), "%s: %s", w2,
						       kx_strerror(err));
				if (v < 1 || v > (1ll << 40))
					return kd_fail(d, kd_line(d, x), "%s: must be 1..2^40, got %lld", w2,
						       (long long)v);
				A->dim[k] = v;
				if (A->total > (1ll << 48) / v)
					return kd_fail(d, kd_line(d, x), "%s: the array has more than 2^48 "
									 "elements", what);
				A->total *= v;
			}
		}
		config_setting_t *b = config_setting_get_member(a, "base");
		if (b) {
			int t = config_setting_type(b);
			long long v = config_setting_get_int64(b);
			if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) || v < 0)
				return kd_fail(d, kd_sline(b), "%s.base: expected a byte address >= 0 (use an "
							    "L suffix above 2^31: 0x100000000L)", what);
			A->base = (uint64_t)v;
		} else {
			/* the reference generator's layout: each array on its own 2^28 */
			A->base = cursor;
			uint64_t size = (uint64_t)A->total * A->elem;
			cursor += ((size + (1ull << 28) - 1) >> 28 << 28);
			if (size == 0 || !dims)
				cursor += 1ull << 28;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- statements */

static int stmt_new(kdesc *d, int kind, unsigned line)
{
	if (grow((void **)&d->stmts, &d->capstmts, d->nstmts + 1, sizeof *d->stmts) < 0)
		return kd_oom(d);
	d->stmts[d->nstmts] = (kd_stmt){.kind = (uint8_t)kind, .line = line, .e1 = -1, .e2 = -1,
					.e3 = -1, .c1 = -1, .c2 = -1, .c3 = -1, .cbound = -1};
	return d->nstmts++;
}

/* Skip C type words: "int j = ..." reads as "j = ...". */
static void skip_types(kx_parser *ps)
{
	static const char *const types[] = {"const", "unsigned", "signed", "int", "long", "size_t",
					    "int64_t", "uint64_t", "int32_t", "uint32_t"};
	for (;;) {
		kx_skip(ps);
		int hit = 0;
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
			size_t n = strlen(types[i]);
			if (!strncmp(ps->p, types[i], n) && (ps->p[n] == ' ' || ps->p[n] == '\t')) {
				ps->p += n;
				hit = 1;
			}
		}
		if (!hit)
			return;
	}
}

/* The slot of an assigned local (declared here if new). */
static int local_slot(kdesc *d, kx_parser *ps, const char *name, size_t len)
{
	int i = sym_find(d, name, len, d->cur_kernel);
	if (i >= 0 && d->cur_kernel < 0 && d->syms[i].kind == SYM_LAUNCH)
		return d->syms[i].slot; /* the variable of a launch loop */
	if (i >= 0 && d->syms[i].kind != SYM_LOCAL) {
		ps->p = name;
		return kx_fail(ps, "cannot assign to '%.*s' (a %s)", (int)len, name,
			       d->syms[i].kind == SYM_PARAM ? "parameter" :
			       d->syms[i].kind == SYM_LAUNCH ? "launch variable" : "builtin");
	}
	for (int k = 0; k < d->narrays; k++)
		if (strlen(d->arrays[k].name) == len && !strncmp(d->arrays[k].name, name, len)) {
			ps->p = name;
			return kx_fail(ps, "cannot assign to array '%.*s'", (int)len, name);
		}
	if (i < 0) {
		static const char *const reserved[] = {"load", "store", "if", "for", "else"};
		for (size_t k = 0; k < 5; k++)
			if (strlen(reserved[k]) == len && !strncmp(reserved[k], name, len)) {
				ps->p = name;
				return kx_fail(ps, "'%s' cannot be a variable", reserved[k]);
			}
		i = sym_add(d, name, len, SYM_LOCAL);
		if (i < 0) {
			ps->oom = 1;
			return kx_fail(ps, "out of memory");
		}
	}
	return d->syms[i].slot;
}

/*
 * An assignment at the cursor: "v = e", "v op= e", "v++", "++v", "v--",
 * "--v". *slot and *value (the new value's expression) are set. With
 * declare, a new name becomes a local; otherwise it must exist.
 */
static int parse_assign(kdesc *d, kx_parser *ps, int *slot, int *value)
{
	skip_types(ps);
	kx_skip(ps);
	int pre = 0;
	if ((ps->p[0] == '+' || ps->p[0] == '-') && ps->p[1] == ps->p[0]) {
		pre = ps->p[0];
		ps->p += 2;
	}
	const char *name;
	size_t len = kx_name(ps, &name);
	if (!len)
		return kx_fail(ps, "expected a variable name");
	kx_skip(ps);
	char op[3] = "";
	if (pre) {
		op[0] = (char)pre;
	} else if ((ps->p[0] == '+' || ps->p[0] == '-') && ps->p[1] == ps->p[0]) {
		op[0] = ps->p[0];
		ps->p += 2;
	} else {
		static const char *const ops[] = {"<<=", ">>=", "+=", "-=", "*=", "/=", "%=",
						  "&=",  "|=",  "^=", "="};
		size_t k = 0;
		for (; k < sizeof ops / sizeof ops[0]; k++)
			if (!strncmp(ps->p, ops[k], strlen(ops[k])) && !(k == 10 && ps->p[1] == '='))
				break;
		if (k == sizeof ops / sizeof ops[0])
			return kx_fail(ps, "expected '=' after '%.*s'", (int)len, name);
		ps->p += strlen(ops[k]);
		snprintf(op, sizeof op, "%.*s", (int)strlen(ops[k]) - 1, ops[k]);
	}
	int rhs;
	if (pre || (op[0] && !op[1] && (op[0] == '+' || op[0] == '-') && ps->p[-1] == op[0])) {
		rhs = kx_const(&d->prog, 1); /* ++ / -- */
		if (rhs < 0) {
			ps->oom = 1;
			return kx_fail(ps, "out of memory");
		}
	} else {
		rhs = kx_parse(ps);
		if (rhs < 0)
			return -1;
	}
	if (op[0]) {
		/* reads the variable: it must exist already */
		int cur = resolve(d, name, len);
		if (cur < 0) {
			ps->p = name;
			return kx_fail(ps, "unknown name '%.*s'", (int)len, name);
		}
		int v = kx_var(ps, cur);
		if (v < 0 || (rhs = kx_binary(ps, op, v, rhs)) < 0)
			return -1;
	}
	int s = local_slot(d, ps, name, len);
	if (s < 0)
		return -1;
	*slot = s;
	*value = rhs;
	return 0;
}

static int compile_list(kdesc *d, const config_setting_t *list, const char *what, int *start,
			int *count);

/* Array references "A[i][k], B[k]" of a load or store at the cursor. */
static int parse_refs(kdesc *d, kx_parser *ps, int *start, int *count, int64_t bytes)
{
	*start = d->nrefs;
	*count = 0;
	for (;;) {
		const char *name;
		size_t len = kx_name(ps, &name);
		if (!len)
			return kx_fail(ps, "expected an array name");
		int a = 0;
		while (a < d->narrays &&
		       !(strlen(d->arrays[a].name) == len && !strncmp(d->arrays[a].name, name, len)))
			a++;
		if (a == d->narrays) {
			ps->p = name;
			return kx_fail(ps, "unknown array '%.*s'", (int)len, name);
		}
		if (grow((void **)&d->refs, &d->caprefs, d->nrefs + 1, sizeof *d->refs) < 0) {
			ps->oom = 1;
			return kx_fail(ps, "out of memory");
		}
		kd_ref *r = &d->refs[d->nrefs];
		memset(r, 0, sizeof *r);
		r->array = a;
		r->bytes = bytes ? (uint32_t)bytes : d->arrays[a].elem;
		r->text = name;
		kx_skip(ps);
		while (*ps->p == '[') {
			if (r->nidx == MAX_DIMS)
				return kx_fail(ps, "more than %d indices", MAX_DIMS);
			ps->p++;
			int e = kx_parse(ps);
			if (e < 0)
				return -1;
			kx_skip(ps);
			if (*ps->p != ']')
				return kx_fail(ps, "expected ']'");
			ps->p++;
			r->text_len = (unsigned)(ps->p - name);
			r->idx[r->nidx++] = e;
			kx_skip(ps);
		}
		const kd_array *A = &d->arrays[a];
		if (r->nidx == 0)
			return kx_fail(ps, "expected '[' index ']' after '%s'", A->name);
		if (r->nidx > 1 && r->nidx != A->ndims)
			return kx_fail(ps, "%s has %d dimension%s: index it with %d or with 1 (a flat "
					   "index), not %d", A->name, A->ndims, A->ndims == 1 ? "" : "s",
				       A->ndims, r->nidx);
		d->nrefs++;
		(*count)++;
		if (*ps->p != ',')
			break;
		ps->p++;
	}
	kx_skip(ps);
	if (*ps->p == ';')
		ps->p++;
	kx_skip(ps);
	if (*ps->p)
		return kx_fail(ps, "unexpected text after the array references");
	return 0;
}

/* A simple statement given as a string. */
static int compile_string(kdesc *d, const char *src, unsigned line, const char *what,
			  int64_t bytes, int forced)
{
	char err[400];
	kx_parser ps;
	parser_init(d, &ps, src, err, sizeof err);
	kx_skip(&ps);
	int kind = forced;
	if (!kind) {
		for (int k = 0; k < 2 && !kind; k++) {
			const char *w = k ? "store" : "load";
			size_t n = strlen(w);
			if (!strncmp(ps.p, w, n) && (ps.p[n] == ' ' || ps.p[n] == '\t'))
				kind = k ? ST_STORE : ST_LOAD, ps.p += n;
		}
	}
	int s = stmt_new(d, kind ? kind : ST_LET, line);
	if (s < 0)
		return -1;
	int rc;
	int a = 0, b = 0;
	if (kind) {
		rc = parse_refs(d, &ps, &a, &b, bytes);
		d->stmts[s].l1 = a;
		d->stmts[s].n1 = b;
	} else {
		rc = parse_assign(d, &ps, &a, &b);
		if (rc == 0) {
			kx_skip(&ps);
			if (*ps.p == ';')
				ps.p++;
			kx_skip(&ps);
			if (*ps.p)
				rc = kx_fail(&ps, "unexpected text after the assignment "
						  "(statements: 'v = e', 'load A[i]', 'store A[i]')");
		}
		d->stmts[s].slot = a;
		d->stmts[s].e1 = b;
	}
	if (rc < 0) {
		if (ps.oom)
			return kd_oom(d);
		return kd_fail(d, line, "%s: %s", what, err);
	}
	return s;
}

/* "init; cond; step" of a for loop into the statement. */
static int compile_for_header(kdesc *d, int s, const char *src, unsigned line, const char *what)
{
	char err[400];
	kx_parser ps;
	parser_init(d, &ps, src, err, sizeof err);
	int slot, init, cond = -1, sslot, step = -1, rc;
	rc = parse_assign(d, &ps, &slot, &init);
	if (rc == 0) {
		kx_skip(&ps);
		if (*ps.p != ';')
			rc = kx_fail(&ps, "expected ';' after the loop's start "
					  "(for = \"k = 0; k < N; k++\")");
		else
			ps.p++;
	}
	if (rc == 0 && (cond = kx_parse(&ps)) < 0)
		rc = -1;
	if (rc == 0) {
		kx_skip(&ps);
		if (*ps.p != ';')
			rc = kx_fail(&ps, "expected ';' after the loop's condition");
		else
			ps.p++;
	}
	if (rc == 0)
		rc = parse_assign(d, &ps, &sslot, &step);
	if (rc == 0) {
		kx_skip(&ps);
		if (*ps.p)
			rc = kx_fail(&ps, "unexpected text after the loop's step");
		else if (sslot != slot)
			rc = kx_fail(&ps, "the step must change the loop variable");
	}
	if (rc < 0) {
		if (ps.oom)
			return kd_oom(d);
		return kd_fail(d, line, "%s: %s", what, err);
	}
	d->stmts[s].slot = slot;
	d->stmts[s].e1 = init;
	d->stmts[s].e2 = cond;
	d->stmts[s].e3 = step;
	return 0;
}

/* A statement given as a group: if/then/else, for/do, load/store + bytes. */
static int compile_group(kdesc *d, const config_setting_t *g, const char *what)
{
	static const char *const keys[] = {"if", "then", "else", "for", "do", "load", "store", "bytes"};
	if (kd_known_keys(d, g, what, keys, 8) < 0)
		return -1;
	config_setting_t *cif = config_setting_get_member(g, "if");
	config_setting_t *cfor = config_setting_get_member(g, "for");
	config_setting_t *cld = config_setting_get_member(g, "load");
	config_setting_t *cst = config_setting_get_member(g, "store");
	int nkinds = !!cif + !!cfor + !!cld + !!cst;
	if (nkinds != 1)
		return kd_fail(d, kd_sline(g), "%s: a statement group has exactly one of 'if', 'for', "
					    "'load' or 'store'", what);
	char w2[224];
	if (cld || cst) {
		config_setting_t *x = cld ? cld : cst;
		config_setting_t *by = config_setting_get_member(g, "bytes");
		int64_t bytes = 0;
		if (config_setting_get_member(g, "then") || config_setting_get_member(g, "else") ||
		    config_setting_get_member(g, "do"))
			return kd_fail(d, kd_sline(g), "%s: 'then', 'else' and 'do' belong to 'if' and "
						    "'for'", what);
		if (by) {
			int t = config_setting_type(by);
			bytes = config_setting_get_int64(by);
			if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) || bytes < 1 ||
			    bytes > 65535)
				return kd_fail(d, kd_sline(by), "%s.bytes: expected 1..65535", what);
		}
		if (config_setting_type(x) != CONFIG_TYPE_STRING)
			return kd_fail(d, kd_sline(x), "%s: '%s' expects a string of array references",
				       what, cld ? "load" : "store");
		snprintf(w2, sizeof w2, "%.160s.%s", what, cld ? "load" : "store");
		return compile_string(d, config_setting_get_string(x), kd_line(d, x), w2, bytes,
				      cld ? ST_LOAD : ST_STORE);
	}
	if (config_setting_get_member(g, "bytes"))
		return kd_fail(d, kd_sline(config_setting_get_member(g, "bytes")),
			       "%s: 'bytes' belongs to 'load' and 'store'", what);
	if (cif) {
		if (config_setting_get_member(g, "do"))
			return kd_fail(d, kd_sline(g), "%s: 'do' belongs to 'for' (if uses 'then')", what);
		config_setting_t *th = config_setting_get_member(g, "then");
		config_setting_t *el = config_setting_get_member(g, "else");
		if (!th)
			return kd_fail(d, kd_sline(g), "%s: 'if' without 'then = ( ... )'", what);
		if (config_setting_type(cif) != CONFIG_TYPE_STRING)
			return kd_fail(d, kd_sline(cif), "%s.if: expected a condition string", what);
		int s = stmt_new(d, ST_IF, kd_line(d, cif));
		if (s < 0)
			return -1;
		snprintf(w2, sizeof w2, "%.160s.if", what);
		int c = expr_string(d, config_setting_get_string(cif), kd_line(d, cif), w2);
		if (c < 0)
			return -1;
		d->stmts[s].e1 = c;
		int a, n;
		snprintf(w2, sizeof w2, "%.160s.then", what);
		if (compile_list(d, th, w2, &a, &n) < 0)
			return -1;
		d->stmts[s].l1 = a;
		d->stmts[s].n1 = n;
		if (el) {
			snprintf(w2, sizeof w2, "%.160s.else", what);
			if (compile_list(d, el, w2, &a, &n) < 0)
				return -1;
			d->stmts[s].l2 = a;
			d->stmts[s].n2 = n;
		}
		return s;
	}
	if (config_setting_get_member(g, "then") || config_setting_get_member(g, "else"))
		return kd_fail(d, kd_sline(g), "%s: 'then' and 'else' belong to 'if' (for uses 'do')",
			       what);
	config_setting_t *body = config_setting_get_member(g, "do");
	if (!body)
		return kd_fail(d, kd_sline(g), "%s: 'for' without 'do = ( ... )'", what);
	if (config_setting_type(cfor) != CONFIG_TYPE_STRING)
		return kd_fail(d, kd_sline(cfor), "%s.for: expected \"init; condition; step\"", what);
	int s = stmt_new(d, ST_FOR, kd_line(d, cfor));
	if (s < 0)
		return -1;
	snprintf(w2, sizeof w2, "%.160s.for", what);
	if (compile_for_header(d, s, config_setting_get_string(cfor), kd_line(d, cfor), w2) < 0)
		return -1;
	int a, n;
	snprintf(w2, sizeof w2, "%.160s.do", what);
	if (compile_list(d, body, w2, &a, &n) < 0)
		return -1;
	d->stmts[s].l1 = a;
	d->stmts[s].n1 = n;
	return s;
}

static int compile_list(kdesc *d, const config_setting_t *list, const char *what, int *start,
			int *count)
{
	int t = config_setting_type(list);
	if (t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_ARRAY)
		return kd_fail(d, kd_sline(list), "%s: expected a list of statements ( ... ), got %s", what,
			       cfgtype_name(t));
	int n = config_setting_length(list);
	int *idx = malloc(((size_t)n + 1) * sizeof *idx);
	if (!idx)
		return kd_oom(d);
	for (int i = 0; i < n; i++) {
		config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		char w2[160];
		snprintf(w2, sizeof w2, "%s[%d]", what, i);
		int s;
		if (config_setting_type(e) == CONFIG_TYPE_STRING)
			s = compile_string(d, config_setting_get_string(e), kd_line(d, e), w2, 0, 0);
		else if (config_setting_type(e) == CONFIG_TYPE_GROUP)
			s = compile_group(d, e, w2);
		else
			s = kd_fail(d, kd_sline(e), "%s: a statement is a string or a group { if/for/load/"
						 "store ... }, not %s", w2,
				    cfgtype_name(config_setting_type(e)));
		if (s < 0) {
			free(idx);
			return -1;
		}
		idx[i] = s;
	}
	if (grow((void **)&d->lists, &d->caplists, d->nlists + n, sizeof *d->lists) < 0) {
		free(idx);
		return kd_oom(d);
	}
	if (n) /* an empty list: lists may still be NULL (memcpy wants a pointer) */
		memcpy(d->lists + d->nlists, idx, (size_t)n * sizeof *idx);
	free(idx);
	*start = d->nlists;
	*count = n;
	d->nlists += n;
	return 0;
}

/* ---------------------------------------------------------------- kernels */

static int get_order(kdesc *d, const config_setting_t *s, const char *what, int *order)
{
	const char *v = config_setting_type(s) == CONFIG_TYPE_STRING ? config_setting_get_string(s)
								     : NULL;
	if (v && !strcmp(v, "cuda"))
		*order = ORDER_CUDA;
	else if (v && !strcmp(v, "ocelot"))
		*order = ORDER_OCELOT;
	else
		return kd_fail(d, kd_sline(s), "%s: expected \"cuda\" (x fastest) or \"ocelot\" (x "
					    "slowest, as the paper's tracer)", what);
	return 0;
}

static int get_max_threads(kdesc *d, const config_setting_t *s, const char *what, int64_t *v)
{
	int e = expr_setting(d, s, what), err = 0;
	if (e < 0)
		return -1;
	int64_t x = eval_static(d, e, &err);
	if (err)
		return kd_fail(d, kd_line(d, s), "%s: %s", what, kx_strerror(err));
	if (x < 0 || x > RD_MAX_THREAD_ID + 1ll)
		return kd_fail(d, kd_line(d, s), "%s: expected 0 (all threads) .. %u, got %lld", what,
			       RD_MAX_THREAD_ID + 1, (long long)x);
	*v = x;
	return 0;
}

/* grid / block: 1 to 3 sizes. */
static int get_shape(kdesc *d, const config_setting_t *s, const char *what, int out[3])
{
	int t = config_setting_type(s), n = config_setting_length(s);
	if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 || t == CONFIG_TYPE_STRING) {
		out[0] = expr_setting(d, s, what);
		n = 1;
	} else if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || n < 1 || n > 3) {
		return kd_fail(d, kd_sline(s), "%s: expected 1 to 3 sizes [X, Y, Z]", what);
	} else {
		for (int i = 0; i < n; i++) {
			char w2[128];
			snprintf(w2, sizeof w2, "%s[%d]", what, i);
			out[i] = expr_setting(d, config_setting_get_elem(s, (unsigned)i), w2);
			if (out[i] < 0)
				return -1;
		}
	}
	if (out[0] < 0)
		return -1;
	for (int i = n; i < 3; i++)
		if ((out[i] = kx_const(&d->prog, 1)) < 0)
			return kd_oom(d);
	return 0;
}

static int load_kernels(kdesc *d, const config_setting_t *ks)
{
	static const char *const keys[] = {"name", "grid", "block", "body", "max_threads",
					   "block_order"};
	int t = config_setting_type(ks), n = config_setting_length(ks);
	if ((t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_GROUP) || n < 1)
		return kd_fail(d, kd_sline(ks), "kernels: expected a list of kernels ( { name = ...; } "
					     ", ... )");
	d->kernels = calloc((size_t)n, sizeof *d->kernels);
	if (!d->kernels)
		return kd_oom(d);
	for (int i = 0; i < n; i++) {
		config_setting_t *k = config_setting_get_elem(ks, (unsigned)i);
		kd_kernel *K = &d->kernels[i];
		char what[160];
		snprintf(what, sizeof what, "kernels[%d]", i);
		if (config_setting_type(k) != CONFIG_TYPE_GROUP)
			return kd_fail(d, kd_sline(k), "%s: expected a group { name = ...; grid = ...; "
						    "block = ...; body = ( ... ); }", what);
		if (kd_known_keys(d, k, what, keys, 6) < 0)
			return -1;
		K->line = kd_sline(k);
		const char *name;
		if (!config_setting_lookup_string(k, "name", &name) || !*name)
			return kd_fail(d, kd_sline(k), "%s: needs name = \"...\";", what);
		for (int j = 0; j < i; j++)
			if (!strcmp(d->kernels[j].name, name))
				return kd_fail(d, kd_sline(config_setting_get_member(k, "name")),
					       "%s: a second kernel named '%s'", what, name);
		K->name = strdup(name);
		if (!K->name)
			return kd_oom(d);
		d->nkernels = i + 1;
		snprintf(what, sizeof what, "kernel %s", name);
		d->cur_kernel = -1;
		config_setting_t *g = config_setting_get_member(k, "grid");
		config_setting_t *b = config_setting_get_member(k, "block");
		config_setting_t *body = config_setting_get_member(k, "body");
		if (!g || !b || !body)
			return kd_fail(d, kd_sline(k), "%s: needs grid, block and body", what);
		/* grid and block are launch settings: no builtins in them (their
		 * launch variables are collected by expr_lv afterwards) */
		char w2[200];
		snprintf(w2, sizeof w2, "%s: grid", what);
		if (get_shape(d, g, w2, K->grid) < 0)
			return -1;
		snprintf(w2, sizeof w2, "%s: block", what);
		if (get_shape(d, b, w2, K->block) < 0)
			return -1;
		d->cur_kernel = i;
		K->max_threads = d->default_max_threads;
		K->order = d->default_order;
		config_setting_t *mt = config_setting_get_member(k, "max_threads");
		if (mt && get_max_threads(d, mt, "max_threads", &K->max_threads) < 0)
			return -1;
		config_setting_t *bo = config_setting_get_member(k, "block_order");
		if (bo && get_order(d, bo, "block_order", &K->order) < 0)
			return -1;
		K->nlocal0 = d->nslots;
		snprintf(w2, sizeof w2, "%s: body", what);
		if (compile_list(d, body, w2, &K->body, &K->nbody) < 0)
			return -1;
		K->nlocal1 = d->nslots;
	}
	d->cur_kernel = -1;
	return 0;
}

/* Launch variables used by grid/block expressions (walk the nodes). */
static unsigned expr_lv(const kdesc *d, int e)
{
	if (e < 0)
		return 0;
	const kx_node *n = &d->prog.n[e];
	unsigned m = 0;
	if (n->op == KX_OP_VAR) {
		for (int i = 0; i < d->nlv; i++)
			if (d->lv_slot[i] == n->a)
				m |= 1u << i;
		return m;
	}
	if (n->op == KX_OP_NUM)
		return 0;
	return expr_lv(d, n->a) | expr_lv(d, n->b) | expr_lv(d, n->c);
}

/* ---------------------------------------------------------------- launches */

/* Declare the variables of launch for-loops, before compiling kernels. */
static int declare_launch_vars(kdesc *d, const config_setting_t *list)
{
	for (int i = 0; i < config_setting_length(list); i++) {
		config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			continue;
		const char *f;
		if (!config_setting_lookup_string(e, "for", &f))
			continue;
		char err[200];
		kx_parser ps;
		parser_init(d, &ps, f, err, sizeof err);
		skip_types(&ps);
		const char *name;
		size_t len = kx_name(&ps, &name);
		if (len && sym_find(d, name, len, -1) < 0) {
			if (d->nlv == MAX_LAUNCH_VARS)
				return kd_fail(d, kd_line(d, config_setting_get_member(e, "for")),
					       "launches: more than %d loop variables", MAX_LAUNCH_VARS);
			int s = sym_add(d, name, len, SYM_LAUNCH);
			if (s < 0)
				return -1;
			d->syms[s].lv = d->nlv;
			d->lv_slot[d->nlv++] = d->syms[s].slot;
		}
		config_setting_t *body = config_setting_get_member(e, "do");
		if (body && (config_setting_type(body) == CONFIG_TYPE_LIST ||
			     config_setting_type(body) == CONFIG_TYPE_ARRAY) &&
		    declare_launch_vars(d, body) < 0)
			return -1;
	}
	return 0;
}

static int add_launch(kdesc *d, int k, unsigned line, const int *bound, int nbound,
		      const int64_t *vals)
{
	if (d->nlaunches == MAX_LAUNCHES)
		return kd_fail(d, line, "launches: more than %u kernel launches", MAX_LAUNCHES);
	unsigned missing = d->kernels[k].lv_used;
	for (int i = 0; i < nbound; i++)
		missing &= ~(1u << bound[i]);
	if (missing) {
		int lv = 0;
		while (!(missing >> lv & 1))
			lv++;
		const char *lvname = "?";
		for (int i = 0; i < d->nsyms; i++)
			if (d->syms[i].kind == SYM_LAUNCH && d->syms[i].lv == lv)
				lvname = d->syms[i].name;
		return kd_fail(d, line, "kernel %s uses launch variable '%s' but is launched outside "
					"its loop", d->kernels[k].name, lvname);
	}
	if (d->nlaunches % 256 == 0) {
		kd_launch *l = realloc(d->launches, (d->nlaunches + 256) * sizeof *l);
		if (!l)
			return kd_oom(d);
		d->launches = l;
	}
	kd_launch *L = &d->launches[d->nlaunches];
	memset(L, 0, sizeof *L);
	L->kernel = k;
	L->line = line;
	char name[512];
	int n = snprintf(name, sizeof name, "%s", d->kernels[k].name);
	for (int i = 0; i < nbound && n > 0 && (size_t)n < sizeof name; i++) {
		const char *lvname = "?";
		for (int s = 0; s < d->nsyms; s++)
			if (d->syms[s].kind == SYM_LAUNCH && d->syms[s].lv == bound[i])
				lvname = d->syms[s].name;
		n += snprintf(name + n, sizeof name - (size_t)n, "%s%s=%lld", i ? "," : "[", lvname,
			      (long long)vals[d->lv_slot[bound[i]]]);
	}
	if (nbound && n > 0 && (size_t)n < sizeof name)
		snprintf(name + n, sizeof name - (size_t)n, "]");
	L->name = strdup(name);
	if (!L->name)
		return kd_oom(d);
	for (int i = 0; i < d->nlv; i++)
		L->lv[i] = vals[d->lv_slot[i]];
	d->nlaunches++;
	return 0;
}

static int find_kernel(const kdesc *d, const char *name)
{
	for (int k = 0; k < d->nkernels; k++)
		if (!strcmp(d->kernels[k].name, name))
			return k;
	return -1;
}

/* Unroll a launch list with the launch variables in vals. */
static int expand_launches(kdesc *d, const config_setting_t *list, int *bound, int nbound,
			   int64_t *vals)
{
	static const char *const keys[] = {"for", "do"};
	int t = config_setting_type(list);
	if (t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_ARRAY)
		return kd_fail(d, kd_sline(list), "launches: expected a list of kernel names and "
					       "{ for = ...; do = ( ... ); } groups");
	for (int i = 0; i < config_setting_length(list); i++) {
		config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
		if (config_setting_type(e) == CONFIG_TYPE_STRING) {
			const char *kn = config_setting_get_string(e);
			int k = find_kernel(d, kn);
			if (k < 0) {
				const char **names = malloc((size_t)d->nkernels * sizeof *names);
				const char *hint = NULL;
				if (names) {
					for (int j = 0; j < d->nkernels; j++)
						names[j] = d->kernels[j].name;
					hint = suggest_closest(kn, names, (size_t)d->nkernels);
				}
				kd_fail(d, kd_line(d, e), "launches: unknown kernel '%s'%s%s%s", kn,
					hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
				free(names);
				return -1;
			}
			if (add_launch(d, k, kd_line(d, e), bound, nbound, vals) < 0)
				return -1;
			continue;
		}
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			return kd_fail(d, kd_sline(e), "launches: expected a kernel name or a group "
						    "{ for = ...; do = ( ... ); }");
		if (kd_known_keys(d, e, "launches", keys, 2) < 0)
			return -1;
		config_setting_t *f = config_setting_get_member(e, "for");
		config_setting_t *body = config_setting_get_member(e, "do");
		if (!f || !body || config_setting_type(f) != CONFIG_TYPE_STRING)
			return kd_fail(d, kd_sline(e), "launches: a loop needs for = \"t = 0; t < T; "
						    "t++\"; and do = ( ... );");
		/* compile the header in a scratch statement */
		int s = stmt_new(d, ST_FOR, kd_line(d, f));
		if (s < 0 || compile_for_header(d, s, config_setting_get_string(f),
						kd_line(d, f), "launches.for") < 0)
			return -1;
		kd_stmt st = d->stmts[s];
		int lv = -1;
		for (int j = 0; j < d->nlv; j++)
			if (d->lv_slot[j] == st.slot)
				lv = j;
		if (lv < 0)
			return kd_fail(d, st.line, "launches.for: not a launch variable");
		for (int j = 0; j < nbound; j++)
			if (bound[j] == lv)
				return kd_fail(d, st.line, "launches.for: loop variable reused inside "
							   "its own loop");
		int err = 0;
		uint64_t iters = 0;
		bound[nbound] = lv;
		for (vals[st.slot] = kx_eval(d->prog.n, st.e1, vals, &err);
		     !err && kx_eval(d->prog.n, st.e2, vals, &err) && !err;
		     vals[st.slot] = kx_eval(d->prog.n, st.e3, vals, &err)) {
			if (++iters > MAX_LAUNCHES)
				return kd_fail(d, st.line, "launches.for: more than %u iterations",
					       MAX_LAUNCHES);
			if (expand_launches(d, body, bound, nbound + 1, vals) < 0)
				return -1;
		}
		if (err)
			return kd_fail(d, st.line, "launches.for: %s", kx_strerror(err));
	}
	return 0;
}

/* ---------------------------------------------------------------- code */

/* Is for statement st a plain counting loop (kd_stmt.cmp)? Its cmp and
 * bound's node, else 0. */
static int plain_loop(const kdesc *d, const kd_stmt *st, int *bound)
{
	const kx_node *n = d->prog.n;
	if (!kx_affine(n, st->e3, st->slot))
		return 0;
	return kx_cmp_var(n, st->e2, st->slot, bound);
}

/* Is plain loop st one to run by strides (kd_stmt.strided)? */
static int stride_loop(const kdesc *d, const kd_stmt *st)
{
	const kx_node *n = d->prog.n;
	int nacc = 0;
	for (int i = 0; i < st->n1; i++) {
		const kd_stmt *b = &d->stmts[d->lists[st->l1 + i]];
		if (b->kind != ST_LOAD && b->kind != ST_STORE)
			return 0;
		for (int j = 0; j < b->n1; j++) {
			const kd_ref *R = &d->refs[b->l1 + j];
			if (!d->arrays[R->array].ndims)
				return 0; /* any index: the address checks of kd_ref_addr */
			for (int k = 0; k < R->nidx; k++)
				if (!kx_affine(n, R->idx[k], st->slot))
					return 0;
		}
		nacc += b->n1;
	}
	return nacc <= KD_STRIDE_ACC;
}

/* Does statement list (start, count) assign a variable that expression e
 * reads? (a let's or a loop's variable, at any depth) */
static int list_writes(const kdesc *d, int start, int count, int e)
{
	for (int i = 0; i < count; i++) {
		const kd_stmt *b = &d->stmts[d->lists[start + i]];
		if ((b->kind == ST_LET || b->kind == ST_FOR) && kx_uses(d->prog.n, e, b->slot))
			return 1;
		if ((b->kind == ST_IF || b->kind == ST_FOR) && list_writes(d, b->l1, b->n1, e))
			return 1;
		if (b->kind == ST_IF && list_writes(d, b->l2, b->n2, e))
			return 1;
	}
	return 0;
}

/* The kernels' statements' expressions compiled once for running
 * (kx_run), and their loops' kinds. */
static int compile_code(kdesc *d)
{
	kx_prog *p = &d->prog;
	for (int i = 0; i < d->nrefs; i++) {
		kd_ref *R = &d->refs[i];
		for (int j = 0; j < R->nidx; j++)
			if ((R->code[j] = kx_compile(p, R->idx[j])) < 0)
				return kd_oom(d);
	}
	for (int i = 0; i < d->nrefs; i++) { /* the code is where it stays now */
		kd_ref *R = &d->refs[i];
		for (int j = 0; j < R->nidx; j++) {
			int slot;
			if (!kx_code_var_plus(p->code + R->code[j], &slot, &R->vk[j]))
				slot = -1;
			R->vslot[j] = slot;
		}
	}
	for (int i = 0; i < d->nstmts; i++) {
		kd_stmt *st = &d->stmts[i];
		if ((st->e1 >= 0 && (st->c1 = kx_compile(p, st->e1)) < 0) ||
		    (st->e2 >= 0 && (st->c2 = kx_compile(p, st->e2)) < 0) ||
		    (st->e3 >= 0 && (st->c3 = kx_compile(p, st->e3)) < 0))
			return kd_oom(d);
		if (st->kind != ST_FOR)
			continue;
		st->still = !list_writes(d, st->l1, st->n1, st->e2) &&
			    !list_writes(d, st->l1, st->n1, st->e3);
		int bound;
		if ((st->cmp = (uint8_t)plain_loop(d, st, &bound)) &&
		    (st->cbound = kx_compile(p, bound)) < 0)
			return kd_oom(d);
		if (st->cmp && (st->strided = (uint8_t)stride_loop(d, st))) {
			for (int k = 0; k < st->n1; k++) {
				const kd_stmt *b = &d->stmts[d->lists[st->l1 + k]];
				if (b->kind == ST_LOAD)
					st->nload = (uint16_t)(st->nload + b->n1);
				else
					st->nstore = (uint16_t)(st->nstore + b->n1);
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- opening */

static int load_params(kdesc *d, const config_setting_t *params, const config_setting_t *variant,
		       const char *vname)
{
	int n = params ? config_setting_length(params) : 0;
	if (params && config_setting_type(params) != CONFIG_TYPE_GROUP)
		return kd_fail(d, kd_sline(params), "params: expected a group { NAME = value; ... }");
	int64_t vals[256];
	if (n > 256)
		return kd_fail(d, kd_sline(params), "params: more than 256 parameters");
	for (int i = 0; i < n; i++) {
		config_setting_t *p = config_setting_get_elem(params, (unsigned)i);
		const char *name = config_setting_name(p);
		int t = config_setting_type(p);
		if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
			return kd_fail(d, kd_sline(p), "params.%s: expected an integer, got %s", name,
				       cfgtype_name(t));
		if (!is_ident(name))
			return kd_fail(d, kd_sline(p), "params.%s: a name of letters, digits and _", name);
		if (sym_find(d, name, strlen(name), -1) >= 0)
			return kd_fail(d, kd_sline(p), "params.%s: the name of a builtin", name);
		if (sym_add(d, name, strlen(name), SYM_PARAM) < 0)
			return -1;
		vals[i] = config_setting_get_int64(p);
	}
	if (variant) {
		for (int i = 0; i < config_setting_length(variant); i++) {
			config_setting_t *p = config_setting_get_elem(variant, (unsigned)i);
			const char *name = config_setting_name(p);
			int t = config_setting_type(p);
			int s = sym_find(d, name, strlen(name), -1);
			if (s < 0 || d->syms[s].kind != SYM_PARAM)
				return kd_fail(d, kd_sline(p), "variants.%s.%s: not a parameter of params",
					       vname, name);
			if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
				return kd_fail(d, kd_sline(p), "variants.%s.%s: expected an integer, got %s",
					       vname, name, cfgtype_name(t));
			vals[d->syms[s].slot - NBUILTIN] = config_setting_get_int64(p);
		}
	}
	for (size_t i = 0; i < d->ndefines; i++) {
		const char *def = d->defines[i], *eq = strchr(def, '=');
		int s = eq ? sym_find(d, def, (size_t)(eq - def), -1) : -1;
		if (!eq || s < 0 || d->syms[s].kind != SYM_PARAM)
			return kd_fail(d, 0, "-D %s: expected NAME=VALUE with NAME one of the "
					     "description's params", def);
		char *end;
		errno = 0;
		long long v = strtoll(eq + 1, &end, 0);
		if (errno || end == eq + 1 || *end)
			return kd_fail(d, 0, "-D %s: expected an integer value", def);
		vals[d->syms[s].slot - NBUILTIN] = v;
	}
	d->init = calloc((size_t)d->nslots + 1, sizeof *d->init);
	if (!d->init)
		return kd_oom(d);
	for (int i = 0; i < n; i++)
		d->init[NBUILTIN + i] = vals[i];
	return 0;
}

int kd_compile(kdesc *d, const char *variant)
{
	static const char *const keys[] = {"format",   "version", "name",    "description", "try",
					   "params",   "variants", "arrays", "kernels",
					   "launches", "max_threads", "block_order"};
	unsigned inc = cfg_include_line(d->text);
	if (inc)
		return kd_fail(d, inc, "@include is not supported in kernel descriptions");
	/* Bounds statement nesting too (a body is a list inside a group), so
	 * compiling and running bodies, which recurse, stay shallow. */
	unsigned deep = cfg_nesting_line(d->text, CFG_MAX_NEST);
	if (deep)
		return kd_fail(d, deep, "groups and lists nested too deeply (more than %d levels)",
			       CFG_MAX_NEST);
	config_t *cf = &d->cf;
	config_init(cf);
	d->cf_live = 1;
	if (!config_read_string(cf, d->text)) {
		return kd_fail(d, (unsigned)config_error_line(cf), "%s", config_error_text(cf));
	}
	config_setting_t *root = config_root_setting(cf);
	const char *fmt;
	config_setting_t *f = config_setting_get_member(root, "format");
	if (!f || !config_setting_lookup_string(root, "format", &fmt) || strcmp(fmt, KDESC_FORMAT))
		return kd_fail(d, f ? kd_sline(f) : 1, "format: expected format = \"%s\"; as the first "
						     "setting", KDESC_FORMAT);
	config_setting_t *v = config_setting_get_member(root, "version");
	int t = v ? config_setting_type(v) : 0;
	if (!v || (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) ||
	    config_setting_get_int64(v) != KDESC_VERSION)
		return kd_fail(d, v ? kd_sline(v) : kd_sline(f), "version: expected version = %d; (this "
							    "rdscope reads version %d)",
			       KDESC_VERSION, KDESC_VERSION);
	if (kd_known_keys(d, root, "description file", keys, sizeof keys / sizeof keys[0]) < 0)
		return -1;
	for (int i = 0; i < NBUILTIN; i++)
		if (sym_add(d, builtin_names[i], strlen(builtin_names[i]), SYM_BUILTIN) < 0)
			return -1;
	config_setting_t *variants = config_setting_get_member(root, "variants");
	config_setting_t *var = NULL;
	if (variant) {
		var = variants ? config_setting_get_member(variants, variant) : NULL;
		if (!var || config_setting_type(var) != CONFIG_TYPE_GROUP) {
			char list[256] = "";
			size_t used = 0;
			for (int i = 0; variants && i < config_setting_length(variants); i++) {
				int n = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
						 config_setting_name(config_setting_get_elem(
							 variants, (unsigned)i)));
				if (n < 0 || (size_t)n >= sizeof list - used)
					break;
				used += (size_t)n;
			}
			return kd_fail(d, 0, "no variant '%s' (%s%s)", variant,
				       used ? "variants: " : "the file has no variants", list);
		}
	}
	if (variants && config_setting_type(variants) != CONFIG_TYPE_GROUP)
		return kd_fail(d, kd_sline(variants), "variants: expected a group of groups");
	if (load_params(d, config_setting_get_member(root, "params"), var, variant) < 0)
		return -1;
	d->default_max_threads = 0;
	d->default_order = ORDER_CUDA;
	config_setting_t *mt = config_setting_get_member(root, "max_threads");
	if (mt && get_max_threads(d, mt, "max_threads", &d->default_max_threads) < 0)
		return -1;
	config_setting_t *bo = config_setting_get_member(root, "block_order");
	if (bo && get_order(d, bo, "block_order", &d->default_order) < 0)
		return -1;
	d->cur_kernel = -1;
	config_setting_t *arrays = config_setting_get_member(root, "arrays");
	if (!arrays)
		return kd_fail(d, 0, "no arrays = { ... }; group");
	if (load_arrays(d, arrays) < 0)
		return -1;
	config_setting_t *launches = config_setting_get_member(root, "launches");
	if (launches && (config_setting_type(launches) == CONFIG_TYPE_LIST ||
			 config_setting_type(launches) == CONFIG_TYPE_ARRAY) &&
	    declare_launch_vars(d, launches) < 0)
		return -1;
	config_setting_t *ks = config_setting_get_member(root, "kernels");
	if (!ks)
		return kd_fail(d, 0, "no kernels = ( ... ); list");
	if (load_kernels(d, ks) < 0 || compile_code(d) < 0)
		return -1;
	for (int k = 0; k < d->nkernels; k++)
		for (int i = 0; i < 3; i++)
			d->kernels[k].lv_used |= expr_lv(d, d->kernels[k].grid[i]) |
						 expr_lv(d, d->kernels[k].block[i]);
	/* the value array grew with the locals */
	int64_t *init = realloc(d->init, ((size_t)d->nslots + 1) * sizeof *init);
	if (!init)
		return kd_oom(d);
	d->init = init;
	int nparams = 0;
	for (int i = 0; i < d->nsyms; i++)
		nparams += d->syms[i].kind == SYM_PARAM;
	for (int s = NBUILTIN + nparams; s < d->nslots; s++)
		d->init[s] = 0;
	int64_t *vals = calloc((size_t)d->nslots + 1, sizeof *vals);
	if (!vals)
		return kd_oom(d);
	memcpy(vals, d->init, (size_t)d->nslots * sizeof *vals);
	int rc = 0;
	if (launches) {
		int bound[MAX_LAUNCH_VARS + 1];
		rc = expand_launches(d, launches, bound, 0, vals);
	} else {
		for (int k = 0; k < d->nkernels && rc == 0; k++)
			rc = add_launch(d, k, d->kernels[k].line, NULL, 0, vals);
	}
	free(vals);
	return rc;
}

