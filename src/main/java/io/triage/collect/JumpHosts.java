package io.triage.collect;

import java.util.ArrayList;
import java.util.List;

/**
 * Jump hosts as OpenSSH writes them ({@code -J} and ProxyJump): {@code [user@]host[:port]}, several separated
 * by commas, connected in order. Each hop is validated as a host the user typed (an alias of the SSH config
 * included), so nothing that could be taken for an option reaches the SSH layer.
 */
public final class JumpHosts {
    /** More hops than anyone routes through; a longer chain is refused rather than followed. */
    static final int MAX_HOPS = 8;

    private JumpHosts() {
    }

    /**
     * The hops of a jump specification.
     *
     * @throws IllegalArgumentException with a message for the user when a hop is not a host
     */
    public static List<SshTarget> parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty jump host");
        }
        String[] parts = spec.strip().split(",", -1);
        if (parts.length > MAX_HOPS) {
            throw new IllegalArgumentException("more than " + MAX_HOPS + " jump hosts");
        }
        List<SshTarget> hops = new ArrayList<>();
        for (String p : parts) {
            String h = p.strip();
            if (h.startsWith("ssh://")) {
                h = h.substring("ssh://".length());
            }
            try {
                hops.add(SshTarget.parse(h));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("jump host: " + e.getMessage());
            }
        }
        return hops;
    }

    /** The specification written back from its validated hops (what is handed to the SSH layer). */
    static String validate(String spec) {
        List<String> out = new ArrayList<>();
        for (SshTarget t : parse(spec)) {
            out.add(t.toString());
        }
        return String.join(",", out);
    }
}
