/*
 * Where rdscope's own data is, wherever it is run from: the shipped
 * presets and samples sit next to the binary in a built tree (./rdscope
 * and build/rdscope beside presets/ and samples/) and in
 * PREFIX/share/rdscope of an install (also one moved after installing).
 */
#ifndef UTIL_EXEDIR_H
#define UTIL_EXEDIR_H

#include <stddef.h>

/*
 * The directories, beside the running binary, that hold sub ("presets",
 * "samples"), first hit first: DIR/sub, DIR/../sub and
 * DIR/../share/rdscope/sub, where DIR is the binary's directory
 * (/proc/self/exe, links resolved). Writes up to max malloc'd paths of
 * existing directories into out; returns how many (0 when none exists or
 * the binary's path is unknown).
 */
int exe_data_dirs(const char *sub, char **out, int max);

#endif
