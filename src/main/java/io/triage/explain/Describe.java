package io.triage.explain;

import io.triage.facts.AdviceOption;
import io.triage.facts.CaptureClock;
import io.triage.facts.Gpu;
import io.triage.facts.GpuApp;
import io.triage.facts.GpuProfile;
import io.triage.facts.Health;
import io.triage.facts.Intent;
import io.triage.facts.KernelEvent;
import io.triage.facts.Listener;
import io.triage.facts.LogMarker;
import io.triage.facts.LogState;
import io.triage.facts.ProbeStatus;
import io.triage.facts.Proc;
import io.triage.facts.ServerArg;
import io.triage.facts.SmiFailure;
import io.triage.facts.Target;
import io.triage.facts.Thresholds;
import io.triage.facts.Unparseable;
import io.triage.facts.XidInfo;

/** Short descriptions of raw facts for the reasoning chain (the excerpt shows the raw line itself). */
final class Describe {
    private Describe() {
    }

    static String of(Object f) {
        if (f instanceof Health h) {
            return "health probe: " + h.status() + (h.httpCode() > 0 ? " (HTTP " + h.httpCode() + ")" : "");
        } else if (f instanceof Gpu g) {
            return "GPU " + g.index() + " " + g.name() + ": " + g.memUsedMiB() + " MiB used, " + g.utilPct() + " % util";
        } else if (f instanceof GpuApp a) {
            return "GPU compute process " + a.pid() + " " + a.name();
        } else if (f instanceof Proc p) {
            return "process " + p.pid() + " (" + p.role() + (p.state().isEmpty() ? "" : ", state " + p.state()) + ")";
        } else if (f instanceof LogMarker m) {
            return "log line (" + m.kind() + ", marker " + m.markerId() + ")";
        } else if (f instanceof LogState l) {
            return l.present() ? "log: " + l.lines() + " lines read" + (l.ageSeconds() >= 0 ? ", newest "
                    + l.ageSeconds() + " s before the capture" : "") : "log: nothing read";
        } else if (f instanceof ProbeStatus p) {
            return "probe " + p.probe() + ": " + p.status() + (p.reason().isEmpty() ? "" : " (" + p.reason() + ")");
        } else if (f instanceof KernelEvent k) {
            return "kernel log: " + k.kind() + (k.code() >= 0 ? " " + k.code() : "")
                    + (k.process().isEmpty() ? "" : " " + k.process()) + (k.pid() >= 0 ? " PID " + k.pid() : "");
        } else if (f instanceof SmiFailure s) {
            return "nvidia-smi failure: " + s.kind();
        } else if (f instanceof ServerArg a) {
            return "argument " + a.name() + "=" + a.value() + " (" + a.source() + ")";
        } else if (f instanceof Intent i) {
            return "operator intent " + i.key() + "=" + i.value();
        } else if (f instanceof io.triage.facts.LogLoop l) {
            return "log: its last " + l.lines() + " of " + l.ofLines() + " lines are one message";
        } else if (f instanceof io.triage.facts.Compiling c) {
            return "compiler " + c.pid() + " under server process " + c.serverPid()
                    + (c.elapsedSec() >= 0 ? ", running " + c.elapsedSec() + " s" : "");
        } else if (f instanceof Listener l) {
            return "port " + l.port() + " listened on by PID " + l.pid();
        } else if (f instanceof CaptureClock c) {
            return "capture time";
        } else if (f instanceof Unparseable u) {
            return "unreadable output of " + u.probe() + ": " + u.reason();
        } else if (f instanceof GpuProfile p) {
            return "knowledge: GPU profile '" + p.profile() + "' for GPU " + p.gpuIndex() + " (released <= "
                    + p.memReleasedMiB() + " MiB, pinned >= " + p.utilPinnedPct() + " %, idle <= " + p.utilIdlePct() + " %)";
        } else if (f instanceof Thresholds t) {
            return "knowledge: thresholds (log stalled > " + t.logStalledSeconds() + " s, progress recent <= "
                    + t.progressRecentSeconds() + " s, loading recent <= " + t.loadingRecentSeconds()
                    + " s, health slow > " + t.healthSlowSeconds() + " s)";
        } else if (f instanceof io.triage.facts.ServerTraits t) {
            return "knowledge: how " + t.server() + " serves (health " + t.health()
                    + (t.unavailable().isEmpty() ? "" : ", a 503 there means " + t.unavailable())
                    + (t.inProcessEngine() ? ", engine in its HTTP process" : "")
                    + (t.onDemandModels() ? ", models loaded on demand" : "") + ")";
        } else if (f instanceof XidInfo x) {
            return "knowledge: Xid " + x.code() + " — " + x.name() + " (" + x.implicates() + ")";
        } else if (f instanceof Target t) {
            return "target " + t;
        } else if (f instanceof io.triage.facts.DifferentialNeed n) {
            return "knowledge: before " + n.cause() + " is certain, " + n.need() + " (any of "
                    + String.join(", ", n.probes()) + ")";
        } else if (f instanceof AdviceOption o) {
            return "knowledge: remediation step " + o.stepId() + " for " + o.cause()
                    + (o.subtype().isEmpty() ? "" : "/" + o.subtype());
        }
        return String.valueOf(f);
    }
}
