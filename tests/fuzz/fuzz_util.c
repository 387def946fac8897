/* Helpers shared by the harnesses (see fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "input.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[256];
	/* tmpfs when there is one: on ext4 every O_TRUNC of a written file
	 * flushes it, which made the disk, not the parser, the bottleneck */
	const char *dir = getenv("TMPDIR");
	if (!dir)
		dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
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

void fuzz_input(const uint8_t *data, size_t size, const char *suffix, const char *format)
{
	char err[512];
	input_opts o = {.format = format, .kernel = NULL};
	input *in = NULL;
	if (input_open(fuzz_file(data, size, suffix), &o, &in, err, sizeof err) != INPUT_OK)
		return;
	rd_kernel *k = NULL;
	/* a few kernels at most: a fuzzed launch loop may promise millions */
	for (int n = 0; n < 8 && input_next(in, &k, err, sizeof err) == INPUT_OK && k; n++) {
		rd_kernel_free(k);
		k = NULL;
	}
	input_close(in);
}
