#!/bin/bash
# The read mixes at 16 MiB: this commit's hotrap, its tombstone and native paths, and the
# previous commit's hotrap (base.jar) on rw-hotspot5, where migration runs beside the reads.
set -u
R=/work/s38/noreg
mkdir -p $R
one() { # jar tag system workload
  rm -rf /work/s38/rw /work/s38/slow/rw
  /work/main/scripts/slowdisk.sh run --dir /work/s38/slow -- java -Xmx3g -jar $1 run --system $3 --workload $4 --budget-mib 16 --duration 80s --dir /work/s38/rw --slow-dir /work/s38/slow/rw --out $R/$2 > $R/$2-$3-$4.txt 2>&1
  echo "$2 $3 $4: $(tail -1 $R/$2-$3-$4.txt | cut -c1-200)"
}
for w in rw-hotspot5 ro-hotspot5 ro-uniform; do
  for s in hotrap hotrap-tombstones hotrap-native; do one /work/s38/c1.jar new $s $w; done
done
one /work/s38/base.jar base hotrap rw-hotspot5
