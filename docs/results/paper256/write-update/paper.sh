#!/bin/bash
# Paper profile's budget (256 MiB), 1 KiB records: write- and update-heavy rows not yet run, hotrap against rocksdb-tiered, alternating.
S=/work/main/scripts/slowdisk.sh
run() { # system workload
  $S run --dir /work/s41/slow -- java -Xmx6g -jar /work/s41/hb.jar run --system $1 --workload $2 --budget-mib 256 --duration 300s --threads 8 --dir /work/s41/p/w --slow-dir /work/s41/slow/p --out /work/s41/p/out >> /work/s41/p/console.txt 2>&1
}
run hotrap wh-hotspot5
run rocksdb-tiered wh-hotspot5
run rocksdb-tiered uh-hotspot5
run hotrap uh-hotspot5
run hotrap wh-zipf
run rocksdb-tiered wh-zipf
run rocksdb-tiered uh-uniform
run hotrap uh-uniform
echo done > /work/s41/p/done
