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
#include <stdlib.h>
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

/* the DecimalSI suffix of exponent e (a multiple of 3), NULL past E */
static const char *dec_suffix(int e)
{
	static const char *const s[] = { "n", "u", "m", "", "k", "M", "G", "T", "P", "E" };
	return e >= -9 && e <= 18 ? s[(e + 9) / 3] : NULL;
}

/* api/resource Quantity.String (CanonicalizeBytes) of text s that
 * quantity_parse accepts; the forms are kept: a binary suffix stays
 * binary when the value is a whole number of at least 1024, an exponent
 * stays an exponent. Returns 0 when the value does not fit the
 * arithmetic here (the caller shows the text as written). */
int quantity_canonical(const char *s, size_t len, char *buf, size_t cap)
{
	size_t pos = 0;
	bool neg = false;
	unsigned __int128 m = 0;
	int e = 0, ndig = 0, pow2 = 0;
	bool exp_form = false;
	if (pos < len && (s[pos] == '-' || s[pos] == '+'))
		neg = s[pos++] == '-';
	for (bool frac = false; pos < len && (is_digit(s[pos]) || (s[pos] == '.' && !frac)); pos++) {
		if (s[pos] == '.') {
			frac = true;
			continue;
		}
		if (m || s[pos] != '0')
			ndig++;
		if (ndig > 30)
			return 0;
		m = m * 10 + (unsigned)(s[pos] - '0');
		e -= frac;
	}
	const char *suf = s + pos;
	size_t sl = len - pos;
	if (sl == 2 && suf[1] == 'i') {
		const char *p = strchr("KMGTPE", suf[0]);
		if (!p || !*p)
			return 0;
		pow2 = 10 * (int)(p - "KMGTPE" + 1);
	} else if (sl && (suf[0] == 'e' || suf[0] == 'E')) {
		long x = strtol(suf + 1, NULL, 10);
		if (x < -60 || x > 60)
			return 0;
		e += (int)x;
		exp_form = true;
	} else if (sl == 1) {
		const char *p = strchr("numkMGTPE", suf[0]);
		static const int pe[] = { -9, -6, -3, 3, 6, 9, 12, 15, 18 };
		if (!p || !*p)
			return 0;
		e += pe[p - "numkMGTPE"];
	} else if (sl) {
		return 0;
	}
	if (m == 0) {
		snprintf(buf, cap, "0");
		return 1;
	}
	if (pow2) {
		/* binary: the whole value, if it is one */
		unsigned __int128 v = m << pow2;
		bool whole = true;
		for (; e < 0; e++) {
			if (v % 10) {
				whole = false;
				break;
			}
			v /= 10;
		}
		for (; whole && e > 0; e--)
			v *= 10;
		if (whole && v >= 1024) {
			int k = 0;
			while (k < 6 && v % 1024 == 0) {
				v /= 1024;
				k++;
			}
			if (v > (unsigned __int128)INT64_MAX)
				return 0;
			static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
			snprintf(buf, cap, "%s%" PRIu64 "%s", neg ? "-" : "", (uint64_t)v, bin[k]);
			return 1;
		}
		/* otherwise DecimalSI, exactly */
		m = whole ? v : m << pow2;
	}
	while (m % 10 == 0) {
		m /= 10;
		e++;
	}
	if (e < -9) {
		/* ParseQuantity keeps nanos, rounding up */
		unsigned __int128 d = 1;
		for (; e < -9; e++)
			d *= 10;
		m = (m + d - 1) / d;
		while (m % 10 == 0) {
			m /= 10;
			e++;
		}
	}
	int r = ((e % 3) + 3) % 3;
	for (; r > 0; r--, e--)
		m *= 10;
	if (m > (unsigned __int128)INT64_MAX)
		return 0;
	if (exp_form) {
		if (e)
			snprintf(buf, cap, "%s%" PRIu64 "e%d", neg ? "-" : "", (uint64_t)m, e);
		else
			snprintf(buf, cap, "%s%" PRIu64, neg ? "-" : "", (uint64_t)m);
		return 1;
	}
	const char *ds = dec_suffix(e);
	if (!ds)
		return 0;
	snprintf(buf, cap, "%s%" PRIu64 "%s", neg ? "-" : "", (uint64_t)m, ds);
	return 1;
}
