/* Small string helpers shared by the text parsers (assembler, litmus and
 * scenario files, layouts). */
#ifndef FTV_UTIL_STR_H
#define FTV_UTIL_STR_H

#include <stdio.h>

#include "util/err.h"

/* Strips leading and trailing white space in place; returns the start. */
char *ftv_trim(char *s);

/* src into dst (n bytes, cut to fit) with each control byte written
 * \xNN: text from an input (a path, a name) fit to print or to write into
 * a file a parser reads back. */
void ftv_escape(char *dst, size_t n, const char *src);

/* 0 if the stream holds text: no control character but white space
 * (tab, newline, VT, FF, CR) (an ESC from a crafted file, echoed in a message or a report,
 * would drive the terminal). Else -1 and err naming path:line:column and
 * the byte. The stream is rewound either way. */
int ftv_text_check(FILE *f, const char *path, struct ftv_err *err);

#endif
