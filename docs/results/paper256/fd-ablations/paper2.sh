#!/bin/bash
# Paper profile's budget (256 MiB), 1 KiB records, 300-s runs on 2e2b724 (device read times in every sample): rocksdb-fd, the ablations, and ro-hotspot5 again.
S=/work/main/scripts/slowdisk.sh
run() { # system workload
  echo "$1 $2 start $(date +%s)" >> /work/s42/p/times.txt
  $S run --dir /work/s42/slow -- java -Xmx6g -jar /work/s42/hb2.jar run --system $1 --workload $2 --budget-mib 256 --duration 300s --threads 8 --dir /work/s42/p/w --slow-dir /work/s42/slow/p --out /work/s42/p/out >> /work/s42/p/console.txt 2>&1
  echo "$1 $2 end $(date +%s)" >> /work/s42/p/times.txt
}
run rocksdb-fd ro-hotspot5
run rocksdb-fd rw-hotspot5
run hotrap-no-promotion ro-hotspot5
run hotrap-no-retain rw-hotspot5
run hotrap-no-by-compaction rw-hotspot5
run hotrap-no-hotness-check ro-uniform
run rocksdb-fd ro-zipf
run hotrap ro-hotspot5
run rocksdb-tiered ro-hotspot5
echo done > /work/s42/p/done
