/* status.h - skewer's exit statuses, each with one meaning in every
 * command and in the view (docs/skewer.1, EXIT STATUS; README), and the
 * one way a usage error or an unwritable output is reported. */
#ifndef SKEWER_STATUS_H
#define SKEWER_STATUS_H

#include <stdarg.h>

enum status {
	STATUS_OK = 0,            /* success; check: every file passed; search: no run stuck */
	STATUS_FAILED = 1,        /* check: a mismatch; search: a witness */
	STATUS_USAGE = 2,         /* bad usage or bad input, an output that cannot be
				   * written, out of memory */
	STATUS_INTERRUPTED = 130, /* search stopped by Ctrl-C (128 + SIGINT) */
};

/* Prints "skewer: MESSAGE" (sanitised: it may quote an argument) and the
 * hint to run `skewer --help` on stderr. Returns STATUS_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int status_usage(const char *fmt, ...);
int status_usagev(const char *fmt, va_list ap);

/* Prints "skewer: CMD: cannot write WHAT: REASON" on stderr (no "CMD: "
 * when cmd is NULL; REASON is strerror(err), "write error" when err is
 * 0). Returns STATUS_USAGE, the status of every write error. */
int status_write_error(const char *cmd, const char *what, int err);

#endif
