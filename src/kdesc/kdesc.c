/*
 * Kernel descriptions (see kdesc.h and man/rdscope-kernel.5): opening and
 * the reader; kdesc_compile.c checks and compiles a description,
 * kdesc_run.c runs its launches, kdesc_diag.c (beneath them all) formats
 * errors and finds lines.
 *
 * Opening a description does all the checking: libconfig parses the file,
 * then every setting is validated and every statement compiled into a
 * small tree of statements over expression nodes (kdesc_expr.h), and the
 * launch sequence is unrolled. Loading a kernel runs its body once per
 * thread, in the tracer's thread order, feeding the kernel builder as a
 * trace reader would. Errors name the file and the line of the setting;
 * errors found while running (an index out of bounds, a division by zero)
 * also name the kernel, block and thread.
 *
 * libconfig gives a list element the line of the token after it, so the
 * last element of a list can be reported one line late; for strings the
 * line is looked up in the text (kd_line).
 */
#include "kdesc_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- reader */

static int kd_next(trace_reader *rr, const char **name)
{
	kdesc *d = (kdesc *)rr;
	if (d->next >= d->nlaunches)
		return 0;
	*name = d->launches[d->next++].name;
	return 1;
}

void kdesc_set_max_threads(trace_reader *r, uint32_t cap)
{
	if (kdesc_is(r)) {
		kdesc *d = (kdesc *)r;
		d->threads_set = 1;
		d->threads_cap = cap;
	}
}

static void kd_close(trace_reader *rr)
{
	kdesc *d = (kdesc *)rr;
	rd_kernel_spare_free(d->spare);
	if (d->cf_live)
		config_destroy(&d->cf);
	for (int i = 0; i < d->nsyms; i++)
		free(d->syms[i].name);
	free(d->syms);
	for (int i = 0; i < d->narrays; i++)
		free(d->arrays[i].name);
	free(d->arrays);
	for (int i = 0; i < d->nkernels; i++)
		free(d->kernels[i].name);
	free(d->kernels);
	for (size_t i = 0; i < d->nlaunches; i++)
		free(d->launches[i].name);
	free(d->launches);
	free(d->refs);
	free(d->stmts);
	free(d->lists);
	free(d->init);
	kx_prog_free(&d->prog);
	free(d->text);
	free(d->shown);
	free(d);
}

/* Read the whole text (descriptions are small). */
static char *read_all(textin *t, char *err, size_t errlen, int *oom)
{
	size_t cap = 64 * 1024, len = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		*oom = 1;
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= KDESC_MAX_BYTES) {
				snprintf(err, errlen, "%s: larger than %u bytes: not a kernel description?",
					 textin_shown(t), KDESC_MAX_BYTES);
				free(buf);
				return NULL;
			}
			cap *= 2;
			char *b = realloc(buf, cap + 1);
			if (!b) {
				free(buf);
				*oom = 1;
				return NULL;
			}
			buf = b;
		}
		long n = textin_read(t, buf + len, cap - len);
		if (n < 0) {
			*oom = textin_oom(t);
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: NUL byte in text (is this a binary file?)", textin_shown(t));
		free(buf);
		return NULL;
	}
	return buf;
}

trace_reader *kdesc_reader(textin *t, const char *shown, const char *variant,
			   const char *const *defines, size_t ndefines, char *err, size_t errlen,
			   int *oom)
{
	*oom = 0;
	kdesc *d = calloc(1, sizeof *d);
	if (d)
		d->shown = strdup(shown);
	if (!d || !d->shown) {
		if (d)
			free(d);
		textin_close(t);
		*oom = 1;
		snprintf(err, errlen, "%s: out of memory", shown);
		return NULL;
	}
	d->base.next = kd_next;
	d->base.load = kd_load;
	d->base.load_blocks = kd_load_blocks;
	d->base.load_chunks = kd_load_chunks;
	d->base.load_stream = kd_load_stream;
	d->base.stream_error = kd_stream_part_error;
	d->base.stream_free = kd_stream_part_free;
	d->base.close = kd_close;
	d->defines = defines;
	d->ndefines = ndefines;
	d->base.err = err;
	d->base.errlen = errlen;
	err[0] = '\0';
	d->text = read_all(t, err, errlen, oom);
	textin_close(t);
	if (!d->text) {
		if (*oom || !err[0])
			snprintf(err, errlen, "%s: out of memory", shown), *oom = 1;
		kd_close(&d->base);
		return NULL;
	}
	/* integers beyond 32 bits read as written, not truncated by libconfig */
	long wide = cfg_widen_ints(&d->text);
	if (wide) {
		if (wide < 0)
			kd_oom(d);
		else
			kd_fail(d, (unsigned)wide, "an integer beyond 64 bits (%lld to %lld, hex up "
						   "to 16 digits)", (long long)INT64_MIN,
				(long long)INT64_MAX);
		*oom = d->oom;
		kd_close(&d->base);
		return NULL;
	}
	if (kd_compile(d, variant) < 0) {
		*oom = d->oom;
		kd_close(&d->base);
		return NULL;
	}
	return &d->base;
}

int kdesc_sniff(const char *text, size_t n)
{
	const char *p = text, *end = text + n;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (p < end && *p == '#') {
			while (p < end && *p != '\n')
				p++;
		} else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
			p += 2;
			while (end - p >= 2 && !(p[0] == '*' && p[1] == '/'))
				p++;
			p += 2;
		} else {
			break;
		}
	}
	if (end - p < 6 || strncmp(p, "format", 6) != 0)
		return 0;
	p += 6;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || (*p != '=' && *p != ':'))
		return 0;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t m = strlen("\"" KDESC_FORMAT "\"");
	return (size_t)(end - p) >= m && strncmp(p, "\"" KDESC_FORMAT "\"", m) == 0;
}

/* The libconfig text of path parsed into cf (the caller destroys it);
 * -1 when it cannot be. */
static int summary_read(const char *path, config_t *cf)
{
	char why[128];
	config_init(cf);
	char *text = cfg_read_text(path, KDESC_MAX_BYTES, "kernel description", why, sizeof why);
	if (!text)
		return -1;
	int ok = !cfg_include_line(text) && !cfg_nesting_line(text, CFG_MAX_NEST) &&
		 config_read_string(cf, text);
	free(text);
	return ok ? 0 : -1;
}

void kdesc_try(const char *path, char *out, size_t len)
{
	config_t cf;
	const char *s;
	out[0] = '\0';
	if (summary_read(path, &cf) == 0 && config_lookup_string(&cf, "try", &s))
		snprintf(out, len, "%s", s);
	config_destroy(&cf);
}

int kdesc_summary(const char *path, char *desc, size_t desclen, char *variants, size_t varlen)
{
	desc[0] = variants[0] = '\0';
	char why[128];
	char *text = cfg_read_text(path, KDESC_MAX_BYTES, "kernel description", why, sizeof why);
	if (!text)
		return -1;
	config_t cf;
	config_init(&cf);
	if (cfg_include_line(text) || cfg_nesting_line(text, CFG_MAX_NEST) ||
	    !config_read_string(&cf, text)) {
		free(text);
		config_destroy(&cf);
		return -1;
	}
	const char *s;
	if (config_lookup_string(&cf, "description", &s))
		snprintf(desc, desclen, "%s", s);
	config_setting_t *v = config_lookup(&cf, "variants");
	size_t used = 0;
	for (int i = 0; v && i < config_setting_length(v) && used < varlen; i++) {
		int n = snprintf(variants + used, varlen - used, "%s%s", i ? "," : "",
				 config_setting_name(config_setting_get_elem(v, (unsigned)i)));
		if (n < 0)
			break;
		used += (size_t)n;
	}
	config_destroy(&cf);
	free(text);
	return 0;
}

