#!/usr/bin/env bash
# The prefetch's second version (two passes) on ru-zipf, then rocksdb-pcache at 128 MiB again with
# its slow gets counted per get.
set -u
cd /work/s39
while pgrep -f ru.sh >/dev/null; do sleep 5; done
JAR=/work/s39/pf3.jar OUT=/work/s39/out/ru2 ./ru.sh
JAR=/work/s39/pf3.jar OUT=/work/s39/out/b128 SYSTEMS=rocksdb-pcache ./b128.sh
echo "=== $(date -u +%H:%M:%S) batch2 done"
