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

/*
 * page with the section titled title (the lines from ".SH TITLE" up to the
 * next ".SH") replaced by section (malloc'd); NULL if page has no such
 * section or memory ran out.
 */
char *man_section_replace(const char *page, const char *title, const char *section);

/* page with both generated sections replaced (malloc'd), or NULL. */
char *cli_man_update(const char *page);

/* A whole file as a string (malloc'd), or NULL. */
char *man_read(const char *path);

#endif
