/*
 * Where presets are found. A preset NAME is the file NAME.cfg in the first
 * directory of the search path that has one:
 *
 *     ./presets : $RDSCOPE_PRESET_PATH (colon list)
 *         : $XDG_CONFIG_HOME/rdscope/presets (~/.config if unset)
 *         : the presets beside the binary (a built tree: ROOT/presets for
 *           ROOT/rdscope and ROOT/build/rdscope; a moved install:
 *           BINDIR/../share/rdscope/presets), whatever the directory
 *         : DATADIR/presets (the install directory, see the Makefile)
 *
 * so a project's own presets shadow personal ones, and those the built-in
 * ones, the way PATH works.
 */
#ifndef PRESET_PATH_H
#define PRESET_PATH_H

#include <stddef.h>

/* Is spec a file path (contains '/' or ends in ".cfg") rather than a name? */
int preset_path_is_file(const char *spec);

/*
 * The search path's directories, in order, as a NULL-terminated array of
 * malloc'd strings (free with preset_path_free). NULL: out of memory.
 */
char **preset_path_list(void);
void preset_path_free(char **dirs);

/* Is dirs[i] (of a list preset_path_list gave) one of rdscope's own
 * preset folders: ./presets, those beside the binary, DATADIR's? */
int preset_path_shipped(char **dirs, size_t i);

/*
 * The file of preset NAME: 0 with the path in buf, or -1 with
 * "NAME: no such preset (...)" and a suggestion in err.
 */
int preset_path_find(const char *name, char *buf, size_t len, char *err, size_t errlen);

/* One preset of the search path, for `rdscope presets`. */
typedef struct preset_entry {
	char *name;  /* file name without ".cfg" */
	char *path;
} preset_entry;

/*
 * Every preset on the search path, sorted by name, a name shadowed by an
 * earlier directory listed once. Returns the count (entries in *out, free
 * with preset_path_entries_free), or -1 when out of memory.
 */
int preset_path_entries(preset_entry **out);
void preset_path_entries_free(preset_entry *e, int n);

#endif
