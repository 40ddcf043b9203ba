#!/usr/bin/env bash
#
# slowdisk.sh - a throttled "slow disk" for the benchmark harness (DESIGN.md section 12).
#
# The slow tier of a benchmark lives on an ext4 file system inside a loop device whose image file
# sits on the machine's own disk. The cgroup v1 blkio controller throttles the loop device for the
# processes in one cgroup, so only the benchmark JVM sees a slow disk; every other process,
# including the page cache's writeback and this script, runs at the real disk's speed. The loop
# device is attached with direct I/O to its image, so the host page cache does not cache the slow
# disk a second time underneath the guest file system.
#
# Usage (up and down need root and a cgroup v1 blkio hierarchy at /sys/fs/cgroup/blkio):
#
#   slowdisk.sh up --dir <mountpoint> --size <20G> [--read-iops N] [--write-iops N]
#                  [--read-bps B] [--write-bps B] [--image <file>] [--cgroup <name>]
#                  [--owner <user>]
#       Creates the sparse image file (default <mountpoint>.img), attaches a loop device, makes
#       ext4 on it, mounts it at <mountpoint>, creates the blkio cgroup
#       /sys/fs/cgroup/blkio/<name> (default hotrap-slow) with the given limits on the loop
#       device, and writes the state file <mountpoint>/.slowdisk. A limit of 0 or an omitted
#       limit means no limit in that direction. Byte rates accept a K, M or G suffix (powers of
#       1024): --read-bps 16M. --owner chowns the mount and the cgroup's cgroup.procs so that
#       this user may run throttled commands without root. Refuses if <mountpoint> is already
#       a mount point, if the image or the cgroup already exists; a failed "up" undoes what it
#       did.
#
#   slowdisk.sh down --dir <mountpoint>
#       Unmounts, detaches the loop device, moves any process left in the cgroup back to the
#       root cgroup, removes the cgroup and deletes the image. Steps already undone are skipped,
#       so "down" may be repeated after a partial failure (it then reads the copy of the state
#       file that "up" keeps under /run/slowdisk, as the unmount hid the original).
#
#   slowdisk.sh run --dir <mountpoint> -- <command> [args...]
#       Runs the command inside the cgroup: this script's process joins the cgroup through
#       cgroup.procs (which moves the whole process, every thread) and then execs the command,
#       so a JVM started this way is throttled with all of its threads and children.
#
#   slowdisk.sh status --dir <mountpoint>
#       Prints the state file and checks the mount, the loop device, the cgroup and its limits.
#       Exit status 0 when everything is in place, 1 otherwise.
#
# Example (1/8 of a disk that does 20,000 random 4 KiB reads per second):
#
#   sudo scripts/slowdisk.sh up --dir /work/slow --size 20G --read-iops 2500 --read-bps 64M
#   sudo scripts/slowdisk.sh run --dir /work/slow -- java -jar hotrap-bench.jar ...
#   sudo scripts/slowdisk.sh down --dir /work/slow
#
# State file <mountpoint>/.slowdisk, one key=value per line, read by
# io.hotrap.bench.disk.SlowDisk:
#   device=/dev/loopN  majmin=7:N  image=<file>  cgroup=/sys/fs/cgroup/blkio/<name>
#   mountpoint=<dir>  size=<as given>  direct_io=on|off
#   read_iops=N  write_iops=N  read_bps=B  write_bps=B   (0 = no limit)
#   created_at=<UTC, ISO 8601>
# Environment: SLOWDISK_BLKIO_ROOT, where the blkio hierarchy is mounted (/sys/fs/cgroup/blkio).
# Exit status: 0 on success, 1 on a failure, 2 on a usage error.

set -euo pipefail

readonly BLKIO_ROOT=${SLOWDISK_BLKIO_ROOT:-/sys/fs/cgroup/blkio}
readonly STATE_NAME=.slowdisk
# A second copy of each state file, so that a "down" interrupted after the unmount (which hides
# the first copy) can be finished. /run is emptied at boot, as are loop devices and cgroups.
readonly RUN_STATE_DIR=/run/slowdisk
readonly PROG=${0##*/}

die() {
  echo "$PROG: $*" >&2
  exit 1
}

usage_error() {
  echo "$PROG: $*" >&2
  echo "usage: $PROG up|down|run|status --dir <mountpoint> ... (see the header of $0)" >&2
  exit 2
}

note() {
  echo "$PROG: $*" >&2
}

require_root() {
  [[ $EUID -eq 0 ]] || die "'$1' needs root (it manages loop devices, mounts and cgroups);" \
    "run it with sudo"
}

require_blkio() {
  [[ -f $BLKIO_ROOT/blkio.throttle.read_iops_device ]] \
    || die "no cgroup v1 blkio controller with throttling at $BLKIO_ROOT;" \
      "the slow disk needs it (a cgroup v2-only system is not supported)"
}

require_tool() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found in PATH ($PATH)"
  done
}

# An absolute path without a trailing slash; the directory need not exist.
absolute() {
  realpath -m -- "$1"
}

# Bytes per second from "16M", "512K", "1G" or a plain number (suffixes are powers of 1024).
parse_bytes() {
  local name=$1 value=$2
  [[ $value =~ ^([0-9]+)([KkMmGg]?)$ ]] \
    || usage_error "--$name must be a byte count with an optional K, M or G suffix, was '$value'"
  local number=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]}
  case $unit in
    K | k) echo $((number * 1024)) ;;
    M | m) echo $((number * 1024 * 1024)) ;;
    G | g) echo $((number * 1024 * 1024 * 1024)) ;;
    *) echo $((10#$number)) ;;
  esac
}

parse_count() {
  local name=$1 value=$2
  [[ $value =~ ^[0-9]+$ ]] || usage_error "--$name must be a whole number, was '$value'"
  echo $((10#$value))
}

# Where the second copy of the state file of the mount point $1 lives.
run_state_file() {
  echo "$RUN_STATE_DIR$1.state"
}

# Reads the state file named by $1 into the associative array STATE, without evaluating it.
declare -A STATE=()
read_state() {
  local file=$1 key value
  [[ -f $file ]] || die "no slow disk at $DIR: state file $file not found" \
    "(not mounted, or not made by '$PROG up')"
  while IFS='=' read -r key value; do
    [[ -z $key || $key == \#* ]] && continue
    STATE[$key]=$value
  done <"$file"
  local required
  for required in device majmin image cgroup; do
    [[ -n ${STATE[$required]:-} ]] || die "state file $file has no '$required' line"
  done
}

# ---- up -------------------------------------------------------------------------------------

# What "up" has created so far, undone in reverse order if it fails half way.
UP_IMAGE= UP_DEVICE= UP_MOUNTED= UP_CGROUP=
undo_up() {
  local status=$?
  [[ $status -eq 0 ]] && return
  note "'up' failed; undoing what it did"
  if [[ -n $UP_CGROUP && -d $UP_CGROUP ]]; then rmdir "$UP_CGROUP" || true; fi
  if [[ -n $UP_MOUNTED ]]; then umount "$UP_MOUNTED" || true; fi
  if [[ -n $UP_DEVICE ]]; then losetup -d "$UP_DEVICE" || true; fi
  if [[ -n $UP_IMAGE ]]; then rm -f -- "$UP_IMAGE" "$(run_state_file "$DIR")" || true; fi
  exit "$status"
}

# Writes "major:minor limit" into one blkio.throttle file; a limit of 0 sets none.
write_limit() {
  local cgroup=$1 file=$2 majmin=$3 limit=$4
  [[ $limit -eq 0 ]] && return
  echo "$majmin $limit" >"$cgroup/$file" || die "could not write '$majmin $limit' to $cgroup/$file"
}

cmd_up() {
  local size= image= cgroup_name=hotrap-slow owner=
  local read_iops=0 write_iops=0 read_bps=0 write_bps=0
  while [[ $# -gt 0 ]]; do
    [[ $# -ge 2 ]] || usage_error "option $1 needs a value"
    case $1 in
      --dir) DIR=$(absolute "$2") ;;
      --size) size=$2 ;;
      --image) image=$(absolute "$2") ;;
      --cgroup) cgroup_name=$2 ;;
      --owner) owner=$2 ;;
      --read-iops) read_iops=$(parse_count read-iops "$2") ;;
      --write-iops) write_iops=$(parse_count write-iops "$2") ;;
      --read-bps) read_bps=$(parse_bytes read-bps "$2") ;;
      --write-bps) write_bps=$(parse_bytes write-bps "$2") ;;
      *) usage_error "up: unknown option $1" ;;
    esac
    shift 2
  done
  [[ -n ${DIR:-} ]] || usage_error "up: --dir is required"
  [[ -n $size ]] || usage_error "up: --size is required (for example --size 20G)"
  [[ $size =~ ^[0-9]+[KMGT]?$ ]] || usage_error "up: --size must look like 64M or 20G, was '$size'"
  [[ $cgroup_name =~ ^[A-Za-z0-9._-]+$ ]] \
    || usage_error "up: --cgroup must be a plain name (letters, digits, . _ -), was '$cgroup_name'"
  [[ -n $image ]] || image=$DIR.img
  local cgroup=$BLKIO_ROOT/$cgroup_name

  require_root up
  require_blkio
  require_tool losetup mkfs.ext4 mount umount mountpoint truncate
  if [[ -n $owner ]]; then
    id -u "$owner" >/dev/null 2>&1 || usage_error "up: --owner: no user '$owner'"
  fi

  if mountpoint -q -- "$DIR"; then
    if [[ -f $DIR/$STATE_NAME ]]; then
      die "$DIR is already a slow disk ($(grep '^device=' "$DIR/$STATE_NAME" || true));" \
        "'$PROG down --dir $DIR' first"
    fi
    die "$DIR is already a mount point; refusing to mount over it"
  fi
  [[ ! -e $image ]] || die "image $image already exists; remove it or choose another --image"
  [[ ! -e $cgroup ]] \
    || die "cgroup $cgroup already exists (another slow disk?); choose another --cgroup"
  if [[ -d $DIR && -n $(ls -A -- "$DIR") ]]; then
    die "$DIR is not empty; the slow disk would hide its files"
  fi

  trap undo_up EXIT
  mkdir -p -- "$DIR" "$(dirname -- "$image")"
  truncate -s "$size" -- "$image"
  UP_IMAGE=$image

  local device direct_io=on
  if ! device=$(losetup --find --show --direct-io=on "$image" 2>/dev/null); then
    note "losetup --direct-io=on failed; attaching without it (the host page cache will also" \
      "cache the slow disk)"
    direct_io=off
    device=$(losetup --find --show "$image")
  fi
  UP_DEVICE=$device
  local name=${device#/dev/}
  if [[ $direct_io == on && $(cat "/sys/block/$name/loop/dio" 2>/dev/null || echo 0) != 1 ]]; then
    note "$device did not enable direct I/O on its image (file system of $image lacks O_DIRECT?)"
    direct_io=off
  fi
  local majmin
  majmin=$(cat "/sys/block/$name/dev")

  # Inode tables and journal are written now rather than by ext4lazyinit in the background,
  # which would otherwise write to the image during the first minutes of a benchmark.
  mkfs.ext4 -q -F -m 0 -E lazy_itable_init=0,lazy_journal_init=0 -L hotrap-slow -- "$device"
  mount -o noatime -- "$device" "$DIR"
  UP_MOUNTED=$DIR

  mkdir -- "$cgroup"
  UP_CGROUP=$cgroup
  write_limit "$cgroup" blkio.throttle.read_iops_device "$majmin" "$read_iops"
  write_limit "$cgroup" blkio.throttle.write_iops_device "$majmin" "$write_iops"
  write_limit "$cgroup" blkio.throttle.read_bps_device "$majmin" "$read_bps"
  write_limit "$cgroup" blkio.throttle.write_bps_device "$majmin" "$write_bps"

  local state=$DIR/$STATE_NAME
  {
    echo "device=$device"
    echo "majmin=$majmin"
    echo "image=$image"
    echo "cgroup=$cgroup"
    echo "mountpoint=$DIR"
    echo "size=$size"
    echo "direct_io=$direct_io"
    echo "read_iops=$read_iops"
    echo "write_iops=$write_iops"
    echo "read_bps=$read_bps"
    echo "write_bps=$write_bps"
    echo "created_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  } >"$state.tmp"
  mv -- "$state.tmp" "$state"
  chmod 644 -- "$state"
  local run_state
  run_state=$(run_state_file "$DIR")
  mkdir -p -- "$(dirname -- "$run_state")"
  cp -- "$state" "$run_state"

  if [[ -n $owner ]]; then
    chown -- "$owner" "$DIR" "$cgroup/cgroup.procs" "$cgroup/tasks"
  fi
  trap - EXIT
  echo "slow disk up: $device ($majmin, direct I/O $direct_io) at $DIR, image $image," \
    "cgroup $cgroup," \
    "read $read_iops IOPS / $read_bps B/s, write $write_iops IOPS / $write_bps B/s (0 = no limit)"
}

# ---- down -----------------------------------------------------------------------------------

cmd_down() {
  parse_dir_only down "$@"
  require_root down
  local copy run_state
  run_state=$(run_state_file "$DIR")
  copy=$(mktemp)
  # The state file lives on the file system about to be unmounted: read a copy of it, or the
  # copy under /run when an earlier "down" got as far as the unmount.
  if ! cp -- "$DIR/$STATE_NAME" "$copy" 2>/dev/null && ! cp -- "$run_state" "$copy" 2>/dev/null
  then
    rm -f -- "$copy"
    die "no slow disk at $DIR: neither $DIR/$STATE_NAME nor $run_state exists (already down?)"
  fi
  read_state "$copy"
  rm -f -- "$copy"
  local device=${STATE[device]} image=${STATE[image]} cgroup=${STATE[cgroup]}

  if mountpoint -q -- "$DIR"; then
    if ! umount -- "$DIR"; then
      die "could not unmount $DIR; processes using it: $(fuser -m -- "$DIR" 2>&1 || true)"
    fi
  fi
  local backing
  backing=$(losetup --noheadings --output BACK-FILE "$device" 2>/dev/null || true)
  backing=${backing% (deleted)}
  if [[ -n $backing ]]; then
    if [[ $(absolute "$backing") == "$(absolute "$image")" ]]; then
      losetup -d "$device"
    else
      note "$device now backs $backing, not $image; leaving it attached"
    fi
  fi
  if [[ -d $cgroup ]]; then
    local pid
    # A process that exits meanwhile cannot be moved; that is fine.
    while read -r pid; do
      echo "$pid" >"$BLKIO_ROOT/cgroup.procs" 2>/dev/null || true
    done <"$cgroup/cgroup.procs"
    rmdir -- "$cgroup" \
      || die "could not remove cgroup $cgroup; still in it: $(tr '\n' ' ' <"$cgroup/cgroup.procs")"
  fi
  rm -f -- "$image" "$run_state"
  local parent
  parent=$(dirname -- "$run_state")
  while [[ $parent == "$RUN_STATE_DIR"* ]] && rmdir -- "$parent" 2>/dev/null; do
    parent=$(dirname -- "$parent")
  done
  echo "slow disk down: $device, $cgroup and $image removed"
}

# ---- run ------------------------------------------------------------------------------------

cmd_run() {
  local args=()
  while [[ $# -gt 0 && $1 != -- ]]; do
    args+=("$1")
    shift
  done
  [[ $# -gt 0 ]] \
    || usage_error "run: '--' and a command are required: run --dir <d> -- <command...>"
  shift
  [[ $# -gt 0 ]] || usage_error "run: no command after '--'"
  parse_dir_only run "${args[@]}"
  require_blkio
  read_state "$DIR/$STATE_NAME"
  local procs=${STATE[cgroup]}/cgroup.procs
  [[ -f $procs ]] || die "cgroup ${STATE[cgroup]} does not exist; is the slow disk up?"
  # cgroup.procs moves the whole thread group; $BASHPID is this very process, which the
  # command replaces through exec, so it starts inside the cgroup before it runs anything.
  echo "$BASHPID" >"$procs" 2>/dev/null \
    || die "could not join ${STATE[cgroup]} (needs root, or 'up --owner $(id -un)')"
  exec "$@"
}

# ---- status ---------------------------------------------------------------------------------

cmd_status() {
  parse_dir_only status "$@"
  local state=$DIR/$STATE_NAME
  if [[ ! -f $state ]]; then
    echo "no slow disk at $DIR ($state not found)"
    return 1
  fi
  read_state "$state"
  local ok=0 key
  for key in device majmin image cgroup mountpoint size direct_io read_iops write_iops read_bps \
    write_bps created_at; do
    printf '%-11s %s\n' "$key" "${STATE[$key]:-}"
  done
  local device=${STATE[device]} majmin=${STATE[majmin]} cgroup=${STATE[cgroup]}
  local name=${device#/dev/}
  if mountpoint -q -- "$DIR" \
    && [[ $(findmnt -n -o MAJ:MIN --target "$DIR" | tr -d ' ') == "$majmin" ]]; then
    echo "mount       $DIR is mounted from $device"
  else
    echo "mount       MISSING: $DIR is not mounted from $device ($majmin)"
    ok=1
  fi
  if [[ -r /sys/block/$name/dev && $(cat "/sys/block/$name/dev") == "$majmin" ]]; then
    local dio
    dio=$(cat "/sys/block/$name/loop/dio" 2>/dev/null || echo '?')
    echo "loop        $device attached, direct I/O $dio," \
      "reads completed (since boot) $(awk '{print $1}' "/sys/block/$name/stat")"
  else
    echo "loop        MISSING: $device ($majmin) not attached"
    ok=1
  fi
  if [[ -d $cgroup ]]; then
    local file
    for file in read_iops_device write_iops_device read_bps_device write_bps_device; do
      printf '%-11s %s\n' "${file%_device}" \
        "$(grep "^$majmin " "$cgroup/blkio.throttle.$file" | cut -d' ' -f2 || echo none)"
    done
    echo "processes   $(wc -l <"$cgroup/cgroup.procs") in $cgroup"
    local serviced
    serviced=$(grep "^$majmin " "$cgroup/blkio.throttle.io_serviced" | grep -E 'Read|Write' \
      | awk '{printf "%s %s  ", $2, $3}' || true)
    echo "serviced    $serviced"
  else
    echo "cgroup      MISSING: $cgroup"
    ok=1
  fi
  return $ok
}

parse_dir_only() {
  local command=$1
  shift
  while [[ $# -gt 0 ]]; do
    case $1 in
      --dir)
        [[ $# -ge 2 ]] || usage_error "option --dir needs a value"
        DIR=$(absolute "$2")
        shift 2
        ;;
      *) usage_error "$command: unknown option $1" ;;
    esac
  done
  [[ -n ${DIR:-} ]] || usage_error "$command: --dir is required"
}

main() {
  [[ $# -gt 0 ]] || usage_error "no command given"
  local command=$1
  shift
  case $command in
    up) cmd_up "$@" ;;
    down) cmd_down "$@" ;;
    run) cmd_run "$@" ;;
    status) cmd_status "$@" ;;
    -h | --help | help) sed -n '3,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) usage_error "unknown command '$command'" ;;
  esac
}

DIR=
main "$@"
