/* fiterror.c - the reason histogram of framework/types.go FitError.Error
 * and the event truncation of schedule_one.go. */
#include "fiterror.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reason_count {
	char *text;
	uint32_t n;
};

int reason_hist_add(struct reason_hist *h, const char *text, uint32_t n)
{
	for (uint32_t i = 0; i < h->n; i++) {
		if (strcmp(h->v[i].text, text) == 0) {
			h->v[i].n += n;
			return 1;
		}
	}
	struct reason_count *nv = realloc(h->v, (h->n + 1) * sizeof(*nv));
	if (!nv)
		return 0;
	h->v = nv;
	if (!(nv[h->n].text = strdup(text)))
		return 0;
	nv[h->n++].n = n;
	return 1;
}

int reason_hist_add_status(struct reason_hist *h, const char *reasons, bool several)
{
	/* Status.Reasons: NodeResourcesFit gives one reason per resource,
	 * which the text joins by ", " (no reason holds one) */
	const char *s = reasons, *sep;
	while (several && (sep = strstr(s, ", "))) {
		size_t n = (size_t)(sep - s);
		char *one = malloc(n + 1);
		if (!one)
			return 0;
		memcpy(one, s, n);
		one[n] = '\0';
		int ok = reason_hist_add(h, one, 1);
		free(one);
		if (!ok)
			return 0;
		s = sep + 2;
	}
	return reason_hist_add(h, s, 1);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *reason_hist_text(const struct reason_hist *h, uint32_t nall)
{
	char **parts = calloc(h->n + 1, sizeof(*parts));
	char *out = NULL;
	size_t len = 64;
	if (!parts)
		return NULL;
	for (uint32_t i = 0; i < h->n; i++) {
		size_t n = strlen(h->v[i].text) + 16;
		if (!(parts[i] = malloc(n)))
			goto done;
		snprintf(parts[i], n, "%u %s", h->v[i].n, h->v[i].text);
		len += strlen(parts[i]) + 2;
	}
	/* sort.Strings over "COUNT REASON": "10 x" sorts before "2 x" */
	qsort(parts, h->n, sizeof(*parts), str_cmp);
	if (!(out = malloc(len)))
		goto done;
	size_t o = (size_t)snprintf(out, len, "0/%u nodes are available:", nall);
	for (uint32_t i = 0; i < h->n; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? ", " : " ", parts[i]);
	if (h->n)
		snprintf(out + o, len - o, ".");
done:
	for (uint32_t i = 0; i < h->n; i++)
		free(parts[i]);
	free(parts);
	return out;
}

void reason_hist_fini(struct reason_hist *h)
{
	for (uint32_t i = 0; i < h->n; i++)
		free(h->v[i].text);
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

void event_truncate(char *msg)
{
	/* validation.NoteLengthLimit; a byte cut, as upstream's */
	if (strlen(msg) > 1024)
		memcpy(msg + 1020, " ...", 5);
}
