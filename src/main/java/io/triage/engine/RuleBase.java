package io.triage.engine;

import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.runtime.KieContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rules, compiled once from the DRL files of a directory into one {@link KieBase}. A rule author
 * edits the files and restarts; nothing is compiled into the product.
 */
public final class RuleBase {
    /** A compile problem, with the file and line the compiler gave. */
    public record Problem(String level, String file, int line, String text) {
        @Override
        public String toString() {
            return level + " " + file + (line > 0 ? ":" + line : "") + ": " + text;
        }
    }

    private final KieBase kieBase;
    private final List<Path> files;
    private final List<Problem> warnings;

    private RuleBase(KieBase kieBase, List<Path> files, List<Problem> warnings) {
        this.kieBase = kieBase;
        this.files = files;
        this.warnings = warnings;
    }

    /**
     * Compiles every {@code *.drl} (and decision table {@code *.drl.csv}) file under {@code dir}.
     *
     * @throws RuleBaseException listing every error, with file and line
     */
    public static RuleBase load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new RuleBaseException("rules directory not found: " + dir, List.of());
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".drl") || p.toString().endsWith(".drl.csv"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new RuleBaseException("cannot list " + dir + ": " + e.getMessage(), List.of());
        }
        if (files.isEmpty()) {
            throw new RuleBaseException("no rule files (*.drl) in " + dir, List.of());
        }
        KieServices ks = KieServices.Factory.get();
        KieFileSystem kfs = ks.newKieFileSystem();
        ReleaseId id = ks.newReleaseId("io.triage", "rules", "1.0.0-" + Long.toHexString(System.nanoTime()));
        kfs.generateAndWritePomXML(id);
        for (Path f : files) {
            try {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                kfs.write("src/main/resources/triage/rules/" + rel, Files.readAllBytes(f));
            } catch (IOException e) {
                throw new RuleBaseException("cannot read rule file " + f + ": " + e.getMessage(), List.of());
            }
        }
        KieBuilder builder = ks.newKieBuilder(kfs).buildAll();
        List<Problem> errors = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        for (Message m : builder.getResults().getMessages()) {
            String path = m.getPath() == null ? "" : m.getPath().replaceFirst("^src/main/resources/triage/rules/", "");
            Problem p = new Problem(m.getLevel().name().toLowerCase(java.util.Locale.ROOT), path, m.getLine(),
                    m.getText().strip());
            if (m.getLevel() == Message.Level.ERROR) {
                errors.add(p);
            } else {
                warnings.add(p);
            }
        }
        if (!errors.isEmpty()) {
            throw new RuleBaseException("rules in " + dir + " do not compile", errors);
        }
        KieContainer container = ks.newKieContainer(id);
        KieBase base = container.getKieBase();
        // the container's module is not needed once the base exists; keep the repository clean
        ks.getRepository().removeKieModule(id);
        return new RuleBase(base, files, List.copyOf(warnings));
    }

    public KieBase kieBase() {
        return kieBase;
    }

    public List<Path> files() {
        return files;
    }

    public List<Problem> warnings() {
        return warnings;
    }
}
