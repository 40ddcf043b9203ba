#!/bin/bash
# After paper3.sh: ro-uniform at 256 MiB for hotrap and rocksdb-tiered, beside the no-hotness-check ablation.
while [ ! -f /work/s42/p/done3 ]; do sleep 5; done
S=/work/main/scripts/slowdisk.sh
run() { # system workload
  echo "$1 $2 start $(date +%s)" >> /work/s42/p/times.txt
  $S run --dir /work/s42/slow -- java -Xmx6g -jar /work/s42/hb3.jar run --system $1 --workload $2 --budget-mib 256 --duration 300s --threads 8 --dir /work/s42/p/w --slow-dir /work/s42/slow/p --out /work/s42/p/out3 >> /work/s42/p/console.txt 2>&1
  echo "$1 $2 end $(date +%s)" >> /work/s42/p/times.txt
}
run rocksdb-tiered ro-uniform
run hotrap ro-uniform
echo done > /work/s42/p/done4
