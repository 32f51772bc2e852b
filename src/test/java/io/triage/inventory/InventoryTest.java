package io.triage.inventory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Inventories shaped like real ones (INI and YAML, children, ranges, connection vars), aliases and shards. */
class InventoryTest {
    @TempDir
    Path tmp;

    /** An INI inventory as a GPU cluster team keeps one. */
    static final String INI = """
            # cluster inventory
            bastion.example.org

            [a100]
            gpu[01:04].a100.example.org
            gpu-special.example.org ansible_host=10.1.2.3 ansible_port=2222 ansible_user=ml   # pinned
            [h100]
            h100-[a:c].example.org ansible_user="ops"
            h100-old.example.org:2200

            [gpus:children]
            a100
            h100

            [gpus:vars]
            ansible_user=ubuntu

            [a100:vars]
            ansible_user=a100admin

            [all:vars]
            ansible_port=22
            ansible_python_interpreter=/usr/bin/python3
            """;

    /** The same shape in YAML, with a nested child group and hosts in two groups. */
    static final String YAML = """
            all:
              hosts:
                bastion.example.org:
              vars:
                ansible_user: root
              children:
                gpus:
                  vars:
                    ansible_user: ubuntu
                  children:
                    a100:
                      hosts:
                        gpu[01:20].a100.example.org:
                        gpu-special.example.org:
                          ansible_host: 10.1.2.3
                          ansible_port: 2222
                          ansible_user: ml
                    h100:
                      hosts:
                        h100-[0:30:10].example.org:
                      vars:
                        ansible_user: h100admin
                inference:
                  hosts:
                    gpu01.a100.example.org:
            """;

    private static Map<String, String> targets(List<InventoryHost> hosts) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        hosts.forEach(h -> m.put(h.name(), h.target().toString()));
        return m;
    }

    @Test
    void anIniInventoryGivesGroupsChildrenRangesAndConnectionVariables() {
        Inventory inv = Inventory.ini(INI);
        Map<String, String> all = targets(inv.hosts());
        assertEquals(List.of("bastion.example.org", "gpu01.a100.example.org", "gpu02.a100.example.org",
                "gpu03.a100.example.org", "gpu04.a100.example.org", "gpu-special.example.org", "h100-a.example.org",
                "h100-b.example.org", "h100-c.example.org", "h100-old.example.org"), new ArrayList<>(all.keySet()));
        assertEquals("bastion.example.org:22", all.get("bastion.example.org"), "all:vars apply to every host");
        assertEquals("a100admin@gpu02.a100.example.org:22", all.get("gpu02.a100.example.org"), "the child's vars beat the parent's");
        assertEquals("ml@10.1.2.3:2222", all.get("gpu-special.example.org"), "host vars beat every group's");
        assertEquals("ops@h100-b.example.org:22", all.get("h100-b.example.org"));
        assertEquals("ubuntu@h100-old.example.org:2200", all.get("h100-old.example.org"), "host:port on the line");
        assertEquals(List.of("h100-a.example.org", "h100-b.example.org", "h100-c.example.org", "h100-old.example.org"),
                inv.hosts(List.of("h100")).stream().map(InventoryHost::name).toList());
        assertEquals(9, inv.hosts(List.of("gpus")).size(), "a parent group holds its children's hosts");
        assertEquals(List.of("bastion.example.org"), inv.hosts(List.of("ungrouped")).stream().map(InventoryHost::name).toList());
    }

    @Test
    void aYamlInventoryGivesTheSameAndAHostInTwoGroupsOnce() {
        Inventory inv = Inventory.yaml(YAML);
        Map<String, String> all = targets(inv.hosts());
        assertEquals(1 + 20 + 1 + 4, all.size(), all.keySet().toString());
        assertEquals("root@bastion.example.org", all.get("bastion.example.org"));
        assertEquals("ubuntu@gpu07.a100.example.org", all.get("gpu07.a100.example.org"));
        assertEquals("ml@10.1.2.3:2222", all.get("gpu-special.example.org"));
        assertEquals("h100admin@h100-30.example.org", all.get("h100-30.example.org"), "stride 10: 0, 10, 20, 30");
        assertEquals(List.of("gpu01.a100.example.org"), inv.hosts(List.of("inference")).stream().map(InventoryHost::name).toList());
        assertEquals(25, inv.hosts(List.of("gpus")).size());
        assertEquals(26, inv.hosts(List.of("gpus", "inference", "all")).size());
    }

    @Test
    void aFileIsReadAsYamlOrIniByItsNameOrItsShape() throws Exception {
        Path y = Files.writeString(tmp.resolve("hosts"), "---\n" + YAML);
        assertEquals(26, Inventory.load(y).hosts().size());
        Path i = Files.writeString(tmp.resolve("inventory.ini"), INI);
        assertEquals(10, Inventory.load(i).hosts().size());
        Path plain = Files.writeString(tmp.resolve("list.txt"), "# a plain list\nops@gpu1:2222\ngpu2\n\n[::1]:2200\n");
        assertEquals(List.of("ops@gpu1:2222", "gpu2", "[::1]:2200"),
                Inventory.load(plain).hosts().stream().map(h -> h.target().toString()).toList());
    }

    @Test
    void badInventoriesAreRefusedWithTheLineAndBadHostsLeftOutWithWhy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Inventory.ini("[gpus\nhost1\n"));
        assertTrue(e.getMessage().startsWith("line 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Inventory.ini("[g]\nhost1 ansible_user\n"));
        assertTrue(e.getMessage().contains("key=value"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Inventory.ini("[g]\nnode[0:99999999]\n"));
        assertThrows(IllegalArgumentException.class, () -> Inventory.ini("[g]\nnode[9:1]\n"));
        assertThrows(IllegalArgumentException.class, () -> Inventory.yaml("- just\n- a list\n"));
        assertThrows(IllegalArgumentException.class, () -> Inventory.yaml("all: [1, 2"));
        Inventory inv = Inventory.ini("[g]\ngood\nbad ansible_host='{{ lookup(\"env\", \"X\") }}'\nevil ansible_user='-oProxyCommand=x'\n");
        assertEquals(List.of("good"), inv.hosts().stream().map(InventoryHost::name).toList());
        assertEquals(2, inv.problems().size(), inv.problems().toString());
        e = assertThrows(IllegalArgumentException.class, () -> inv.hosts(List.of("nope")));
        assertTrue(e.getMessage().contains("groups: all, ungrouped, g"), e.getMessage());
    }

    @Test
    void childGroupsThatFormACycleEndInsteadOfLooping() {
        Inventory inv = Inventory.ini("[a:children]\nb\n[b:children]\na\n[a]\nh1\n[b]\nh2\n");
        assertEquals(2, inv.hosts(List.of("a")).size());
    }

    @Test
    void rangesKeepTheirWidthAndMultiply() {
        assertEquals(List.of("gpu08", "gpu09", "gpu10"), HostRanges.expand("gpu[08:10]"));
        assertEquals(List.of("n8", "n9", "n10"), HostRanges.expand("n[8:10]"));
        assertEquals(List.of("r1a", "r1b", "r2a", "r2b"), HostRanges.expand("r[1:2][a:b]"));
        assertEquals(20, HostRanges.expand("gpu[01:20]").size());
    }

    @Test
    void aPatternExpandsAgainstTheSshConfigsHostAliases() throws Exception {
        Path config = Files.writeString(tmp.resolve("config"), """
                Host bastion
                  HostName 10.0.0.1
                Host gpu-01 gpu-02
                  ProxyJump bastion
                Host gpu-03
                Host gpu-* !gpu-02
                  User ml
                Host *
                  ServerAliveInterval 30
                """);
        HostSelection s = HostSelection.of(new HostSelection.Request(List.of("gpu-*", "ops@gpu-0?", "bastion"), null, null,
                List.of(), config, null));
        assertEquals(List.of("gpu-01", "gpu-02", "gpu-03", "ops@gpu-01", "ops@gpu-02", "ops@gpu-03", "bastion"),
                s.hosts().stream().map(h -> h.target().toString()).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostSelection.of(
                new HostSelection.Request(List.of("cpu-*"), null, null, List.of(), config, null)));
        assertTrue(e.getMessage().contains("matches no Host alias"), e.getMessage());
    }

    @Test
    void everyHostIsInExactlyOneShardWhateverTheOrder() {
        List<InventoryHost> hosts = Inventory.yaml(YAML).hosts();
        List<InventoryHost> more = new ArrayList<>(hosts);
        for (int i = 0; i < 1000; i++) {
            more.add(InventoryHost.of("node" + i + ".example.org"));
        }
        for (int n : new int[] {1, 2, 7, 64}) {
            Map<String, Integer> owner = new HashMap<>();
            for (int i = 0; i < n; i++) {
                for (InventoryHost h : new Shard(i, n).select(more)) {
                    Integer before = owner.put(h.name(), i);
                    assertEquals(null, before, h.name() + " in two shards");
                }
            }
            assertEquals(more.size(), owner.size(), "every host in some shard of " + n);
            List<InventoryHost> shuffled = new ArrayList<>(more);
            Collections.shuffle(shuffled, new Random(n));
            List<InventoryHost> fewer = shuffled.subList(0, shuffled.size() / 2);
            for (int i = 0; i < n; i++) {
                final int shard = i;
                assertEquals(fewer.stream().filter(h -> owner.get(h.name()) == shard).map(InventoryHost::name)
                                .collect(Collectors.toSet()),
                        new Shard(i, n).select(fewer).stream().map(InventoryHost::name).collect(Collectors.toSet()),
                        "a host's shard depends on its name only, not on order or on the other hosts");
            }
        }
        // balanced enough that each of 8 shards of 1026 hosts gets between 60 % and 140 % of its share
        for (int i = 0; i < 8; i++) {
            int got = new Shard(i, 8).select(more).size();
            assertTrue(got > more.size() / 8 * 0.6 && got < more.size() / 8 * 1.4, "shard " + i + ": " + got);
        }
        // stable across runs: a fixed name has a fixed shard (SHA-256, not String.hashCode)
        assertEquals(Shard.of("gpu01.a100.example.org", 1000), Shard.of("gpu01.a100.example.org", 1000));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("3/3"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("1/0"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("-1/4"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("a/b"));
        assertEquals(new Shard(2, 5), Shard.parse("2/5"));
    }
}
