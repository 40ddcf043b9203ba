#!/usr/bin/env bash
#
# slow-reads.sh - which threads read the slow disk, and in what sizes.
#
# Traces every block I/O queued on the slow disk made by slowdisk.sh for a while, with the kernel's
# block:block_bio_queue tracepoint (perf, root), and prints the reads and writes per thread name and
# the reads per size in 512-byte sectors. A benchmark's summary says how many reads each slow-tier
# get cost (slow_disk_reads_per_slow_get); this says whose reads they were: client threads (gets),
# "rocksdb:low" and "rocksdb:high" (compactions and flushes), "hotrap-migrator", kernel workers.
# RocksDB reads with direct I/O aligned to the device's 512-byte sectors, so a data block of 16 KiB
# shows as 32-33 sectors and an index or filter block of a small file as 1-3.
#
# Usage (while a benchmark runs against the slow disk):
#
#   scripts/slow-reads.sh --dir <mountpoint> [--seconds 25] [--keep <perf.data>]
#
# Exit status: 0 on success, 1 on a failure, 2 on a usage error.
set -euo pipefail
readonly PROG=${0##*/}

dir=""
seconds=25
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=${2:?}; shift 2 ;;
    --seconds) seconds=${2:?}; shift 2 ;;
    --keep) keep=${2:?}; shift 2 ;;
    *) echo "$PROG: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$dir" ] || { echo "usage: $PROG --dir <mountpoint> [--seconds N] [--keep FILE]" >&2; exit 2; }
state="$dir/.slowdisk"
[ -r "$state" ] || { echo "$PROG: no $state: not a disk made by slowdisk.sh up" >&2; exit 1; }
command -v perf > /dev/null || { echo "$PROG: perf is not installed" >&2; exit 1; }
majmin=$(sed -n 's/^majmin=//p' "$state")
[ -n "$majmin" ] || { echo "$PROG: no majmin in $state" >&2; exit 1; }
# perf script prints the device as "major,minor".
device=${majmin/:/,}

data=${keep:-$(mktemp /tmp/slow-reads.XXXXXX)}
trap '[ -n "$keep" ] || rm -f "$data"' EXIT
perf record -q -e block:block_bio_queue -a -o "$data" -- sleep "$seconds" > /dev/null 2>&1 \
  || { echo "$PROG: perf record failed (root, and a kernel with block tracepoints?)" >&2; exit 1; }

# A line: "<comm> <tid> [cpu] <time>: block:block_bio_queue: <maj,min> <rwbs> <sector> + <n> [<comm>]".
# The thread name is taken from the bracketed copy at the end, which may hold spaces.
table=$(perf script -i "$data" 2>/dev/null | awk -v dev="$device" '
  {
    at = index($0, "block_bio_queue: ")
    if (at == 0) next
    split(substr($0, at + 17), f, " ")
    if (f[1] != dev) next
    name = $0
    sub(/.*\[/, "", name)
    sub(/\][^]]*$/, "", name)
    if (f[2] ~ /R/) { reads[name]++; size[f[5]]++; total++ }
    else if (f[2] ~ /W/) { writes[name]++ }
  }
  END {
    printf "N\t%d\n", total
    for (n in reads) printf "T\t%d\t%d\t%s\n", reads[n], writes[n] + 0, n
    for (n in writes) if (!(n in reads)) printf "T\t0\t%d\t%s\n", writes[n], n
    for (s in size) printf "S\t%d\t%s\n", size[s], s
  }')
echo "reads on $majmin in $seconds s: $(awk -F'\t' '$1 == "N" {print $2}' <<< "$table")"
echo "by thread (reads, writes, name):"
awk -F'\t' '$1 == "T" {printf "  %8d %8d  %s\n", $2, $3, $4}' <<< "$table" | sort -k1,1nr -k2,2nr
echo "reads by size (count, 512-byte sectors):"
awk -F'\t' '$1 == "S" {printf "  %8d  %s\n", $2, $3}' <<< "$table" | sort -k1,1nr | head -12
