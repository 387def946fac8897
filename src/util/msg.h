/*
 * Text from inputs shown to people: kernel names, file names and messages
 * that quote them may hold any byte, and a terminal obeys escape
 * sequences (clearing the screen, setting the title). Everything rdscope
 * prints for people goes through here: control characters (C0, DEL, C1)
 * and bytes that are not UTF-8 become '?'. (CSV and JSON escape such bytes
 * their own way and do not use this.)
 */
#ifndef MSG_H
#define MSG_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
size_t utf8_len(const unsigned char *s);

/* s with every unsafe character replaced by '?', written to f. */
void fputs_safe(const char *s, FILE *f);
/* The same in place: each byte of an unsafe character becomes '?'. */
void str_make_safe(char *s);

/* The one way src/ reports a problem: "rdscope: MESSAGE\n" on standard
 * error, the formatted message made safe as above. */
void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
