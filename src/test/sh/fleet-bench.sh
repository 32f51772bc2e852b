#!/usr/bin/env bash
# Benchmark (not a test): a fleet of N lab hosts looked at and diagnosed by 'triage diagnose', versus
# an 'xargs -P 32 ssh' loop that only runs the same probe bundle on the same hosts with the OpenSSH
# client. Both against the same embedded lab, in one run; wall time, hosts/s and peak RSS of each.
# Usage: src/test/sh/fleet-bench.sh [N] [runs]   (after mvn -q -DskipTests package; needs ssh, /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/../../.."
N=${1:-200}
RUNS=${2:-3}
JAR=target/triage.jar
STATE=$(mktemp -d)
PORT=$(( 20000 + RANDOM % 20000 ))
trap 'kill "$LAB" 2>/dev/null || true; rm -rf "$STATE"' EXIT
java -jar "$JAR" lab --port "$PORT" --fleet "$N" --state "$STATE" > "$STATE/lab.out" 2>&1 &
LAB=$!
for _ in $(seq 100); do grep -q "Ctrl-C" "$STATE/lab.out" 2>/dev/null && break; sleep 0.2; done
seq 1 "$N" | sed "s/^/lab-/; s/\$/@127.0.0.1:$PORT/" > "$STATE/hosts.txt"
seq 1 "$N" | sed "s/^/lab-/" > "$STATE/users.txt"
java -jar "$JAR" bundle > "$STATE/bundle.sh"

# warm the lab's JVM once, so that neither side pays for it
xargs -P 32 -I{} sh -c "ssh -p $PORT -i $STATE/client_key -o UserKnownHostsFile=$STATE/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes -F /dev/null {}@127.0.0.1 bash -s < $STATE/bundle.sh > /dev/null" < "$STATE/users.txt"

for run in $(seq "$RUNS"); do
  /usr/bin/time -f "%e %M" -o "$STATE/t1" java -jar "$JAR" diagnose --hosts "$STATE/hosts.txt" -i "$STATE/client_key" \
      --known-hosts "$STATE/known_hosts" --parallel 32 > "$STATE/triage.out" 2>/dev/null || true
  ok=$(grep -cE '^lab-[0-9]+@' "$STATE/triage.out" || true)
  failed=$(grep -c 'look failed' "$STATE/triage.out" || true)
  /usr/bin/time -f "%e %M" -o "$STATE/t2" sh -c "xargs -P 32 -I{} sh -c 'ssh -p $PORT -i $STATE/client_key -o UserKnownHostsFile=$STATE/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes -F /dev/null {}@127.0.0.1 bash -s < $STATE/bundle.sh > /dev/null' < $STATE/users.txt"
  read -r t1 m1 < "$STATE/t1"
  read -r t2 m2 < "$STATE/t2"
  awk -v n="$N" -v t1="$t1" -v m1="$m1" -v t2="$t2" -v m2="$m2" -v ok="$ok" -v f="$failed" -v r="$run" 'BEGIN {
    printf "run %d: triage diagnose %d hosts in %.2f s = %.1f hosts/s (peak RSS %d MiB; %d rows, %d look failures)\n", r, n, t1, n/t1, m1/1024, ok, f;
    printf "       xargs -P 32 ssh    %d hosts in %.2f s = %.1f hosts/s (peak RSS of xargs itself %d MiB)\n", n, t2, n/t2, m2/1024;
    printf "       ratio %.2fx\n", t2/t1 }'
done
