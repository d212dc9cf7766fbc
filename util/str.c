#include "util/str.h"

#include <ctype.h>
#include <string.h>

char *ftv_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

void ftv_escape(char *dst, size_t n, const char *src)
{
	size_t at = 0;

	if (!n)
		return;
	for (; *src && at + 1 < n; src++) {
		unsigned char c = (unsigned char)*src;

		if (c < 0x20 || c == 0x7f) {
			if (at + 5 >= n)
				break;
			at += (size_t)snprintf(dst + at, n - at, "\\x%02x", c);
		} else {
			dst[at++] = (char)c;
		}
	}
	dst[at] = 0;
}

int ftv_text_check(FILE *f, const char *path, struct ftv_err *err)
{
	int c, line = 1, col = 0;

	while ((c = getc(f)) != EOF) {
		col++;
		if (c == '\n') {
			line++;
			col = 0;
		} else if ((c < 0x20 && !isspace(c)) || c == 0x7f) {
			/* an escape sequence read back to a terminal would
			 * act on it (set its title, move the cursor): never
			 * echoed, refused */
			rewind(f);
			return ftv_errf(err, "%s:%d:%d: a control character (0x%02x): not a text file",
					path, line, col, c);
		}
	}
	rewind(f);
	return 0;
}
