/*
 * "Did you mean ...?" for mistyped keys and commands.
 */
#ifndef SUGGEST_H
#define SUGGEST_H

#include <stddef.h>

/* Edit distance (with transpositions) of a and b; 255 for long words. */
size_t suggest_distance(const char *a, const char *b);

/*
 * The name closest to word among n names, or NULL when none is close
 * enough to be a plausible typo (distance at most a third of the longer
 * word, and at least 1, 2 for words of 6+ characters).
 */
const char *suggest_closest(const char *word, const char *const *names, size_t n);

/* The same over the model's dotted keys (rd_keys). */
const char *suggest_key(const char *word);

#endif
