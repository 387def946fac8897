/*
 * Preset helpers beyond the load/save contract of preset.h, for the
 * preset commands: a preset's own name and description without checking
 * it (what `rdscope presets` lists), and a preset as text on any stream.
 */
#ifndef PRESET_IO_H
#define PRESET_IO_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "rdscope.h"

/* The files loading preset spec (a name or a file) reads: the preset's
 * own, then the one it inherits, and so on, into files[0..max-1]; their
 * number. A name that is not found gives none; the chain stops at a file
 * that is not a regular one (a pipe is read once), does not parse or
 * comes round again (preset_load reports those). For the check that no
 * output replaces a file the command read (src/cmd/samefile.c). */
#define PRESET_CHAIN_MAX 16 /* as deep as preset_load follows inherits */
int preset_files(const char *spec, char (*files)[PATH_MAX], int max);

/* Returns 0, or -1 if the file does not parse (fields then ""). */
int preset_meta_read(const char *path, char *name, size_t namelen, char *desc, size_t desclen);

/*
 * Write cfg as preset text (every key, in rd_keys order, grouped, each
 * with its unit and meaning as a comment). name and description may be
 * NULL. The caller checks ferror(f).
 */
void preset_write(FILE *f, const rd_config *cfg, const char *name, const char *description);

#endif
