# Sourced by runs.sh and runs2.sh: the jar, the output directory and one bench run on the
# throttled slow disk made by
#   scripts/slowdisk.sh up --dir /work/b18/slowdev --size 20G --read-iops 1650 --cgroup hotrap-slow18b
JAR=${JAR:-/work/b18/hotrap-bench.jar}
OUT=${OUT:-/work/b18/res}
SD="/work/wt18b/scripts/slowdisk.sh run --dir /work/b18/slowdev --"
run() { # system workload record duration out
  echo "=== $(date -u +%H:%M:%S) $1 $2 $3 $4 -> $5"
  $SD java -Xmx3g -jar "$JAR" run --system "$1" --workload "$2" --record-bytes "$3" --budget-mib 32 \
    --duration "$4" --threads 4 --dir /work/b18/w --slow-dir /work/b18/slowdev/s --out "$5" 2>&1 \
    | grep -v "^load \|^run " | tee -a "$OUT/full.log" \
    | grep "throughput\|Exception\|rror\|flash cache at close" | tail -5
}
