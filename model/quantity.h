/* quantity.h - Kubernetes resource.Quantity parsing (apimachinery
 * api/resource/quantity.go), reduced to what the scheduler reads:
 * MilliValue for cpu, Value (rounded up) for everything else. */
#ifndef SKEWER_QUANTITY_H
#define SKEWER_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses s (len bytes). On success stores ceil(q * 1000) in *milli when
 * milli != NULL and ceil(q) in *units when units != NULL (saturating at
 * INT64_MAX / INT64_MIN) and returns 1. Returns 0 for text that is not
 * a quantity ("1K", "1e", "", "abc"); *negative tells a negative value. */
int quantity_parse(const char *s, size_t len, int64_t *milli, int64_t *units, bool *negative);

/* Writes a short human form: millicores as "500m" / "2", bytes as
 * "512Mi" / "1Gi" / "123" (exact binary suffix only when it divides). */
void quantity_format_milli(int64_t milli, char *buf, size_t len);
void quantity_format_bytes(int64_t bytes, char *buf, size_t len);

/* Quantity.String of text s (len bytes) that quantity_parse accepts,
 * as the API server's messages print it ("0.5" as 500m, "1024Mi" as
 * 1Gi). Returns 1, or 0 (buf untouched) when it cannot tell. */
int quantity_canonical(const char *s, size_t len, char *buf, size_t cap);

#endif
