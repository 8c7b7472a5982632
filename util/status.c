/* status.c - reporting a usage error and an unwritable output. */
#include "status.h"
#include "out.h"

#include <stdio.h>
#include <string.h>

int status_usagev(const char *fmt, va_list ap)
{
	struct out_buf b = {0};
	char tmp[512];
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	/* the message may quote an argument: keep the terminal safe */
	out_sanitize(&b, tmp, strlen(tmp), 0);
	fprintf(stderr, "skewer: %s\nTry 'skewer --help' for more information.\n",
		b.oom ? tmp : out_buf_str(&b));
	out_buf_fini(&b);
	return STATUS_USAGE;
}

int status_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = status_usagev(fmt, ap);
	va_end(ap);
	return rc;
}

int status_write_error(const char *cmd, const char *what, int err)
{
	fputs("skewer: ", stderr);
	if (cmd) {
		out_text(stderr, cmd, 0);
		fputs(": ", stderr);
	}
	fputs("cannot write ", stderr);
	out_text(stderr, what, 0);
	fprintf(stderr, ": %s\n", err ? strerror(err) : "write error");
	return STATUS_USAGE;
}
