#!/bin/bash
# Paired loads on the throttled slow disk (scripts/slowdisk.sh up --dir /work/s38/slow --size 20G
# --read-iops 1650 --write-iops 1650 --read-bps 200M --write-bps 200M), orders alternating.
# pipe1 ran with -XX:StartFlightRecording=filename=pipe1.jfr,settings=profile.
J=/work/s38/c1.jar
run() { # tag budget-mib systems
  rm -rf /work/s38/mw /work/s38/slow/mw
  /work/main/scripts/slowdisk.sh run --dir /work/s38/slow -- java -Xmx3g -jar $J migration --dir /work/s38/mw --slow-dir /work/s38/slow/mw --budget-mib $2 --times 11 --systems $3 > $1.txt 2>&1
}
run pipe1 128 hotrap,rocksdb-tiered
run pipe2 128 rocksdb-tiered,hotrap,hotrap-tombstones
run p128-a 128 hotrap,rocksdb-tiered
run p128-b 128 rocksdb-tiered,hotrap
run p128-c 128 hotrap,rocksdb-tiered
run p128-d 128 rocksdb-tiered,hotrap
run p16-a 16 hotrap,rocksdb-tiered,hotrap-tombstones
run p128-e 128 hotrap-native,hotrap,rocksdb-tiered
# Commits of 4 slow-tier files' worth (the default since then), c2.jar:
J=/work/s38/c2.jar
run b128-a 128 hotrap,rocksdb-tiered
run b128-b 128 rocksdb-tiered,hotrap
run b16-a 16 hotrap,rocksdb-tiered
