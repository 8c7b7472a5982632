/* quantity.c - resource.Quantity parsing without floating point.
 *
 * A quantity is kept as its decimal digits D (leading and trailing zeros
 * dropped), a power of ten and a power of two (binary suffixes), so that
 * ceil(q * 10^s) is computed exactly however many digits or how large an
 * exponent the text has. Results saturate at the int64 range instead of
 * wrapping as upstream's Value()/MilliValue() do on overflow. */
#include "quantity.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SAT ((uint64_t)1 << 63) /* magnitudes >= 2^63 do not fit an int64 */

/* The digits of num and denom, read as one number, without copying. */
struct digits {
	const char *a, *b;
	size_t na, nb;
};

static unsigned digit_at(const struct digits *d, size_t i)
{
	return (unsigned)((i < d->na ? d->a[i] : d->b[i - d->na]) - '0');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* strconv.ParseInt(s, 10, 64) */
static bool parse_int64(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return false;
	uint64_t limit = neg ? SAT : SAT - 1, v = 0;
	for (; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = neg ? (v == SAT ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return true;
}

/* quantity.go suffixHandler.interpret: decimal SI, binary SI, then the
 * e/E exponent form. Sets *pow10 or *pow2. */
static bool interpret_suffix(const char *s, size_t n, int64_t *pow10, unsigned *pow2)
{
	static const struct { const char *s; int exp; } dec[] = {
		{ "n", -9 }, { "u", -6 }, { "m", -3 }, { "", 0 }, { "k", 3 },
		{ "M", 6 }, { "G", 9 }, { "T", 12 }, { "P", 15 }, { "E", 18 },
	};
	static const char *const bin[] = { "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	*pow10 = 0;
	*pow2 = 0;
	for (size_t i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
		if (strlen(dec[i].s) == n && memcmp(dec[i].s, s, n) == 0) {
			*pow10 = dec[i].exp;
			return true;
		}
	for (unsigned i = 0; i < sizeof(bin) / sizeof(bin[0]); i++)
		if (n == 2 && memcmp(bin[i], s, 2) == 0) {
			*pow2 = 10 * (i + 1);
			return true;
		}
	int64_t e;
	if (n > 1 && (s[0] == 'e' || s[0] == 'E') && parse_int64(s + 1, n - 1, &e)) {
		/* upstream keeps int32(parsed): the exponent wraps */
		uint32_t u = (uint32_t)(uint64_t)e;
		*pow10 = u <= INT32_MAX ? (int64_t)u : (int64_t)u - ((int64_t)1 << 32);
		return true;
	}
	return false;
}

/* ceil(D[first..first+n) * 10^e * 2^b) for a digit string without leading
 * or trailing zeros (so non-zero), capped at SAT. */
static uint64_t magnitude(const struct digits *d, size_t first, size_t n, int64_t e, unsigned b)
{
	uint64_t v = 0;
	if (e >= 0) {
		/* D >= 10^(n-1), so n + e > 19 digits is >= 10^19 > 2^63 */
		if ((uint64_t)e > 19 || n + (size_t)e > 19)
			return SAT;
		for (size_t i = 0; i < n; i++)
			v = v * 10 + digit_at(d, first + i);
		for (int64_t i = 0; i < e; i++)
			v *= 10;
		if (v >= SAT || (b && v >= SAT >> b))
			return SAT;
		return v << b;
	}
	/* e < 0: integer part I = the first n - k digits, fraction F = the
	 * last k digits (k >= n: I = 0 and F has k - n leading zeros) */
	uint64_t k = (uint64_t)(-(e + 1)) + 1;
	size_t nint = k < n ? n - (size_t)k : 0;
	if (nint > 19)
		return SAT;
	for (size_t i = 0; i < nint; i++)
		v = v * 10 + digit_at(d, first + i);
	if (v >= SAT || (b && v >= SAT >> b))
		return SAT;
	v <<= b;
	/* F ends in a non-zero digit, so F > 0; ceil(F * 2^b / 10^k) is
	 * found by multiplying the fraction's digits by 2^b from the last one:
	 * what carries past the point is the integer part (< 2^b), and any
	 * non-zero digit left behind rounds it up. x < 10 * 2^60 < 2^64. */
	uint64_t carry = 0;
	bool rest = false;
	for (size_t i = n; i > nint; i--) {
		uint64_t x = ((uint64_t)digit_at(d, first + i - 1) << b) + carry;
		rest |= x % 10 != 0;
		carry = x / 10;
	}
	for (uint64_t pad = k - (n - nint); pad > 0 && carry; pad--) {
		rest |= carry % 10 != 0;
		carry /= 10;
	}
	uint64_t frac = carry + (rest ? 1 : 0);
	return v + frac >= SAT ? SAT : v + frac;
}

static int64_t signed_value(uint64_t mag, bool neg)
{
	if (neg)
		return mag >= SAT ? INT64_MIN : -(int64_t)mag;
	return mag >= SAT ? INT64_MAX : (int64_t)mag;
}

/* api/resource/quantity.go ParseQuantity, parseQuantityString */
int quantity_parse(const char *s, size_t len, int64_t *milli, int64_t *units, bool *negative)
{
	assert(s || !len);
	if (negative)
		*negative = false;
	if (!len)
		return 0;
	size_t pos = 0;
	bool neg = false;
	if (s[0] == '-' || s[0] == '+')
		neg = s[pos++] == '-';
	/* leading zeros; all zeros (also "-", "+") is 0, as upstream */
	while (pos < len && s[pos] == '0')
		pos++;
	struct digits d = { s + pos, NULL, 0, 0 };
	while (pos < len && is_digit(s[pos]))
		pos++;
	d.na = (size_t)(s + pos - d.a);
	d.b = s + pos;
	if (pos < len && s[pos] == '.') {
		d.b = s + ++pos;
		while (pos < len && is_digit(s[pos]))
			pos++;
		d.nb = (size_t)(s + pos - d.b);
	}
	/* suffix: letters of the suffix alphabet, an optional sign, digits */
	size_t suf = pos;
	while (pos < len && s[pos] && strchr("eEinumkKMGTP", s[pos]))
		pos++;
	if (pos < len && (s[pos] == '-' || s[pos] == '+'))
		pos++;
	while (pos < len && is_digit(s[pos]))
		pos++;
	if (pos < len)
		return 0;
	int64_t pow10;
	unsigned pow2;
	if (!interpret_suffix(s + suf, len - suf, &pow10, &pow2))
		return 0;

	/* drop leading and trailing zeros of the digits */
	size_t total = d.na + d.nb, first = 0, last = total;
	while (first < total && digit_at(&d, first) == 0)
		first++;
	while (last > first && digit_at(&d, last - 1) == 0)
		last--;
	uint64_t mmag = 0, umag = 0;
	if (first < last) {
		/* value = D * 10^e * 2^pow2; |e| stays far from int64 limits */
		int64_t e = pow10 - (int64_t)d.nb + (int64_t)(total - last);
		mmag = magnitude(&d, first, last - first, e + 3, pow2);
		umag = magnitude(&d, first, last - first, e, pow2);
		/* binary quantities are capped at MaxInt64 when parsed */
		if (pow2 && umag > (uint64_t)INT64_MAX)
			umag = (uint64_t)INT64_MAX;
		if (negative)
			*negative = neg;
	}
	/* ceil rounds away from zero (int64Amount.AsScaledInt64) */
	if (milli)
		*milli = signed_value(mmag, neg);
	if (units)
		*units = signed_value(umag, neg);
	return 1;
}

void quantity_format_milli(int64_t milli, char *buf, size_t len)
{
	assert(buf || !len);
	if (milli % 1000 == 0)
		snprintf(buf, len, "%" PRId64, milli / 1000);
	else
		snprintf(buf, len, "%" PRId64 "m", milli);
}

void quantity_format_bytes(int64_t bytes, char *buf, size_t len)
{
	static const char *const suffix[] = { "Ei", "Pi", "Ti", "Gi", "Mi", "Ki" };
	assert(buf || !len);
	for (unsigned i = 0; bytes && i < 6; i++) {
		int64_t unit = (int64_t)1 << (60 - 10 * i);
		if (bytes % unit == 0) {
			snprintf(buf, len, "%" PRId64 "%s", bytes / unit, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRId64, bytes);
}
