/* ISO 8601 timestamps for the Arrow builder: the forms pyarrow's JSON reader takes
 * (jetjson_arrow.h lists them), turned into a count of units since 1970-01-01 UTC. */
#include <string.h>

#include "arrow_build_internal.h"

/* Reads exactly n digits at s into *v. */
static int digits(const uint8_t *s, int n, int *v) {
    int x = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return 0;
}

static bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian): whole 400-year eras, then the
 * years and months of the era counted from March, so that the leap day comes last. */
static int64_t days_since_epoch(int y, int m, int d) {
    if (y > 1900 && y < 2100) { /* every fourth year a leap year: no division */
        static const int16_t before_month[2][12] = {{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334},
                                                    {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335}};
        int64_t leap_days = (y - 1901) / 4 - 17; /* leap years from 1970 to y - 1 (negative before) */
        return (int64_t)(y - 1970) * 365 + leap_days + before_month[(y & 3) == 0][m - 1] + d - 1;
    }
    int64_t yy = m <= 2 ? y - 1 : y;
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
    int64_t year_of_era = yy - era * 400;
    int64_t month_from_march = m > 2 ? m - 3 : m + 9;
    int64_t day_of_year = (153 * month_from_march + 2) / 5 + d - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

static const int64_t per_second[] = {1, 1000, 1000000, 1000000000};

/* The most common form, "YYYY-MM-DDThh:mm:ss" with 'T' or ' ' and an optional 'Z', read
 * without the general walk (a column of them is read row by row while inferring): 1
 * when s is not of that shape (the general reading decides), else what it returns.
 * Checks are combined into few branches: the bytes are read as two words. */
static inline __attribute__((always_inline)) int parse_common(const uint8_t *s, size_t n, int unit, int64_t *out) {
    if ((n != 19 && !(n == 20 && s[19] == 'Z')) || (s[10] != 'T' && s[10] != ' ')) return 1;
    uint64_t date, time;
    memcpy(&date, s, 8);      /* YYYY-MM- */
    memcpy(&time, s + 11, 8); /* hh:mm:ss */
    static const uint8_t date_places[8] = {255, 255, 255, 255, 0, 255, 255, 0};
    static const uint8_t time_places[8] = {255, 255, 0, 255, 255, 0, 255, 255};
    static const uint8_t date_seps[8] = {0, 0, 0, 0, '-', 0, 0, '-'};
    static const uint8_t time_seps[8] = {0, 0, ':', 0, 0, ':', 0, 0};
    uint64_t date_digits, time_digits, date_sep, time_sep; /* in either byte order */
    memcpy(&date_digits, date_places, 8);
    memcpy(&time_digits, time_places, 8);
    memcpy(&date_sep, date_seps, 8);
    memcpy(&time_sep, time_seps, 8);
    /* each byte at a digit's place is '0'..'9': with '0' xored away it is 0..9, so adding
     * 0x76 leaves its top bit clear, as is its own (a byte of 0x8a or more carries into the
     * next one, but is caught by its own top bit); the separators' places hold exactly the
     * separators */
    const uint64_t threes = 0x3030303030303030ull, x76 = 0x7676767676767676ull, tops = 0x8080808080808080ull;
    uint64_t dx = date ^ threes, tx = time ^ threes;
    uint64_t bad = ((((dx & date_digits) + (x76 & date_digits)) | dx) & tops & date_digits) |
                   ((((tx & time_digits) + (x76 & time_digits)) | tx) & tops & time_digits) |
                   ((date & ~date_digits) ^ date_sep) | ((time & ~time_digits) ^ time_sep) |
                   ((unsigned)(s[8] - '0') > 9) | ((unsigned)(s[9] - '0') > 9);
    if (bad) return 1;
    /* each digit pair as one byte, a word at a time: with the digits' values in place
     * (the separators zeroed), byte k of 10 * v + (v >> 8) is 10 * s[k] + s[k + 1], at
     * most 99 (no carry); the places below are little-endian */
    int y, mo, d = (s[8] - '0') * 10 + (s[9] - '0'), h, mi, sec;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t dv = (date ^ threes) & date_digits, tv = (time ^ threes) & time_digits;
    uint64_t dp = dv * 10 + (dv >> 8), tp = tv * 10 + (tv >> 8);
    y = (int)(dp & 0xff) * 100 + (int)((dp >> 16) & 0xff);
    mo = (int)((dp >> 40) & 0xff);
    h = (int)(tp & 0xff);
    mi = (int)((tp >> 24) & 0xff);
    sec = (int)((tp >> 48) & 0xff);
#else
#define AB_DIGIT(k) (s[k] - '0')
    y = AB_DIGIT(0) * 1000 + AB_DIGIT(1) * 100 + AB_DIGIT(2) * 10 + AB_DIGIT(3);
    mo = AB_DIGIT(5) * 10 + AB_DIGIT(6);
    h = AB_DIGIT(11) * 10 + AB_DIGIT(12);
    mi = AB_DIGIT(14) * 10 + AB_DIGIT(15);
    sec = AB_DIGIT(17) * 10 + AB_DIGIT(18);
#undef AB_DIGIT
#endif
    /* one branch for the ranges; days past the 28th and years off 1901-2099 aside */
    if (((unsigned)(mo - 1) > 11) | ((unsigned)(d - 1) > 27) | (h > 23) | (mi > 59) | (sec > 59) |
        ((unsigned)(y - 1901) > 198)) {
        if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo) || h > 23 || mi > 59 || sec > 59) return -1;
        int64_t seconds = days_since_epoch(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
        return __builtin_mul_overflow(seconds, per_second[unit], out) ? -1 : 0;
    }
    /* 1901-2099: every fourth year a leap year */
    static const int16_t before_month[2][12] = {{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334},
                                                {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335}};
    int64_t days = (int64_t)(y - 1970) * 365 + (int64_t)((unsigned)(y - 1901) >> 2) - 17 +
                   before_month[(y & 3) == 0][mo - 1] + d - 1;
    *out = (days * 86400 + h * 3600 + mi * 60 + sec) * per_second[unit]; /* far from overflow */
    return 0;
}

/* The other forms, out of line: the common one's call saves no registers for them. */
static __attribute__((noinline)) int parse_general(const uint8_t *s, size_t n, int unit, bool allow_fraction,
                                                   int64_t *out);

int ab_parse_timestamp(const uint8_t *s, size_t n, int unit, bool allow_fraction, int64_t *out) {
    if (n >= 19) {
        int64_t v;
        int r = parse_common(s, n, unit, &v);
        if (r == 0) *out = v;
        if (r <= 0) return r;
    }
    return parse_general(s, n, unit, allow_fraction, out);
}

static int parse_general(const uint8_t *s, size_t n, int unit, bool allow_fraction, int64_t *out) {
    int y, mo, d, h = 0, mi = 0, sec = 0;
    int64_t frac = 0;
    size_t i = 10;
    if (n < 10 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) || s[7] != '-' || digits(s + 8, 2, &d))
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo)) return -1;
    int64_t offset_minutes = 0;
    if (i < n) {
        /* read with a schema, a lowercase t or z and a comma before the fraction are taken
         * too; inference takes what pyarrow infers, which they are not */
        if (s[i] != 'T' && s[i] != ' ' && !(allow_fraction && s[i] == 't')) return -1;
        if (n < i + 3 || digits(s + i + 1, 2, &h) || h > 23) return -1;
        i += 3;
        if (i < n && s[i] == ':') {
            if (n < i + 3 || digits(s + i + 1, 2, &mi) || mi > 59) return -1;
            i += 3;
            if (i < n && s[i] == ':') {
                if (n < i + 3 || digits(s + i + 1, 2, &sec) || sec > 59) return -1;
                i += 3;
                if (i < n && (s[i] == '.' || (allow_fraction && s[i] == ','))) {
                    int count = 0;
                    if (!allow_fraction) return -1;
                    for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, count++) {
                        if (count >= 3 * unit) return -1; /* more digits than the unit keeps */
                        frac = frac * 10 + (s[i] - '0');
                    }
                    if (count == 0) return -1;
                    for (; count < 3 * unit; count++) frac *= 10;
                }
            }
        }
        if (i < n && (s[i] == 'Z' || (allow_fraction && s[i] == 'z'))) {
            i++;
        } else if (i < n && (s[i] == '+' || s[i] == '-')) {
            int sign = s[i] == '-' ? -1 : 1, oh, om = 0;
            if (n < i + 3 || digits(s + i + 1, 2, &oh) || oh > 23) return -1;
            i += 3;
            if (i < n) {
                if (s[i] == ':') i++;
                if (n < i + 2 || digits(s + i, 2, &om) || om > 59) return -1;
                i += 2;
            }
            offset_minutes = sign * (oh * 60 + om);
        }
        if (i != n) return -1;
    }
    int64_t seconds = days_since_epoch(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset_minutes * 60;
    int64_t v;
    if (__builtin_mul_overflow(seconds, per_second[unit], &v) || __builtin_add_overflow(v, frac, &v)) return -1;
    *out = v;
    return 0;
}

int ab_timestamps_of_strings(const uint8_t *bytes, const uint32_t *offsets, const uint8_t *valid, int64_t rows,
                             int64_t *out) {
    for (int64_t i = 0; i < rows; i++) {
        int64_t v = 0;
        if (!valid || (valid[i >> 3] >> (i & 7) & 1)) {
            size_t n = offsets[i + 1] - offsets[i];
            if (n < 10) return -1; /* (bytes is NULL when every string is empty) */
            const uint8_t *s = bytes + offsets[i];
            int r = n >= 19 ? parse_common(s, n, 0, &v) : 1; /* inlined: the loop is the common form's */
            if (r > 0) r = s[4] == '-' ? parse_general(s, n, 0, false, &v) : -1;
            if (r) return -1;
        }
        out[i] = v;
    }
    return 0;
}
