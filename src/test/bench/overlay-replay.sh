#!/usr/bin/env bash
# Benchmark, not a test: what a site overlay costs a command. Whole `replay` processes of one capture, interleaved:
#   base     another build's jar (e.g. a checkout of main), no overlay
#   this     this checkout's jar, no overlay
#   overlay  this checkout's jar with a small overlay (one rule file, one fragment: a cause, a sentence, two steps, a marker)
# Each with its own rule-base cache, warmed by one unmeasured run, so the runs measured load the compiled rules
# from the cache as a user's second run does. Wall time, CPU (user+sys) and peak RSS from /usr/bin/time.
# Usage (from the checkout, after mvn -DskipTests package):
#   src/test/bench/overlay-replay.sh BASE_JAR [RUNS=7] [CAPTURE=knowledge-base/scenarios/04-external-kill-shell-killed-clean-dmesg]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base_jar=${1:?give the jar to compare with: target/triage.jar of another checkout}
runs=${2:-7}
capture=$(realpath "${3:-knowledge-base/scenarios/04-external-kill-shell-killed-clean-dmesg}")
jar=$PWD/target/triage.jar
[ -f "$jar" ] || { echo "build first: mvn -DskipTests package" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/site/rules" "$work/site/knowledge-base"
cat > "$work/site/rules/site.drl" <<'DRL'
package site.rules

import io.triage.facts.*;

rule "site: the log says the licence expired"
    @rationale("The licence daemon writes this line when the licence lapses; the server stops serving.")
when
    $m: LogMarker(markerId == "site.licence-expired", currentRun == true)
then
    insertLogical(new Symptom("site-licence-expired", $m.excerpt()));
end

rule "site: a lapsed licence stops the server"
    @rationale("Once the licence lapses the server refuses work, whatever else is true.")
when
    $s: Symptom(id == "site-licence-expired")
then
    insertLogical(new Hypothesis("site-licence-expired", "", "high"));
end
DRL
cat > "$work/site/knowledge-base/site.yaml" <<'YAML'
causes:
  site-licence-expired: {title: The server's licence expired, rank: 99, summary: The licence lapsed., caveat: ''}
symptoms:
  site-licence-expired: The server's log says its licence has expired
steps:
  site-renew-licence:
    title: Renew the licence (runbook https://runbooks.example.com/licence)
    rationale: The runbook says how.
    causes: [site-licence-expired]
  site-kill-runbook:
    title: Follow the site's runbook for killed servers (https://runbooks.example.com/killed)
    rationale: Our schedulers are listed there.
    causes: [external-kill]
markers:
  common:
    - id: site.licence-expired
      kind: host
      pattern: '\blicen[cs]e has expired\b'
YAML

one() { # $1: variant; prints "wall user sys maxrss_kib"
  local v=$1 j=$jar extra=()
  case $v in
    base) j=$base_jar ;;
    overlay) extra=(--overlay "$work/site") ;;
  esac
  XDG_CACHE_HOME=$work/cache-$v /usr/bin/time -f '%e %U %S %M' -o "$work/t" \
    java -jar "$j" "${extra[@]}" replay "$capture" > /dev/null 2>&1
  cat "$work/t"
}
for v in base this overlay; do one "$v" > /dev/null; done   # warm each cache
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  for v in base this overlay; do echo "$v $(one "$v")"; done
done | tee "$work/all"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for v in base this overlay; do
  awk -v v="$v" '$1 == v { w[n] = $2; c[n] = $3 + $4; r[n] = $5; n++ }
    END { asort(w); asort(c); asort(r); m = int((n + 1) / 2);
          printf "%-8s median of %d: wall %.2f s, cpu %.2f s, maxrss %d MiB\n", v, n, w[m], c[m], r[m] / 1024 }' "$work/all"
done
