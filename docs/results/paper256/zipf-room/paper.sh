#!/bin/bash
# ro-zipf at 256 MiB on 5da28bf, slow disk of 1,650 IOPS, one run after another:
# 200 B records, hotrap for 1,800 s; 1 KiB records, hotrap and rocksdb-tiered for 300 s;
# 200 B records, rocksdb-tiered for 300 s.
# (run after std.sh under scripts/slowdisk.sh run --dir /work/s48/slow, by after.sh; /work/s48/pw started empty, so each system and record size loaded its template first)
cd /work/s48
run() { # system bytes duration out
  date -u +"start $1 $2 $3 %FT%TZ" >> paper-times.txt
  java -Xmx6g -jar hb.jar run --system "$1" --workload ro-zipf --record-bytes "$2" --budget-mib 256 \
    --duration "$3" --threads 8 --dir /work/s48/pw --slow-dir /work/s48/slow/p --out "$4" >> paper-console.txt 2>&1
  echo "rc $? $1 $2" >> paper-times.txt
}
run hotrap 200 1800s /work/s48/p200
run hotrap 1024 300s /work/s48/p1k
run rocksdb-tiered 1024 300s /work/s48/p1k
run rocksdb-tiered 200 300s /work/s48/p200
date -u +"end %FT%TZ" >> paper-times.txt
