package io.triage.inventory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts a sweep looks at, from what people already have: hosts typed on the command line (an SSH config
 * pattern such as {@code gpu-*} expands to the aliases it matches), a plain host list ({@code --hosts}), an
 * Ansible inventory ({@code --inventory}, optionally narrowed by {@code --group}), then cut to one
 * {@code --shard}. Each host once (by name), in the order first given.
 *
 * @param hosts    the hosts selected
 * @param total    how many there were before the shard was taken
 * @param problems hosts left out, each with why (printed, not fatal)
 */
public record HostSelection(List<InventoryHost> hosts, int total, List<String> problems) {
    /** What the user gave; any part may be empty or null. */
    public record Request(List<String> typed, Path hostsFile, Path inventory, List<String> groups, Path sshConfig,
                          Shard shard) { }

    /**
     * @throws IllegalArgumentException with a message for the user when an input is refused
     */
    public static HostSelection of(Request r) throws IOException {
        Map<String, InventoryHost> all = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        SshConfigAliases aliases = null;
        List<String> typed = new ArrayList<>(r.typed() == null ? List.of() : r.typed());
        if (r.hostsFile() != null) {
            for (String line : Files.readAllLines(r.hostsFile())) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    typed.add(s);
                }
            }
        }
        for (String t : typed) {
            if (SshConfigAliases.isPattern(t)) {
                if (aliases == null) {
                    aliases = SshConfigAliases.read(r.sshConfig());
                }
                int at = t.lastIndexOf('@');
                String user = at < 0 ? "" : t.substring(0, at + 1);
                for (String a : aliases.expand(t.substring(at + 1))) {
                    add(all, InventoryHost.of(user + a));
                }
            } else {
                add(all, InventoryHost.of(t));
            }
        }
        if (r.inventory() != null) {
            Inventory inv = Inventory.load(r.inventory());
            List<InventoryHost> listed = r.groups() == null || r.groups().isEmpty() ? inv.hosts() : inv.hosts(r.groups());
            for (InventoryHost h : listed) {
                add(all, h);
            }
            problems.addAll(inv.problems());
        } else if (r.groups() != null && !r.groups().isEmpty()) {
            throw new IllegalArgumentException("--group needs --inventory");
        }
        List<InventoryHost> hosts = new ArrayList<>(all.values());
        Shard shard = r.shard() == null ? Shard.ALL : r.shard();
        return new HostSelection(shard.select(hosts), hosts.size(), problems);
    }

    private static void add(Map<String, InventoryHost> all, InventoryHost h) {
        all.putIfAbsent(h.name(), h);
    }
}
