package io.triage.inventory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One slice of an inventory, {@code --shard I/N} (I from 0, as a Kubernetes Indexed Job numbers its pods): a host
 * belongs to shard {@code SHA-256(name) mod N}. The slice depends on the host's name alone, not on its position,
 * so every host is in exactly one shard, the same one on every run, whatever the order of the inventory and
 * whatever hosts are added or removed around it.
 *
 * @param index 0 … count-1
 * @param count how many shards the inventory is cut into
 */
public record Shard(int index, int count) {
    private static final Pattern FORM = Pattern.compile("^([0-9]{1,6})/([0-9]{1,6})$");

    /** The whole inventory. */
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard must be I/N with 0 <= I < N, not " + index + "/" + count);
        }
    }

    /** Parses {@code I/N}. */
    public static Shard parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("shard must be I/N (e.g. 0/8), not '" + Inventory.excerpt(String.valueOf(text)) + "'");
        }
        return new Shard(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The shard a host name falls in, of {@code count}. */
    public static int of(String name, int count) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (h[i] & 0xff);
            }
            return (int) Long.remainderUnsigned(v, count);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public boolean contains(InventoryHost host) {
        return count == 1 || of(host.name(), count) == index;
    }

    /** The hosts of this shard, in their given order. */
    public List<InventoryHost> select(List<InventoryHost> hosts) {
        List<InventoryHost> out = new ArrayList<>();
        for (InventoryHost h : hosts) {
            if (contains(h)) {
                out.add(h);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
