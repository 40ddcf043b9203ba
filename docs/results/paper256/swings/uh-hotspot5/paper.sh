#!/bin/bash
# Paper profile's budget (256 MiB), 1 KiB records, 300-s runs: uh-hotspot5 again (with device latency sampled), rocksdb-fd, and the ablations.
S=/work/main/scripts/slowdisk.sh
run() { # system workload
  echo "$1 $2 start $(date +%s)" >> /work/s42/p/times.txt
  $S run --dir /work/s42/slow -- java -Xmx6g -jar /work/s42/hb.jar run --system $1 --workload $2 --budget-mib 256 --duration 300s --threads 8 --dir /work/s42/p/w --slow-dir /work/s42/slow/p --out /work/s42/p/out >> /work/s42/p/console.txt 2>&1
  echo "$1 $2 end $(date +%s)" >> /work/s42/p/times.txt
}
run hotrap uh-hotspot5
run rocksdb-tiered uh-hotspot5
run rocksdb-fd ro-hotspot5
run rocksdb-fd rw-hotspot5
run hotrap-no-promotion ro-hotspot5
run hotrap-no-retain rw-hotspot5
run hotrap-no-by-compaction rw-hotspot5
run rocksdb-fd ro-zipf
echo done > /work/s42/p/done
