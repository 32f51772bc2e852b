package io.triage.inventory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The host aliases an SSH config names ({@code Host gpu-01 gpu-02}; patterns such as {@code Host gpu-*} and
 * negations name no host of their own), so that {@code gpu-*} typed on the command line expands to every alias it
 * matches, as a shell would expand a file name. Connection details stay with the SSH layer, which resolves each
 * alias (HostName, User, Port, ProxyJump…) as OpenSSH does.
 */
public final class SshConfigAliases {
    private final List<String> aliases;

    private SshConfigAliases(List<String> aliases) {
        this.aliases = List.copyOf(aliases);
    }

    /** The aliases of a config file; a missing file has none. */
    public static SshConfigAliases read(Path config) throws IOException {
        if (config == null || !Files.isRegularFile(config)) {
            return new SshConfigAliases(List.of());
        }
        if (Files.size(config) > Inventory.MAX_BYTES) {
            throw new IllegalArgumentException(config + ": larger than " + (Inventory.MAX_BYTES >> 20) + " MiB; not read");
        }
        return parse(Files.readString(config, StandardCharsets.UTF_8));
    }

    static SshConfigAliases parse(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String raw : text.split("\r?\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] w = line.split("[\\s=]+");
            if (!w[0].toLowerCase(Locale.ROOT).equals("host")) {
                continue;
            }
            for (int i = 1; i < w.length; i++) {
                String a = w[i].replace("\"", "");
                if (!a.isEmpty() && a.indexOf('*') < 0 && a.indexOf('?') < 0 && !a.startsWith("!")) {
                    out.add(a);
                }
            }
        }
        return new SshConfigAliases(new ArrayList<>(out));
    }

    public List<String> aliases() {
        return aliases;
    }

    /** True when a typed host is a pattern to expand ({@code *} or {@code ?}), not a host. */
    public static boolean isPattern(String typed) {
        return typed.indexOf('*') >= 0 || typed.indexOf('?') >= 0;
    }

    /**
     * The aliases a pattern matches, in the config's order.
     *
     * @throws IllegalArgumentException when it matches none (a pattern is never sent to a host as a name)
     */
    public List<String> expand(String pattern) {
        StringBuilder re = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        Pattern p = Pattern.compile(re.toString());
        List<String> out = new ArrayList<>();
        for (String a : aliases) {
            if (p.matcher(a).matches()) {
                out.add(a);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("'" + Inventory.excerpt(pattern) + "' matches no Host alias of the SSH config"
                    + (aliases.isEmpty() ? " (it names none)" : ""));
        }
        return out;
    }
}
