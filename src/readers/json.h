/*
 * A JSON reader (RFC 8259) for rdscope's own result files (`rdscope
 * compare`): the whole document into a tree. Strict: one value, no
 * trailing garbage, no comments; nesting deeper than JSON_NEST_MAX and
 * documents larger than the caller's text are refused with "line N: ...".
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#define JSON_NEST_MAX 64

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ } json_kind;

typedef struct json {
	json_kind kind;
	int b;             /* JSON_BOOL */
	double num;        /* JSON_NUM */
	char *str;         /* JSON_STR: decoded (UTF-8; \u0000 refused) */
	size_t n;          /* JSON_ARR, JSON_OBJ: members */
	struct json *kids; /* [n] the items, or the members' values */
	char **keys;       /* JSON_OBJ: [n] the members' names */
	unsigned line;     /* where the value starts (1 = first) */
} json;

/* Parse text[0..len) into *out (free with json_free). 0, or -1 with
 * "line N: what" in err (out then empty). */
int json_parse(const char *text, size_t len, json *out, char *err, size_t errlen);
void json_free(json *j);
/* The value of member key of an object, or NULL. */
const json *json_get(const json *obj, const char *key);

#endif
