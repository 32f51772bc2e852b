package io.triage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A site's knowledge written as a rule author would: a cause the product does not know (a server whose licence
 * expired), its log marker, its two rules, its sentence, its next step with the runbook's link, a runbook link for a
 * shipped cause (killed from outside), and a scenario made from a shipped capture whose log gains the licence line.
 * The same files serve as an overlay ({@link #overlay}) and as a topic of a home's own knowledge base ({@link #topic}).
 */
public final class SiteOverlay {
    public static final String CAUSE = "site-licence-expired";
    public static final String STEP = "site-renew-licence";
    public static final String KILL_RUNBOOK = "site-kill-runbook";
    public static final String MARKER = "site.licence-expired";
    /** The shipped capture the scenario is made from: a server killed from outside (verdict external-kill). */
    public static final String CAPTURE = "04-external-kill-shell-killed-clean-dmesg";
    public static final String LICENCE_LINE = "[2026-12-06 16:08:31] ERROR licence-daemon: the licence has expired, serving stops";

    private SiteOverlay() {
    }

    /** The rules: marker → symptom → cause. */
    public static String drl(String pkg) {
        return """
                package %s

                import io.triage.facts.*;

                rule "site: the log says the licence expired"
                when
                    $m: LogMarker(markerId == "site.licence-expired", currentRun == true)
                then
                    insertLogical(new Symptom("site-licence-expired", Detail.of("excerpt", $m.excerpt())));
                end

                rule "site: a lapsed licence stops the server"
                when
                    $s: Symptom(id == "site-licence-expired")
                then
                    insertLogical(new Hypothesis("site-licence-expired", "", "high"));
                end
                """.formatted(pkg);
    }

    /** One topic's knowledge: cause, sentence, steps (runbook links), marker. */
    public static String knowledge() {
        return """
                about: Our inference servers check a licence at start and every hour.
                causes:
                  site-licence-expired:
                    title: The server's licence expired
                    rank: 99
                    summary: The licence daemon found the licence lapsed, and the server stopped serving.
                    caveat: ''
                symptoms:
                  site-licence-expired: The server's log says its licence has expired
                details:
                  site-licence-expired: '{excerpt}'
                rationales:
                  "site: the log says the licence expired": The licence daemon writes this line when the licence lapses; the server stops serving.
                  "site: a lapsed licence stops the server": Once the licence lapses the server refuses work, whatever else is true.
                steps:
                  site-renew-licence:
                    title: Renew the licence (runbook https://runbooks.example.com/licence)
                    command: grep -n -i 'licen[cs]e' {log}
                    rationale: The runbook says how to renew it; the log line says when it lapsed.
                    causes: [site-licence-expired]
                  site-kill-runbook:
                    title: Follow the site's runbook for killed servers (https://runbooks.example.com/killed)
                    rationale: Our schedulers and on-call tools are listed there, with how to ask each whether it killed the server.
                    causes: [external-kill]
                markers:
                  common:
                    - id: site.licence-expired
                      kind: host
                      pattern: '\\blicen[cs]e has expired\\b'
                      note: the licence daemon's line (our own tool)
                """;
    }

    /** Writes the overlay under {@code dir}: rules/site.drl, knowledge-base/site.yaml, knowledge-base/scenarios/licence/. */
    public static Path overlay(Path dir) throws IOException {
        write(dir.resolve("rules/site.drl"), drl("site.rules"));
        write(dir.resolve("knowledge-base/site.yaml"), knowledge());
        scenario(dir.resolve("knowledge-base/scenarios/licence"));
        return dir;
    }

    /**
     * Adds the cause to a home as its own topic: exactly one rule file, one topic file and one scenario; returns the
     * files written (the scenario as its directory).
     */
    public static List<Path> topic(Path home) throws IOException {
        Path rule = home.resolve("rules/36-site-licence.drl");
        Path topic = home.resolve("knowledge-base/topics/site-licence.yaml");
        Path scenario = home.resolve("knowledge-base/scenarios/site-licence");
        write(rule, drl("triage.rules"));
        write(topic, knowledge());
        scenario(scenario);
        return List.of(rule, topic, scenario);
    }

    /** The shipped capture with the licence line before the kill, expecting the site's cause and its step. */
    public static Path scenario(Path dir) throws IOException {
        Path from = TestHome.fixture(CAPTURE);
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                if (name.equals("expected.txt") || name.equals("TRUTH.txt")) {
                    continue;
                }
                Files.copy(f, dir.resolve(name));
            }
        }
        Path log = dir.resolve("log_tail.out");
        String text = Files.readString(log, StandardCharsets.UTF_8);
        int killed = text.lastIndexOf("Killed");
        Files.writeString(log, text.substring(0, killed) + LICENCE_LINE + "\n" + text.substring(killed), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("expected.txt"), "cause=" + CAUSE + "\nsteps=" + STEP + "\n", StandardCharsets.UTF_8);
        return dir;
    }

    /** A copy of the shipped rules and knowledge (scenarios aside). */
    public static Path copyHome(Path home) throws IOException {
        return TestHome.copyHome(home);
    }

    static void write(Path f, String text) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
    }
}
