/* test_quantity.c - resource.Quantity parsing and formatting. Expected
 * values are worked out by hand from apimachinery's rules
 * (other-plugins.md section 10): cpu = ceil(q * 1000), others ceil(q). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../model/quantity.h"

struct qcase {
	const char *s;
	int64_t milli, units;
	bool negative;
};

static void check(const struct qcase *c)
{
	int64_t m = 42, u = 42;
	bool neg = true;
	int ok = quantity_parse(c->s, strlen(c->s), &m, &u, &neg);
	if (!ok || m != c->milli || u != c->units || neg != c->negative)
		fail_msg("\"%s\": got ok=%d milli=%lld units=%lld neg=%d, want milli=%lld units=%lld neg=%d",
			 c->s, ok, (long long)m, (long long)u, neg, (long long)c->milli,
			 (long long)c->units, c->negative);
}

static void check_all(const struct qcase *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check(&cases[i]);
}

#define CHECK_ALL(cases) check_all(cases, sizeof(cases) / sizeof(cases[0]))

static void test_reference_examples(void **state)
{
	(void)state;
	/* other-plugins.md section 10, verbatim */
	static const struct qcase cases[] = {
		{ "100m", 100, 1, false },         /* memory 100m -> 1 (0.1 rounded up) */
		{ "0.1", 100, 1, false },
		{ "1", 1000, 1, false },
		{ "2.5", 2500, 3, false },
		{ "1e3", 1000000, 1000, false },   /* 1000 cores */
		{ "512Mi", 536870912000LL, 536870912LL, false },
		{ "1Gi", 1073741824000LL, 1073741824LL, false },
		{ "1G", 1000000000000LL, 1000000000LL, false },
		{ "128974848", 128974848000LL, 128974848LL, false },
		{ "129e6", 129000000000LL, 129000000LL, false },
		{ "2", 2000, 2, false },
		{ "110", 110000, 110, false },
	};
	CHECK_ALL(cases);
}

static void test_suffixes(void **state)
{
	(void)state;
	static const struct qcase cases[] = {
		{ "1n", 1, 1, false },             /* 1e-9: both round up */
		{ "1u", 1, 1, false },
		{ "1500u", 2, 1, false },          /* 1.5 milli */
		{ "1000u", 1, 1, false },
		{ "1m", 1, 1, false },
		{ "1k", 1000000, 1000, false },
		{ "1M", 1000000000LL, 1000000, false },
		{ "1T", 1000000000000000LL, 1000000000000LL, false },
		{ "1P", 1000000000000000000LL, 1000000000000000LL, false },
		{ "1E", INT64_MAX, 1000000000000000000LL, false }, /* exa; milli saturates */
		{ "1Ki", 1024000, 1024, false },
		{ "1Mi", 1048576000LL, 1048576, false },
		{ "1Ti", 1099511627776000LL, 1099511627776LL, false },
		{ "1Pi", 1125899906842624000LL, 1125899906842624LL, false },
		{ "1Ei", INT64_MAX, 1152921504606846976LL, false },
		{ "7Ei", INT64_MAX, 8070450532247928832LL, false },
		{ "8Ei", INT64_MAX, INT64_MAX, false },  /* 2^63, capped */
	};
	CHECK_ALL(cases);
}

static void test_exponents(void **state)
{
	(void)state;
	static const struct qcase cases[] = {
		{ "1E3", 1000000, 1000, false },   /* exponent, not exa */
		{ "1e+3", 1000000, 1000, false },
		{ "1e-3", 1, 1, false },
		{ "2E-3", 2, 1, false },
		{ "1e0", 1000, 1, false },
		{ "1e18", INT64_MAX, 1000000000000000000LL, false },
		{ "1e19", INT64_MAX, INT64_MAX, false },
		{ "1e-30", 1, 1, false },          /* finer than 1n: rounds up */
		{ "0e5", 0, 0, false },
		{ "1e2147483647", INT64_MAX, INT64_MAX, false },
		{ "1e-2147483648", 1, 1, false },
		/* upstream keeps int32(exponent): 2^32 wraps to 0 */
		{ "1e4294967296", 1000, 1, false },
		{ "15e-1", 1500, 2, false },
	};
	CHECK_ALL(cases);
}

static void test_fractions(void **state)
{
	(void)state;
	static const struct qcase cases[] = {
		{ ".5", 500, 1, false },
		{ "5.", 5000, 5, false },
		{ "0.5", 500, 1, false },
		{ "0.05", 50, 1, false },
		{ "0.0001", 1, 1, false },
		{ "1.0001", 1001, 2, false },
		{ "1.000", 1000, 1, false },
		{ "001.500", 1500, 2, false },
		/* 0.3 * 1000 in binary floating point is 300.00000000000006 */
		{ "0.3", 300, 1, false },
		{ "0.30000000000000004", 301, 1, false },
		{ "0.5Ki", 512000, 512, false },
		{ "0.1Ki", 102400, 103, false },   /* 102.4 */
		{ "0.3Mi", 314572800LL, 314573, false }, /* 314572.8 */
		{ "1.5Gi", 1610612736000LL, 1610612736LL, false },
		{ "1.0000001Ki", 1024001, 1025, false }, /* 1024.0001024 */
		{ "0.001Ki", 1024, 2, false },     /* 1.024 */
		{ "1.5k", 1500000, 1500, false },
		{ "1.5m", 2, 1, false },
		{ ".5G", 500000000000LL, 500000000, false },
	};
	CHECK_ALL(cases);
}

static void test_large_and_exact(void **state)
{
	(void)state;
	static const struct qcase cases[] = {
		{ "9223372036854775807", INT64_MAX, INT64_MAX, false },
		{ "9223372036854775808", INT64_MAX, INT64_MAX, false },
		{ "9223372036854775.807", INT64_MAX, 9223372036854776LL, false },
		{ "9223372036854775.806", INT64_MAX - 1, 9223372036854776LL, false },
		{ "9223372036854775.8071", INT64_MAX, 9223372036854776LL, false },
		{ "123456789012345678901234567890e-20", 1234567890124LL, 1234567891LL, false },
		{ "0.000000000000000000000000000001", 1, 1, false },
		{ "100000000000000000000000000000e-20", 1000000000000LL, 1000000000LL, false },
		{ "99999999999999999999999999", INT64_MAX, INT64_MAX, false },
		{ "4611686018427387904", INT64_MAX, 4611686018427387904LL, false }, /* 2^62 */
	};
	CHECK_ALL(cases);

	/* a long run of digits stays exact and saturates */
	char big[2001];
	memset(big, '9', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	struct qcase c = { big, INT64_MAX, INT64_MAX, false };
	check(&c);
	big[0] = '0';
	big[1] = '.';
	struct qcase f = { big, 1000, 1, false }; /* 0.999... */
	check(&f);
}

static void test_zero_and_sign(void **state)
{
	(void)state;
	static const struct qcase cases[] = {
		{ "0", 0, 0, false },
		{ "000", 0, 0, false },
		{ "-0", 0, 0, false },
		{ "+0", 0, 0, false },
		{ "0.0", 0, 0, false },
		{ "0Mi", 0, 0, false },
		{ "0.000m", 0, 0, false },
		/* parseQuantityString reads no digits as 0 */
		{ "-", 0, 0, false },
		{ "+", 0, 0, false },
		{ ".", 0, 0, false },
		{ "Mi", 0, 0, false },
		{ "+1", 1000, 1, false },
		{ "-1", -1000, -1, true },
		{ "-100m", -100, -1, true },       /* away from zero */
		{ "-0.5", -500, -1, true },
		{ "-1n", -1, -1, true },
		{ "-1.5Gi", -1610612736000LL, -1610612736LL, true },
		{ "-9223372036854775807", INT64_MIN, -INT64_MAX, true },
		{ "-9223372036854775808", INT64_MIN, INT64_MIN, true },
		{ "-1e30", INT64_MIN, INT64_MIN, true },
		{ "-8Ei", INT64_MIN, -INT64_MAX, true }, /* binary cap at MaxInt64 */
	};
	CHECK_ALL(cases);
}

static void test_invalid(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "1K", "1e", "1E+", "1e-", "abc", "aoeu", " 1", "1 ", "1.1.1", "1.1.M",
		"1+1.0M", "0.1mi", "0.1am", ".5i", "1i", "-3.01i", "-3.01e-", "--1", "+-1",
		"1m5", "1Ki5", "1Ee3", "1ee3", "1e1.5", "1e3.0", "1KI", "1kb", "1b", "1,5",
		"1e99999999999999999999", "0x10", "1_000", "\t1", "1\n", "1mm", "1Mii",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t m = 7, u = 7;
		if (quantity_parse(bad[i], strlen(bad[i]), &m, &u, NULL))
			fail_msg("\"%s\" parsed as milli=%lld units=%lld", bad[i], (long long)m,
				 (long long)u);
	}
}

static void test_not_nul_terminated_and_null_outputs(void **state)
{
	(void)state;
	const char buf[] = "512Mi123";
	int64_t u = 0;
	assert_int_equal(quantity_parse(buf, 5, NULL, &u, NULL), 1);
	assert_int_equal(u, 536870912);
	int64_t m = 0;
	assert_int_equal(quantity_parse("250m", 4, &m, NULL, NULL), 1);
	assert_int_equal(m, 250);
	/* embedded NUL is not part of any quantity */
	assert_int_equal(quantity_parse("1\0", 2, &m, NULL, NULL), 0);
	bool neg = true;
	assert_int_equal(quantity_parse("1K", 2, &m, NULL, &neg), 0);
	assert_false(neg);
}

static void test_format(void **state)
{
	(void)state;
	char buf[32];
	static const struct { int64_t v; const char *want; } milli[] = {
		{ 500, "500m" }, { 2000, "2" }, { 0, "0" }, { 1500, "1500m" }, { 1, "1m" },
		{ -250, "-250m" }, { -3000, "-3" }, { 100000, "100" },
	};
	for (size_t i = 0; i < sizeof(milli) / sizeof(milli[0]); i++) {
		quantity_format_milli(milli[i].v, buf, sizeof(buf));
		assert_string_equal(buf, milli[i].want);
	}
	static const struct { int64_t v; const char *want; } bytes[] = {
		{ 536870912, "512Mi" }, { 1073741824, "1Gi" }, { 123, "123" }, { 0, "0" },
		{ 1024, "1Ki" }, { 1536, "1536" }, { 1572864, "1536Ki" }, { 1000000000, "1000000000" },
		{ 1152921504606846976LL, "1Ei" }, { INT64_MIN, "-8Ei" }, { -2048, "-2Ki" },
		{ INT64_MAX, "9223372036854775807" }, { 3LL << 40, "3Ti" },
	};
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		quantity_format_bytes(bytes[i].v, buf, sizeof(buf));
		assert_string_equal(buf, bytes[i].want);
	}
	/* short buffers truncate, always terminated */
	char small[3];
	quantity_format_bytes(536870912, small, sizeof(small));
	assert_string_equal(small, "51");
	quantity_format_milli(1500, small, sizeof(small));
	assert_string_equal(small, "15");
}

/* parse(format(x)) == x for memory values */
static void test_round_trip(void **state)
{
	(void)state;
	static const int64_t vals[] = { 0, 1, 1023, 1024, 1536, 1 << 20, 3LL << 30, 5000000000LL,
					 INT64_MAX, -1024 };
	char buf[32];
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		int64_t u = 0;
		quantity_format_bytes(vals[i], buf, sizeof(buf));
		assert_int_equal(quantity_parse(buf, strlen(buf), NULL, &u, NULL), 1);
		assert_int_equal(u, vals[i]);
	}
	static const int64_t mvals[] = { 0, 1, 999, 1000, 1500, 64000, 123456789 };
	for (size_t i = 0; i < sizeof(mvals) / sizeof(mvals[0]); i++) {
		int64_t m = 0;
		quantity_format_milli(mvals[i], buf, sizeof(buf));
		assert_int_equal(quantity_parse(buf, strlen(buf), &m, NULL, NULL), 1);
		assert_int_equal(m, mvals[i]);
	}
}

/* Quantity.String as the API server's messages print it, worked by hand
 * from CanonicalizeBytes: trailing zeros taken into the suffix, the
 * exponent a multiple of 3, binary kept for whole values from 1024 */
static void test_canonical(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "0.5", "500m" },    { "2000m", "2" },       { "1000", "1k" },      { "1500", "1500" },
		{ "2", "2" },         { "-1", "-1" },         { "0", "0" },          { "-0", "0" },
		{ "100m", "100m" },   { "1.5", "1500m" },     { "1000M", "1G" },     { "1G", "1G" },
		{ "1024Mi", "1Gi" },  { "1.5Gi", "1536Mi" },  { "512Ki", "512Ki" },  { "0.5Ki", "512" },
		{ "1.1Ki", "1126400m" }, { "2Gi", "2Gi" },    { "1e3", "1e3" },      { "1500e-3", "1500e-3" },
		{ "1E0", "1" },       { "0.000000001", "1n" }, { "0.0000000001", "1n" }, { "+3", "3" },
	};
	char buf[48];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, 0, sizeof(buf));
		assert_int_equal(quantity_canonical(cases[i][0], strlen(cases[i][0]), buf, sizeof(buf)), 1);
		if (strcmp(buf, cases[i][1]))
			fprintf(stderr, "%s: got %s, want %s\n", cases[i][0], buf, cases[i][1]);
		assert_string_equal(buf, cases[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_examples),
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_exponents),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_large_and_exact),
		cmocka_unit_test(test_zero_and_sign),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_not_nul_terminated_and_null_outputs),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_canonical),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
