package io.triage.parse;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Timestamps as servers, the kernel and {@code date} print them, to epoch seconds (-1 when none). */
final class Timestamps {
    private static final Pattern ISO = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,]\\d+)?(Z|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern DMESG_T = Pattern.compile(
            "^\\[(?:\\w{3}) (\\w{3})\\s+(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})\\]");
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
    /** Only the start of a line is searched for a timestamp. */
    private static final int HEAD = 64;

    private Timestamps() {
    }

    /**
     * A log line's timestamp, interpreted in {@code zone} when the line gives none: the first ISO date and time
     * in the line's head ({@link #ISO}, with its offset when it has one), else the first vLLM-style level word and
     * month-day one ({@code INFO 12-03 14:08:52 file.py:12]}: no year, {@code (?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\\s+MM-dd HH:mm:ss}).
     * Read by hand, a few looks at each character of the head and no allocation: it runs on every line of every
     * log, and finds exactly what those two patterns find (the tests hold it to them).
     */
    static long log(String line, ZoneOffset zone, int year) {
        int h = Math.min(line.length(), HEAD);
        boolean colon = false;
        for (int i = 0; i < h && !colon; i++) {
            colon = line.charAt(i) == ':';
        }
        if (!colon) {
            return -1;
        }
        for (int p = 0; p + 19 <= h; p++) {
            if (isoAt(line, p)) {
                ZoneOffset z = zone;
                int q = p + 19;
                if (q + 1 < h && (line.charAt(q) == '.' || line.charAt(q) == ',') && digit(line, q + 1)) {
                    q += 2;
                    while (q < h && digit(line, q)) {
                        q++;
                    }
                }
                if (q < h && line.charAt(q) == 'Z') {
                    z = ZoneOffset.UTC;
                } else if (q + 2 < h && (line.charAt(q) == '+' || line.charAt(q) == '-') && digit(line, q + 1)
                        && digit(line, q + 2)) {
                    int mm = -1;
                    if (q + 5 < h && line.charAt(q + 3) == ':' && digit(line, q + 4) && digit(line, q + 5)) {
                        mm = num(line, q + 4, 2);
                    } else if (q + 4 < h && digit(line, q + 3) && digit(line, q + 4)) {
                        mm = num(line, q + 3, 2);
                    }
                    if (mm >= 0) {
                        int sign = line.charAt(q) == '-' ? -1 : 1;
                        try {
                            z = ZoneOffset.ofHoursMinutes(sign * num(line, q + 1, 2), sign * mm);
                        } catch (java.time.DateTimeException e) {
                            z = zone;
                        }
                    }
                }
                return epoch(num(line, p, 4), num(line, p + 5, 2), num(line, p + 8, 2), num(line, p + 11, 2),
                        num(line, p + 14, 2), num(line, p + 17, 2), z);
            }
        }
        long sys = syslog(line, h, zone, year);
        if (sys != NOT_SYSLOG) {
            return sys;
        }
        for (int p = 0; p < h; p++) {
            int at = monthDayAt(line, p, h);
            if (at >= 0) {
                return year <= 0 ? -1 : epoch(year, num(line, at, 2), num(line, at + 3, 2), num(line, at + 6, 2),
                        num(line, at + 9, 2), num(line, at + 12, 2), zone);
            }
        }
        for (int p = line.indexOf('['); p >= 0 && p + 21 <= h; p = line.indexOf('[', p + 1)) {
            if (trtAt(line, p + 1)) {
                return epoch(num(line, p + 7, 4), num(line, p + 1, 2), num(line, p + 4, 2), num(line, p + 12, 2),
                        num(line, p + 15, 2), num(line, p + 18, 2), zone);
            }
        }
        return -1;
    }

    /** The month (1-12) of its English three-letter abbreviation ({@code Aug}), or 0. */
    static int month(String abbrev) {
        int at = abbrev.length() == 3 ? MONTHS.indexOf(abbrev) : -1;
        return at >= 0 && at % 3 == 0 ? at / 3 + 1 : 0;
    }

    /**
     * Seconds into the day of a time of day as people and {@code ls} write it: {@code 9:30}, {@code 00:31},
     * {@code 00:31:05}, {@code 13:31:02.318} (a fraction after the seconds is dropped), or -1.
     */
    static int timeOfDay(String s) {
        int colon = s.indexOf(':');
        if (colon < 1 || colon > 2 || s.length() < colon + 3) {
            return -1;
        }
        int h = digits(s, 0, colon);
        int m = digits(s, colon + 1, colon + 3);
        int sec = 0;
        int end = colon + 3;
        if (end < s.length()) {
            if (s.charAt(end) != ':' || s.length() < end + 3) {
                return -1;
            }
            sec = digits(s, end + 1, end + 3);
            int frac = end + 3;
            if (frac < s.length() && (s.charAt(frac) != '.' || digits(s, frac + 1, s.length()) < 0)) {
                return -1;
            }
        }
        return h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 ? h * 3600 + m * 60 + sec : -1;
    }

    /** The number the ASCII digits {@code s[from, to)} spell (at most nine), or -1 when one is not a digit. */
    private static int digits(String s, int from, int to) {
        if (from >= to || to - from > 9) {
            return -1;
        }
        for (int i = from; i < to; i++) {
            if (!digit(s, i)) {
                return -1;
            }
        }
        return num(s, from, to - from);
    }

    /** {@link #syslog}'s answer for a line that does not open with such a stamp. */
    private static final long NOT_SYSLOG = -2;

    /**
     * The time of a line that opens with journalctl's and syslog's own stamp, {@code Dec 01 14:01:52 host unit[pid]:}
     * or {@code Dec  1 14:01:52}, in {@code year} (-1 when the year is unknown), or {@link #NOT_SYSLOG}.
     */
    private static long syslog(String s, int h, ZoneOffset zone, int year) {
        if (h < 15 || s.charAt(3) != ' ') {
            return NOT_SYSLOG;
        }
        int month = 0;
        for (int i = 0; i < 12 && month == 0; i++) {
            if (s.regionMatches(0, MONTHS, i * 3, 3)) {
                month = i + 1;
            }
        }
        int d = s.charAt(4) == ' ' ? 5 : 4; // a one-digit day may be padded with a blank
        boolean two = d == 4 && digit(s, 4) && digit(s, 5);
        boolean one = digit(s, d) && (d == 5 || !digit(s, d + 1));
        int c = two ? 7 : d + 2;
        if (month == 0 || !(two || one) || c + 8 > h || s.charAt(c - 1) != ' ' || !clock(s, c)) {
            return NOT_SYSLOG;
        }
        int day = two ? num(s, 4, 2) : num(s, d, 1);
        return year <= 0 ? -1 : epoch(year, month, day, num(s, c, 2), num(s, c + 3, 2), num(s, c + 6, 2), zone);
    }

    /**
     * TensorRT's and TensorRT-LLM's logger stamp {@code MM/dd/yyyy-HH:mm:ss]} at {@code p}, after its '['
     * ({@code [05/21/2026-03:12:44] [TRT-LLM] [I] …}; the caller made sure 20 characters follow).
     */
    private static boolean trtAt(String s, int p) {
        return digit(s, p) && digit(s, p + 1) && s.charAt(p + 2) == '/' && digit(s, p + 3) && digit(s, p + 4)
                && s.charAt(p + 5) == '/' && digit(s, p + 6) && digit(s, p + 7) && digit(s, p + 8) && digit(s, p + 9)
                && s.charAt(p + 10) == '-' && clock(s, p + 11) && s.charAt(p + 19) == ']';
    }

    /** {@code dddd-dd-dd[ T]dd:dd:dd} at {@code p} (the caller made sure 19 characters follow). */
    private static boolean isoAt(String s, int p) {
        return digit(s, p) && digit(s, p + 1) && digit(s, p + 2) && digit(s, p + 3) && s.charAt(p + 4) == '-'
                && digit(s, p + 5) && digit(s, p + 6) && s.charAt(p + 7) == '-' && digit(s, p + 8) && digit(s, p + 9)
                && (s.charAt(p + 10) == ' ' || s.charAt(p + 10) == 'T') && clock(s, p + 11);
    }

    /** {@code dd:dd:dd} at {@code p}. */
    private static boolean clock(String s, int p) {
        return digit(s, p) && digit(s, p + 1) && s.charAt(p + 2) == ':' && digit(s, p + 3) && digit(s, p + 4)
                && s.charAt(p + 5) == ':' && digit(s, p + 6) && digit(s, p + 7);
    }

    private static final String[] LEVELS = {"INFO", "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL"};

    /**
     * Where the {@code MM-dd HH:mm:ss} of a level word, blanks and that date starting at {@code p} begins (within
     * the first {@code h} characters), or -1.
     */
    private static int monthDayAt(String s, int p, int h) {
        char c = s.charAt(p);
        if (c != 'I' && c != 'W' && c != 'E' && c != 'D' && c != 'C') {
            return -1;
        }
        for (String level : LEVELS) {
            if (p + level.length() < h && s.startsWith(level, p)) {
                int q = p + level.length();
                if (!blank(s.charAt(q))) {
                    continue;
                }
                while (q < h && blank(s.charAt(q))) {
                    q++;
                }
                if (q + 14 <= h && digit(s, q) && digit(s, q + 1) && s.charAt(q + 2) == '-' && digit(s, q + 3)
                        && digit(s, q + 4) && s.charAt(q + 5) == ' ' && clock(s, q + 6)) {
                    return q;
                }
            }
        }
        return -1;
    }

    /** What {@code \s} is to the JDK's engine (no Unicode classes). */
    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    private static boolean digit(String s, int i) {
        char c = s.charAt(i);
        return c >= '0' && c <= '9';
    }

    /** The decimal number of the {@code len} ASCII digits at {@code at}. */
    private static int num(String s, int at, int len) {
        int v = 0;
        for (int i = at; i < at + len; i++) {
            v = v * 10 + (s.charAt(i) - '0');
        }
        return v;
    }

    /** {@code dmesg -T}'s {@code [Mon Nov 30 00:30:28 2026]} prefix. */
    static long dmesg(String line) {
        return dmesg(line, ZoneOffset.UTC);
    }

    /** As above, the time read in {@code zone} (dmesg -T prints the host's local time). */
    static long dmesg(String line, ZoneOffset zone) {
        if (line.isEmpty() || line.charAt(0) != '[') {
            return -1;
        }
        Matcher m = DMESG_T.matcher(line);
        if (!m.find()) {
            return -1;
        }
        int month = MONTHS.indexOf(m.group(1)) / 3 + 1;
        if (month <= 0) {
            return -1;
        }
        return epoch(Integer.parseInt(m.group(6)), month, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), zone);
    }

    /** The {@code date -Is} line: epoch and offset, or null. */
    static OffsetDateTime isoInstant(String s) {
        OffsetDateTime plain = dateIs(s);
        if (plain != null) {
            return plain;
        }
        try {
            return OffsetDateTime.parse(s.strip());
        } catch (DateTimeParseException e) {
            Matcher m = ISO.matcher(s);
            if (m.find()) {
                long e2 = epoch(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                        Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)),
                        ZoneOffset.UTC);
                return e2 < 0 ? null : OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(e2), ZoneOffset.UTC);
            }
            return null;
        }
    }

    /**
     * What {@code date -Is} prints, {@code 2026-11-30T00:31:05+00:00} (or {@code Z} for the offset), blanks around,
     * read without the JDK's formatter (which answers a miss with an exception); null for anything else, a date or
     * offset out of range included, which the formatter then reads.
     */
    private static OffsetDateTime dateIs(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && Character.isWhitespace(s.charAt(a))) {
            a++;
        }
        while (b > a && Character.isWhitespace(s.charAt(b - 1))) {
            b--;
        }
        int n = b - a;
        if ((n != 20 && n != 25) || !isoAt(s, a) || s.charAt(a + 10) != 'T') {
            return null;
        }
        try {
            ZoneOffset z;
            char sign = s.charAt(a + 19);
            if (n == 20) {
                if (sign != 'Z') {
                    return null;
                }
                z = ZoneOffset.UTC;
            } else if ((sign == '+' || sign == '-') && digit(s, a + 20) && digit(s, a + 21) && s.charAt(a + 22) == ':'
                    && digit(s, a + 23) && digit(s, a + 24)) {
                int k = sign == '-' ? -1 : 1;
                z = ZoneOffset.ofHoursMinutes(k * num(s, a + 20, 2), k * num(s, a + 23, 2));
            } else {
                return null;
            }
            return OffsetDateTime.of(LocalDateTime.of(num(s, a, 4), num(s, a + 5, 2), num(s, a + 8, 2),
                    num(s, a + 11, 2), num(s, a + 14, 2), num(s, a + 17, 2)), z);
        } catch (java.time.DateTimeException e) {
            return null;
        }
    }

    private static final java.time.format.DateTimeFormatter DATE_DEFAULT = java.time.format.DateTimeFormatter
            .ofPattern("EEE MMM d HH:mm:ss zzz yyyy", java.util.Locale.ENGLISH);

    /**
     * {@code date}'s own format, {@code Mon Nov 30 07:41:58 UTC 2026}, when its zone is UTC or GMT (an
     * abbreviation such as CST names several zones: not guessed); else null.
     */
    static OffsetDateTime plainDate(String s) {
        if (s.length() > 64) {
            return null;
        }
        if (!(s.contains(" UTC ") || s.contains(" GMT "))) {
            // date's default output in a zone whose abbreviation names one offset: "Tue Dec 15 14:20:16 CET 2026"
            String[] f = s.strip().replace("  ", " ").split(" ");
            if (f.length == 6 && ZONES.containsKey(f[4])) {
                try {
                    return LocalDateTime.parse(f[0] + " " + f[1] + " " + f[2] + " " + f[3] + " " + f[5], SMI_HEADER)
                            .atOffset(ZONES.get(f[4]));
                } catch (DateTimeParseException e) {
                    return null;
                }
            }
            return null;
        }
        String t = s.strip().replace("  ", " "); // a one-digit day is padded: "Dec  1"

        try {
            return java.time.ZonedDateTime.parse(t, DATE_DEFAULT).toOffsetDateTime().withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Zone abbreviations date prints that name one offset each (CST, IST, BST name several: not read). */
    private static final java.util.Map<String, ZoneOffset> ZONES = java.util.Map.ofEntries(
            java.util.Map.entry("CET", ZoneOffset.ofHours(1)), java.util.Map.entry("CEST", ZoneOffset.ofHours(2)),
            java.util.Map.entry("EET", ZoneOffset.ofHours(2)), java.util.Map.entry("EEST", ZoneOffset.ofHours(3)),
            java.util.Map.entry("WET", ZoneOffset.ofHours(0)), java.util.Map.entry("WEST", ZoneOffset.ofHours(1)),
            java.util.Map.entry("EST", ZoneOffset.ofHours(-5)), java.util.Map.entry("EDT", ZoneOffset.ofHours(-4)),
            java.util.Map.entry("PST", ZoneOffset.ofHours(-8)), java.util.Map.entry("PDT", ZoneOffset.ofHours(-7)),
            java.util.Map.entry("MST", ZoneOffset.ofHours(-7)), java.util.Map.entry("MDT", ZoneOffset.ofHours(-6)),
            java.util.Map.entry("JST", ZoneOffset.ofHours(9)), java.util.Map.entry("KST", ZoneOffset.ofHours(9)),
            java.util.Map.entry("AEST", ZoneOffset.ofHours(10)), java.util.Map.entry("AEDT", ZoneOffset.ofHours(11)));

    private static final java.time.format.DateTimeFormatter SMI_HEADER = java.time.format.DateTimeFormatter
            .ofPattern("EEE MMM d HH:mm:ss yyyy", java.util.Locale.ENGLISH);

    /**
     * The first line of {@code nvidia-smi}'s table, {@code Thu May 14 02:53:08 2026}: the host's local time, with no
     * zone, read in {@code zone}; else null.
     */
    static OffsetDateTime smiHeader(String s, ZoneOffset zone) {
        String t = s.strip();
        if (t.length() > 40 || t.length() < 20) {
            return null;
        }
        t = t.replace("  ", " ");
        try {
            return LocalDateTime.parse(t, SMI_HEADER).atOffset(zone);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static long epoch(int y, int mo, int d, int h, int mi, int s, ZoneOffset zone) {
        try {
            return LocalDateTime.of(y, mo, d, h, mi, s).toEpochSecond(zone);
        } catch (java.time.DateTimeException e) {
            return -1;
        }
    }
}
