#!/usr/bin/env bash
# Benchmark, not a test: a cold `diagnose` of one lab host against the OpenSSH client running the same probe
# script on it (`ssh host bash -s < bundle`), whole processes, interleaved round by round, `java -version` as the
# floor. Each run's wall time, CPU (user+sys) and peak RSS come from /usr/bin/time; the table gives medians and the
# ratio of each variant's wall time to ssh's.
#
# Usage (from the checkout, after mvn -DskipTests package):
#   src/test/bench/cold-diagnose.sh [RUNS=7] [BASELINE_DIR] [LATENCY=0]
# BASELINE_DIR: an older build's checkout with its target/triage.jar and target/triage (omitted: this build only).
# The lab runs as its own process on 127.0.0.1 (one host, lab-1); the rule-base and class-data caches live in a
# private directory of this run, warmed by one untimed run of each variant.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-7}; base=${2:-}; latency=${3:-0}
jar=$PWD/target/triage.jar; launcher=$PWD/target/triage
[ -f "$jar" ] || { echo "build first: mvn -DskipTests package" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work=$(mktemp -d); lab=
trap '[ -n "$lab" ] && kill "$lab" 2>/dev/null; rm -rf "$work"' EXIT; trap 'exit 130' INT TERM
export XDG_CACHE_HOME="$work/cache"; mkdir -m 700 "$XDG_CACHE_HOME"

java -jar "$jar" --home "$PWD" lab --port 0 --fleet 1 --latency "$latency" --state "$work/lab" > "$work/lab.out" 2>&1 &
lab=$!
port=
for _ in $(seq 240); do
  port=$(sed -n 's/^Triage lab on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/lab.out")
  [ -n "$port" ] && break
  sleep 0.5
done
[ -n "$port" ] || { echo "the lab did not start" >&2; cat "$work/lab.out" >&2; exit 1; }
java -jar "$jar" --home "$PWD" bundle > "$work/bundle.sh"
: > "$work/empty_config"
st=$work/lab
target="lab-1@127.0.0.1:$port"
opts="-i $st/client_key --known-hosts $st/known_hosts --ssh-config $work/empty_config"

variants=("java -version"$'\t'"java -version")
variants+=("ssh bash -s < bundle"$'\t'"ssh -p $port -i $st/client_key -o UserKnownHostsFile=$st/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes -F /dev/null lab-1@127.0.0.1 bash -s < $work/bundle.sh")
if [ -n "$base" ]; then
  variants+=("baseline java -jar"$'\t'"java -jar $base/target/triage.jar diagnose $target $opts")
  variants+=("baseline launcher"$'\t'"$base/target/triage diagnose $target $opts")
fi
variants+=("java -jar"$'\t'"java -jar $jar diagnose $target $opts")
variants+=("launcher"$'\t'"$launcher diagnose $target $opts")

cd "$work"
run() { # $1: variant index, $2: command, $3: results file
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" sh -c "$2" > "$work/out" 2> "$work/err" || {
    echo "failed: $2" >&2; sed 's/^/  /' "$work/err" >&2; exit 1; }
  read -r wall user sys rss < <(tail -1 "$work/t")
  echo "$1 $wall $(echo "$user + $sys" | bc) $rss" >> "$3"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/results"
for i in "${!variants[@]}"; do run "$i" "${variants[$i]#*$'\t'}" /dev/null; done   # warm the caches
for r in $(seq "$runs"); do
  for i in "${!variants[@]}"; do run "$i" "${variants[$i]#*$'\t'}" "$work/results"; done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
col() { awk -v i="$1" -v f="$2" '$1==i {print $f}' "$work/results" | median; }
ssh_wall=$(col 1 2)
printf '%-24s %9s %9s %9s %10s\n' variant wall_s cpu_s rss_MB x_ssh
for i in "${!variants[@]}"; do
  printf '%-24s %9s %9s %9.0f %10.2f\n' "${variants[$i]%%$'\t'*}" "$(col "$i" 2)" "$(col "$i" 3)" \
    "$(echo "$(col "$i" 4) / 1024" | bc -l)" "$(echo "$(col "$i" 2) / $ssh_wall" | bc -l)"
done
echo "($runs runs each, interleaved; medians; the ssh CPU is the client's only, the lab's is not counted anywhere)"
