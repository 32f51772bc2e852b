#!/usr/bin/env bash
# Benchmark, not a test: where a cold CLI sweep's CPU goes, by thread. Runs the launcher's sweep of N lab hosts
# (no latency) RUNS times and reads each of its threads' CPU (user+sys from /proc, polled every 50 ms, the last
# value seen per thread) and sums them by thread name with the digits taken out: the JIT compiler, the look
# threads, the diagnosis pool, MINA's I/O threads, the main thread (start, knowledge, output), the rules' load.
# A thread that ends between two polls is missed; the JVM's own total (ended threads included) is printed beside.
# Usage (from the checkout, after mvn -DskipTests package): src/test/bench/sweep-threads.sh [RUNS=3] [HOSTS=200]
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-3}; hosts=${2:-200}
jar=$PWD/target/triage.jar; launcher=$PWD/target/triage
[ -f "$jar" ] || { echo "build first: mvn -DskipTests package" >&2; exit 2; }
work=$(mktemp -d); lab=
trap '[ -n "$lab" ] && kill "$lab" 2>/dev/null; rm -rf "$work"' EXIT
cp "$jar" "$work/lab.jar" # the lab runs from its own copy: a rebuild during the run cannot break it
java -jar "$work/lab.jar" --home "$PWD" lab --port 0 --fleet "$hosts" --state "$work/lab" > "$work/lab.out" 2>&1 &
lab=$!
port=
for _ in $(seq 240); do
  port=$(sed -n 's/^Triage lab on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/lab.out")
  [ -n "$port" ] && break
  sleep 0.5
done
[ -n "$port" ] || { echo "the lab did not start" >&2; exit 1; }
seq 1 "$hosts" | sed "s/.*/lab-&@127.0.0.1:$port/" > "$work/hosts"
: > "$work/empty_config"
args=(--home "$PWD" diagnose --hosts "$work/hosts" -i "$work/lab/client_key" --known-hosts "$work/lab/known_hosts"
      --ssh-config "$work/empty_config" --format json)
"$launcher" "${args[@]}" > /dev/null 2>&1 || true # the first run of the launcher records its class-data archive
for i in $(seq "$runs"); do
  declare -A cpu=() name=()
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  "$launcher" "${args[@]}" > "$work/out.jsonl" 2>/dev/null & pid=$! # the launcher execs java: this pid is the JVM's
  proc=0
  while kill -0 "$pid" 2>/dev/null; do
    if s=$(cat /proc/"$pid"/stat 2>/dev/null); then
      rest=${s##*) }; read -r -a f <<< "$rest"; proc=$(( f[11] + f[12] )) # threads that ended included
    fi
    for t in /proc/"$pid"/task/*; do
      s=$(cat "$t/stat" 2>/dev/null) || continue
      n=$(cat "$t/comm" 2>/dev/null) || continue
      rest=${s##*) }
      read -r -a f <<< "$rest"
      cpu[${t##*/}]=$(( f[11] + f[12] )); name[${t##*/}]=$n
    done
    sleep 0.05
  done
  wait "$pid" || [ $? = 4 ]
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  failed=$(grep -c '"lookFailed"' "$work/out.jsonl" || true)
  tck=$(getconf CLK_TCK)
  echo "run $i: wall ${wall%???????} s, load $load, $failed failed looks; CPU by thread (ms, threads):"
  for t in "${!cpu[@]}"; do echo "${name[$t]}|${cpu[$t]}"; done | sed 's/[0-9][0-9]*|/N|/; s/[0-9][0-9]*\]/N]/' \
    | awk -F'|' -v tck="$tck" -v h="$hosts" '{a[$1]+=$2; n[$1]++; s+=$2}
        END {for (k in a) if (a[k] > 0) printf "  %7.0f %4d  %s\n", a[k]*1000/tck, n[k], k;
             printf "  %7.0f        threads seen (%.1f ms per host)\n", s*1000/tck, s*1000/tck/h}' | sort -rn
  echo "  $(( proc * 1000 / tck )) ms the whole JVM at its last poll, ended threads included"
done
