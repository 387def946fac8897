/*
 * INPUT dispatch (see input.h): resolve the argument to a file, sniff its
 * format from the first bytes and lines (an explicit format skips that),
 * and walk its kernels through the format's trace_reader, loading only
 * the selected ones.
 */
#include "input.h"
#include "rpinput.h"
#include "util/util.h"
#include "memcheck.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kdesc/kdesc.h"
#include "sample_builtin.h"
#include "samples.h"
#include "textin.h"
#include "trace_accelsim.h"
#include "trace_nvbit.h"
#include "trace_ocelot.h"
#include "trace_rdt.h"

/* What a sniffer sees: the first bytes of the input and its first line
 * that is not blank (NULL when there is none). */
typedef struct peek {
	const char *s;
	size_t n;
	const char *line;
	size_t len;
} peek;

/*
 * A format: every fact about it in one row of formats[] below (its name
 * for --input-format, how messages name it, the file names that tell it,
 * how its content is told, how a file or directory of it is opened).
 * Adding a reader is its own file and one row here.
 */
typedef struct format_desc {
	const char *name;
	const char *what;         /* "an Ocelot .trc", in "expected ..." */
	const char *exts[4];      /* names that tell it when the content does not */
	/* Its content? 0 no, else a kind passed to open (1 the plain one) */
	int (*sniff)(const peek *p);
	int binary;               /* told by magic bytes, before the text checks */
	int deep;                 /* looks through every line: asked last */
	int sniff_named;          /* asked for its kind even when named */
	int variants;             /* takes :VARIANT and -D */
	/* its reader of t (closing t when it fails) */
	trace_reader *(*open)(textin *t, const char *path, int kind, const char *variant,
			      const input_opts *o, char *err, size_t errlen, int *oom);
	/* a directory of it: a reader, or NULL with *none when it is not one */
	trace_reader *(*open_dir)(const char *path, char *err, size_t errlen, int *oom,
				  int *none);
} format_desc;

static const format_desc formats[];
static const int nformats;

/* Longest line of any text format; each reader lowers it to its own. */
#define LINE_MAX_ALL (64 * 1024)
/* How much of an input the sniffer looks at. */
#define SNIFF_BYTES (64 * 1024)

/* What a NULL input_opts means: the format by content, every kernel. */
static const input_opts no_opts;

/* snprintf for messages (truncation is fine there). */
static void say(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* A format by its name: its row, NULL for "auto" (or none named), else
 * *bad. */
static const format_desc *fmt_parse(const char *name, int *bad)
{
	*bad = 0;
	if (!name || !strcmp(name, "auto"))
		return NULL;
	for (int i = 0; i < nformats; i++)
		if (!strcmp(name, formats[i].name))
			return &formats[i];
	*bad = 1;
	return NULL;
}

int input_format_known(const char *name)
{
	int bad;
	fmt_parse(name, &bad);
	return !bad;
}

size_t input_format_names(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "auto");
	for (int i = 0; i < nformats; i++)
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "|%s",
				      formats[i].name);
	return n;
}

struct input {
	char *spec;
	const char *sel;         /* NULL: all */
	long sel_index;          /* >= 0: select by index */
	int sel_list;            /* sel is a list "A,B,..." (of at most 64 items) */
	uint64_t sel_hit;        /* bit i: item i of the list matched a kernel */
	trace_reader *r;
	rd_kernel *builtin;      /* a builtin: its one kernel */
	long index;              /* of the kernel announced last */
	int matched, done;
	char names[300];         /* the first kernel names, for messages */
	size_t nnames;
	char err[1024];
};

/* The next item of a --kernel list from *p (NULL: none left): 1 with the
 * item at *item, n bytes long (up to the next comma), *p moved past it;
 * 0 at the end. */
static int list_item(const char **p, const char **item, size_t *n)
{
	if (!*p)
		return 0;
	*item = *p;
	*n = strcspn(*p, ",");
	*p = (*p)[*n] ? *p + *n + 1 : NULL;
	return 1;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* ---------------------------------------------------------------- builtins */

/* One ":N" field of a builtin spec; *s advances past it. */
static int builtin_number(const char **s, uint32_t *v)
{
	if (**s != ':')
		return -1;
	(*s)++;
	if (**s < '0' || **s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(*s, &end, 10);
	if (errno || n == 0 || n > 1u << 20)
		return -1;
	*v = (uint32_t)n;
	*s = end;
	return 0;
}

static int builtin_load(const char *spec, rd_kernel **out, char *err, size_t errlen)
{
	const char *name = spec + strlen(INPUT_BUILTIN_PREFIX);
	uint32_t h = 256, w = 1024, e = 4;
	if (strcmp(name, "fig3") == 0) {
		*out = sample_builtin();
	} else if (strncmp(name, "colcopy", 7) == 0) {
		const char *p = name + 7;
		if (builtin_number(&p, &h) < 0 || (*p && builtin_number(&p, &w) < 0) ||
		    (*p && builtin_number(&p, &e) < 0) || *p || e > 65535) {
			say(err, errlen,
				 "%s: expected builtin:colcopy:HEIGHT[:WIDTH[:ELEMBYTES]] "
				 "(whole numbers 1..1048576, element bytes at most 65535)",
				 spec);
			return INPUT_EINPUT;
		}
		/* Bound the kernel's size: these live in memory at once. */
		if ((uint64_t)h * w > 1u << 26) {
			say(err, errlen, "%s: HEIGHT*WIDTH must be at most %u", spec, 1u << 26);
			return INPUT_EINPUT;
		}
		*out = sample_colcopy(h, w, e);
	} else {
		say(err, errlen, "%s: unknown built-in sample (try builtin:fig3 or "
				      "builtin:colcopy:H[:W[:E]])", spec);
		return INPUT_EINPUT;
	}
	if (!*out) {
		say(err, errlen, "%s: out of memory", spec);
		return INPUT_ENOMEM;
	}
	return INPUT_OK;
}

/* ---------------------------------------------------------------- file lists */

/* A multi-kernel input made of one-kernel files (an Ocelot directory, an
 * Accel-Sim kernelslist). */
/* A reader of one member of a list. */
typedef trace_reader *member_open(textin *t, const char *path, char *err, size_t errlen);

typedef struct list_reader {
	trace_reader base;
	member_open *member;
	char **files;
	unsigned long *lines;    /* line in the kernelslist, 0 for a directory */
	const char *listname;
	char *listname_copy;
	size_t n, i;
	trace_reader *cur;
} list_reader;

static int list_next(trace_reader *rr, const char **name)
{
	list_reader *l = (list_reader *)rr;
	if (l->cur) {
		l->cur->close(l->cur);
		l->cur = NULL;
	}
	if (l->i == l->n)
		return 0;
	const char *path = l->files[l->i];
	unsigned long line = l->lines[l->i];
	l->i++;
	int oom;
	textin *t = textin_open(path, LINE_MAX_ALL, rr->err, rr->errlen, &oom);
	if (!t) {
		rr->oom = oom;
		if (line) { /* point at the kernelslist line that names it */
			char msg[1024];
			say(msg, sizeof msg, "%s", rr->err);
			textin_locate(rr->err, rr->errlen, l->listname, line, msg);
		}
		return -1;
	}
	l->cur = l->member(t, path, rr->err, rr->errlen);
	if (!l->cur) {
		textin_close(t);
		rr->oom = 1;
		say(rr->err, rr->errlen, "%s: out of memory", path);
		return -1;
	}
	int rc = l->cur->next(l->cur, name);
	if (rc == 0) {
		say(rr->err, rr->errlen, "%s: no kernel in the file", path);
		return -1;
	}
	if (rc < 0)
		rr->oom = l->cur->oom;
	return rc;
}

static int list_load(trace_reader *rr, rd_kernel **k)
{
	list_reader *l = (list_reader *)rr;
	int rc = l->cur->load(l->cur, k);
	rr->oom = l->cur->oom;
	return rc;
}

static void list_close(trace_reader *rr)
{
	list_reader *l = (list_reader *)rr;
	if (l->cur)
		l->cur->close(l->cur);
	for (size_t i = 0; i < l->n; i++)
		free(l->files[i]);
	free(l->files);
	free(l->lines);
	free(l->listname_copy);
	free(l);
}

static list_reader *list_new(member_open *member, char *err, size_t errlen)
{
	list_reader *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->member = member;
	l->base.next = list_next;
	l->base.load = list_load;
	l->base.close = list_close;
	l->base.err = err;
	l->base.errlen = errlen;
	return l;
}

static int list_add(list_reader *l, const char *dir, const char *file, size_t flen,
		    unsigned long line)
{
	if (l->n % 64 == 0) {
		char **f = realloc(l->files, (l->n + 64) * sizeof *f);
		unsigned long *ln = f ? realloc(l->lines, (l->n + 64) * sizeof *ln) : NULL;
		if (f)
			l->files = f;
		if (!f || !ln)
			return -1;
		l->lines = ln;
	}
	size_t dlen = strlen(dir);
	char *p = malloc(dlen + 1 + flen + 1);
	if (!p)
		return -1;
	memcpy(p, dir, dlen);
	p[dlen] = '/';
	memcpy(p + dlen + 1, file, flen);
	p[dlen + 1 + flen] = '\0';
	l->files[l->n] = p;
	l->lines[l->n] = line;
	l->n++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One Ocelot .trc: its kernel is named by the file. */
static trace_reader *ocelot_one(textin *t, const char *path, char *err, size_t errlen)
{
	char name[256];
	trace_ocelot_name(path, name, sizeof name);
	textin_set_maxline(t, TRACE_LINE_MAX);
	return trace_ocelot_reader(t, name, err, errlen);
}

static trace_reader *accelsim_one(textin *t, const char *path, char *err, size_t errlen)
{
	(void)path;
	return trace_accelsim_reader(t, err, errlen);
}

/* An Ocelot directory: its NAME_NN.trc files in name order. NULL and
 * *none when there are none. */
static trace_reader *ocelot_dir(const char *path, char *err, size_t errlen, int *oom, int *none)
{
	*none = 0;
	*oom = 0;
	DIR *d = opendir(path);
	if (!d) {
		say(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	list_reader *l = list_new(ocelot_one, err, errlen);
	struct dirent *e;
	int bad = !l;
	while (!bad && (e = readdir(d)))
		if (trace_ocelot_dir_member(e->d_name))
			bad = list_add(l, path, e->d_name, strlen(e->d_name), 0) < 0;
	closedir(d);
	if (bad) {
		if (l)
			list_close(&l->base);
		*oom = 1;
		say(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if (l->n == 0) {
		list_close(&l->base);
		*none = 1;
		return NULL;
	}
	/* sorted as names, the NN order when they are zero-padded */
	char **f = l->files;
	qsort(f, l->n, sizeof *f, name_cmp);
	return &l->base;
}

/* An Accel-Sim kernelslist (t open on it; dir: its directory). */
static trace_reader *accelsim_list(textin *t, const char *dir, char *err, size_t errlen, int *oom)
{
	list_reader *l = list_new(accelsim_one, err, errlen);
	if (!l || !(l->listname = l->listname_copy = strdup(textin_shown(t)))) {
		if (l)
			list_close(&l->base);
		*oom = 1;
		say(err, errlen, "%s: out of memory", textin_shown(t));
		textin_close(t);
		return NULL;
	}
	textin_set_maxline(t, 4096);
	char *line;
	size_t len;
	int rc;
	while ((rc = textin_next(t, &line, &len)) > 0) {
		while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		const char *p = line + strspn(line, " \t");
		size_t n = strlen(p);
		if (n == 0 || *p == '#' || !strncmp(p, "Memcpy", 6))
			continue;
		if (!strncmp(p, "kernel", 6)) {
			const char *dot = strstr(p, ".trace");
			if (dot && dot[6] != 'g') {
				rc = textin_fail(t, "'%s' is a raw trace: run Accel-Sim's "
						    "post-traces-processing to get .traceg files", p);
				break;
			}
			if (list_add(l, dir, p, n, textin_line(t)) < 0) {
				*oom = 1;
				rc = textin_fail(t, "out of memory");
				break;
			}
			continue;
		}
		char shown[48];
		rc = textin_fail(t, "expected 'kernel-N.traceg' or 'MemcpyHtoD,...', got '%s'",
				 textin_show(p, n, shown, sizeof shown));
		break;
	}
	if (rc < 0) {
		*oom = *oom || textin_oom(t);
		textin_close(t);
		list_close(&l->base);
		return NULL;
	}
	textin_close(t);
	return &l->base;
}

/* ---------------------------------------------------------------- sniffing */

/* The first line of the peeked text that is not blank. */
static const char *first_line(const char *p, const char *end, size_t *len)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *q = p;
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < e) {
			*len = (size_t)(e - q);
			return q;
		}
		p = e + 1;
	}
	*len = 0;
	return NULL;
}

static int line_starts(const char *l, size_t n, const char *s)
{
	size_t m = strlen(s);
	return n >= m && strncmp(l, s, m) == 0;
}

static int has(const char *l, size_t n, const char *s)
{
	size_t m = strlen(s);
	for (size_t i = 0; i + m <= n; i++)
		if (!strncmp(l + i, s, m))
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- the formats */

static int sniff_rdt(const peek *p)
{
	return p->n >= 8 && !memcmp(p->s, RDT_MAGIC, 8);
}

static int sniff_kdesc(const peek *p)
{
	return kdesc_sniff(p->s, p->n);
}

static int sniff_ocelot(const peek *p)
{
	return p->line && line_starts(p->line, p->len, "blocksize:");
}

/* 1 a kernel's .traceg, 2 a kernelslist naming them */
static int sniff_accelsim(const peek *p)
{
	const char *l = p->line;
	size_t len = p->len;
	if (l && l[0] == '-' && len > 1 && has(l, len, " = "))
		return 1;
	if (l && (line_starts(l, len, "MemcpyHtoD,") || line_starts(l, len, "kernel-")))
		return 2;
	return 0;
}

/* NVBit's output is mixed with the program's: any line of it */
static int sniff_nvbit(const peek *p)
{
	char line[1024];
	const char *end = p->s + p->n;
	for (const char *q = p->s; q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t m = (size_t)((nl ? nl : end) - q);
		snprintf(line, sizeof line, "%.*s", (int)(m < sizeof line - 1 ? m : sizeof line - 1), q);
		if (trace_nvbit_line(line))
			return 1;
		q += m + 1;
	}
	return 0;
}

/* A reader that fails only for memory: t closed then, as open must. */
static trace_reader *made(trace_reader *r, textin *t, const char *path, char *err,
			  size_t errlen, int *oom)
{
	if (!r) {
		textin_close(t);
		*oom = 1;
		say(err, errlen, "%s: out of memory", path);
	}
	return r;
}

static trace_reader *open_ocelot(textin *t, const char *path, int kind, const char *variant,
				 const input_opts *o, char *err, size_t errlen, int *oom)
{
	(void)kind, (void)variant, (void)o;
	return made(ocelot_one(t, path, err, errlen), t, path, err, errlen, oom);
}

static trace_reader *open_nvbit(textin *t, const char *path, int kind, const char *variant,
				const input_opts *o, char *err, size_t errlen, int *oom)
{
	(void)kind, (void)variant, (void)o;
	return made(trace_nvbit_reader(t, err, errlen), t, path, err, errlen, oom);
}

static trace_reader *open_accelsim(textin *t, const char *path, int kind, const char *variant,
				   const input_opts *o, char *err, size_t errlen, int *oom)
{
	(void)variant, (void)o;
	if (kind != 2)
		return made(trace_accelsim_reader(t, err, errlen), t, path, err, errlen, oom);
	char dir[4096]; /* a kernelslist: its files beside it */
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	return accelsim_list(t, dir, err, errlen, oom);
}

static trace_reader *open_rdt(textin *t, const char *path, int kind, const char *variant,
			      const input_opts *o, char *err, size_t errlen, int *oom)
{
	(void)path, (void)kind, (void)variant, (void)o;
	return trace_rdt_reader(t, err, errlen, oom);
}

static trace_reader *open_kdesc(textin *t, const char *path, int kind, const char *variant,
				const input_opts *o, char *err, size_t errlen, int *oom)
{
	(void)path, (void)kind;
	trace_reader *r = kdesc_reader(t, textin_shown(t), variant, o->defines, o->ndefines, err,
				       errlen, oom);
	if (r && o->max_threads_set)
		kdesc_set_max_threads(r, o->max_threads);
	return r;
}

/* A directory with a kernelslist.g: Accel-Sim's traces. */
static trace_reader *accelsim_dir(const char *path, char *err, size_t errlen, int *oom, int *none)
{
	char kl[4096];
	say(kl, sizeof kl, "%s/kernelslist.g", path);
	*oom = 0;
	*none = !is_file(kl);
	if (*none)
		return NULL;
	textin *t = textin_open(kl, LINE_MAX_ALL, err, errlen, oom);
	return t ? accelsim_list(t, path, err, errlen, oom) : NULL;
}

/*
 * The formats, in the order --input-format and messages list them.
 * Content is told by the binary ones first, then the others in this
 * order, the deep ones last; a directory by the first with open_dir that
 * takes it. open owns t: it closes it when it fails.
 */
static const format_desc formats[] = {
	{.name = "ocelot", .what = "an Ocelot .trc", .exts = {".trc", ".trc.gz", ".trc.xz"},
	 .sniff = sniff_ocelot, .open = open_ocelot, .open_dir = ocelot_dir},
	{.name = "nvbit", .what = "NVBit mem_trace output", .exts = {".nvbit", ".nvbit.gz", ".nvbit.xz"},
	 .sniff = sniff_nvbit, .deep = 1, .open = open_nvbit},
	{.name = "accelsim", .what = "an Accel-Sim .traceg",
	 .exts = {".traceg", ".traceg.gz", ".traceg.xz"}, .sniff = sniff_accelsim, .sniff_named = 1,
	 .open = open_accelsim, .open_dir = accelsim_dir},
	{.name = "rdt", .what = "an .rdt", .exts = {".rdt"}, .sniff = sniff_rdt, .binary = 1,
	 .open = open_rdt},
	{.name = "kdesc", .what = "a kernel description", .exts = {".kdesc"}, .sniff = sniff_kdesc,
	 .variants = 1, .open = open_kdesc},
};
static const int nformats = (int)(sizeof formats / sizeof formats[0]);

/* ---------------------------------------------------------------- sniffing */

/* What the sniffers see of t: 0 with *pk, or -1 (t's error). */
static int peek_of(textin *t, peek *pk)
{
	const unsigned char *p;
	size_t n;
	if (textin_peek(t, &p, &n, SNIFF_BYTES) < 0)
		return -1;
	pk->s = (const char *)p;
	pk->n = n;
	pk->line = first_line(pk->s, pk->s + n, &pk->len);
	return 0;
}

/* The format of an open input by its content: its row and *kind; NULL
 * with err if unknown. */
static const format_desc *sniff(textin *t, int *kind, char *err, size_t errlen)
{
	peek pk;
	if (peek_of(t, &pk) < 0)
		return NULL;
	size_t n = pk.n;
	for (int i = 0; i < nformats; i++)
		if (formats[i].binary && (*kind = formats[i].sniff(&pk)))
			return &formats[i];
	if (n == 0) {
		say(err, errlen, "%s: empty file", textin_shown(t));
		return NULL;
	}
	if (memchr(pk.s, '\0', n)) {
		char bin[256] = "";
		for (int i = 0; i < nformats; i++)
			if (formats[i].binary)
				say(bin + strlen(bin), sizeof bin - strlen(bin), "%s%s",
				    bin[0] ? " or " : "", formats[i].what);
		say(err, errlen, "%s: binary data, and not %s", textin_shown(t), bin);
		return NULL;
	}
	for (int deep = 0; deep < 2; deep++)
		for (int i = 0; i < nformats; i++)
			if (!formats[i].binary && formats[i].deep == deep &&
			    (*kind = formats[i].sniff(&pk)))
				return &formats[i];
	char shown[48], list[512] = "";
	for (int i = 0; i < nformats; i++)
		say(list + strlen(list), sizeof list - strlen(list), "%s%s",
		    i == 0 ? "" : i == nformats - 1 ? " or " : ", ", formats[i].what);
	say(err, errlen,
		 "%s:1: not a format rdscope knows (first line '%s'): expected %s "
		 "(or name one with --input-format)",
		 textin_shown(t), pk.line ? textin_show(pk.line, pk.len, shown, sizeof shown) : "",
		 list);
	return NULL;
}

/* ---------------------------------------------------------------- opening */

/* A format by the file name, for content the sniffer could not place
 * (a malformed first line is better reported by its reader). */
static const format_desc *by_extension(const char *path)
{
	size_t n = strlen(path);
	for (int i = 0; i < nformats; i++)
		for (int j = 0; j < 4 && formats[i].exts[j]; j++) {
			size_t m = strlen(formats[i].exts[j]);
			if (n > m && !strcmp(path + n - m, formats[i].exts[j]))
				return &formats[i];
		}
	return NULL;
}

/* The reader of a file or directory (format fmt, NULL: by content); NULL
 * with err. */
static trace_reader *open_reader(const char *path, const char *variant, const input_opts *o,
				 const format_desc *fmt, char *err, size_t errlen, int *oom)
{
	*oom = 0;
	if (strcmp(path, "-") != 0 && is_dir(path)) {
		for (int i = 0; i < nformats; i++) {
			const format_desc *f = &formats[i];
			int none = 0;
			if (!f->open_dir || (fmt && fmt != f))
				continue;
			trace_reader *r = f->open_dir(path, err, errlen, oom, &none);
			if (r || !none)
				return r;
		}
		say(err, errlen, "%s: %s", path, strerror(EISDIR));
		return NULL;
	}
	textin *t = textin_open(path, LINE_MAX_ALL, err, errlen, oom);
	if (!t)
		return NULL;
	const format_desc *f = fmt;
	int kind = 1;
	if (!f) {
		f = sniff(t, &kind, err, errlen);
		if (!f) {
			kind = 1;
			f = by_extension(path); /* the reader then says what is wrong */
		}
		if (!f) {
			*oom = textin_oom(t);
			textin_close(t);
			return NULL;
		}
	} else if (f->sniff_named) {
		peek pk;
		if (peek_of(t, &pk) == 0 && pk.n) {
			kind = f->sniff(&pk);
			if (!kind)
				kind = 1;
		}
	}
	if (variant && !f->variants) {
		say(err, errlen, "%s: ':%s' selects a variant of a kernel description, and this "
				      "is not one", path, variant);
		textin_close(t);
		return NULL;
	}
	if (o->ndefines && !f->variants) {
		say(err, errlen, "%s: -D %s sets a parameter of a kernel description, and this is "
				 "not one", path, o->defines[0]);
		textin_close(t);
		return NULL;
	}
	return f->open(t, path, kind, variant, o, err, errlen, oom);
}

static int status_of(int oom)
{
	return oom ? INPUT_ENOMEM : INPUT_EINPUT;
}

int input_open(const char *spec, const input_opts *o, input **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!o)
		o = &no_opts;
	int bad;
	const format_desc *fmt = fmt_parse(o->format, &bad);
	if (bad) {
		char names[256];
		input_format_names(names, sizeof names);
		say(err, errlen, "%s: unknown input format '%s' (%s)", spec, o->format, names);
		return INPUT_EINPUT;
	}
	input *in = calloc(1, sizeof *in);
	if (!in || !(in->spec = strdup(spec))) {
		free(in);
		say(err, errlen, "%s: out of memory", spec);
		return INPUT_ENOMEM;
	}
	in->index = -1;
	in->sel = o->kernel;
	in->sel_index = -1;
	in->sel_list = in->sel && strchr(in->sel, ',');
	if (in->sel_list) {
		const char *p = in->sel, *it;
		size_t n, items = 0, empty = 0;
		while (list_item(&p, &it, &n))
			items++, empty += !n;
		const char *why = items > 64 ? "at most 64 kernels in a list"
				  : empty    ? "an empty item in the list"
					     : NULL;
		if (why) {
			say(err, errlen, "%s: --kernel %s: %s", spec, in->sel, why);
			input_close(in);
			return INPUT_EINPUT;
		}
	}
	if (in->sel && *in->sel && strspn(in->sel, "0123456789") == strlen(in->sel)) {
		errno = 0;
		unsigned long v = strtoul(in->sel, NULL, 10);
		in->sel_index = errno || v > 1ul << 30 ? 1l << 30 : (long)v;
	}
	if (o->ndefines && (!strncmp(spec, RP_PREFIX, strlen(RP_PREFIX)) ||
			    !strncmp(spec, INPUT_BUILTIN_PREFIX, strlen(INPUT_BUILTIN_PREFIX)))) {
		say(err, errlen, "%s: -D %s sets a parameter of a kernel description, and this is "
				 "not one", spec, o->defines[0]);
		input_close(in);
		return INPUT_EINPUT;
	}
	if (!strncmp(spec, RP_PREFIX, strlen(RP_PREFIX))) { /* a profile's synthetic trace */
		char note[512];
		int rc = rp_load(spec, o && o->line ? o->line : 128, &in->builtin, err, errlen, note,
				 sizeof note);
		if (rc != INPUT_OK) {
			input_close(in);
			return rc;
		}
		if (note[0])
			msg_error("note: %s", note);
		*out = in;
		return INPUT_OK;
	}
	if (!strncmp(spec, INPUT_BUILTIN_PREFIX, strlen(INPUT_BUILTIN_PREFIX))) {
		int rc = builtin_load(spec, &in->builtin, err, errlen);
		if (rc != INPUT_OK) {
			input_close(in);
			return rc;
		}
		*out = in;
		return INPUT_OK;
	}
	/* sample:NAME[:VARIANT] and FILE:VARIANT */
	char path[4096];
	const char *variant = NULL;
	if (!strncmp(spec, SAMPLES_PREFIX, strlen(SAMPLES_PREFIX))) {
		char name[1024];
		const char *s = spec + strlen(SAMPLES_PREFIX);
		const char *colon = strchr(s, ':');
		snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - s) : (int)strlen(s), s);
		variant = colon ? colon + 1 : NULL;
		if (samples_find(name, path, sizeof path, err, errlen) < 0) {
			input_close(in);
			return INPUT_EINPUT;
		}
	} else {
		snprintf(path, sizeof path, "%s", spec);
		const char *colon = strrchr(spec, ':'), *slash = strrchr(spec, '/');
		if (strcmp(spec, "-") && !is_file(spec) && !is_dir(spec) && colon &&
		    (!slash || colon > slash) && colon[1]) {
			snprintf(path, sizeof path, "%.*s", (int)(colon - spec), spec);
			if (is_file(path))
				variant = colon + 1;
			else
				snprintf(path, sizeof path, "%s", spec);
		}
	}
	if (variant && !*variant)
		variant = NULL;
	/* A trace that cannot fit is refused before a byte of it is parsed. */
	if (memcheck_input(path, in->err, sizeof in->err) < 0) {
		say(err, errlen, "%s", in->err);
		input_close(in);
		return INPUT_ENOMEM;
	}
	int oom;
	in->r = open_reader(path, variant, o, fmt, in->err, sizeof in->err, &oom);
	if (!in->r) {
		say(err, errlen, "%s", in->err);
		input_close(in);
		return status_of(oom);
	}
	*out = in;
	return INPUT_OK;
}

/* Does the selection item sel[0 .. n) (a name or an INDEX) select the
 * kernel just announced (name)? */
/* Does sel[0 .. n) name the kernel name? "fdtd_step1_kernel" names every
 * "fdtd_step1_kernel[t=..]" too. */
static int name_selects(const char *name, const char *sel, size_t n)
{
	return !strncmp(name, sel, n) && (name[n] == '\0' || name[n] == '[');
}

/* Does the list item sel[0 .. n) (a name or an INDEX) select the kernel
 * just announced (name)? */
static int item_selects(const input *in, const char *sel, size_t n, const char *name)
{
	if (n && strspn(sel, "0123456789") >= n) {
		char num[24];
		if (n >= sizeof num)
			return 0;
		memcpy(num, sel, n);
		num[n] = '\0';
		return in->index == strtol(num, NULL, 10);
	}
	return name_selects(name, sel, n);
}

/* Is the kernel just announced (name) selected? */
static int selected(input *in, const char *name)
{
	if (!in->sel)
		return 1;
	if (in->sel_index >= 0)
		return in->index == in->sel_index;
	if (name_selects(name, in->sel, strlen(in->sel))) {
		in->sel_hit = ~0ull; /* (a list: a name with commas, given whole) */
		return 1;
	}
	const char *p = in->sel, *it;
	size_t n;
	int hit = 0;
	for (int i = 0; in->sel_list && list_item(&p, &it, &n); i++)
		if (item_selects(in, it, n, name)) {
			in->sel_hit |= 1ull << i;
			hit = 1;
		}
	return hit;
}

/* The first item of a --kernel list that matched no kernel, into item
 * (empty: all matched, or not a list). */
static void unmatched_item(const input *in, char *item, size_t len)
{
	*item = '\0';
	const char *p = in->sel, *it;
	size_t n;
	for (int i = 0; in->sel_list && list_item(&p, &it, &n); i++)
		if (!(in->sel_hit >> i & 1)) {
			snprintf(item, len, "%.*s", (int)n, it);
			return;
		}
}

static void note_name(input *in, const char *name)
{
	if (in->nnames < 4) {
		size_t used = strlen(in->names);
		snprintf(in->names + used, sizeof in->names - used, "%s%s", used ? ", " : "", name);
	} else if (in->nnames == 4) {
		size_t used = strlen(in->names);
		snprintf(in->names + used, sizeof in->names - used, ", ...");
	}
	in->nnames++;
}

/* Announce the next selected kernel without loading it: 1, 0 at the
 * end, -1 on an error (in->err). */
static int advance(input *in, const char **name)
{
	for (;;) {
		if (in->done)
			return 0;
		int rc = in->r->next(in->r, name);
		if (rc <= 0) {
			in->done = 1;
			return rc;
		}
		in->index++;
		note_name(in, *name);
		if (selected(in, *name)) {
			in->matched = 1;
			if (in->sel_index >= 0)
				in->done = 1; /* nothing after an index can match */
			return 1;
		}
	}
}

static int end_of_input(input *in, char *err, size_t errlen)
{
	char item[256];
	unmatched_item(in, item, sizeof item);
	if (in->matched && !*item)
		return INPUT_END;
	if (*item) {
		say(err, errlen, "%s: --kernel %s: no kernel '%s' (kernels: %s)", in->spec, in->sel,
		    item, in->names);
		return INPUT_EINPUT;
	}
	if (in->index < 0)
		say(err, errlen, "%s: no kernels in the input", in->spec);
	else if (in->sel_index >= 0)
		say(err, errlen, "%s: no kernel %s: it has %ld (0..%ld: %s)", in->spec,
			 in->sel, in->index + 1, in->index, in->names); /* the index as given */
	else
		say(err, errlen, "%s: no kernel '%s' (kernels: %s)", in->spec, in->sel,
			 in->names);
	return INPUT_EINPUT;
}

int input_next(input *in, rd_kernel **k, char *err, size_t errlen)
{
	*k = NULL;
	if (in->builtin) {
		if (in->matched || in->done)
			return INPUT_END;
		in->index = 0;
		in->done = 1;
		note_name(in, in->builtin->name);
		if (!selected(in, in->builtin->name))
			return end_of_input(in, err, errlen);
		in->matched = 1;
		*k = in->builtin;
		in->builtin = NULL;
		return INPUT_OK;
	}
	if (!in->r) /* a builtin, taken: a list's other items name nothing */
		return in->matched ? end_of_input(in, err, errlen) : INPUT_END;
	const char *name;
	int rc = advance(in, &name);
	if (rc < 0) {
		say(err, errlen, "%s", in->err);
		return status_of(in->r->oom);
	}
	if (rc == 0)
		return end_of_input(in, err, errlen);
	rc = in->r->load(in->r, k);
	if (rc != TRACE_OK) {
		say(err, errlen, "%s", in->err);
		return rc == TRACE_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
	}
	return INPUT_OK;
}

int input_skip(input *in, char *err, size_t errlen)
{
	if (in->builtin || !in->r) { /* (built in memory: nothing to read) */
		rd_kernel *k;
		int rc = input_next(in, &k, err, errlen);
		rd_kernel_free(k);
		return rc;
	}
	const char *name;
	int rc = advance(in, &name);
	if (rc < 0) {
		say(err, errlen, "%s", in->err);
		return status_of(in->r->oom);
	}
	return rc == 0 ? end_of_input(in, err, errlen) : INPUT_OK;
}

static int keep_none(void *ctx, uint64_t block)
{
	(void)ctx;
	(void)block;
	return 0;
}

int input_next_shape(input *in, rd_kernel **k, uint64_t *nblocks, char *err, size_t errlen)
{
	*k = NULL;
	*nblocks = 0;
	if (in->builtin || !in->r || !in->r->load_blocks)
		return input_next(in, k, err, errlen);
	const char *name;
	int rc = advance(in, &name);
	if (rc < 0) {
		say(err, errlen, "%s", in->err);
		return status_of(in->r->oom);
	}
	if (rc == 0)
		return end_of_input(in, err, errlen);
	rc = in->r->load_blocks(in->r, keep_none, NULL, nblocks, k);
	if (rc != TRACE_OK) {
		say(err, errlen, "%s", in->err);
		return rc == TRACE_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
	}
	return INPUT_OK;
}

int input_blocks(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx, rd_kernel **k,
		 char *err, size_t errlen)
{
	*k = NULL;
	if (!in->r || !in->r->load_blocks) {
		say(err, errlen, "%s: the kernel cannot be built in parts", in->spec);
		return INPUT_EINPUT;
	}
	int rc = in->r->load_blocks(in->r, keep, ctx, NULL, k);
	if (rc != TRACE_OK) {
		say(err, errlen, "%s", in->err);
		return rc == TRACE_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
	}
	return INPUT_OK;
}

int input_can_chunk(const input *in)
{
	return in->r && in->r->load_chunks;
}

int input_chunks(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx,
		 int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, rd_kernel **k, char *err,
		 size_t errlen)
{
	*k = NULL;
	if (!input_can_chunk(in)) {
		say(err, errlen, "%s: the kernel cannot be built in chunks", in->spec);
		return INPUT_EINPUT;
	}
	int rc = in->r->load_chunks(in->r, keep, ctx, sink, sctx, k);
	if (rc != TRACE_OK) {
		say(err, errlen, "%s", in->err);
		return rc == TRACE_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
	}
	return INPUT_OK;
}

int input_can_stream(const input *in)
{
	return in->r && in->r->load_stream;
}

int input_stream(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx, rd_kernel **k,
		 rd_access_src **src, char *err, size_t errlen)
{
	*k = NULL;
	*src = NULL;
	if (!input_can_stream(in)) {
		say(err, errlen, "%s: the kernel cannot be streamed", in->spec);
		return INPUT_EINPUT;
	}
	int rc = in->r->load_stream(in->r, keep, ctx, k, src);
	if (rc != TRACE_OK) {
		say(err, errlen, "%s", in->err);
		return rc == TRACE_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
	}
	return INPUT_OK;
}

const char *input_stream_error(const input *in, const rd_access_src *src)
{
	return src && in->r && in->r->stream_error ? in->r->stream_error(src) : NULL;
}

void input_stream_free(input *in, rd_access_src *src)
{
	if (src && in->r && in->r->stream_free)
		in->r->stream_free(src);
}

void input_close(input *in)
{
	if (!in)
		return;
	if (in->r)
		in->r->close(in->r);
	rd_kernel_free(in->builtin);
	free(in->spec);
	free(in);
}

int input_load(const char *spec, rd_kernel **out, char *err, size_t errlen)
{
	return input_load_with(spec, NULL, out, err, errlen);
}

int input_load_with(const char *spec, const input_opts *o, rd_kernel **out, char *err,
		    size_t errlen)
{
	*out = NULL;
	input *in;
	int rc = input_open(spec, o, &in, err, errlen);
	if (rc != INPUT_OK)
		return rc;
	rd_kernel *k;
	rc = input_next(in, &k, err, errlen);
	if (rc == INPUT_END) /* only with a selection that matched nothing */
		rc = INPUT_EINPUT;
	if (rc != INPUT_OK) {
		input_close(in);
		return rc;
	}
	/* one kernel, not the first of several */
	const char *name;
	int more = in->r ? advance(in, &name) : 0;
	if (more != 0) {
		if (more > 0 && !in->sel)
			say(err, errlen, "%s: more than one kernel (%s); choose one with --kernel "
					      "NAME|INDEX", spec, in->names);
		else if (more > 0)
			say(err, errlen, "%s: --kernel %s matches more than one kernel (%s); give "
					      "a full name or an INDEX", spec, in->sel, in->names);
		else
			say(err, errlen, "%s", in->err);
		rd_kernel_free(k);
		rc = more < 0 ? status_of(in->r->oom) : INPUT_EINPUT;
		input_close(in);
		return rc;
	}
	input_close(in);
	*out = k;
	return INPUT_OK;
}

int input_names(const char *spec, const input_opts *o, char ***names, size_t *n, char *err,
		size_t errlen)
{
	*names = NULL;
	*n = 0;
	input_opts all = o ? *o : no_opts;
	all.kernel = NULL;
	input *in;
	int rc = input_open(spec, &all, &in, err, errlen);
	if (rc != INPUT_OK)
		return rc;
	char **v = NULL;
	size_t cnt = 0;
	for (;;) {
		const char *name;
		int r;
		if (in->builtin) {
			name = in->builtin->name;
			r = cnt == 0;
		} else {
			r = in->r->next(in->r, &name);
		}
		if (r < 0) {
			say(err, errlen, "%s", in->err);
			rc = status_of(in->r->oom);
			break;
		}
		if (r == 0)
			break;
		char **nv = cnt % 64 == 0 ? realloc(v, (cnt + 64) * sizeof *v) : v;
		char *copy = nv ? strdup(name) : NULL;
		if (nv)
			v = nv;
		if (!copy) {
			say(err, errlen, "%s: out of memory", spec);
			rc = INPUT_ENOMEM;
			break;
		}
		v[cnt++] = copy;
	}
	input_close(in);
	if (rc != INPUT_OK) {
		input_names_free(v, cnt);
		return rc;
	}
	*names = v;
	*n = cnt;
	return INPUT_OK;
}

void input_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

trace_reader *input_reader(input *in)
{
	return in->r;
}
