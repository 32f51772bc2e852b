package io.triage.explain;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A crash's subtype is the root of the failure, read from the whole run, and it decides the advice: a run
 * whose last line only says the process failed takes its subtype from the line that names the root, an
 * argument that does not fit the hardware is a config-error whatever CUDA error it surfaced as, and a run
 * that names no root has no subtype (never a made-up one).
 */
class CrashSubtypeTest {
    @TempDir
    Path tmp;

    /** A capture of a server that is gone (ps shows nothing, health refused), its log, GPUs as given. */
    private Diagnosis crashed(String server, String gpus, String... log) throws Exception {
        Path d = Files.createDirectories(tmp.resolve("c" + System.nanoTime()));
        write(d, "target.txt", "server=" + server + "\nport=8000\nlog=/srv/server.log\n");
        write(d, "health.out", "000 0.0002\n");
        write(d, "health.err", "curl: (7) Failed to connect to 127.0.0.1 port 8000 after 0 ms: Couldn't connect to server\n");
        write(d, "ps.out", "  PID  PPID STAT ELAPSED   RSS COMMAND\n");
        write(d, "gpus.out", gpus);
        write(d, "gpu_apps.out", "");
        write(d, "dmesg.out", "[Mon Nov 30 08:00:09 2026] NVRM: Persistence mode is deprecated.\n");
        write(d, "log_tail.out", String.join("\n", log) + "\n");
        write(d, "_probes.txt", "health rc=7 seconds=0.01\nps rc=0 seconds=0.01\ngpus rc=0 seconds=0.02\n"
                + "gpu_apps rc=0 seconds=0.02\ndmesg rc=0 seconds=0.01\nlog_tail rc=0 seconds=0.01\n");
        return TestHome.triage().replay(d, Map.of());
    }

    private static void write(Path d, String name, String text) throws IOException {
        Files.writeString(d.resolve(name), text);
    }

    private static final String TWO_GPUS = "0, NVIDIA L40S, 0 MiB, 46068 MiB, 0 %, 32.10 W, 29, P0\n"
            + "1, NVIDIA L40S, 0 MiB, 46068 MiB, 0 %, 31.80 W, 30, P0\n";

    private static List<String> steps(Diagnosis d) {
        return d.nextSteps().stream().map(Diagnosis.Step::id).toList();
    }

    @Test
    void aSurfaceLastLineTakesItsSubtypeFromTheRootAboveIt() throws Exception {
        Diagnosis d = crashed("trtllm", TWO_GPUS,
                "[12/01/2026-00:29:51] [TRT-LLM] [E] Traceback (most recent call last):",
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 44.52 GiB of which 2.63 GiB is free.",
                "Traceback (most recent call last):",
                "    raise RuntimeError(\"Executor worker returned error\") from ready_signal",
                "RuntimeError: Executor worker returned error");
        assertEquals("crash/cuda-oom", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).contains("lower-gpu-memory"), steps(d).toString());
    }

    @Test
    void aRunThatNamesNoRootHasNoSubtypeAndGenericAdvice() throws Exception {
        Diagnosis d = crashed("vllm", TWO_GPUS,
                "INFO 12-01 01:08:55 [api_server.py:1805] vLLM API server version 0.10.1.1",
                "Fatal Python error: Segmentation fault",
                "Segmentation fault (core dumped)");
        assertEquals("crash", d.cause());
        assertEquals("", d.subtype(), "no made-up subtype such as 'fatal'");
        assertTrue(steps(d).contains("read-the-traceback"), steps(d).toString());
        assertFalse(steps(d).contains("lower-gpu-memory") || steps(d).contains("fix-arguments"), steps(d).toString());
    }

    @Test
    void aTensorParallelSizeBeyondTheVisibleGpusIsAConfigErrorNotACudaError() throws Exception {
        Diagnosis d = crashed("sglang", TWO_GPUS,
                "[2026-12-01 01:01:09 TP3] Scheduler hit an exception: Traceback (most recent call last):",
                "    torch.get_device_module(self.device).set_device(self.gpu_id)",
                "RuntimeError: CUDA error: invalid device ordinal",
                "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
                "For debugging consider passing CUDA_LAUNCH_BLOCKING=1");
        assertEquals("crash/config-error", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).containsAll(List.of("fix-arguments", "visible-gpus")), steps(d).toString());
        assertFalse(steps(d).contains("cuda-error-debug"), steps(d).toString());
    }

    @Test
    void headsThatDoNotDivideFailingABareAssertAreAConfigError() throws Exception {
        Diagnosis d = crashed("sglang", TWO_GPUS,
                "Traceback (most recent call last):",
                "  File \"/opt/sglang/python/sglang/srt/models/llama.py\", line 150, in __init__",
                "[rank0]:     assert self.total_num_heads % tp_size == 0",
                "[rank0]: AssertionError");
        assertEquals("crash/config-error", d.cause() + "/" + d.subtype());
    }

    @Test
    void noCudaDeviceWhileNvidiaSmiListsTheGpusIsALaunchWithoutItsDevices() throws Exception {
        Diagnosis d = crashed("vllm", TWO_GPUS,
                "Traceback (most recent call last):",
                "RuntimeError: CUDA error: no CUDA-capable device is detected");
        assertEquals("crash/config-error", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).contains("visible-gpus"), steps(d).toString());
    }

    @Test
    void noCudaDeviceWithNoGpuSeenIsACudaErrorNotAConfigError() throws Exception {
        Diagnosis d = crashed("vllm", "",
                "Traceback (most recent call last):",
                "RuntimeError: No CUDA GPUs are available");
        assertEquals("crash/cuda-error", d.cause() + "/" + d.subtype());
    }

    @Test
    void aTooSmallDevShmIsDiskFullEvenBehindAnNcclError() throws Exception {
        Diagnosis d = crashed("vllm", TWO_GPUS,
                "a1b2c3:311:311 [1] misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-lJ7ooR to 9637892 bytes",
                "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3356, unhandled system error (run with NCCL_DEBUG=INFO for details)");
        assertEquals("crash/disk-full", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).contains("free-disk"), steps(d).toString());
        assertFalse(steps(d).contains("nccl-debug"), steps(d).toString());
    }

    @Test
    void noMemoryLeftForTheKvCacheIsAMemoryFractionThatDoesNotFit() throws Exception {
        Diagnosis d = crashed("vllm", TWO_GPUS,
                "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.");
        assertEquals("crash/config-error", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).contains("fix-arguments"), steps(d).toString());
    }

    @Test
    void cudaError802IsTheFabricManagerNotTheServer() throws Exception {
        Diagnosis d = crashed("vllm", TWO_GPUS,
                "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)",
                "RuntimeError: No CUDA GPUs are available");
        assertEquals("driver-mismatch/fabric-manager", d.cause() + "/" + d.subtype());
        assertTrue(steps(d).contains("fabric-manager"), steps(d).toString());
    }
}
