package io.triage.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An Ansible inventory, INI or YAML, as the hosts a sweep looks at: groups with {@code :children} and
 * {@code children:}, host ranges ({@code gpu[01:20]}), and the connection variables {@code ansible_host},
 * {@code ansible_port}, {@code ansible_user} (and their old {@code ansible_ssh_*} names) from the host line,
 * {@code [group:vars]} / {@code vars:} and {@code all}, the deeper group winning as in Ansible. Other variables
 * are ignored. A host whose values are not a host, user or port (a Jinja template, say) is left out with a
 * problem line; a file that is not an inventory is refused with the line that is wrong.
 */
public final class Inventory {
    /** Largest inventory file read, bytes. */
    static final long MAX_BYTES = 32L << 20;

    /** A host line that starts with a bracketed IPv6 address, not a section. */
    private static final java.util.regex.Pattern IPV6_HOST = java.util.regex.Pattern.compile("^\\[[0-9A-Fa-f]*:[0-9A-Fa-f:.]*\\]");
    /** {@code host:port} on a host line: the port is the host's ansible_port. */
    private static final java.util.regex.Pattern WITH_PORT = java.util.regex.Pattern.compile("^(.*[^:]):([0-9]{1,5})$");

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> hostVars = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    private static final class Group {
        final Set<String> hosts = new LinkedHashSet<>();
        final Set<String> children = new LinkedHashSet<>();
        final Map<String, String> vars = new LinkedHashMap<>();
    }

    private Inventory() {
        group("all");
        group("ungrouped");
    }

    /**
     * Reads an inventory file: YAML when its name ends in {@code .yml}/{@code .yaml} or it starts like a YAML
     * document, else INI (a plain list of hosts, one per line, is an INI inventory without groups).
     *
     * @throws IllegalArgumentException with a message for the user when the file is not an inventory
     */
    public static Inventory load(Path file) throws IOException {
        if (Files.size(file) > MAX_BYTES) {
            throw new IllegalArgumentException(file + ": larger than " + (MAX_BYTES >> 20) + " MiB; not read");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".yml") || name.endsWith(".yaml") || looksLikeYaml(text) ? yaml(text) : ini(text);
    }

    private static boolean looksLikeYaml(String text) {
        for (String line : text.split("\n")) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            return s.equals("---") || s.matches("[A-Za-z0-9_.-]+:\\s*(#.*)?");
        }
        return false;
    }

    /** An INI inventory. */
    public static Inventory ini(String text) {
        Inventory inv = new Inventory();
        String section = "ungrouped";
        String kind = "hosts";
        int n = 0;
        for (String raw : text.split("\r?\n")) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && !IPV6_HOST.matcher(line).find()) {
                if (!line.endsWith("]") || line.length() < 3) {
                    throw new IllegalArgumentException("line " + n + ": not a section header: " + excerpt(line));
                }
                String head = line.substring(1, line.length() - 1).strip();
                int colon = head.indexOf(':');
                section = colon < 0 ? head : head.substring(0, colon);
                kind = colon < 0 ? "hosts" : head.substring(colon + 1);
                if (!section.matches("[A-Za-z0-9_.-]+") || !List.of("hosts", "children", "vars").contains(kind)) {
                    throw new IllegalArgumentException("line " + n + ": not a group section ([name], [name:children], "
                            + "[name:vars]): " + excerpt(line));
                }
                inv.group(section);
                continue;
            }
            List<String> words = words(line, n);
            switch (kind) {
                case "children" -> {
                    for (String w : words) {
                        inv.group(section).children.add(w);
                        inv.group(w);
                    }
                }
                case "vars" -> {
                    Map<String, String> kv = pairs(words, 0, n);
                    if (kv.isEmpty()) {
                        throw new IllegalArgumentException("line " + n + ": not a key=value: " + excerpt(line));
                    }
                    inv.group(section).vars.putAll(kv);
                }
                default -> {
                    Map<String, String> vars = pairs(words, 1, n);
                    inv.addHosts(section, words.get(0), vars, n);
                }
            }
        }
        inv.link();
        return inv;
    }

    /** A YAML inventory: top-level groups, each with {@code hosts}, {@code vars} and {@code children}. */
    public static Inventory yaml(String text) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a YAML inventory: " + excerpt(String.valueOf(e.getMessage())));
        }
        Inventory inv = new Inventory();
        if (root == null || root.isNull() || root.isMissingNode()) {
            inv.link();
            return inv;
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("not a YAML inventory: the top level must be a map of groups");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> g = it.next();
            inv.yamlGroup(g.getKey(), g.getValue(), 0);
        }
        inv.link();
        return inv;
    }

    private void yamlGroup(String name, JsonNode node, int depth) {
        if (depth > 64) {
            throw new IllegalArgumentException("group '" + excerpt(name) + "': children nested deeper than 64");
        }
        if (!name.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("not a group name: '" + excerpt(name) + "'");
        }
        Group g = group(name);
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("group '" + name + "': expected a map with hosts, vars or children");
        }
        JsonNode hosts = node.get("hosts");
        if (hosts != null && hosts.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = hosts.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> h = it.next();
                addHosts(name, h.getKey(), scalars(h.getValue()), 0);
            }
        } else if (hosts != null && !hosts.isNull()) {
            throw new IllegalArgumentException("group '" + name + "': hosts must be a map of host names");
        }
        JsonNode vars = node.get("vars");
        if (vars != null && vars.isObject()) {
            g.vars.putAll(scalars(vars));
        }
        JsonNode children = node.get("children");
        if (children != null && children.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = children.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> c = it.next();
                g.children.add(c.getKey());
                yamlGroup(c.getKey(), c.getValue(), depth + 1);
            }
        } else if (children != null && !children.isNull()) {
            throw new IllegalArgumentException("group '" + name + "': children must be a map of group names");
        }
    }

    private static Map<String, String> scalars(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                    out.put(e.getKey(), e.getValue().asText());
                }
            }
        }
        return out;
    }

    private Group group(String name) {
        return groups.computeIfAbsent(name, k -> new Group());
    }

    private void addHosts(String section, String pattern, Map<String, String> vars, int line) {
        java.util.regex.Matcher port = WITH_PORT.matcher(pattern);
        if (port.matches() && (!pattern.contains("::") || pattern.startsWith("["))) {
            pattern = port.group(1);
            vars = new LinkedHashMap<>(vars);
            vars.putIfAbsent("ansible_port", port.group(2));
        }
        List<String> names;
        try {
            names = HostRanges.expand(pattern);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((line > 0 ? "line " + line + ": " : "") + e.getMessage());
        }
        if (hostVars.size() + names.size() > HostRanges.MAX_HOSTS) {
            throw new IllegalArgumentException("more than " + HostRanges.MAX_HOSTS + " hosts");
        }
        for (String h : names) {
            group(section).hosts.add(h);
            hostVars.computeIfAbsent(h, k -> new LinkedHashMap<>()).putAll(vars);
        }
    }

    /** Every group but all is a child of all; a host in no group but all and ungrouped is ungrouped. */
    private void link() {
        Set<String> childGroups = new HashSet<>();
        groups.forEach((n, g) -> childGroups.addAll(g.children));
        for (String n : groups.keySet()) {
            if (!n.equals("all") && !childGroups.contains(n)) {
                groups.get("all").children.add(n);
            }
        }
        groups.get("all").children.remove("all");
    }

    /** Group names, in the order first seen. */
    public List<String> groups() {
        return List.copyOf(groups.keySet());
    }

    /** Hosts left out, each with why (a value that is not a host, a user or a port). */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Every host, in the order first listed. */
    public List<InventoryHost> hosts() {
        return hosts(List.of("all"));
    }

    /**
     * The hosts of these groups and of their children, each once, in the order first listed.
     *
     * @throws IllegalArgumentException naming the groups there are when one is not in the inventory
     */
    public List<InventoryHost> hosts(Collection<String> selected) {
        Set<String> names = new LinkedHashSet<>();
        for (String s : selected) {
            if (!groups.containsKey(s)) {
                throw new IllegalArgumentException("no group '" + excerpt(s) + "' in the inventory (groups: "
                        + String.join(", ", groups.keySet()) + ")");
            }
        }
        Set<String> wanted = descendants(selected);
        if (wanted.contains("all")) {
            names.addAll(hostVars.keySet());
        } else {
            for (String h : hostVars.keySet()) {
                for (String g : wanted) {
                    if (groups.get(g).hosts.contains(h)) {
                        names.add(h);
                        break;
                    }
                }
            }
        }
        Map<String, Integer> depth = depths();
        Map<String, List<String>> parents = new HashMap<>();
        groups.forEach((n, g) -> g.hosts.forEach(h -> parents.computeIfAbsent(h, k -> new ArrayList<>()).add(n)));
        List<InventoryHost> out = new ArrayList<>();
        problems.clear();
        for (String h : names) {
            Map<String, String> v = vars(h, parents.getOrDefault(h, List.of()), depth);
            try {
                out.add(InventoryHost.ansible(h, first(v, "ansible_host", "ansible_ssh_host"),
                        first(v, "ansible_port", "ansible_ssh_port"), first(v, "ansible_user", "ansible_ssh_user")));
            } catch (IllegalArgumentException e) {
                problems.add("host '" + excerpt(h) + "' left out: " + e.getMessage());
            }
        }
        return out;
    }

    private static String first(Map<String, String> v, String a, String b) {
        return v.containsKey(a) ? v.get(a) : v.get(b);
    }

    /** all's vars, then each group's the host belongs to (through children too), shallow to deep, then the host's. */
    private Map<String, String> vars(String host, List<String> direct, Map<String, Integer> depth) {
        Set<String> chain = ancestors(direct);
        List<String> ordered = new ArrayList<>(chain);
        ordered.sort((a, b) -> depth.getOrDefault(a, 0).equals(depth.getOrDefault(b, 0)) ? a.compareTo(b)
                : Integer.compare(depth.getOrDefault(a, 0), depth.getOrDefault(b, 0)));
        Map<String, String> v = new LinkedHashMap<>(groups.get("all").vars);
        for (String g : ordered) {
            v.putAll(groups.get(g).vars);
        }
        v.putAll(hostVars.getOrDefault(host, Map.of()));
        return v;
    }

    private Set<String> descendants(Collection<String> roots) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String g = todo.pop();
            if (seen.add(g) && groups.containsKey(g)) {
                todo.addAll(groups.get(g).children);
            }
        }
        return seen;
    }

    private Set<String> ancestors(Collection<String> direct) {
        Map<String, List<String>> up = new HashMap<>();
        groups.forEach((n, g) -> g.children.forEach(c -> up.computeIfAbsent(c, k -> new ArrayList<>()).add(n)));
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(direct);
        while (!todo.isEmpty()) {
            String g = todo.pop();
            if (seen.add(g)) {
                todo.addAll(up.getOrDefault(g, List.of()));
            }
        }
        seen.remove("all");
        return seen;
    }

    /** Each group's longest distance from all (a child's vars beat its parent's); cycles are cut. */
    private Map<String, Integer> depths() {
        Map<String, Integer> depth = new HashMap<>();
        depth.put("all", 0);
        Deque<String> todo = new ArrayDeque<>(List.of("all"));
        int steps = 0;
        while (!todo.isEmpty() && steps++ < 1_000_000) {
            String g = todo.pop();
            int d = depth.get(g);
            for (String c : groups.get(g).children) {
                if (d + 1 > depth.getOrDefault(c, -1) && d + 1 <= groups.size()) {
                    depth.put(c, d + 1);
                    todo.add(c);
                }
            }
        }
        return depth;
    }

    /** Splits an INI line into words, honouring quotes around values ({@code k="a b"}). */
    private static List<String> words(String line, int n) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        char quote = 0;
        boolean in = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                in = true;
            } else if (c == '#' && !in) {
                break; // a comment after the values
            } else if (Character.isWhitespace(c)) {
                if (in) {
                    out.add(w.toString());
                    w.setLength(0);
                    in = false;
                }
            } else {
                w.append(c);
                in = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("line " + n + ": a quote is not closed");
        }
        if (in) {
            out.add(w.toString());
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("line " + n + ": nothing to read");
        }
        return out;
    }

    private static Map<String, String> pairs(List<String> words, int from, int n) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (int i = from; i < words.size(); i++) {
            String w = words.get(i);
            int eq = w.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("line " + n + ": expected key=value, not '" + excerpt(w) + "'");
            }
            kv.put(w.substring(0, eq), w.substring(eq + 1));
        }
        return kv;
    }

    static String excerpt(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(Character.isISOControl(c) ? '?' : c);
            if (b.length() >= 80) {
                b.append('…');
                break;
            }
        }
        return b.toString();
    }
}
