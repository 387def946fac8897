/* Helpers shared by the libconfig readers (see cfgtype.h). */
#include "cfgtype.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cfgtype_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a floating-point number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	default: return "nothing";
	}
}

unsigned cfg_nesting_line(const char *text, unsigned max)
{
	unsigned line = 1, depth = 0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line++;
		} else if (*p == '"') { /* a string; \" does not end it */
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '\n')
					line++;
			}
			if (!*p)
				return 0;
		} else if (*p == '#' || (*p == '/' && p[1] == '/')) {
			p += strcspn(p, "\n");
			if (!*p)
				return 0;
			line++;
		} else if (*p == '/' && p[1] == '*') {
			for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					line++;
			if (!*p)
				return 0;
			p++;
		} else if (*p == '{' || *p == '(' || *p == '[') {
			if (++depth > max)
				return line;
		} else if ((*p == '}' || *p == ')' || *p == ']') && depth) {
			depth--;
		}
	}
	return 0;
}

/* The line of the first @include, or 0. libconfig 1.5 exit()s on some
 * (upstream issue 292), and a description or a preset is one file:
 * refused. */
unsigned cfg_include_line(const char *text)
{
	unsigned line = 1;
	for (const char *p = text; *p; line++) {
		p += strspn(p, " \t");
		if (!strncmp(p, "@include", 8))
			return line;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

char *cfg_read_text(const char *path, size_t max, const char *what, char *why, size_t whylen)
{
	struct stat st;
	/* fopen succeeds on a directory; say what is wrong before reading. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s", strerror(EISDIR));
		return NULL;
	}
	errno = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno ? errno : EIO));
		return NULL;
	}
	char *text = malloc(max + 1);
	size_t n = text ? fread(text, 1, max + 1, f) : 0;
	int bad = text ? ferror(f) : ENOMEM;
	fclose(f);
	if (!text || bad) {
		snprintf(why, whylen, "%s", strerror(text ? EIO : ENOMEM));
		free(text);
		return NULL;
	}
	if (n > max) {
		snprintf(why, whylen, "larger than %zu bytes: not a %s", max, what);
		free(text);
		return NULL;
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		snprintf(why, whylen, "NUL byte: not a %s (a binary file?)", what);
		free(text);
		return NULL;
	}
	return text;
}

/* An integer literal of a libconfig text (see cfg_widen_ints). */
typedef struct lit {
	size_t end;  /* where its digits end (an L goes there) */
	long array;  /* the offset of the '[' of the array holding it, or -1 */
	int wide;    /* does not fit 32 bits, has no L */
	int suffixed;
} lit;

/* The number at p (libconfig's integer, integer64, hex, hex64 or float):
 * its length, and in *l what it is when it is an integer; 0 in *kind for a
 * float, 1 for an integer, 2 for one out of 64-bit range. */
static size_t number(const char *p, lit *l, int *kind)
{
	const char *s = p;
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	const char *d = hex ? s + 2 : s, *e = d;
	while (hex ? isxdigit((unsigned char)*e) : isdigit((unsigned char)*e))
		e++;
	/* a float: digits with a point or an exponent */
	const char *f = e;
	if (!hex && (*f == '.' || *f == 'e' || *f == 'E')) {
		if (*f == '.')
			for (f++; isdigit((unsigned char)*f); f++)
				;
		if ((*f == 'e' || *f == 'E') &&
		    (isdigit((unsigned char)f[1]) ||
		     ((f[1] == '-' || f[1] == '+') && isdigit((unsigned char)f[2])))) {
			for (f += 2; isdigit((unsigned char)*f); f++)
				;
		}
		*kind = 0;
		return (size_t)(f - p);
	}
	l->end = (size_t)(e - p);
	l->suffixed = *e == 'L';
	size_t len = (size_t)(e - p) + (*e == 'L') + (*e == 'L' && e[1] == 'L');
	char buf[64];
	size_t nd = (size_t)(e - d);
	while (nd > 1 && *d == '0') /* leading zeros say nothing */
		d++, nd--;
	if (nd >= sizeof buf - 2 || (hex && nd > 16)) {
		*kind = 2;
		return len;
	}
	snprintf(buf, sizeof buf, "%s%.*s", neg ? "-" : "", (int)nd, d);
	errno = 0;
	if (hex) {
		unsigned long long v = strtoull(buf, NULL, 16);
		l->wide = v > INT32_MAX;
	} else {
		long long v = strtoll(buf, NULL, 10);
		if (errno == ERANGE) {
			*kind = 2;
			return len;
		}
		l->wide = v > INT32_MAX || v < INT32_MIN;
	}
	if (hex && neg) /* not libconfig's: its parser says so */
		l->wide = 0;
	*kind = 1;
	return len;
}

long cfg_widen_ints(char **text)
{
	char *t = *text;
	lit *lits = NULL;
	size_t n = 0, cap = 0, nwide = 0;
	long open[CFG_MAX_NEST + 2]; /* the '[' of each open bracket, -1 for { and ( */
	unsigned depth = 0;
	unsigned line = 1;
	for (const char *p = t; *p;) {
		if (*p == '\n') {
			line++, p++;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '\n')
					line++;
			}
			if (*p)
				p++;
		} else if (*p == '#' || (*p == '/' && p[1] == '/')) {
			p += strcspn(p, "\n");
		} else if (*p == '/' && p[1] == '*') {
			for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					line++;
			p += *p ? 2 : 0;
		} else if (isalpha((unsigned char)*p) || *p == '*') { /* a name: a-1 is one */
			for (p++; isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '*'; p++)
				;
		} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])) ||
			   ((*p == '-' || *p == '+') &&
			    (isdigit((unsigned char)p[1]) || (p[1] == '.' && isdigit((unsigned char)p[2]))))) {
			lit l = {.array = depth && depth <= CFG_MAX_NEST ? open[depth - 1] : -1};
			int kind;
			size_t len = number(p, &l, &kind);
			if (kind == 2) {
				free(lits);
				return (long)line;
			}
			if (kind == 1) {
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					lit *m = realloc(lits, cap * sizeof *m);
					if (!m) {
						free(lits);
						return -1;
					}
					lits = m;
				}
				l.end += (size_t)(p - t);
				lits[n++] = l;
				nwide += l.wide && !l.suffixed;
			}
			p += len;
			/* the rest of an odd token (".5", "1x"): libconfig's to judge */
			while (isalnum((unsigned char)*p) || *p == '.' || *p == '_')
				p++;
		} else {
			if (*p == '[' || *p == '{' || *p == '(') {
				if (depth < CFG_MAX_NEST + 2)
					open[depth] = *p == '[' ? (long)(p - t) : -1;
				depth++;
			} else if ((*p == ']' || *p == '}' || *p == ')') && depth) {
				depth--;
			}
			p++;
		}
	}
	if (!nwide) {
		free(lits);
		return 0;
	}
	/* An array with a wide element: all its integers take an L. */
	for (size_t i = 0; i < n; i++)
		if (lits[i].wide && !lits[i].suffixed && lits[i].array >= 0)
			for (size_t j = 0; j < n; j++)
				if (lits[j].array == lits[i].array)
					lits[j].wide = 1;
	size_t len = strlen(t), add = 0;
	for (size_t i = 0; i < n; i++)
		add += lits[i].wide && !lits[i].suffixed;
	char *w = malloc(len + add + 1);
	if (!w) {
		free(lits);
		return -1;
	}
	size_t from = 0, o = 0;
	for (size_t i = 0; i < n; i++) {
		if (!lits[i].wide || lits[i].suffixed)
			continue;
		memcpy(w + o, t + from, lits[i].end - from);
		o += lits[i].end - from;
		w[o++] = 'L';
		from = lits[i].end;
	}
	memcpy(w + o, t + from, len - from + 1);
	free(lits);
	free(t);
	*text = w;
	return 0;
}
