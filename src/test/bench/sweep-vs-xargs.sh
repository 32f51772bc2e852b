#!/usr/bin/env bash
# Benchmark, not a test: a cold CLI sweep of N lab hosts against the OpenSSH client looping over the same hosts
# (xargs -P 32 ssh … bash -s < bundle), whole processes, interleaved, with and without lab latency. Each run's
# wall time, CPU (user+sys of the process and its children) and peak RSS come from /usr/bin/time.
# Usage (from the checkout, after mvn -DskipTests package):
#   [BASE=OTHER_CHECKOUT] src/test/bench/sweep-vs-xargs.sh [RUNS=5] [HOSTS=200] [LATENCY=30ms]
# BASE names another built checkout whose launcher is measured too, in the same rounds (mode "base"): an A/B of two
# builds against the same labs. Prints one line per run with the 1-minute load average, then medians. The labs run
# as their own processes on 127.0.0.1; their CPU is counted on neither side.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-5}; hosts=${2:-200}; latency=${3:-30ms}
jar=$PWD/target/triage.jar; launcher=$PWD/target/triage; base=${BASE:-}
modes="triage xargs"
if [ -n "$base" ]; then
  [ -x "$base/target/triage" ] || { echo "BASE=$base has no target/triage: build it first" >&2; exit 2; }
  modes="base triage xargs"
fi
[ -f "$jar" ] || { echo "build first: mvn -DskipTests package" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work=$(mktemp -d); labs=()
trap 'for p in "${labs[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

start_lab() { # $1: name, $2: latency; sets $port (not in a subshell, so the exit trap knows the lab's pid)
  java -jar "$jar" --home "$PWD" lab --port 0 --fleet "$hosts" --latency "$2" --state "$work/$1" > "$work/$1.out" 2>&1 &
  labs+=($!)
  port=
  for _ in $(seq 240); do
    port=$(sed -n 's/^Triage lab on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$1.out")
    [ -n "$port" ] && return
    sleep 0.5
  done
  echo "lab $1 did not start" >&2; exit 1
}
start_lab plain 0; p0=$port
start_lab delayed "$latency"; p1=$port
java -jar "$jar" --home "$PWD" bundle > "$work/bundle.sh"
: > "$work/empty_config"

one() { # $1: mode, $2: port, $3: state dir
  local mode=$1 port=$2 st=$3
  seq 1 "$hosts" | sed "s/.*/lab-&@127.0.0.1:$port/" > "$work/hosts-$port"
  case $mode in
    base)   "$base/target/triage" --home "$base" diagnose --hosts "$work/hosts-$port" -i "$st/client_key" --known-hosts "$st/known_hosts" \
              --ssh-config "$work/empty_config" --format json > "$work/out.jsonl" 2>/dev/null || [ $? = 4 ] ;;
    triage) "$launcher" --home "$PWD" diagnose --hosts "$work/hosts-$port" -i "$st/client_key" --known-hosts "$st/known_hosts" \
              --ssh-config "$work/empty_config" --format json > "$work/out.jsonl" 2>/dev/null || [ $? = 4 ] ;;
    xargs)  seq 1 "$hosts" | xargs -P 32 -I{} sh -c "ssh -p $port -i $st/client_key -o UserKnownHostsFile=$st/known_hosts \
              -o StrictHostKeyChecking=yes -o BatchMode=yes -F /dev/null lab-{}@127.0.0.1 bash -s < $work/bundle.sh > /dev/null" ;;
  esac
}
export -f one; export work hosts launcher base
# the first run of a launcher records its class-data archive: do it before timing anything
for m in $modes; do [ "$m" = xargs ] || bash -c "one $m $p0 $work/plain"; done
echo "run latency mode wall_s cpu_s cpu_ms_per_host peak_rss_kb load1 failed_looks"
for i in $(seq "$runs"); do
  for lat in 0 "$latency"; do
    if [ "$lat" = 0 ]; then port=$p0; st=$work/plain; else port=$p1; st=$work/delayed; fi
    for mode in $modes; do
      : > "$work/out.jsonl"
      load=$(cut -d' ' -f1 /proc/loadavg)
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" bash -c "one $mode $port $st"
      read -r wall user sys rss < <(tail -1 "$work/t")
      cpu=$(echo "$user + $sys" | bc)
      failed=-; [ "$mode" = xargs ] || failed=$(grep -c '"lookFailed"' "$work/out.jsonl" || true)
      printf '%s %s %s %s %s %.1f %s %s %s\n' "$i" "$lat" "$mode" "$wall" "$cpu" "$(echo "$cpu * 1000 / $hosts" | bc -l)" "$rss" \
        "$load" "$failed" | tee -a "$work/results"
    done
  done
done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "medians: latency mode wall_s cpu_s cpu_ms_per_host peak_rss_kb load1"
for lat in 0 "$latency"; do for mode in $modes; do
  sel() { awk -v l="$lat" -v m="$mode" -v f="$1" '$2==l && $3==m {print $f}' "$work/results"; }
  echo "$lat $mode $(sel 4 | median) $(sel 5 | median) $(sel 6 | median) $(sel 7 | median) $(sel 8 | median)"
done; done
