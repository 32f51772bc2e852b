package io.triage.capture;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import io.triage.explain.TextRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A capture is data: replay reads only the capture's own files, and --save writes only a fresh, private one. */
class CaptureSafetyTest {
    static final String SECRET = "root:$6$SECRETHASH:19000:0:99999:7:::";

    @TempDir
    Path tmp;

    private Path outside() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(dir.resolve("shadow"), SECRET + "\nport=31337\n");
        Files.writeString(dir.resolve("health.out"), SECRET + "\n");
        return dir;
    }

    private Path capture() throws IOException {
        Path c = Files.createDirectories(tmp.resolve("capture"));
        Files.writeString(c.resolve("health.out"), "000 5.001\n");
        Files.writeString(c.resolve("_probes.txt"), "health rc=28 seconds=5.0\n");
        return c;
    }

    private static String everything(Capture c) {
        StringBuilder b = new StringBuilder(c.notes().toString()).append(c.target()).append(c.intent());
        c.probes().values().forEach(p -> b.append(p.out()).append(p.err()).append(p.cmd()));
        return b.toString();
    }

    @Test
    void aSymlinkedFileOutOfTheCaptureIsNotFollowedAndItsTargetIsNeverShown() throws Exception {
        Path elsewhere = outside();
        Path c = capture();
        Files.createSymbolicLink(c.resolve("gpus.out"), elsewhere.resolve("shadow"));
        Files.createSymbolicLink(c.resolve("target.txt"), elsewhere.resolve("shadow"));
        Files.createSymbolicLink(c.resolve("notes.txt"), elsewhere.resolve("shadow"));
        Capture read = new CaptureReader().read(c);
        String all = everything(read);
        assertFalse(all.contains("SECRET"), all);
        assertFalse(all.contains(elsewhere.toString()), "the link's target is not named: " + all);
        assertFalse(read.probes().containsKey("gpus"), "a link is no probe output");
        assertTrue(read.target().isEmpty(), read.target().toString());
        assertTrue(read.notes().contains("gpus.out is a symbolic link: not followed (a capture is read only from its own files)"),
                read.notes().toString());
        assertTrue(read.notes().stream().anyMatch(n -> n.startsWith("target.txt is a symbolic link")), read.notes().toString());
        // and through the whole product: the rendered diagnosis holds neither the content nor the path
        Diagnosis d = TestHome.triage().replay(c, Map.of());
        String text = new TextRenderer().render(d);
        assertFalse(text.contains("SECRET") || text.contains(elsewhere.toString()), text);
    }

    @Test
    void aSymlinkedDirectoryAndALinkToAFileInsideTheCaptureAreNotFollowedEither() throws Exception {
        Path elsewhere = outside();
        Path c = capture();
        Files.createSymbolicLink(c.resolve("sub"), elsewhere);
        Files.createSymbolicLink(c.resolve("log_tail.out"), elsewhere);
        Files.createSymbolicLink(c.resolve("dmesg.out"), c.resolve("health.out"));
        Files.createSymbolicLink(c.resolve("_probes.txt.bak"), elsewhere.resolve("shadow"));
        Files.delete(c.resolve("_probes.txt"));
        Files.createSymbolicLink(c.resolve("_probes.txt"), elsewhere.resolve("shadow"));
        Capture read = new CaptureReader().read(c);
        assertFalse(everything(read).contains("SECRET"), everything(read));
        assertEquals(List.of("health"), List.copyOf(read.probes().keySet()), "only the capture's own regular files");
        assertTrue(read.notes().stream().anyMatch(n -> n.startsWith("log_tail.out is a symbolic link")), read.notes().toString());
        assertTrue(read.notes().stream().anyMatch(n -> n.startsWith("dmesg.out is a symbolic link")), read.notes().toString());
        assertTrue(read.notes().stream().anyMatch(n -> n.startsWith("_probes.txt is a symbolic link")), read.notes().toString());
    }

    @Test
    void aFifoInTheCaptureIsNotOpenedAndDoesNotHangTheReader() throws Exception {
        Path c = capture();
        Path fifo = c.resolve("gpus.out");
        assumeTrue(mkfifo(fifo), "mkfifo is available");
        assumeTrue(Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther());
        Capture read = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> new CaptureReader().read(c));
        assertFalse(read.probes().containsKey("gpus"));
        assertTrue(read.notes().contains("gpus.out is not a regular file (a pipe, device or socket): not read"),
                read.notes().toString());
    }

    private static boolean mkfifo(Path p) {
        try {
            return new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void aStaleNonEmptySaveDirectoryIsRefusedAndLeftAsItWas() throws Exception {
        Capture live = new CaptureReader().read(TestHome.fixture("h200/02-external-kill"));
        Path stale = Files.createDirectories(tmp.resolve("incident"));
        Files.writeString(stale.resolve("dmesg.out"), "Out of memory: Killed process 4242 (python3)\n");
        CaptureWriter.SaveRefused e = assertThrows(CaptureWriter.SaveRefused.class, () -> CaptureWriter.write(live, stale));
        assertTrue(e.getMessage().contains("already exists and is not empty"), e.getMessage());
        try (Stream<Path> s = Files.list(stale)) {
            assertEquals(1, s.count(), "nothing written into the old directory");
        }
    }

    @Test
    void aSaveDirectoryThatIsASymlinkIsRefusedAndItsTargetStaysEmpty() throws Exception {
        Capture live = new CaptureReader().read(TestHome.fixture("h200/02-external-kill"));
        Path target = Files.createDirectories(tmp.resolve("target-of-link"));
        Path link = Files.createSymbolicLink(tmp.resolve("save"), target);
        CaptureWriter.SaveRefused e = assertThrows(CaptureWriter.SaveRefused.class, () -> CaptureWriter.write(live, link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        try (Stream<Path> s = Files.list(target)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void aFileLinkPlantedAfterTheDirectoryWasMadeIsNeverWrittenThrough() throws Exception {
        Capture live = new CaptureReader().read(TestHome.fixture("h200/02-external-kill"));
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "untouched\n");
        Path save = tmp.resolve("fresh");
        CaptureWriter.prepare(save);
        Files.createSymbolicLink(save.resolve("health.out"), victim);
        assertThrows(CaptureWriter.SaveRefused.class, () -> CaptureWriter.write(live, save));
        assertEquals("untouched\n", Files.readString(victim));
    }

    @Test
    void aSavedCaptureIsPrivateFromItsCreationAndReplaysToTheSameVerdict() throws Exception {
        assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path scenario = TestHome.fixture("h200/02-external-kill");
        Capture original = new CaptureReader().read(scenario);
        Path save = tmp.resolve("deep/new/save");
        CaptureWriter.write(original, save);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(save)));
        try (Stream<Path> s = Files.list(save)) {
            for (Path f : s.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
            }
        }
        Diagnosis a = TestHome.triage().replay(scenario, Map.of());
        Diagnosis b = TestHome.triage().replay(save, Map.of());
        assertEquals(a.cause() + "/" + a.subtype() + "/" + a.confidence(), b.cause() + "/" + b.subtype() + "/" + b.confidence());
        // an existing empty directory is accepted too
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CaptureWriter.write(original, empty);
        assertTrue(Files.isRegularFile(empty.resolve("_probes.txt"), LinkOption.NOFOLLOW_LINKS));
    }
}
