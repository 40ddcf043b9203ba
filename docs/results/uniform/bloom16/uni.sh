#!/bin/bash
# ro-uniform, standard profile: tiered + hotrap(16 bits) with the new jar; hotrap(10 bits) with the old jar
S=/work/main/scripts/slowdisk.sh
for r in 1 2; do
$S run --dir /work/s41/slow -- java -Xmx3g -jar /work/s41/hb16.jar compare --profile standard --workloads ro-uniform --systems rocksdb-tiered,hotrap --dir /work/s41/a$r --slow-dir /work/s41/slow/a$r --out /work/s41/outa$r > /work/s41/a$r.log 2>&1
$S run --dir /work/s41/slow -- java -Xmx3g -jar /work/s40/hb.jar compare --profile standard --workloads ro-uniform --systems hotrap --dir /work/s41/b$r --slow-dir /work/s41/slow/b$r --out /work/s41/outb$r > /work/s41/b$r.log 2>&1
rm -rf /work/s41/slow/a$r /work/s41/slow/b$r /work/s41/a$r/data /work/s41/b$r/data
done
echo done > /work/s41/uni.done
