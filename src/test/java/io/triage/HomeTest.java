package io.triage;

import io.triage.knowledge.KnowledgeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rules are code: they come from the installation unless a directory is named, never silently from the working directory. */
class HomeTest {
    @TempDir
    Path tmp;

    /** A working directory with rules/ and knowledge-base/ of its own, as an attacker would plant them. */
    private Path planted() throws IOException {
        Path cwd = Files.createDirectories(tmp.resolve("cwd"));
        Files.createDirectories(cwd.resolve("knowledge-base"));
        Files.createDirectories(cwd.resolve("rules"));
        Files.writeString(cwd.resolve("rules/evil.drl"), """
                package evil
                rule "planted" when then java.nio.file.Files.writeString(java.nio.file.Path.of("PWNED"), "ran"); end
                """);
        return cwd;
    }

    /** An installation: a checkout with target/triage.jar. */
    private Path installation() throws IOException {
        Path inst = Files.createDirectories(tmp.resolve("inst"));
        Files.createDirectories(inst.resolve("rules"));
        Files.createDirectories(inst.resolve("knowledge-base"));
        Files.createDirectories(inst.resolve("target"));
        return inst;
    }

    @Test
    void aPlantedRulesDirectoryInTheWorkingDirectoryIsNotUsedButNamed() throws Exception {
        Path cwd = planted();
        Path inst = installation();
        Triage.Home h = Triage.findHome(null, Map.of(), cwd, inst.resolve("target/triage.jar"));
        assertEquals(inst, h.path());
        assertEquals(Triage.Home.Source.INSTALLATION, h.source());
        assertEquals(cwd, h.unusedHere());
        assertTrue(h.announcement().orElseThrow().contains("--home ."), h.announcement().toString());
    }

    @Test
    void theWorkingDirectoryIsUsedOnlyWhenNamed() throws Exception {
        Path cwd = planted();
        Path inst = installation();
        Triage.Home dot = Triage.findHome(Path.of("."), Map.of(), cwd, inst.resolve("target/triage.jar"));
        assertEquals(cwd, dot.path());
        assertEquals(Triage.Home.Source.OPTION, dot.source());
        assertEquals("triage: rules and knowledge from " + cwd + " (--home)", dot.announcement().orElseThrow());
        Triage.Home env = Triage.findHome(null, Map.of("TRIAGE_HOME", "."), cwd, inst.resolve("target/triage.jar"));
        assertEquals(cwd, env.path());
        assertEquals(Triage.Home.Source.ENVIRONMENT, env.source());
    }

    @Test
    void theInstallationsOwnHomeIsQuietAndFoundFromAClassesDirectoryToo() throws Exception {
        Path inst = installation();
        Triage.Home h = Triage.findHome(null, Map.of(), inst, inst.resolve("target/classes"));
        assertEquals(inst, h.path());
        assertNull(h.unusedHere(), "the working directory is the installation");
        assertTrue(h.announcement().isEmpty());
        Triage.Home named = Triage.findHome(Path.of("inst"), Map.of(), tmp, inst.resolve("target/triage.jar"));
        assertEquals(Triage.Home.Source.INSTALLATION, named.source(), "naming the installation's own home changes nothing");
        assertTrue(named.announcement().isEmpty());
    }

    @Test
    void withoutAnInstallationHomeTheWorkingDirectoryIsStillNotTaken() throws Exception {
        Path cwd = planted();
        Path lonely = Files.createDirectories(tmp.resolve("a/b/c"));
        KnowledgeException e = assertThrows(KnowledgeException.class,
                () -> Triage.findHome(null, Map.of(), cwd, lonely.resolve("triage.jar")));
        assertTrue(e.getMessage().contains("--home"), e.getMessage());
    }

    @Test
    void theCommandLineInAnotherWorkingDirectoryUsesTheInstallationAndSaysWhichHomeInJson() throws Exception {
        Path cwd = planted();
        Path scenario = TestHome.fixture("h200/02-external-kill");
        ChildProcess.Result r = ChildProcess.run(new ProcessBuilder(ChildProcess.java("-Xmx512m", "io.triage.cli.Main",
                "replay", scenario.toString(), "--format", "json")).directory(cwd.toFile()), java.time.Duration.ofMinutes(5));
        String err = r.err();
        String json = r.out();
        assertEquals(0, r.code(), err + json);
        assertFalse(Files.exists(cwd.resolve("PWNED")), "the planted rule never ran");
        assertTrue(err.contains("are not used (the installation's own are)"), err);
        assertTrue(json.contains("\"home\" : " + new com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(TestHome.HOME.toString())), json);
    }

    @Test
    void everyDiagnosisSaysWhichHomeItCameFrom() throws Exception {
        var d = TestHome.triage().replay(TestHome.fixture("h200/02-external-kill"), Map.of());
        assertEquals(TestHome.HOME.toString(), d.engine().home());
    }
}
