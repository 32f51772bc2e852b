package io.triage.lab;

import io.triage.collect.ProbeBundle;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading the probe bundle back from a command string or stdin, without running anything. */
class LabScriptTest {

    @Test
    void theBundleScriptIsRecognisedWithItsNonceValuesAndProbesInOrder() {
        ProbeBundle b = io.triage.TestHome.bundle("vllm", 8001, "/srv/a log, v2.txt");
        BundleScript s = BundleScript.parse(b.script()).orElseThrow();
        assertEquals(b.nonce(), s.nonce());
        assertEquals("8001", s.port());
        assertEquals("/srv/a log, v2.txt", s.log());
        assertEquals("vllm", s.server());
        assertEquals(b.probes().stream().map(ProbeBundle.Probe::name).toList(), s.probes());
        assertTrue(s.ends());
    }

    @Test
    void theLabAssumesThePortTheScriptWouldFromTheKnowledgeBase() {
        BundleScript s = BundleScript.parse(io.triage.TestHome.bundle("tgi", null, null).script()).orElseThrow();
        io.triage.TestHome.triage().knowledge().serves().forEach((kind, serves) -> {
            if (serves.port() != null) {
                assertEquals(String.valueOf(serves.port()), s.assumedPort(kind), kind);
            }
        });
        assertEquals("30000", s.assumedPort("no-such-kind"), "the script's fallback arm");
        assertEquals("3000", s.assumedPort("tgi"), "TGI's own default port, not vLLM's");
    }

    @Test
    void emptyTargetValuesStayEmpty() {
        BundleScript s = BundleScript.parse(io.triage.TestHome.bundle(null, null, null).script()).orElseThrow();
        assertEquals("", s.port());
        assertEquals("", s.log());
        assertEquals("", s.server());
    }

    @Test
    void ordinaryCommandsAreNotScripts() {
        assertTrue(BundleScript.parse("nvidia-smi").isEmpty());
        assertTrue(BundleScript.parse("N=zz\np date 5 'date'").isEmpty());
        assertTrue(BundleScript.parse("echo N=abcd").isEmpty());
        assertTrue(BundleScript.parse(null).isEmpty());
        assertTrue(BundleScript.parse("N=abcdef\nrm -rf /\n").isEmpty(), "a nonce alone is not a bundle");
    }

    @Test
    void execFormsAreClassified() {
        assertEquals(BundleScript.Exec.Kind.STDIN, BundleScript.classify("bash -s").kind());
        assertEquals(BundleScript.Exec.Kind.STDIN, BundleScript.classify(" /bin/bash -s -- ").kind());
        assertEquals(BundleScript.Exec.Kind.STDIN, BundleScript.classify("sh -s").kind());
        assertEquals(BundleScript.Exec.Kind.OTHER, BundleScript.classify("bash -s; rm -rf /").kind());
        assertEquals(BundleScript.Exec.Kind.OTHER, BundleScript.classify("nvidia-smi").kind());
        String script = io.triage.TestHome.bundle("sglang", null, null).script();
        BundleScript.Exec c = BundleScript.classify("bash -c " + ProbeBundle.quote(script));
        assertEquals(BundleScript.Exec.Kind.SCRIPT, c.kind());
        assertEquals(script, c.text());
    }

    @Test
    void shellWordsFollowPosixQuoting() {
        assertEquals(List.of("a b", "c'd", "e\"f", "g$h", "i j"), BundleScript.words("'a b' 'c'\"'\"'d' \"e\\\"f\" \"g\\$h\" i\\ j"));
        assertEquals(List.of(""), BundleScript.words("''"));
        assertNull(BundleScript.words("'unbalanced"));
        assertNull(BundleScript.words("\"unbalanced"));
        Optional<BundleScript> broken = BundleScript.parse("N=abcd\nT_PORT='8000\np date 5 'date'\n");
        assertFalse(broken.isEmpty());
        assertEquals("", broken.get().port(), "an unreadable value is treated as not given");
    }

    @Test
    void programNamesIgnoreDirectoriesAndShellSyntax() {
        assertEquals("nvidia-smi", LabReplies.program("/usr/bin/nvidia-smi -L"));
        assertEquals("date", LabReplies.program("date -Is; uptime"));
        assertEquals("dmesg", LabReplies.program("dmesg|tail"));
        assertEquals("", LabReplies.program(";"));
    }
}
