/*
 * A result stream: the format's writer is chosen once (output_begin) and
 * called through its ops (output_fmt.h).
 */
#include "output_fmt.h"

#include <string.h>

int output_format_parse(const char *name, enum output_format *fmt)
{
	static const char *const names[] = {"text", "csv", "json"};
	for (int i = 0; i < 3; i++) {
		if (strcmp(name, names[i]) == 0) {
			*fmt = (enum output_format)i;
			return 0;
		}
	}
	return -1;
}

/* The header (CSV) or document start (JSON) is written with the first
 * run, so a run that fails on its first input leaves no output at all. */
static void output_start(output *o)
{
	if (o->started)
		return;
	o->started = 1;
	if (o->ops->begin)
		o->ops->begin(o);
}

void output_begin(output *o, FILE *f, enum output_format fmt)
{
	o->f = f;
	o->fmt = fmt;
	o->ops = fmt == OUTPUT_CSV ? &output_csv_ops : fmt == OUTPUT_JSON ? &output_json_ops : &output_text_ops;
	o->nruns = 0;
	o->started = 0;
	o->sweep = 0;
	o->json_header = NULL;
	o->extra_keys = NULL;
	o->nextra = 0;
	o->sweep_id = NULL;
	o->by = OUTPUT_BY_NONE;
	o->spaces = 0;
}

void output_begin_sweep(output *o, FILE *f, enum output_format fmt, const char *json_header,
			const char *const *extra_keys, int nextra, const char *sweep_id)
{
	output_begin(o, f, fmt);
	o->sweep = 1;
	o->json_header = json_header;
	o->extra_keys = extra_keys;
	o->nextra = nextra;
	o->sweep_id = sweep_id;
}

void output_write_run(output *o, const output_run *run)
{
	if (!o->started && run->config)
		o->spaces = rd_config_has_spaces(run->config);
	output_start(o);
	o->ops->run(o, run);
	o->nruns++;
}

void output_end(output *o)
{
	output_start(o);
	if (o->ops->end)
		o->ops->end(o);
}


int output_by_parse(const char *name, enum output_by *by)
{
	static const char *const names[] = {"none", "site", "array"};
	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0) {
			*by = (enum output_by)i;
			return 0;
		}
	return -1;
}

void output_doc_begin(output_doc *d, FILE *f, enum output_format fmt, const output_doc_formats *w,
		      const void *head)
{
	d->f = f;
	d->ops = fmt == OUTPUT_CSV ? w->csv : fmt == OUTPUT_JSON ? w->json : w->text;
	d->nelem = 0;
	if (d->ops->begin)
		d->ops->begin(d, head);
}

int output_doc_item(output_doc *d, const void *rec)
{
	return d->ops->item ? d->ops->item(d, rec) : 0;
}

void output_doc_end(output_doc *d, const void *tail)
{
	if (d->ops->end)
		d->ops->end(d, tail);
}

void output_doc_json_next(output_doc *d)
{
	fputs(d->nelem++ ? ",\n" : "\n", d->f);
}

void output_doc_json_open(output_doc *d, const char *name)
{
	fprintf(d->f, "{\"format\":\"%s\",\"version\":1,", name);
}

void output_doc_json_list_end(output_doc *d, const void *tail)
{
	(void)tail;
	fputs("\n]}\n", d->f);
}
