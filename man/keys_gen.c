/*
 * keys_gen: rewrite the KEYS section of a man page from the explorer's key
 * table (ui/keys.h), or with --check say whether it is up to date.
 * Usage: keys_gen [--check] man/rdscope.1       (`make man-keys`)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	size_t r;
	while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap) {
			char *t = realloc(s, cap *= 2);
			if (!t) {
				free(s);
				s = NULL;
			}
			s = t;
		}
	}
	fclose(f);
	if (s)
		s[n] = '\0';
	return s;
}

int main(int argc, char **argv)
{
	int check = argc == 3 && strcmp(argv[1], "--check") == 0;
	if (argc != 2 + check) {
		fputs("usage: man_keys [--check] MANPAGE\n", stderr);
		return 2;
	}
	const char *path = argv[1 + check];
	char *page = read_all(path);
	if (!page) {
		fprintf(stderr, "man_keys: cannot read %s\n", path);
		return 1;
	}
	char *upd = keys_man_update(page);
	if (!upd) {
		fprintf(stderr, "man_keys: %s has no '.SH KEYS' section\n", path);
		return 1;
	}
	int same = strcmp(page, upd) == 0;
	if (check) {
		if (!same)
			fprintf(stderr, "man_keys: %s: KEYS differs from the key table; run 'make man-keys'\n",
				path);
		return same ? 0 : 1;
	}
	if (!same) {
		char tmp[4096];
		snprintf(tmp, sizeof tmp, "%s.tmp.keys", path);
		FILE *f = fopen(tmp, "wb");
		if (!f || fputs(upd, f) == EOF || fclose(f) != 0 || rename(tmp, path) != 0) {
			fprintf(stderr, "man_keys: cannot write %s\n", path);
			remove(tmp);
			return 1;
		}
		printf("man_keys: updated the KEYS section of %s\n", path);
	}
	free(upd);
	free(page);
	return 0;
}
