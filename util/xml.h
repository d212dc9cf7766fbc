/* XML text for the JUnit files CI systems read (ftv conform --junit, ftv
 * fuzz-merge --junit): attribute values and character data escaped, the
 * control characters XML 1.0 forbids dropped. */
#ifndef FTV_UTIL_XML_H
#define FTV_UTIL_XML_H

#include <stdio.h>

void xml_escape(FILE *f, const char *s);

#endif
