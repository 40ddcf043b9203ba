#!/bin/bash
# Paired loads: 128 MiB x 11 and 16 MiB x 11 on the throttled slow disk, alternating order.
set -u
J=/work/s37/final.jar
R=/work/s37/loads
mkdir -p $R
run() { # tag budget systems
  rm -rf /work/s37/mw /work/s37/slow/mw
  /work/main/scripts/slowdisk.sh run --dir /work/s37/slow -- java -Xmx3g -jar $J migration --dir /work/s37/mw --slow-dir /work/s37/slow/mw --budget-mib $2 --times 11 --systems $3 > $R/$1.txt 2>&1
  grep -v stats $R/$1.txt | tail -4
}
run m128-1 128 rocksdb-tiered,hotrap,hotrap-tombstones
run m128-2 128 hotrap-tombstones,hotrap,rocksdb-tiered
run m128-3 128 hotrap,rocksdb-tiered
run m16-1 16 rocksdb-tiered,hotrap,hotrap-tombstones
run m16-2 16 hotrap-tombstones,hotrap,rocksdb-tiered
