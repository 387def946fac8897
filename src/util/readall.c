/*
 * read_text_file (see readall.h).
 */
#include "readall.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int read_text_file(const char *path, size_t max, char **out, size_t *len, char *err,
		   size_t errlen, int *oom, const char *nul_why,
		   const char *(*check)(const char *buf, size_t n))
{
	struct stat st;
	*oom = 0;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -1;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	const char *bad = NULL;
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		if (memchr(buf + n, '\0', got))
			bad = nul_why ? nul_why : "a NUL byte: not a text file";
		n += got;
		if (!bad && check)
			bad = check(buf, n);
		if (bad || n < cap)
			break;
		if (cap >= max) {
			bad = "too large";
			break;
		}
		char *b = realloc(buf, cap * 2 + 1);
		if (!b) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = b;
		cap *= 2;
	}
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (!buf) {
		*oom = 1;
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (e || bad || n > max) {
		snprintf(err, errlen, "%s: %s", path,
			 bad && strcmp(bad, "too large") ? bad
			 : bad || n > max		 ? "larger than rdscope reads for this kind of file"
							 : strerror(e ? e : EIO));
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
