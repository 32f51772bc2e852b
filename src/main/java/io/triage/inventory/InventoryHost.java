package io.triage.inventory;

import io.triage.collect.SshTarget;

/**
 * One host of an inventory: the name it is listed under (what a sweep reports and what {@code --shard} hashes)
 * and where to reach it.
 *
 * @param name   the inventory name (an Ansible host name, a host list's line, an SSH config alias)
 * @param target where to connect: {@code ansible_host}, {@code ansible_port}, {@code ansible_user} applied
 */
public record InventoryHost(String name, SshTarget target) {
    /** A host listed as it is typed: {@code [user@]host[:port]} or an SSH config alias. */
    public static InventoryHost of(String text) {
        SshTarget t = SshTarget.parse(text);
        return new InventoryHost(t.toString(), t);
    }

    /**
     * A host from an Ansible inventory: its name, and the connection variables it was given (each may be null).
     *
     * @throws IllegalArgumentException when a value is not a valid host, user or port
     */
    static InventoryHost ansible(String name, String host, String port, String user) {
        SshTarget named = SshTarget.parse(name);
        String h = host == null || host.isBlank() ? named.host() : host.strip();
        if (h.contains(":") && !h.startsWith("[")) {
            h = "[" + h + "]";
        }
        String u = user == null || user.isBlank() ? named.user() : user.strip();
        String p = port == null || port.isBlank() ? (named.port() > 0 ? String.valueOf(named.port()) : null) : port.strip();
        SshTarget t = SshTarget.parse((u == null ? "" : u + "@") + h + (p == null ? "" : ":" + p));
        return new InventoryHost(named.host(), t);
    }
}
