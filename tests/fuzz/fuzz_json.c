/* Fuzz harness: the JSON reader of `rdscope compare` (src/readers/json.c):
 * any bytes parse or fail with a message, within the nesting bound; a
 * parsed document's members are all reachable. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "readers/json.h"

static size_t count(const json *v)
{
	size_t n = 1;
	for (size_t i = 0; i < v->n; i++)
		n += count(&v->kids[i]);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json doc;
	char err[256];
	if (json_parse((const char *)data, size, &doc, err, sizeof err) == 0) {
		if (count(&doc) > size + 1)
			__builtin_trap(); /* each value takes at least a byte */
		if (doc.kind == JSON_OBJ && doc.n && json_get(&doc, doc.keys[0]) != &doc.kids[0])
			__builtin_trap();
		json_free(&doc);
	} else if (strncmp(err, "line ", 5) != 0) {
		__builtin_trap(); /* every failure says where */
	}
	return 0;
}
