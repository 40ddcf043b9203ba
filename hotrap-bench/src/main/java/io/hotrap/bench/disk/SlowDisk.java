package io.hotrap.bench.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The throttled slow disk that {@code scripts/slowdisk.sh up} made: an ext4 file system on a
 * loop device, and a cgroup v1 blkio cgroup that limits the loop device's IOPS and bytes per
 * second for the processes in it (DESIGN.md §12).
 *
 * <p>Only processes inside the cgroup are throttled. A benchmark either starts from
 * {@code slowdisk.sh run} (the whole JVM is in the cgroup from its first instruction) or calls
 * {@link #joinCgroup()} before it opens the store; {@link #processInCgroup()} says which is the
 * case, and a report says {@link #describe()} or {@link #describeUnthrottled()} accordingly.
 *
 * <p>State file {@code <mount point>/.slowdisk}, written by the script, one {@code key=value} per
 * line, read by {@link #read(Path)}; unknown keys are ignored, the first eight are required:
 *
 * <pre>
 * device=/dev/loop3                          the loop device
 * majmin=7:3                                 its major:minor, as in /sys/block/loop3/dev
 * image=/work/slow.img                       the image file behind it
 * cgroup=/sys/fs/cgroup/blkio/hotrap-slow    the blkio cgroup holding the limits
 * read_iops=500                              0 = no limit, as for the three below
 * write_iops=0
 * read_bps=16777216                          bytes per second
 * write_bps=0
 * created_at=2025-01-31T12:00:00Z            UTC, ISO 8601
 * direct_io=on                               whether the loop device reads its image with O_DIRECT
 * </pre>
 *
 * <p>The state file lives inside the loop device's file system, so it is visible exactly while
 * the slow disk is mounted. Instances are immutable apart from the reason the last
 * {@link #joinCgroup()} failed; they are safe to share between threads.
 */
public final class SlowDisk {
  /** Name of the state file in the slow disk's mount point. */
  public static final String STATE_FILE = ".slowdisk";

  private static final Path PROC_SELF_CGROUP = Path.of("/proc/self/cgroup");
  private static final Path SYS_BLOCK = Path.of("/sys/block");
  private static final String CONTROLLER = "blkio";
  private static final Pattern MAJMIN = Pattern.compile("\\d+:\\d+");
  private static final Pattern DEVICE = Pattern.compile("/dev/[A-Za-z0-9]+");
  private static final long MIB = 1L << 20;
  private static final long KIB = 1L << 10;

  /** The blkio throttle limits on the loop device; 0 means no limit. */
  public record Limits(long readIops, long writeIops, long readBytesPerSecond,
      long writeBytesPerSecond) {
    /** Whether any limit is set at all. */
    public boolean any() {
      return readIops > 0 || writeIops > 0 || readBytesPerSecond > 0 || writeBytesPerSecond > 0;
    }
  }

  private final Path mountPoint;
  private final String device;
  private final String majmin;
  private final Path image;
  private final Path cgroup;
  private final Limits limits;
  private final Instant createdAt;
  private final boolean loopDirectIo;
  private volatile String joinFailure;

  private SlowDisk(Path mountPoint, String device, String majmin, Path image, Path cgroup,
      Limits limits, Instant createdAt, boolean loopDirectIo) {
    this.mountPoint = mountPoint;
    this.device = device;
    this.majmin = majmin;
    this.image = image;
    this.cgroup = cgroup;
    this.limits = limits;
    this.createdAt = createdAt;
    this.loopDirectIo = loopDirectIo;
  }

  /**
   * The slow disk that holds {@code slowDir}: the state file in {@code slowDir} or in its nearest
   * ancestor that has one, looking no higher than the mount point of the file system that holds
   * {@code slowDir} (a state file above it describes another file system). {@code slowDir} need
   * not exist yet; the search starts at its nearest existing ancestor. Where
   * {@code /proc/self/mountinfo} is unreadable the search goes up to the root.
   *
   * @return empty when no state file is found: the directory is on an ordinary disk
   * @throws UncheckedIOException when a state file exists but cannot be read
   * @throws IllegalArgumentException when a state file exists but is malformed
   */
  public static Optional<SlowDisk> find(Path slowDir) {
    Path start = existingAncestor(slowDir.toAbsolutePath().normalize());
    try {
      start = start.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve " + start, e);
    }
    Path top = MountInfo.read().containing(start)
        .map(MountInfo.Mount::mountPoint).orElse(start.getRoot());
    return find(start, top);
  }

  /** The search of {@link #find(Path)}, from {@code start} up to {@code top} included. */
  static Optional<SlowDisk> find(Path start, Path top) {
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      Path state = dir.resolve(STATE_FILE);
      if (Files.isRegularFile(state)) {
        try {
          return Optional.of(read(state));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + state, e);
        }
      }
      if (dir.equals(top)) {
        break;
      }
    }
    return Optional.empty();
  }

  /**
   * Reads a state file; its directory is taken as the mount point.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when a required key is missing or a value is malformed; the
   *     message names the file, the key and the value
   */
  public static SlowDisk read(Path stateFile) throws IOException {
    Map<String, String> kv = new HashMap<>();
    for (String line : Files.readAllLines(stateFile)) {
      int eq = line.indexOf('=');
      if (line.isBlank() || line.startsWith("#") || eq <= 0) {
        continue;
      }
      kv.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
    }
    StateFile s = new StateFile(stateFile, kv);
    String device = s.matching("device", DEVICE);
    String majmin = s.matching("majmin", MAJMIN);
    Limits limits = new Limits(s.count("read_iops"), s.count("write_iops"),
        s.count("read_bps"), s.count("write_bps"));
    Path mountPoint = stateFile.toAbsolutePath().getParent();
    return new SlowDisk(mountPoint, device, majmin, Path.of(s.required("image")),
        Path.of(s.required("cgroup")), limits, s.instant("created_at"),
        "on".equals(kv.get("direct_io")));
  }

  /** The loop device, {@code /dev/loop3}. */
  public String device() {
    return device;
  }

  /** The loop device's name in {@code /sys/block}, {@code loop3}. */
  public String deviceName() {
    return device.substring("/dev/".length());
  }

  /** The loop device's {@code major:minor}, {@code 7:3}, which keys the blkio limits. */
  public String majmin() {
    return majmin;
  }

  public Limits limits() {
    return limits;
  }

  /** The blkio cgroup directory, {@code /sys/fs/cgroup/blkio/hotrap-slow}. */
  public Path cgroup() {
    return cgroup;
  }

  /** The image file behind the loop device. */
  public Path image() {
    return image;
  }

  /** Where the slow disk is mounted: the directory that holds the state file. */
  public Path mountPoint() {
    return mountPoint;
  }

  public Instant createdAt() {
    return createdAt;
  }

  /** Whether the loop device reads its image with direct I/O (false when the file omits it). */
  public boolean loopDirectIo() {
    return loopDirectIo;
  }

  /**
   * Whether the file system at {@link #mountPoint()} is the loop device's, according to
   * {@code /proc/self/mountinfo}: false for a state file copied elsewhere.
   */
  public boolean isMounted() {
    return MountInfo.read().containing(mountPoint)
        .filter(m -> m.mountPoint().equals(mountPoint) && m.majmin().equals(majmin))
        .isPresent();
  }

  /**
   * Moves this whole JVM, every thread, into the cgroup, by writing its PID to
   * {@code cgroup.procs} ({@code tasks} would move one thread). Needs root, or a cgroup made
   * with {@code slowdisk.sh up --owner <user>}. Threads and child processes started later are
   * in the cgroup too.
   *
   * @return whether this process is now in the cgroup; when false {@link #joinFailure()} says
   *     why
   */
  public boolean joinCgroup() {
    Path procs = cgroup.resolve("cgroup.procs");
    long pid = ProcessHandle.current().pid();
    try {
      Files.writeString(procs, Long.toString(pid), StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return failJoin("cgroup " + cgroup + " does not exist; is the slow disk up?");
    } catch (AccessDeniedException e) {
      return failJoin("not permitted to write " + procs + " as user "
          + System.getProperty("user.name") + " (needs root, or slowdisk.sh up --owner)");
    } catch (IOException e) {
      return failJoin("writing PID " + pid + " to " + procs + " failed: " + e.getMessage());
    }
    if (!processInCgroup()) {
      return failJoin("wrote PID " + pid + " to " + procs
          + " but /proc/self/cgroup does not show this process in it");
    }
    joinFailure = null;
    return true;
  }

  /** Why the last {@link #joinCgroup()} returned false; empty if it succeeded or never ran. */
  public Optional<String> joinFailure() {
    return Optional.ofNullable(joinFailure);
  }

  private boolean failJoin(String reason) {
    joinFailure = reason;
    return false;
  }

  /** Whether this process is in the cgroup, by the blkio line of {@code /proc/self/cgroup}. */
  public boolean processInCgroup() {
    List<String> lines;
    try {
      lines = Files.readAllLines(PROC_SELF_CGROUP);
    } catch (IOException | SecurityException e) {
      return false;
    }
    Path dir = cgroup;
    try {
      dir = cgroup.toRealPath();
    } catch (IOException e) {
      // A removed cgroup holds no process; the comparison below then fails on its own.
    }
    Optional<String> expected = MountInfo.read().cgroupPathOf(dir, CONTROLLER);
    Optional<String> actual = blkioCgroup(lines);
    return expected.isPresent() && expected.equals(actual);
  }

  /** The blkio hierarchy's path in lines of {@code /proc/<pid>/cgroup} ({@code 7:blkio:/x}). */
  static Optional<String> blkioCgroup(List<String> procCgroupLines) {
    for (String line : procCgroupLines) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && List.of(f[1].split(",")).contains(CONTROLLER)) {
        return Optional.of(f[2]);
      }
    }
    return Optional.empty();
  }

  /**
   * Reads completed by the loop device, field 1 of {@code /sys/block/<loop>/stat}: by every
   * process, in the cgroup or not. The kernel keeps counting across detach and re-attach of the
   * same loop device, so only the difference of two readings means anything; it cross-checks
   * that a run really read from the slow disk.
   *
   * @throws UncheckedIOException when the loop device is gone
   */
  public long deviceReadsCompleted() {
    Path stat = SYS_BLOCK.resolve(deviceName()).resolve("stat");
    try {
      return Long.parseLong(Files.readString(stat).trim().split("\\s+")[0]);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + stat, e);
    }
  }

  /**
   * Reads that the cgroup's processes issued to the loop device, from
   * {@code blkio.throttle.io_serviced} ({@code 7:3 Read 1234}); 0 before the first.
   *
   * @throws UncheckedIOException when the cgroup is gone
   */
  public long cgroupReadsServiced() {
    Path serviced = cgroup.resolve("blkio.throttle.io_serviced");
    List<String> lines;
    try {
      lines = Files.readAllLines(serviced);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + serviced, e);
    }
    return readsServiced(lines, majmin);
  }

  /**
   * The {@code Read} count of device {@code majmin} in the lines of a
   * {@code blkio.throttle.io_serviced} file ({@code 7:3 Read 1234}, {@code 7:3 Write 5}, ...,
   * {@code Total 1239}); 0 when the device has no line yet (the kernel adds it at its first
   * I/O).
   *
   * @throws NumberFormatException when the device's {@code Read} count is not a number
   */
  static long readsServiced(List<String> lines, String majmin) {
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 3 && f[0].equals(majmin) && f[1].equals("Read")) {
        return Long.parseLong(f[2]);
      }
    }
    return 0;
  }

  /**
   * One line for a report, {@code throttled loop3 (7:3) read 500 IOPS, 16 MiB/s}, with a
   * {@code ; write ...} part when writes are limited too.
   */
  public String describe() {
    String name = deviceName() + " (" + majmin + ")";
    if (!limits.any()) {
      return "unthrottled " + name + ": no limits set";
    }
    List<String> parts = new ArrayList<>();
    String read = direction(limits.readIops(), limits.readBytesPerSecond());
    String write = direction(limits.writeIops(), limits.writeBytesPerSecond());
    if (read != null) {
      parts.add("read " + read);
    }
    if (write != null) {
      parts.add("write " + write);
    }
    return "throttled " + name + " " + String.join("; ", parts);
  }

  /** What a report says when the slow directory is not on a throttled slow disk. */
  public static String describeUnthrottled() {
    return "unthrottled (slow directory on the same disk as the fast one)";
  }

  @Override
  public String toString() {
    return describe() + " at " + mountPoint;
  }

  private static String direction(long iops, long bytesPerSecond) {
    List<String> parts = new ArrayList<>(2);
    if (iops > 0) {
      parts.add(iops + " IOPS");
    }
    if (bytesPerSecond > 0) {
      parts.add(rate(bytesPerSecond));
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  static String rate(long bytesPerSecond) {
    if (bytesPerSecond % MIB == 0) {
      return bytesPerSecond / MIB + " MiB/s";
    }
    if (bytesPerSecond >= MIB) {
      return String.format(Locale.ROOT, "%.1f MiB/s", (double) bytesPerSecond / MIB);
    }
    if (bytesPerSecond % KIB == 0) {
      return bytesPerSecond / KIB + " KiB/s";
    }
    return bytesPerSecond + " B/s";
  }

  private static Path existingAncestor(Path p) {
    Path dir = p;
    while (dir != null && !Files.exists(dir)) {
      dir = dir.getParent();
    }
    return dir == null ? p.getRoot() : dir;
  }

  /** The key=value pairs of one state file, with errors that name the file. */
  private record StateFile(Path file, Map<String, String> kv) {
    String required(String key) {
      String v = kv.get(key);
      if (v == null || v.isEmpty()) {
        throw new IllegalArgumentException(file + ": no " + key + "= line");
      }
      return v;
    }

    String matching(String key, Pattern pattern) {
      String v = required(key);
      if (!pattern.matcher(v).matches()) {
        throw new IllegalArgumentException(
            file + ": " + key + " must match " + pattern + " but was " + v);
      }
      return v;
    }

    long count(String key) {
      String v = required(key);
      try {
        long n = Long.parseLong(v);
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          file + ": " + key + " must be a whole number >= 0 but was " + v);
    }

    Instant instant(String key) {
      String v = required(key);
      try {
        return Instant.parse(v);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            file + ": " + key + " must be an ISO 8601 instant but was " + v, e);
      }
    }
  }
}
