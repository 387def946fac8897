/*
 * Replays a fuzz corpus without libFuzzer: every file named on the command
 * line (directories: every file inside) goes through the harness once.
 * Prints "ok - fuzz NAME: N inputs" when none crashed (a crash ends the
 * process, which tests/run counts as a failure).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static long replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		exit(1);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 1;
}

static long replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		perror(path);
		exit(1);
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	DIR *d = opendir(path);
	struct dirent *e;
	long n = 0;
	char sub[4096];
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		n += replay(sub);
	}
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s NAME CORPUS...\n", argv[0]);
		return 2;
	}
	long n = 0;
	for (int i = 2; i < argc; i++)
		n += replay(argv[i]);
	printf("%s - fuzz %s: %ld inputs replayed\n", n ? "ok" : "not ok", argv[1], n);
	return n ? 0 : 1;
}
