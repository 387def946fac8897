/*
 * Typo suggestions by edit distance. The candidate lists are tiny (a few
 * dozen keys), so a plain dynamic-programming distance is plenty.
 */
#include "suggest.h"

#include <string.h>

#include "rdscope.h"

#define SUGGEST_MAXLEN 64

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	/* Words longer than any key are not typos of one: cap the work. */
	if (la > SUGGEST_MAXLEN || lb > SUGGEST_MAXLEN)
		return 255;
	/* Optimal string alignment: Levenshtein plus adjacent transposition,
	 * the commonest typo ("rnu" for "run"). d[i][j] <= 64 fits a byte. */
	unsigned char d[SUGGEST_MAXLEN + 1][SUGGEST_MAXLEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned char)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned char)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1u < best)
				best = d[i - 1][j] + 1u;
			if (d[i][j - 1] + 1u < best)
				best = d[i][j - 1] + 1u;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1u < best)
				best = d[i - 2][j - 2] + 1u;
			d[i][j] = (unsigned char)best;
		}
	}
	return d[la][lb];
}

const char *suggest_closest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (!best)
		return NULL;
	size_t len = strlen(word) > strlen(best) ? strlen(word) : strlen(best);
	size_t limit = len / 3;
	if (limit < 1)
		limit = 1;
	if (len >= 6 && limit < 2)
		limit = 2;
	return best_d <= limit ? best : NULL;
}

const char *suggest_key(const char *word)
{
	const char *names[128] = {0};
	size_t n = 0;
	for (const rd_key *k = rd_keys; k->name && n < 128; k++)
		names[n++] = k->name;
	const char *s = suggest_closest(word, names, n);
	if (s)
		return s;
	/* "ways" for "l1.ways": a key given without its section. */
	for (size_t i = 0; i < n; i++) {
		const char *dot = strrchr(names[i], '.');
		if (dot && strcmp(dot + 1, word) == 0)
			return names[i];
	}
	return NULL;
}
