package io.triage.parse;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-read log timestamp ({@link Timestamps#log}) and ISO instant ({@link Timestamps#isoInstant}) against
 * the patterns and the JDK parser they stand for: the same epoch on every line of every scenario, on lines built
 * around the edges (a zone cut at the head's end, a fraction without digits, a level word glued to a longer
 * one), and on random lines of the characters timestamps are made of.
 */
class TimestampsTest {
    private static final Pattern ISO = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,]\\d+)?(Z|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern MONTH_DAY = Pattern.compile(
            "(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\\s+(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})");
    private static final Pattern SYSLOG = Pattern.compile(
            "^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (?:(\\d{2})| (\\d)|(\\d)) (\\d{2}):(\\d{2}):(\\d{2})");
    private static final Pattern TRT = Pattern.compile(
            "\\[(\\d{2})/(\\d{2})/(\\d{4})-(\\d{2}):(\\d{2}):(\\d{2})\\]");
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
    private static final ZoneOffset HOST = ZoneOffset.ofHours(2);

    /** What {@link Timestamps#log} computed with the two patterns, before it read lines by hand. */
    static long reference(String line, ZoneOffset zone, int year) {
        if (line.isEmpty()) {
            return -1;
        }
        String head = line.length() > 64 ? line.substring(0, 64) : line;
        if (head.indexOf(':') < 0) {
            return -1;
        }
        Matcher m = ISO.matcher(head);
        if (m.find()) {
            ZoneOffset z = zone;
            if (m.group(7) != null) {
                try {
                    String o = m.group(7);
                    z = o.equals("Z") ? ZoneOffset.UTC
                            : ZoneOffset.of(o.length() == 5 ? o.substring(0, 3) + ":" + o.substring(3) : o);
                } catch (java.time.DateTimeException e) {
                    z = zone;
                }
            }
            return epoch(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), z);
        }
        m = SYSLOG.matcher(head);
        if (m.find()) {
            if (year <= 0) {
                return -1;
            }
            String day = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
            return epoch(year, MONTHS.indexOf(m.group(1)) / 3 + 1, Integer.parseInt(day), Integer.parseInt(m.group(5)),
                    Integer.parseInt(m.group(6)), Integer.parseInt(m.group(7)), zone);
        }
        m = MONTH_DAY.matcher(head);
        if (m.find()) {
            return year <= 0 ? -1 : epoch(year, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), zone);
        }
        m = TRT.matcher(head);
        if (m.find()) {
            return epoch(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), zone);
        }
        return -1;
    }

    private static long epoch(int y, int mo, int d, int h, int mi, int s, ZoneOffset zone) {
        try {
            return LocalDateTime.of(y, mo, d, h, mi, s).toEpochSecond(zone);
        } catch (java.time.DateTimeException e) {
            return -1;
        }
    }

    private static void same(String line) {
        for (int year : new int[] {2026, -1}) {
            assertEquals(reference(line, HOST, year), Timestamps.log(line, HOST, year), () -> "line: " + line);
        }
    }

    @Test
    void everyScenarioLineReadsAsThePatternsReadIt() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            files = s.filter(p -> p.toString().endsWith(".out")).toList();
        }
        int timed = 0;
        for (Path f : files) {
            for (String line : new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\n", -1)) {
                same(line);
                if (Timestamps.log(line, HOST, 2026) >= 0) {
                    timed++;
                }
            }
        }
        assertTrue(timed > 1000, "the scenarios' logs are timestamped: " + timed);
    }

    @Test
    void edgesOfEachShape() {
        List<String> lines = new ArrayList<>(List.of(
                "2026-11-30T00:31:01.214Z  INFO router", "2026-11-30 00:31:01,5 x", "2026-11-30 00:31:01. x",
                "2026-11-30 00:31:01.+01:00", "2026-11-30 00:31:01+0130 x", "2026-11-30 00:31:01-05:3x",
                "2026-11-30 00:31:01+05:", "2026-11-30 00:31:01+19:00", "2026-11-30 00:31:01+05:75",
                "2026-11-30 00:31:01-0000", "2026-11-30X00:31:01", "12026-11-30 00:31:01Z", "2026-11-30 00:31:01Zulu",
                "[2026-02-30 10:00:00] no such day", "2026-11-30 24:00:00", "x2026-11-30 00:31:01.999999999+01:00",
                "INFO 11-30 00:31:01 [loggers.py:118]", "WARNING 11-30 00:31:01 x", "WARN\t\t11-30 00:31:01",
                "WARNINGS 11-30 00:31:01", "INFOx 11-30 00:31:01", "CRITICAL 13-40 00:31:01", "DEBUG11-30 00:31:01",
                "(ERROR   11-30 23:59:59)", "INFO 11-30 00:31:0", "INFO 11-30 00:31:01 and 2026-11-30 00:31:01Z later",
                "ERROR 11-30 00:31:01 then INFO 11-29 00:31:01", ":", "", "INFO: 127.0.0.1:43912 - \"GET /\" 200",
                "[05/21/2026-03:12:44] [TRT-LLM] [I] iter = 4812249", "[TensorRT-LLM][INFO] [05/21/2026-03:12:44] x",
                "[13/21/2026-03:12:44] no such month", "[05/21/2026-03:12:44 no bracket", "05/21/2026-03:12:44] no open",
                "[05/21/2026 03:12:44]", "[5/21/2026-03:12:44]", "[05/21/2026-03:12:44] and 2026-05-21 03:12:45 later"));
        // a timestamp or zone cut at the 64th character: what lies beyond the head is not read
        String stamp = "2026-11-30T00:31:01.123+05:30";
        for (int pad = 25; pad <= 50; pad++) {
            lines.add(" ".repeat(pad) + stamp + " tail");
            lines.add(".".repeat(pad) + "WARNING  11-30 00:31:01 tail");
        }
        for (String line : lines) {
            same(line);
        }
    }

    @Test
    void timesOfDayAndMonthsAsPeopleAndLsWriteThem() {
        assertEquals(9 * 3600 + 30 * 60, Timestamps.timeOfDay("9:30"));
        assertEquals(31 * 60, Timestamps.timeOfDay("00:31"));
        assertEquals(13 * 3600 + 31 * 60 + 2, Timestamps.timeOfDay("13:31:02.318224811"));
        for (String bad : new String[] {"13:3", "24:00", "12:60", "12:30:61", "123:00", ":30", "12:30:", "12:30:05.", "12:30:05x",
                "1a:30", "12.30", ""}) {
            assertEquals(-1, Timestamps.timeOfDay(bad), bad);
        }
        assertEquals(8, Timestamps.month("Aug"));
        assertEquals(0, Timestamps.month("ugS"));
        assertEquals(0, Timestamps.month("August"));
    }

    @Test
    void randomLinesOfTimestampCharacters() {
        Random r = new Random(20261201);
        String[] parts = {"2026", "-", "11", "30", " ", "T", ":", "00", "31", "01", ".", ",", "214", "Z", "+", "05",
                "0530", "INFO", "WARN", "WARNING", "ERROR", "DEBUG", "CRITICAL", "\t", "x", "[", "]", "9", "/"};
        String[] seeds = {"2026-11-30 00:31:01", "INFO 11-30 00:31:01", "2026-11-30T00:31:01+05:30", "[11/30/2026-00:31:01]"};
        for (int n = 0; n < 200_000; n++) {
            StringBuilder b = new StringBuilder();
            if (r.nextInt(3) == 0) {
                b.append(seeds[r.nextInt(seeds.length)]);
            }
            int k = r.nextInt(24);
            for (int i = 0; i < k; i++) {
                String p = parts[r.nextInt(parts.length)];
                b.insert(r.nextInt(b.length() + 1), p);
            }
            same(b.toString());
        }
    }

    @Test
    void isoInstantAsTheJdkParsesIt() {
        List<String> dates = List.of("2026-11-30T00:31:05+00:00", "2026-11-30T00:31:05Z", "2026-11-30T00:31:05-05:30",
                "2026-11-30T00:31:05+05:30\n", "  2026-11-30T00:31:05+01:00  ", "2026-11-30T24:00:00+00:00",
                "2026-02-30T00:31:05+00:00", "2026-11-30T00:31:05+19:00", "2026-11-30T00:31:05+05:60",
                "2026-11-30T00:31:05.123+00:00", "2026-11-30T00:31+00:00", "2026-11-30 00:31:05+00:00",
                "2026-11-30T00:31:05-00:00", "2026-11-30T00:31:05+0000", "x2026-11-30T00:31:05+00:00", "");
        for (String d : dates) {
            OffsetDateTime expected;
            try {
                expected = OffsetDateTime.parse(d.strip());
            } catch (DateTimeParseException e) {
                expected = null;
            }
            OffsetDateTime got = Timestamps.isoInstant(d);
            if (expected != null) {
                assertEquals(expected, got, d);
            } else {
                // not the JDK's ISO form: the ISO pattern's reading, in UTC, as before
                Matcher m = ISO.matcher(d);
                long e = m.find() ? epoch(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
                        Integer.parseInt(m.group(6)), ZoneOffset.UTC) : -2;
                assertEquals(e == -2 || e < 0 ? null : OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(e),
                        ZoneOffset.UTC), got, d);
            }
        }
    }
}
