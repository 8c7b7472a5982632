/* goquote.c - Go's strconv.Quote, which the API server's messages use. */
#include "goquote.h"

#include <stdbool.h>
#include <stdio.h>

/* Go's strconv.Quote, as %q and %#v print strings: printable ASCII as is,
 * the usual backslash escapes, other control bytes and invalid UTF-8 as
 * \xNN. Multi-byte UTF-8 is kept (only C1 controls are escaped). */
void go_quote(char *buf, size_t len, const char *s, size_t n)
{
	size_t o = 0;
#define PUT(c) do { if (o + 1 < len) buf[o++] = (c); } while (0)
	PUT('"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\a': esc = "\\a"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\v': esc = "\\v"; break;
		default: break;
		}
		if (esc) {
			for (; *esc; esc++)
				PUT(*esc);
			continue;
		}
		if (c >= 0x20 && c < 0x7f) {
			PUT((char)c);
			continue;
		}
		size_t seq = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
		if (c >= 0xf5)
			seq = 0;
		bool ok = seq && i + seq <= n;
		for (size_t k = 1; ok && k < seq; k++)
			ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
		if (ok && seq == 2 && c == 0xc2 && (unsigned char)s[i + 1] < 0xa0) {
			/* U+0080..U+009F: Go prints \u0080 */
			char tmp[8];
			snprintf(tmp, sizeof(tmp), "\\u%04x", (unsigned char)s[i + 1]);
			for (char *t = tmp; *t; t++)
				PUT(*t);
			i++;
			continue;
		}
		if (ok) {
			for (size_t k = 0; k < seq; k++)
				PUT(s[i + k]);
			i += seq - 1;
			continue;
		}
		char tmp[8];
		snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		for (char *t = tmp; *t; t++)
			PUT(*t);
	}
	PUT('"');
#undef PUT
	if (len)
		buf[o] = '\0';
}
