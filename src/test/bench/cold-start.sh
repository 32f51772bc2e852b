#!/usr/bin/env bash
# Benchmark, not a test: the cold start of one command as whole processes, variants interleaved round by round,
# `java -version` as the floor. Each run's wall time, CPU (user+sys) and peak RSS come from /usr/bin/time; the
# table gives the median of each column per variant, and the load average before and after.
#
# Usage (from the checkout, after mvn -DskipTests package):
#   src/test/bench/cold-start.sh [RUNS=7] [BASELINE_DIR]           # replay of one capture
#   CAPTURE=DIR src/test/bench/cold-start.sh ...                   # another capture
#   VARIANTS_FILE=FILE src/test/bench/cold-start.sh ...            # lines "label<TAB>command" instead of the defaults
# BASELINE_DIR is a checkout (or install) of an older build with its target/triage.jar and target/triage, run
# against the same capture with its own rules; omitted, only this build is measured.
#
# The rule-base and class-data caches live in a private directory of this run (XDG_CACHE_HOME), warmed by
# one untimed run of each variant first: "cold" here is a new JVM with warm caches, what a person gets from the
# second command on. One run of each variant with empty caches is timed too (the first command after a build).
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-7}; base=${2:-}
capture=${CAPTURE:-$PWD/knowledge-base/scenarios/h200/00-idle-baseline}
[ -f target/triage.jar ] || { echo "build first: mvn -DskipTests package" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; trap 'exit 130' INT TERM
export XDG_CACHE_HOME="$work/cache"; mkdir -m 700 "$XDG_CACHE_HOME"
here=$PWD
cd "$work"   # a neutral working directory: no rules/ here to be pointed out

variants=()
if [ -n "${VARIANTS_FILE:-}" ]; then
  while IFS= read -r l; do [ -n "$l" ] && variants+=("$l"); done < "$VARIANTS_FILE"
else
  variants+=("java -version"$'\t'"java -version")
  if [ -n "$base" ]; then
    variants+=("baseline java -jar"$'\t'"java -jar $base/target/triage.jar replay $capture")
    variants+=("baseline launcher"$'\t'"$base/target/triage replay $capture")
  fi
  variants+=("java -jar"$'\t'"java -jar $here/target/triage.jar replay $capture")
  variants+=("launcher"$'\t'"$here/target/triage replay $capture")
fi

run() { # $1: label index, $2: command; appends "idx wall cpu rss"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" sh -c "$2" > "$work/out" 2> "$work/err" || {
    echo "failed: $2" >&2; sed 's/^/  /' "$work/err" >&2; exit 1; }
  read -r wall user sys rss < <(tail -1 "$work/t")
  echo "$1 $wall $(echo "$user + $sys" | bc) $rss" >> "$3"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/first"; : > "$work/results"
for i in "${!variants[@]}"; do run "$i" "${variants[$i]#*$'\t'}" "$work/first"; done   # empty caches
for i in "${!variants[@]}"; do run "$i" "${variants[$i]#*$'\t'}" /dev/null; done        # settle
for r in $(seq "$runs"); do
  for i in "${!variants[@]}"; do run "$i" "${variants[$i]#*$'\t'}" "$work/results"; done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf '%-28s %9s %9s %9s %11s %11s\n' variant wall_s cpu_s rss_MB first_wall first_cpu
for i in "${!variants[@]}"; do
  col() { awk -v i="$i" -v f="$1" '$1==i {print $f}' "$work/results" | median; }
  first() { awk -v i="$i" -v f="$1" '$1==i {print $f}' "$work/first"; }
  printf '%-28s %9s %9s %9.0f %11s %11s\n' "${variants[$i]%%$'\t'*}" "$(col 2)" "$(col 3)" "$(echo "$(col 4) / 1024" | bc -l)" \
    "$(first 2)" "$(first 3)"
done
echo "($runs runs each, interleaved; medians; first_*: the one run with empty caches)"
