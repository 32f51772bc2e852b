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
    /** vLLM's {@code INFO 12-03 14:08:52 file.py:12]}: no year. */
    private static final Pattern MONTH_DAY = Pattern.compile(
            "(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\\s+(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})");
    private static final Pattern DMESG_T = Pattern.compile(
            "^\\[(?:\\w{3}) (\\w{3})\\s+(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})\\]");
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
    /** Only the start of a line is searched for a timestamp. */
    private static final int HEAD = 64;

    private Timestamps() {
    }

    /** A log line's timestamp, interpreted in {@code zone} when the line gives none. */
    static long log(String line, ZoneOffset zone, int year) {
        if (line.isEmpty()) {
            return -1;
        }
        String head = line.length() > HEAD ? line.substring(0, HEAD) : line;
        if (head.indexOf(':') < 0) {
            return -1;
        }
        Matcher m = ISO.matcher(head);
        if (m.find()) {
            ZoneOffset z = zone;
            if (m.group(7) != null) {
                try {
                    z = m.group(7).equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(normalOffset(m.group(7)));
                } catch (java.time.DateTimeException e) {
                    z = zone;
                }
            }
            return epoch(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), z);
        }
        m = MONTH_DAY.matcher(head);
        if (m.find() && year > 0) {
            return epoch(year, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), zone);
        }
        return -1;
    }

    /** {@code dmesg -T}'s {@code [Mon Nov 30 00:30:28 2026]} prefix. */
    static long dmesg(String line) {
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
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), ZoneOffset.UTC);
    }

    /** The {@code date -Is} line: epoch and offset, or null. */
    static OffsetDateTime isoInstant(String s) {
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

    private static final java.time.format.DateTimeFormatter DATE_DEFAULT = java.time.format.DateTimeFormatter
            .ofPattern("EEE MMM d HH:mm:ss zzz yyyy", java.util.Locale.ENGLISH);

    /**
     * {@code date}'s own format, {@code Mon Nov 30 07:41:58 UTC 2026}, when its zone is UTC or GMT (an
     * abbreviation such as CST names several zones: not guessed); else null.
     */
    static OffsetDateTime plainDate(String s) {
        if (s.length() > 64 || !(s.contains(" UTC ") || s.contains(" GMT "))) {
            return null;
        }
        String t = s.strip().replace("  ", " "); // a one-digit day is padded: "Dec  1"

        try {
            return java.time.ZonedDateTime.parse(t, DATE_DEFAULT).toOffsetDateTime().withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String normalOffset(String o) {
        return o.length() == 5 ? o.substring(0, 3) + ":" + o.substring(3) : o;
    }

    private static long epoch(int y, int mo, int d, int h, int mi, int s, ZoneOffset zone) {
        try {
            return LocalDateTime.of(y, mo, d, h, mi, s).toEpochSecond(zone);
        } catch (java.time.DateTimeException e) {
            return -1;
        }
    }
}
