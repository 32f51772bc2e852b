package io.triage.parse;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Docker's json-file log records are read as the lines the container wrote. */
class DockerJsonLogTest {
    @Test
    void theRecordsLineIsTheLineItsEscapesUndone() {
        String record = "{\"log\":\"2026-08-04T15:46:01.415456Z  INFO text_generation_router: \\\"Success\\\" \\u001b[2mx\\u001b[0m\\n\","
                + "\"stream\":\"stderr\",\"time\":\"2026-08-04T15:46:01.415612345Z\"}";
        assertEquals("2026-08-04T15:46:01.415456Z  INFO text_generation_router: \"Success\" \u001b[2mx\u001b[0m",
                LogParser.dockerJsonLog(record));
        assertEquals("2026-08-04T15:46:01.415456Z  INFO text_generation_router: \"Success\" x", LogParser.clean(record));
        assertEquals("a\\b/c", LogParser.dockerJsonLog("{\"log\":\"a\\\\b\\/c\\n\"}"));
        assertEquals("tgi-1  | x y", LogParser.clean("tgi-1  | {\"log\":\"x y\\n\",\"stream\":\"stdout\"}"));
    }

    @Test
    void whatIsNotSuchARecordStaysAsItWas() {
        assertNull(LogParser.dockerJsonLog("{\"log\":\"cut off"));
        assertNull(LogParser.dockerJsonLog("{\"log\":\"bad \\u12 escape\"}"));
        assertNull(LogParser.dockerJsonLog("{\"log\":\"x\" trailing"));
        String notJson = "{\"log\":\"cut off";
        assertEquals(notJson, LogParser.clean(notJson));
    }
}
