/*
 * Merging shard outputs (see merge.h). Both formats are ours, so records
 * are found textually: a JSON sweep writes one run per line, starting
 * {"run":N, and a CSV record starts with its run number. Nothing is
 * reformatted: records are copied byte for byte.
 */
#include "merge.h"
#include "samefile.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "writers/writers.h"
#include "util/util.h"

#define JSON_MAGIC "{\"format\":\"rdscope-results\","
#define JSON_RUNS "\"runs\":["
#define SHARD_KEY "\"shard\":{\"index\":"
#define HIST_HEADER "run,point,input,kernel,ways,distance,count"

/* One record: the run it belongs to and where its text is. */
typedef struct record {
	unsigned long run;
	size_t file, seq;    /* for a stable order within a run */
	const char *text;
	size_t len;
} record;

typedef struct merge_in {
	char *data;          /* whole file, NUL-terminated */
	size_t size;
	const char *name;
	char *header;        /* JSON: first line without the shard; CSV: header */
	long shard_k, shard_n; /* JSON shard, -1 if none */
} merge_in;

typedef struct merge_state {
	merge_in *in;
	int nin;
	record *recs;
	size_t nrecs, cap;
	const char *sweep_id; /* CSV: the first row's sweep column */
	size_t sweep_id_len;
} merge_state;

/* Why the start of a file (n bytes) is not a sweep output, or NULL if it
 * may be one so far. */
static const char *not_output(const char *p, size_t n)
{
	static const char *const starts[] = {JSON_MAGIC, "run,point,"};
	for (int i = 0; i < 2; i++) {
		size_t k = strlen(starts[i]);
		if (strncmp(p, starts[i], n < k ? n : k) == 0)
			return NULL;
	}
	return "not a CSV or JSON output of 'rdscope sweep' (text output cannot be merged)";
}

/* Read a shard output whole. Checked while it is read, so that /dev/zero
 * or another endless or binary source is refused at its first bytes: no
 * NUL byte, and it starts as a CSV or JSON sweep output does. -1 after
 * saying why: *oom tells out of memory (exit 1) from a bad file (exit 2). */
static int read_all(const char *path, merge_in *m, int *oom)
{
	char err[1024];
	if (read_text_file(path, SIZE_MAX, &m->data, &m->size, err, sizeof err, oom,
			   "NUL byte: not an rdscope sweep output", not_output) < 0) {
		msg_error("%s", err);
		return -1;
	}
	m->name = path;
	return 0;
}

static int add_record(merge_state *s, unsigned long run, size_t file, const char *text,
		      size_t len)
{
	if (s->nrecs == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		record *r = realloc(s->recs, cap * sizeof *r);
		if (!r) {
			msg_error("out of memory");
			return -2; /* exit 1, a runtime error */
		}
		s->recs = r;
		s->cap = cap;
	}
	s->recs[s->nrecs] = (record){run, file, s->nrecs, text, len};
	s->nrecs++;
	return 0;
}

/* The unsigned number at s, or -1; *end after it. */
static long parse_number(const char *s, const char **end)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *e;
	errno = 0;
	unsigned long v = strtoul(s, &e, 10);
	if (errno || v > 1ul << 40)
		return -1;
	*end = e;
	return (long)v;
}

/* -1 (exit 2); "- 1" makes it -2 (exit 1) for out of memory. */
static int bad_file(const merge_in *m, const char *why)
{
	msg_error("%s: %s", m->name, why);
	return -1;
}

/*
 * Is a JSON run record (len bytes at p) what sweep writes? merge copies
 * records as they are, so it checks them first: valid JSON, nested at most
 * JSON_MAX_DEPTH deep (checked without recursion), and a number (or null,
 * for a rate without requests) wherever sweep writes one: "run", "point"
 * and the rates, and every member of "counts", "threads", "case_misses",
 * "timing" and "metrics". NULL, or what is wrong.
 */
#define JSON_MAX_DEPTH 8
static const char *json_record_bad(const char *p, size_t len)
{
	static const char *const numeric[] = {"\"run\"", "\"point\"", "\"miss_rate\"",
					      "\"miss_rate_all\""};
	static const char *const groups[] = {"\"counts\"", "\"threads\"", "\"case_misses\"",
					     "\"timing\"", "\"metrics\""};
	const char *end = p + len, *key = NULL, *key1 = NULL;
	size_t keylen = 0, key1len = 0;
	char stack[JSON_MAX_DEPTH]; /* '{' or '[' of each open container */
	int depth = 0, want_value = 1, want_key = 0, opened = 0;
	while (p < end) {
		char c = *p;
		if (c == ' ' || c == '\t') {
			p++;
			continue;
		}
		/* just after { or [: the one place a container may close empty */
		int empty_ok = opened;
		opened = 0;
		if (want_key && c != '"' && !(c == '}' && empty_ok))
			return "malformed JSON (a member name expected)";
		if (c == '{' || c == '[') {
			if (!want_value)
				return "malformed JSON";
			if (depth == JSON_MAX_DEPTH)
				return "JSON nested too deeply";
			/* the group a depth-2 object belongs to */
			if (depth == 1) {
				key1 = key;
				key1len = keylen;
			}
			stack[depth++] = c;
			p++;
			want_value = c == '[';
			want_key = c == '{';
			opened = 1;
			key = NULL;
			continue;
		}
		if (c == '}' || c == ']') {
			if (!depth || stack[depth - 1] != (c == '}' ? '{' : '['))
				return "malformed JSON (unbalanced brackets)";
			if ((want_value || want_key) && !empty_ok)
				return "malformed JSON (a value expected before the bracket)";
			depth--;
			p++;
			want_value = want_key = 0;
			if (!depth && p != end)
				return "text after the run's closing }";
			continue;
		}
		if (c == ',') {
			if (want_value || !depth)
				return "malformed JSON";
			p++;
			want_value = stack[depth - 1] == '[';
			want_key = stack[depth - 1] == '{';
			key = NULL;
			continue;
		}
		if (!want_value && !want_key)
			return "malformed JSON";
		const char *v = p;
		if (c == '"') {
			for (p++; p < end && *p != '"'; p++) {
				if ((unsigned char)*p < 0x20)
					return "malformed JSON (a control character in a string)";
				if (*p != '\\')
					continue;
				if (++p == end || !strchr("\"\\/bfnrtu", *p))
					return "malformed JSON (an escape JSON does not have)";
				for (int h = 0; *p == 'u' && h < 4; h++)
					if (++p == end || !isxdigit((unsigned char)*p))
						return "malformed JSON (\\u and four hex digits expected)";
			}
			if (p == end)
				return "malformed JSON (an unterminated string)";
			p++;
			if (want_key) {
				key = v;
				keylen = (size_t)(p - v);
				while (p < end && (*p == ' ' || *p == '\t'))
					p++;
				if (p == end || *p != ':')
					return "malformed JSON (':' expected)";
				p++;
				want_key = 0;
				want_value = 1;
				continue;
			}
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			size_t n = output_json_number_len(p);
			if (!n || p + n > end)
				return "malformed JSON (a number)";
			p += n;
		} else if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4)) {
			p += 4;
		} else if (!strncmp(p, "false", 5)) {
			p += 5;
		} else {
			return "malformed JSON (a value expected)";
		}
		/* Numbers where sweep writes numbers. */
		int must = 0;
		for (size_t i = 0; key && depth == 1 && i < sizeof numeric / sizeof *numeric; i++)
			must |= keylen == strlen(numeric[i]) && !memcmp(key, numeric[i], keylen);
		for (size_t i = 0; key1 && depth == 2 && stack[1] == '{' && i < sizeof groups / sizeof *groups;
		     i++)
			must |= key1len == strlen(groups[i]) && !memcmp(key1, groups[i], key1len);
		if (must && *v != '-' && (*v < '0' || *v > '9') && strncmp(v, "null", 4))
			return "a count or rate that is not a number";
		want_value = 0;
	}
	return depth || want_value ? "malformed JSON (the run ends early)" : NULL;
}

/* JSON: header line, one run per line, "]}" last. */
/* The file's first hlen bytes (its header line) as m->header. */
static int header_copy(merge_in *m, size_t hlen)
{
	m->header = malloc(hlen + 1);
	if (!m->header)
		return -1;
	memcpy(m->header, m->data, hlen);
	m->header[hlen] = '\0';
	return 0;
}

static int parse_json(merge_state *s, size_t fi)
{
	merge_in *m = &s->in[fi];
	char *nl = strchr(m->data, '\n');
	if (!nl)
		return bad_file(m, "truncated JSON (no line break)");
	size_t hlen = (size_t)(nl - m->data);
	if (hlen < strlen(JSON_RUNS) || memcmp(nl - strlen(JSON_RUNS), JSON_RUNS, strlen(JSON_RUNS)))
		return bad_file(m, "JSON header does not end with \"runs\":[");
	if (header_copy(m, hlen) < 0)
		return bad_file(m, "out of memory") - 1;
	/* Drop the shard member: the unsharded header has none. */
	m->shard_k = m->shard_n = -1;
	char *sh = strstr(m->header, SHARD_KEY);
	if (sh) {
		const char *p = sh + strlen(SHARD_KEY);
		m->shard_k = parse_number(p, &p);
		if (m->shard_k < 0 || strncmp(p, ",\"count\":", 9) != 0 ||
		    (m->shard_n = parse_number(p + 9, &p)) < 1 || strncmp(p, "},", 2) != 0)
			return bad_file(m, "malformed \"shard\" in the JSON header");
		memmove(sh, p + 2, strlen(p + 2) + 1);
	}
	if (!strstr(m->header, "\"sweep\":{"))
		return bad_file(m, "not the output of 'rdscope sweep' (no \"sweep\" in the header)");
	const char *line = nl + 1;
	for (;;) {
		const char *end = strchr(line, '\n');
		if (!end)
			return bad_file(m, "truncated JSON (no closing ]})");
		size_t len = (size_t)(end - line);
		if (len == 2 && memcmp(line, "]}", 2) == 0) {
			if (end[1] != '\0')
				return bad_file(m, "text after the closing ]}");
			return 0;
		}
		const char *p = line + strlen("{\"run\":");
		long run = strncmp(line, "{\"run\":", 7) == 0 ? parse_number(p, &p) : -1;
		if (run < 0)
			return bad_file(m, "a JSON run does not start with {\"run\":N");
		/* Separators are written again on output. */
		if (line[len - 1] == ',')
			len--;
		const char *bad = json_record_bad(line, len);
		if (bad) {
			char why[160];
			snprintf(why, sizeof why, "run %ld: %s", run, bad);
			return bad_file(m, why);
		}
		int rc = add_record(s, (unsigned long)run, fi, line, len);
		if (rc < 0)
			return rc;
		line = end + 1;
	}
}

/* Length of the CSV record at p (RFC 4180: newlines may sit in quotes). */
static size_t csv_record_len(const char *p, int *complete, size_t *fields)
{
	int quoted = 0;
	const char *q = p;
	*fields = 1;
	for (; *q; q++) {
		if (*q == '"')
			quoted = !quoted;
		else if (*q == '\n' && !quoted)
			break;
		else if (*q == ',' && !quoted)
			++*fields;
	}
	*complete = *q == '\n';
	return (size_t)(q - p);
}

static int parse_csv(merge_state *s, size_t fi)
{
	merge_in *m = &s->in[fi];
	int complete;
	size_t nf, hf;
	size_t hlen = csv_record_len(m->data, &complete, &hf);
	if (!complete)
		return bad_file(m, "no complete CSV header line");
	/* A sweep's CSV ends in the sweep's id: every row of every shard
	 * carries the same one. */
	int has_id = hlen >= 6 && !memcmp(m->data + hlen - 6, ",sweep", 6);
	if (header_copy(m, hlen) < 0)
		return bad_file(m, "out of memory") - 1;
	m->shard_k = m->shard_n = -1;
	for (const char *p = m->data + hlen + 1; *p;) {
		size_t len = csv_record_len(p, &complete, &nf);
		if (!complete)
			return bad_file(m, "last CSV line is incomplete (no line break)");
		const char *e;
		long run = parse_number(p, &e);
		if (run < 0 || *e != ',')
			return bad_file(m, "a CSV row does not start with its run number");
		char why[160];
		if (nf != hf) {
			snprintf(why, sizeof why, "run %ld has %zu fields, the header %zu", run, nf, hf);
			return bad_file(m, why);
		}
		if (has_id) {
			const char *id = p + len;
			while (id > p && id[-1] != ',')
				id--;
			size_t idlen = (size_t)(p + len - id);
			if (!s->sweep_id) {
				s->sweep_id = id;
				s->sweep_id_len = idlen;
			} else if (idlen != s->sweep_id_len || memcmp(id, s->sweep_id, idlen)) {
				snprintf(why, sizeof why, "run %ld is of another sweep than %s's (another "
							  "base configuration, --vary values or inputs)",
					 run, s->in[0].name);
				return bad_file(m, why);
			}
		}
		int rc = add_record(s, (unsigned long)run, fi, p, len);
		if (rc < 0)
			return rc;
		p += len + 1;
	}
	return 0;
}

static int record_cmp(const void *a, const void *b)
{
	const record *x = a, *y = b;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every shard once, all of one sweep (JSON names its shards). */
static int check_shards(const merge_state *s)
{
	long n = s->in[0].shard_n;
	for (int i = 0; i < s->nin; i++) {
		if (s->in[i].shard_n != n) {
			msg_error("%s: shard count differs from %s's", s->in[i].name,
				s->in[0].name);
			return -1;
		}
		for (int j = 0; j < i; j++) {
			if (s->in[j].shard_k == s->in[i].shard_k) {
				msg_error("%s and %s: the same shard %ld/%ld", s->in[j].name,
					s->in[i].name, s->in[i].shard_k, n);
				return -1;
			}
		}
	}
	if (n > 0 && s->nin != n) {
		for (long k = 0; k < n; k++) {
			int found = 0;
			for (int i = 0; i < s->nin; i++)
				found |= s->in[i].shard_k == k;
			if (!found) {
				msg_error("shard %ld/%ld is missing", k, n);
				return -1;
			}
		}
	}
	return 0;
}

/* Runs 0..n-1, each once (one row per run; histograms may have several). */
static int check_runs(const merge_state *s, int one_per_run, long total)
{
	unsigned long expect = 0;
	for (size_t i = 0; i < s->nrecs; i++) {
		unsigned long r = s->recs[i].run;
		if (i && r == s->recs[i - 1].run) {
			/* several rows of a run (histogram bins, sites) come
			 * from one shard: two shards with one run are a mistake */
			if (!one_per_run && s->recs[i].file == s->recs[i - 1].file)
				continue;
			msg_error("run %lu appears twice (%s and %s)", r,
				s->in[s->recs[i - 1].file].name, s->in[s->recs[i].file].name);
			return -1;
		}
		if (one_per_run && r != expect) {
			msg_error("run %lu is missing (a shard output not given?)",
				expect);
			return -1;
		}
		expect = r + 1;
	}
	if (total >= 0 && (unsigned long)total != expect) {
		msg_error("%lu of %ld runs present (a shard output not given?)",
			expect, total);
		return -1;
	}
	return 0;
}

static void write_merged(const merge_state *s, FILE *f, int json)
{
	fputs(s->in[0].header, f);
	fputc('\n', f);
	for (size_t i = 0; i < s->nrecs; i++) {
		if (json && i)
			fputs(",\n", f);
		fwrite(s->recs[i].text, 1, s->recs[i].len, f);
		if (!json)
			fputc('\n', f);
	}
	if (json)
		fputs(s->nrecs ? "\n]}\n" : "]}\n", f);
}

static int merge_files(merge_state *s, const cli *c)
{
	int json = strncmp(s->in[0].data, JSON_MAGIC, strlen(JSON_MAGIC)) == 0;
	for (int i = 0; i < s->nin; i++) {
		merge_in *m = &s->in[i];
		int is_json = strncmp(m->data, JSON_MAGIC, strlen(JSON_MAGIC)) == 0;
		if (!is_json && strncmp(m->data, "run,point,", 10) != 0)
			return bad_file(m, "not a CSV or JSON output of 'rdscope sweep' "
					   "(text output cannot be merged)");
		if (is_json != json)
			return bad_file(m, "mixes CSV and JSON files");
		int rc = json ? parse_json(s, (size_t)i) : parse_csv(s, (size_t)i);
		if (rc < 0)
			return rc;
		if (strcmp(m->header, s->in[0].header) != 0)
			return bad_file(m, json ? "not of the same sweep as the first file (header differs)"
						: "CSV header differs from the first file's");
	}
	if (json && check_shards(s) < 0)
		return -1;
	qsort(s->recs, s->nrecs, sizeof *s->recs, record_cmp);
	long total = -1;
	const char *t = json ? strstr(s->in[0].header, "\"runs_total\":") : NULL;
	if (t)
		total = parse_number(t + strlen("\"runs_total\":"), &t);
	int histogram = !json && strcmp(s->in[0].header, HIST_HEADER) == 0;
	/* --by site|array: a CSV row per site, several per run */
	int by_site = !json && strstr(s->in[0].header, ",site,pc,line,load,reference,array,") != NULL;
	if (check_runs(s, !histogram && !by_site, total) < 0)
		return -1;
	char err[1024];
	outfile o;
	if (outfile_open(&o, c->output ? c->output : "-", err, sizeof err) < 0) {
		msg_error("%s", err);
		return -2;
	}
	write_merged(s, o.f, json);
	if (outfile_commit(&o, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		return -2;
	}
	return 0;
}

int merge_check(const cli *c)
{
	return c->ninputs ? 0 : cli_command_error(c, "%s: no FILE given");
}

int merge_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	merge_state s = {.nin = c->ninputs};
	s.in = calloc((size_t)c->ninputs, sizeof *s.in);
	if (!s.in) {
		msg_error("out of memory");
		return EXIT_RUNTIME;
	}
	int rc = 0;
	for (int i = 0; i < c->ninputs && rc == 0; i++) {
		int oom = 0;
		if (read_all(c->inputs[i], &s.in[i], &oom) < 0)
			rc = oom ? -2 : -1;
	}
	if (rc == 0)
		rc = merge_files(&s, c);
	for (int i = 0; i < s.nin; i++) {
		free(s.in[i].data);
		free(s.in[i].header);
	}
	free(s.in);
	free(s.recs);
	return rc == 0 ? EXIT_OK : rc == -2 ? EXIT_RUNTIME : EXIT_USAGE;
}
