#!/bin/bash
# Stopped after its first run (hotrap wh-hotspot5); run2.sh waited for that run and ran the rest.
# 256 MiB, 200 B records, on the code of cc06b95, one run after another, nothing else running.
# WH- and UH-hotspot5 for 300 s each, then ro-zipf for 1,800 s per system.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 start $(date +%s)" >> /work/s47/times.txt
  $S run --dir /work/s47/slow -- java -Xmx6g -jar /work/s47/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s47/w --slow-dir /work/s47/slow/p --out /work/s47/$out "${@:3}" >> /work/s47/console.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s47/times.txt
}
for w in wh-hotspot5 uh-hotspot5; do
  run mixes hotrap $w --record-bytes 200 --duration 300s
  run mixes rocksdb-tiered $w --record-bytes 200 --duration 300s
done
run zipf hotrap ro-zipf --record-bytes 200 --duration 1800s
run zipf rocksdb-tiered ro-zipf --record-bytes 200 --duration 1800s
echo done > /work/s47/done
