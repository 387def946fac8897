/*
 * The man page's sections generated from the tables: OPTIONS from the
 * option table (cli_table.h), KEYS OF THE MODEL from the model's key
 * table. `make man-gen` writes them into man/rdscope.1 (man/man_gen.c);
 * tests/test_cli.c fails while the page differs.
 */
#ifndef CLI_MAN_H
#define CLI_MAN_H

/* The sections, from their ".SH" line on (malloc'd; NULL: out of memory). */
char *cli_man_options(void);
char *cli_man_model_keys(void);
/* SYNOPSIS from the command table's usages (cli_cmds[]). */
char *cli_man_synopsis(void);

/*
 * page with the section titled title (the lines from ".SH TITLE" up to the
 * next ".SH") replaced by section (malloc'd); NULL if page has no such
 * section or memory ran out.
 */
char *man_section_replace(const char *page, const char *title, const char *section);

/* page with SYNOPSIS, OPTIONS and KEYS OF THE MODEL replaced (malloc'd),
 * or NULL. */
char *cli_man_update(const char *page);

/* The preset page's KEYS OF THE MODEL (rdscope-preset.5: the keys as a
 * file writes them, grouped by prefix, with their rows' ranges, profiles
 * and conditions), and that page with it replaced (malloc'd, or NULL). */
char *cli_man_preset_keys(void);
char *cli_man_preset_update(const char *page);
/* Does every key's prefix have a group of its own there? 1 or 0. */
int cli_man_preset_groups_cover(void);

/* A whole file as a string (malloc'd), or NULL. */
char *man_read(const char *path);

#endif
