/* Small string helpers shared by the text parsers (assembler, litmus and
 * scenario files, layouts). */
#ifndef FTV_UTIL_STR_H
#define FTV_UTIL_STR_H

/* Strips leading and trailing white space in place; returns the start. */
char *ftv_trim(char *s);

#endif
