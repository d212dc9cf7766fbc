/* XML escaping (util/xml.h). */
#include "util/xml.h"

void xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* XML 1.0 Char: tab, newline, carriage return and
			 * everything from 0x20 */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t' || *s == '\r')
				fputc(*s, f);
		}
	}
}
