package io.triage.cli;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line a run builds holds the one subcommand it names, and every one when it names none. */
class CommandLineShapeTest {
    private static final Set<String> ALL = Set.of("serve", "demo", "replay", "diagnose", "lab", "bundle", "rules");

    @Test
    void theNamedCommandIsTheFirstWordPastTheProductsOwnOptions() {
        assertEquals("replay", Main.namedCommand(new String[] {"replay", "dir"}));
        assertEquals("replay", Main.namedCommand(new String[] {"--home", "replay", "replay", "dir"}));
        assertEquals("rules", Main.namedCommand(new String[] {"--home=/x", "--verbose", "rules", "test"}));
        assertNull(Main.namedCommand(new String[] {"--help"}));
        assertNull(Main.namedCommand(new String[] {"--home"}));
        assertNull(Main.namedCommand(new String[] {}));
    }

    @Test
    void onlyTheNamedSubcommandIsBuiltAndEveryOneOtherwise() {
        assertEquals(Set.of("replay"), Main.commandLine(new String[] {"replay", "dir"}).getSubcommands().keySet());
        assertEquals(Set.of("rules"), Main.commandLine(new String[] {"rules", "check"}).getSubcommands().keySet());
        assertEquals(ALL, Main.commandLine(new String[] {"--version"}).getSubcommands().keySet());
        assertEquals(ALL, Main.commandLine(new String[] {"replya", "dir"}).getSubcommands().keySet(), "an unknown word");
        assertEquals(ALL, Main.commandLine().getSubcommands().keySet());
        CommandLine rules = Main.commandLine(new String[] {"rules"}).getSubcommands().get("rules");
        assertEquals(Set.of("check", "test", "bench", "explain", "scenario"), rules.getSubcommands().keySet());
    }

    @Test
    void theUsageAndAMistypedCommandStillSeeEveryCommand() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.run(new String[] {"--help"}, new PrintWriter(out, true), new PrintWriter(err, true)));
        for (String c : ALL) {
            assertTrue(out.toString().contains("  " + c), c + " in:\n" + out);
        }
        StringWriter err2 = new StringWriter();
        int rc = Main.run(new String[] {"--home", TestHome.HOME.toString(), "replya", "x"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err2, true));
        assertTrue(rc != 0 && err2.toString().contains("replay"), err2.toString());
    }
}
