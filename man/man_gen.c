/*
 * man_gen: rewrite the generated sections of a man page from their tables
 * (SYNOPSIS and OPTIONS: src/cmd/cli_table.c; KEYS: ui/keys.h; VIEWS: the
 * view table, ui/views/table.c; KEYS OF THE MODEL:
 * model/config.c, in rdscope.1 and, as a preset file writes them, in
 * rdscope-preset.5), or with --check say whether they are up to date.
 * Usage: man_gen [--check] man/PAGE             (`make man-gen`)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_man.h"
#include "keys.h"
#include "views/view.h"

int main(int argc, char **argv)
{
	int check = argc == 3 && strcmp(argv[1], "--check") == 0;
	if (argc != 2 + check) {
		fputs("usage: man_gen [--check] MANPAGE\n", stderr);
		return 2;
	}
	const char *path = argv[1 + check];
	char *page = man_read(path);
	if (!page) {
		fprintf(stderr, "man_gen: cannot read %s\n", path);
		return 1;
	}
	/* rdscope-preset.5 has the keys as a file writes them; rdscope.1
	 * the explorer's keys, the options and the keys as -s takes them */
	char *upd;
	if (strstr(page, ".TH RDSCOPE-PRESET ")) {
		upd = cli_man_preset_update(page);
	} else {
		char *keys = keys_man_update(page);
		char *views = keys ? views_man_update(keys) : NULL;
		upd = views ? cli_man_update(views) : NULL;
		free(keys);
		free(views);
	}
	if (!upd) {
		fprintf(stderr, "man_gen: %s lacks a section (KEYS, OPTIONS or KEYS OF THE MODEL)\n",
			path);
		free(page);
		return 1;
	}
	int same = strcmp(page, upd) == 0;
	if (check && !same)
		fprintf(stderr, "man_gen: %s differs from the tables; run 'make man-gen'\n", path);
	if (!check && !same) {
		char tmp[4096];
		snprintf(tmp, sizeof tmp, "%s.tmp.gen", path);
		FILE *f = fopen(tmp, "wb");
		if (!f || fputs(upd, f) == EOF || fclose(f) != 0 || rename(tmp, path) != 0) {
			fprintf(stderr, "man_gen: cannot write %s\n", path);
			remove(tmp);
			free(upd);
			free(page);
			return 1;
		}
		printf("man_gen: updated the generated sections of %s\n", path);
	}
	free(upd);
	free(page);
	return check && !same;
}
