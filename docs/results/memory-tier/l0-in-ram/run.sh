#!/bin/bash
# usage: run.sh OUT [extra bench args]
cd /work/s19
OUT=$1; shift
/work/main/scripts/slowdisk.sh run --dir /work/s19/slow -- java -Xmx3g $JOPTS -jar ${JAR:-/work/s19/bench.jar} memory-tier --fast-dir /work/s19/fastdev --slow-dir /work/s19/slow --mem-dir /dev/shm/s19mem "$@" > $OUT 2> $OUT.err
