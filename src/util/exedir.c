/* The data directories beside the running binary (see exedir.h). */
#include "exedir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

int exe_data_dirs(const char *sub, char **out, int max)
{
	char exe[PATH_MAX];
	if (!realpath("/proc/self/exe", exe))
		return 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	static const char *const rel[] = {"", "/..", "/../share/rdscope"};
	int n = 0;
	for (size_t i = 0; i < sizeof rel / sizeof rel[0] && n < max; i++) {
		char path[PATH_MAX], real[PATH_MAX];
		struct stat st;
		int len = snprintf(path, sizeof path, "%s%s/%s", exe, rel[i], sub);
		if (len < 0 || (size_t)len >= sizeof path || stat(path, &st) != 0 ||
		    !S_ISDIR(st.st_mode) || !realpath(path, real))
			continue;
		int dup = 0;
		for (int j = 0; j < n; j++)
			dup |= strcmp(out[j], real) == 0;
		if (!dup && (out[n] = strdup(real)))
			n++;
	}
	return n;
}
