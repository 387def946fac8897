/*
 * Long-form histogram CSV (see histogram.h).
 */
#include "histogram.h"

#include "output.h"

void histogram_header(FILE *f)
{
	fputs("run,point,input,kernel,ways,distance,count\n", f);
}

static void row_start(FILE *f, unsigned long run, unsigned long point, const char *input,
		      const char *kernel, const rd_config *cfg)
{
	fprintf(f, "%lu,%lu,", run, point);
	output_csv_field(f, input);
	putc(',', f);
	output_csv_field(f, kernel);
	fprintf(f, ",%u,", cfg->l1_ways);
}

void histogram_write(FILE *f, unsigned long run, unsigned long point, const char *input,
		     const char *kernel, const rd_config *cfg, const rd_result *r)
{
	for (uint32_t d = 0; d < r->hist_len; d++) {
		if (!r->hist[d])
			continue;
		row_start(f, run, point, input, kernel, cfg);
		fprintf(f, "%u,%llu\n", d, (unsigned long long)r->hist[d]);
	}
	if (r->hist_inf) {
		row_start(f, run, point, input, kernel, cfg);
		fprintf(f, "inf,%llu\n", (unsigned long long)r->hist_inf);
	}
}
