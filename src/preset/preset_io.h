/*
 * Preset helpers beyond the load/save contract of preset.h, for the
 * preset commands: a preset's own name and description without checking
 * it (what `rdscope presets` lists), and a preset as text on any stream.
 */
#ifndef PRESET_IO_H
#define PRESET_IO_H

#include <stddef.h>
#include <stdio.h>

#include "rdscope.h"

/* Returns 0, or -1 if the file does not parse (fields then ""). */
int preset_meta_read(const char *path, char *name, size_t namelen, char *desc, size_t desclen);

/*
 * Write cfg as preset text (every key, in rd_keys order, grouped, each
 * with its unit and meaning as a comment). name and description may be
 * NULL. The caller checks ferror(f).
 */
void preset_write(FILE *f, const rd_config *cfg, const char *name, const char *description);

#endif
