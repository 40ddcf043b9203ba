#!/bin/bash
# hotrap (files leave whole) against hotrap-tombstones on the read mixes, 16 MiB, alternating.
set -u
J=/work/s37/final.jar
R=/work/s37/noreg
mkdir -p $R
for w in ro-hotspot5 rw-hotspot5 ro-uniform; do
  for s in hotrap hotrap-tombstones; do
    [ $w = rw-hotspot5 ] && s2=$s || s2=$s
    /work/main/scripts/slowdisk.sh run --dir /work/s37/slow -- java -Xmx3g -jar $J run --system $s --workload $w --budget-mib 16 --duration 80s --dir /work/s37/rw --slow-dir /work/s37/slow/rw --out $R > $R/$s-$w.txt 2>&1
    tail -2 $R/$s-$w.txt
  done
done
