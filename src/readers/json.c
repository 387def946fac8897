/*
 * The JSON reader (see json.h): recursive descent over the text, depth
 * bounded, every allocation checked.
 */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jp {
	const char *p, *end;
	unsigned line;
	char *err;
	size_t errlen;
	int failed;
} jp;

static int fail(jp *j, const char *fmt, ...)
{
	if (!j->failed) {
		char msg[200];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		snprintf(j->err, j->errlen, "line %u: %s", j->line, msg);
		j->failed = 1;
	}
	return -1;
}

static void skip_ws(jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string at j->p (the opening quote), decoded into a new buffer. */
static int parse_string(jp *j, char **out)
{
	j->p++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	if (!s)
		return fail(j, "out of memory");
	for (;;) {
		if (j->p >= j->end) {
			free(s);
			return fail(j, "unterminated string");
		}
		unsigned char c = (unsigned char)*j->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(s);
			return fail(j, "control character in a string");
		}
		char buf[4];
		size_t k = 1;
		buf[0] = (char)c;
		if (c == '\\') {
			if (j->p >= j->end) {
				free(s);
				return fail(j, "unterminated string");
			}
			char e = *j->p++;
			switch (e) {
			case '"': case '\\': case '/': buf[0] = e; break;
			case 'b': buf[0] = '\b'; break;
			case 'f': buf[0] = '\f'; break;
			case 'n': buf[0] = '\n'; break;
			case 'r': buf[0] = '\r'; break;
			case 't': buf[0] = '\t'; break;
			case 'u': {
				unsigned u = 0;
				for (int i = 0; i < 4; i++) {
					int h = j->p < j->end ? hexval(*j->p) : -1;
					if (h < 0) {
						free(s);
						return fail(j, "bad \\u escape");
					}
					u = u * 16 + (unsigned)h;
					j->p++;
				}
				if (u == 0) {
					free(s);
					return fail(j, "\\u0000 in a string");
				}
				/* (a surrogate half is kept as its own code point: the
				 * names rdscope compares are its own, ASCII) */
				if (u < 0x80) {
					buf[0] = (char)u;
				} else if (u < 0x800) {
					buf[0] = (char)(0xc0 | (u >> 6));
					buf[1] = (char)(0x80 | (u & 0x3f));
					k = 2;
				} else {
					buf[0] = (char)(0xe0 | (u >> 12));
					buf[1] = (char)(0x80 | ((u >> 6) & 0x3f));
					buf[2] = (char)(0x80 | (u & 0x3f));
					k = 3;
				}
				break;
			}
			default:
				free(s);
				return fail(j, "bad escape \\%c", e);
			}
		}
		if (n + k + 1 > cap) {
			cap *= 2;
			char *t = realloc(s, cap);
			if (!t) {
				free(s);
				return fail(j, "out of memory");
			}
			s = t;
		}
		memcpy(s + n, buf, k);
		n += k;
	}
	s[n] = '\0';
	*out = s;
	return 0;
}

/* A number by RFC 8259's grammar. */
static int parse_number(jp *j, double *out)
{
	const char *s = j->p;
	if (s < j->end && *s == '-')
		s++;
	if (s >= j->end || *s < '0' || *s > '9')
		return fail(j, "not a value");
	if (*s == '0')
		s++;
	else
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	if (s < j->end && *s == '.') {
		s++;
		if (s >= j->end || *s < '0' || *s > '9')
			return fail(j, "bad number");
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < j->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < j->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= j->end || *s < '0' || *s > '9')
			return fail(j, "bad number");
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	char buf[64];
	size_t n = (size_t)(s - j->p);
	if (n >= sizeof buf)
		return fail(j, "number too long");
	memcpy(buf, j->p, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	j->p = s;
	return 0;
}

static int parse_value(jp *j, json *v, int depth);

static int add_kid(jp *j, json *v, size_t *cap, char *key)
{
	if (v->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		json *k = realloc(v->kids, nc * sizeof *k);
		if (!k)
			return fail(j, "out of memory");
		v->kids = k;
		if (v->kind == JSON_OBJ) {
			char **ks = realloc(v->keys, nc * sizeof *ks);
			if (!ks)
				return fail(j, "out of memory");
			v->keys = ks;
		}
		*cap = nc;
	}
	memset(&v->kids[v->n], 0, sizeof v->kids[v->n]);
	if (v->kind == JSON_OBJ)
		v->keys[v->n] = key;
	v->n++;
	return 0;
}

static int parse_value(jp *j, json *v, int depth)
{
	memset(v, 0, sizeof *v);
	skip_ws(j);
	v->line = j->line;
	if (j->p >= j->end)
		return fail(j, "unexpected end of the document");
	if (depth > JSON_NEST_MAX)
		return fail(j, "nested deeper than %d", JSON_NEST_MAX);
	char c = *j->p;
	if (c == '{' || c == '[') {
		v->kind = c == '{' ? JSON_OBJ : JSON_ARR;
		char close = c == '{' ? '}' : ']';
		size_t cap = 0;
		j->p++;
		skip_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		for (;;) {
			char *key = NULL;
			skip_ws(j);
			if (v->kind == JSON_OBJ) {
				if (j->p >= j->end || *j->p != '"')
					return fail(j, "expected a member name");
				if (parse_string(j, &key) < 0)
					return -1;
				skip_ws(j);
				if (j->p >= j->end || *j->p != ':') {
					free(key);
					return fail(j, "expected ':'");
				}
				j->p++;
			}
			if (add_kid(j, v, &cap, key) < 0) {
				free(key);
				return -1;
			}
			if (parse_value(j, &v->kids[v->n - 1], depth + 1) < 0)
				return -1;
			skip_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				return 0;
			}
			return fail(j, "expected ',' or '%c'", close);
		}
	}
	if (c == '"') {
		v->kind = JSON_STR;
		return parse_string(j, &v->str);
	}
	static const struct {
		const char *w;
		json_kind k;
		int b;
	} words[] = {{"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0}};
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i].w);
		if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[i].w, n)) {
			v->kind = words[i].k;
			v->b = words[i].b;
			j->p += n;
			return 0;
		}
	}
	v->kind = JSON_NUM;
	return parse_number(j, &v->num);
}

void json_free(json *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		json_free(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

int json_parse(const char *text, size_t len, json *out, char *err, size_t errlen)
{
	jp j = {.p = text, .end = text + len, .line = 1, .err = err, .errlen = errlen};
	if (parse_value(&j, out, 0) == 0) {
		skip_ws(&j);
		if (j.p == j.end)
			return 0;
		fail(&j, "text after the document");
	}
	json_free(out);
	return -1;
}

const json *json_get(const json *obj, const char *key)
{
	if (!obj || obj->kind != JSON_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->kids[i];
	return NULL;
}
