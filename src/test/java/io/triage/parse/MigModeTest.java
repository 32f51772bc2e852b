package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Gpu;
import io.triage.facts.MigMode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** nvidia-smi's table says per GPU whether MIG mode is on (the "MIG M." column of its third row). */
class MigModeTest {
    private static final String HEAD = """
            +-----------------------------------------------------------------------------------------+
            | NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |
            +-----------------------------------------+------------------------+----------------------+
            | GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
            | Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
            |                                         |                        |               MIG M. |
            |=========================================+========================+======================|
            """;

    private static List<Object> parse(String table) {
        Sink s = new Sink();
        NvidiaSmiParser.table(new ProbeOutput("nvidia_smi_full", null, table, "", 0, 0.1, false), s);
        return s.facts();
    }

    @Test
    void aGpuWithMigEnabledIsReportedAndOneWithoutIsNot() {
        String table = HEAD
                + "|   0  NVIDIA A100-SXM4-80GB          On  |   00000000:07:00.0 Off |                   On |\n"
                + "| N/A   31C    P0             62W /  400W |      88MiB /  81920MiB |     N/A      Default |\n"
                + "|                                         |                        |              Enabled |\n"
                + "+-----------------------------------------+------------------------+----------------------+\n"
                + "|   1  NVIDIA A100-SXM4-80GB          On  |   00000000:0F:00.0 Off |                    0 |\n"
                + "| N/A   30C    P0             60W /  400W |       1MiB /  81920MiB |      0%      Default |\n"
                + "|                                         |                        |             Disabled |\n"
                + "+-----------------------------------------+------------------------+----------------------+\n";
        List<Object> facts = parse(table);
        List<MigMode> mig = facts.stream().filter(MigMode.class::isInstance).map(MigMode.class::cast).toList();
        assertEquals(1, mig.size());
        assertEquals(0, mig.get(0).gpu());
        assertEquals(10, mig.get(0).line(), "the Enabled row, 1-based");
        assertEquals(2, facts.stream().filter(Gpu.class::isInstance).count(), "both GPUs still read");
    }

    @Test
    void anOldTableWithoutTheMigRowReportsNothing() {
        String table = HEAD
                + "|   0  NVIDIA L40S                    On  |   00000000:E1:00.0 Off |                    0 |\n"
                + "| N/A   29C    P0             32W /  350W |       0MiB /  46068MiB |      0%      Default |\n"
                + "+-----------------------------------------+------------------------+----------------------+\n";
        assertEquals(0, parse(table).stream().filter(MigMode.class::isInstance).count());
    }
}
