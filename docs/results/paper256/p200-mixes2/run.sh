#!/bin/bash
# 256 MiB, 200 B records, UH-uniform and WH-Zipf, 300 s each, one after another, nothing else running, on the code of cc06b95.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 start $(date +%s)" >> /work/s46/times3.txt
  $S run --dir /work/s46/slow -- java -Xmx6g -jar /work/s46/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s46/w --slow-dir /work/s46/slow/p --out /work/s46/$out "${@:3}" >> /work/s46/console3.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s46/times3.txt
}
for w in uh-uniform wh-zipf; do
  run p200c hotrap $w --record-bytes 200 --duration 300s
  run p200c rocksdb-tiered $w --record-bytes 200 --duration 300s
done
echo done > /work/s46/done3
