package io.triage.engine;

import io.triage.ChildProcess;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher the build puts beside the jar ({@code src/main/launcher/triage}), run on a small jar of its own:
 * arguments, output and exit code pass through; the class-data archive is made once, privately, and used after;
 * a cache others can write is not used.
 */
class LauncherTest {
    @TempDir
    Path tmp;

    /** Prints its arguments, one a line, and exits with the code its last argument names, if a number. */
    public static final class Probe {
        public static void main(String[] args) {
            if (System.getenv("PROBE_JVM") != null) {
                System.out.println(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
            }
            for (String a : args) {
                System.out.println(a);
            }
            String last = args.length == 0 ? "0" : args[args.length - 1];
            System.exit(last.matches("[0-9]{1,2}") ? Integer.parseInt(last) : 0);
        }
    }

    private Path install() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("inst"));
        Files.copy(TestHome.HOME.resolve("src/main/launcher/triage"), dir.resolve("triage"));
        Files.setPosixFilePermissions(dir.resolve("triage"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Probe.class.getName());
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(dir.resolve("triage.jar")), m)) {
            String name = Probe.class.getName().replace('.', '/') + ".class";
            jar.putNextEntry(new JarEntry(name));
            try (var in = Probe.class.getClassLoader().getResourceAsStream(name)) {
                in.transferTo(jar);
            }
            jar.closeEntry();
        }
        return dir;
    }

    private ChildProcess.Result run(Path inst, Path xdg, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(inst.resolve("triage").toString()),
                Stream.of(args)).toList());
        pb.environment().put("XDG_CACHE_HOME", xdg.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("TRIAGE_CDS");
        return ChildProcess.run(pb, java.time.Duration.ofMinutes(2));
    }

    private static List<Path> archives(Path cds) throws IOException {
        try (Stream<Path> s = Files.list(cds)) {
            return s.toList();
        }
    }

    @Test
    void argumentsOutputAndExitCodePassThroughAndTheArchiveIsMadeOncePrivately() throws Exception {
        Path inst = install();
        Path xdg = tmp.resolve("xdg");
        ChildProcess.Result first = run(inst, xdg, "replay", "a dir with spaces", "--format", "json", "4");
        assertEquals(4, first.code(), first.err());
        assertEquals("replay\na dir with spaces\n--format\njson\n4\n", first.out(), "nothing but the command's output: " + first.err());
        Path cds = xdg.resolve("triage/cds");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cds)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cds.getParent())));
        assertEquals(List.of(), archives(cds), "a run that failed keeps no archive");
        ChildProcess.Result help = run(inst, xdg, "--help");
        assertEquals(0, help.code(), help.err());
        assertEquals(List.of(), archives(cds), "a command that does not load the engine records no archive");

        ChildProcess.Result ok = run(inst, xdg, "replay", "dir");
        assertEquals(0, ok.code(), ok.err());
        assertEquals("replay\ndir\n", ok.out());
        List<Path> made = archives(cds);
        assertEquals(1, made.size(), made.toString());
        assertTrue(made.get(0).getFileName().toString().matches("triage-[0-9]+\\.jsa"), made.toString());

        ChildProcess.Result again = run(inst, xdg, "replay", "x", "1");
        assertEquals(1, again.code(), again.err());
        assertEquals("replay\nx\n1\n", again.out());
        assertEquals("", again.err());
        assertEquals(made, archives(cds), "the archive is used, not made again");
    }

    @Test
    void aServerGetsTheOptimisingCompilerAndACommandTheQuickStart() throws Exception {
        Path inst = install();
        Path xdg = tmp.resolve("xdg");
        // the command word, after --home's or --overlay's value: serve and lab are servers
        java.util.Map<List<String>, Boolean> cases = new java.util.LinkedHashMap<>();
        cases.put(List.of("serve", "--port", "0"), true);
        cases.put(List.of("--home", "replay", "serve"), true);
        cases.put(List.of("--overlay", "/o", "--home=/h", "lab"), true);
        cases.put(List.of("replay", "serve"), false);
        cases.put(List.of("--home", "serve", "replay"), false);
        for (var c : cases.entrySet()) {
            List<String> args = c.getKey();
            boolean server = c.getValue();
            for (int run = 0; run < 2; run++) { // the run that records the archive, and the one that maps it
                ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(inst.resolve("triage").toString()),
                        args.stream()).toList());
                pb.environment().put("XDG_CACHE_HOME", xdg.toString());
                pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
                pb.environment().put("PROBE_JVM", "1");
                ChildProcess.Result r = ChildProcess.run(pb, java.time.Duration.ofMinutes(2));
                assertEquals(0, r.code(), r.err());
                String jvm = r.out().lines().findFirst().orElse("");
                assertEquals(!server, jvm.contains("-XX:TieredStopAtLevel=1"), args + ": " + jvm);
                assertEquals(server, jvm.contains("-XX:+UseParallelGC"), args + ": " + jvm);
            }
        }
        assertEquals(2, archives(xdg.resolve("triage/cds")).size(), "a server's archive is not a command's");
    }

    @Test
    void aCacheOthersCanWriteIsNotUsedAndTheCommandStillRuns() throws Exception {
        Path inst = install();
        Path xdg = tmp.resolve("xdg");
        Path cds = Files.createDirectories(xdg.resolve("triage/cds"));
        Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString("rwxrwxrwx"));
        ChildProcess.Result r = run(inst, xdg, "replay", "3");
        assertEquals(3, r.code(), r.err());
        assertEquals("replay\n3\n", r.out());
        assertTrue(r.err().contains("is not private to this user; starting without it"), r.err());
        assertEquals(List.of(), archives(cds));
    }
}
