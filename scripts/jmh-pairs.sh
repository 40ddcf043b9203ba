#!/usr/bin/env bash
#
# jmh-pairs.sh - a JMH benchmark with a boolean parameter, run as pairs of single-fork trials.
#
# JMH runs every fork of one parameter value before the first fork of the next, so on a shared
# machine its two figures can come minutes apart under different load from other tenants. This
# script alternates the two values, one fork each, and reports the ratio within each pair
# (true / false) and the median of those ratios, beside each side's median score. Its trials share
# one loaded store where the benchmark supports it (ColdGetBenchmark's template directory), so that
# every trial starts from the same files.
#
# Usage: scripts/jmh-pairs.sh <benchmark> <param> <pairs> [extra JMH arguments...]
#   scripts/jmh-pairs.sh ColdGetBenchmark promotion 6 -wi 3 -w 3 -i 6 -r 3
#
# Needs the bench jar (mvn -B -q -DskipTests install). Prints one line per trial and a summary.

set -euo pipefail

if [[ $# -lt 3 ]]; then
  sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
bench=$1 param=$2 pairs=$3
shift 3
jar=$(dirname "$0")/../hotrap-bench/target/hotrap-bench.jar
[[ -f $jar ]] || { echo "no $jar: run mvn -B -q -DskipTests install first" >&2; exit 1; }

# The score of one single-fork trial of <bench> with <param>=$1, from JMH's CSV result file.
trial() {
  local value=$1
  shift
  java -jar "$jar" jmh "$bench" -p "$param=$value" -f 1 -rf csv -rff "$csv" \
    -jvmArgsAppend "-Dhotrap.bench.coldget.template=$work/template" "$@" > "$log" 2>&1 \
    || { tail -20 "$log" >&2; return 1; }
  awk -F, 'NR == 2 { gsub(/"/, "", $5); print $5 }' "$csv"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$work/result.csv log=$work/jmh.log

scores_true=() scores_false=() ratios=()
for ((i = 1; i <= pairs; i++)); do
  # Alternate which value goes first, so that neither always runs after the other.
  if ((i % 2)); then order=(true false); else order=(false true); fi
  for v in "${order[@]}"; do
    s=$(trial "$v" "$@") || { echo "trial $param=$v failed" >&2; exit 1; }
    echo "pair $i: $param=$v $s"
    if [[ $v == true ]]; then t=$s; else f=$s; fi
  done
  scores_true+=("$t") scores_false+=("$f")
  ratios+=("$(awk -v a="$t" -v b="$f" 'BEGIN { printf "%.3f", a / b }')")
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "$param=true  median $(median "${scores_true[@]}")"
echo "$param=false median $(median "${scores_false[@]}")"
echo "true/false per pair: ${ratios[*]}; median $(median "${ratios[@]}")"
