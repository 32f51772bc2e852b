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
        // behind compose's prefix: the record, then the prefix gone too
        assertEquals("x y", LogParser.clean("tgi-1  | {\"log\":\"x y\\n\",\"stream\":\"stdout\"}"));
    }

    @Test
    void composesPrefixGoesAndTheLineBehindItKeepsItsShape() {
        assertEquals("May 19 14:31:08 host ollama[1488]: time=2026-05-19T14:31:08.199+02:00 level=INFO msg=x",
                LogParser.clean("\u001b[36minference-1  |\u001b[0m May 19 14:31:08 host ollama[1488]: time=2026-05-19T14:31:08.199+02:00 level=INFO msg=x"));
        assertEquals("INFO ready", LogParser.clean("vllm_1    | INFO ready"));
        // a bar that is the line's own: a level column, gin's access fields, a name without a replica number
        assertEquals("INFO     | uvicorn started", LogParser.clean("INFO     | uvicorn started"));
        assertEquals("[GIN] 2026/05/19 - 14:40:12 | 200 |", LogParser.clean("[GIN] 2026/05/19 - 14:40:12 | 200 |"));
        assertEquals("web | x", LogParser.clean("web | x"));
        assertEquals("2024-01-01 12:00:00.000 | INFO | m", LogParser.clean("2024-01-01 12:00:00.000 | INFO | m"));
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
