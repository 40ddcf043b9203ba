#!/usr/bin/env bash
# Second round: the 90%-read mix again (systems in the other order) and a skewed variant.
set -u
JAR=/work/bench18/hotrap-bench.jar
SD="/work/wt18/scripts/slowdisk.sh run --dir /mnt/slow18 --"
run() { # dir slowdir system workload record duration out
  echo "=== $(date -u +%H:%M:%S) $3 $4 $5 -> $7"
  $SD java -Xmx3g -jar $JAR run --system "$3" --workload "$4" --record-bytes "$5" --budget-mib 32 \
    --duration "$6" --threads 4 --dir "$1" --slow-dir "$2" --out "$7" 2>&1 \
    | grep -v "^load \|^run " | tail -4
}
for s in sas-cache rocksdb-sc; do run /work/bench18/sas /mnt/slow18/sas $s ru-uniform 10264 60s /work/bench18/results-repeat; done
for s in rocksdb-sc sas-cache; do run /work/bench18/sas /mnt/slow18/sas $s ru-zipf 10264 60s /work/bench18/results; done
echo "=== $(date -u +%H:%M:%S) done"
