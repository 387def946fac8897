/* Helpers shared by the harnesses (see fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[256];
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(path, sizeof path, "%s/rdscope-fuzz-%ld%s", dir, (long)getpid(), suffix);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort(); /* the harness cannot run: not an input's fault */
	for (size_t off = 0; off < size;) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	close(fd);
	return path;
}

const char *fuzz_string(const uint8_t *data, size_t size)
{
	static char *s;
	free(s);
	s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
