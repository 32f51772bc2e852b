package io.triage.collect;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host as the user typed it: {@code host}, {@code user@host}, {@code host:port},
 * {@code user@host:port}, {@code [::1]:22}, or an alias of the SSH config. Validated: nothing that
 * could be taken for an option or a shell word gets through.
 *
 * @param user the user, or null to take it from the SSH config or the local user
 * @param port the port, or -1 to take it from the SSH config or 22
 */
public record SshTarget(String user, String host, int port) {
    private static final Pattern FORM = Pattern.compile("^(?:([^@]+)@)?(\\[[0-9A-Fa-f:.]+\\]|[^:@\\[\\]]+)(?::([^:]*))?$");
    private static final Pattern HOST = Pattern.compile("^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,252})|\\[[0-9A-Fa-f:.]{2,45}\\])$");
    private static final Pattern USER = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$");

    public static SshTarget parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty host");
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a host (user@host, host:port): '" + ProbeBundle.printable(text) + "'");
        }
        String user = m.group(1);
        String host = m.group(2);
        if (user != null && !USER.matcher(user).matches()) {
            throw new IllegalArgumentException("not a valid user name: '" + ProbeBundle.printable(user) + "'");
        }
        if (!HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("not a valid host name or address: '" + ProbeBundle.printable(host) + "'");
        }
        int port = m.group(3) == null ? -1 : ProbeBundle.parsePort(m.group(3));
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        return new SshTarget(user, host, port);
    }

    @Override
    public String toString() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return (user == null ? "" : user + "@") + h + (port > 0 ? ":" + port : "");
    }
}
