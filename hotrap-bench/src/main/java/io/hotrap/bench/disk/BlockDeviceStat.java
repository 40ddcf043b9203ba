package io.hotrap.bench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The read counters of the block device that holds a directory, from the kernel's
 * {@code /sys/dev/block/<major>:<minor>/stat}: how many reads the device completed and how many
 * milliseconds they took in all. Two readings a second apart give the device's reads in that
 * second and their mean service time ({@link #meanReadMillis}).
 *
 * <p>The counters are the device's, not this process's: every process's reads count, so a
 * neighbour that loads the same disk shows as longer reads. That is the point of them in a run's
 * samples: on a shared machine the disk under the fast tier is shared, and a system whose clients
 * wait on its reads slows down when the disk does. For a throttled loop device
 * ({@code scripts/slowdisk.sh}) the service time counts from when a read reaches the loop device,
 * after the blkio throttle let it through; time waiting for the throttle is not in it.
 *
 * <p>The {@code stat} file is one line of whitespace-separated counters; the first is reads
 * completed and the fourth milliseconds spent reading (the kernel's
 * {@code Documentation/block/stat.rst}). Instances are immutable and thread-safe.
 */
public final class BlockDeviceStat {
  private static final Path SYS_DEV_BLOCK = Path.of("/sys/dev/block");

  /** One reading of a device's cumulative counters. */
  public record Reading(long reads, long readMillis) {}

  private final String majmin;
  private final Path statFile;

  BlockDeviceStat(String majmin, Path statFile) {
    this.majmin = majmin;
    this.statFile = statFile;
  }

  /**
   * The device that holds {@code dir} (which need not exist yet: its nearest existing ancestor
   * decides), or empty where that is not a block device whose counters this process can read: a
   * file system without a device (tmpfs, overlay), no {@code /proc} or {@code /sys}.
   */
  public static Optional<BlockDeviceStat> forDirectory(Path dir) {
    return forDirectory(dir, MountInfo.read(), SYS_DEV_BLOCK);
  }

  static Optional<BlockDeviceStat> forDirectory(Path dir, MountInfo mounts, Path sysDevBlock) {
    Path existing = dir.toAbsolutePath().normalize();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return Optional.empty();
    }
    try {
      existing = existing.toRealPath();
    } catch (IOException e) {
      return Optional.empty();
    }
    Optional<MountInfo.Mount> mount = mounts.containing(existing);
    if (mount.isEmpty()) {
      return Optional.empty();
    }
    String majmin = mount.get().majmin();
    BlockDeviceStat stat = new BlockDeviceStat(majmin, sysDevBlock.resolve(majmin).resolve("stat"));
    return stat.read() == null ? Optional.empty() : Optional.of(stat);
  }

  /** The device's {@code major:minor}. */
  public String majmin() {
    return majmin;
  }

  /** The counters now, or null when the file cannot be read or parsed. */
  public Reading read() {
    try {
      return parse(Files.readString(statFile));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Parses the {@code stat} line.
   *
   * @throws IllegalArgumentException when it has fewer than four counters or one is not a
   *     non-negative integer
   */
  static Reading parse(String line) {
    String[] f = line.strip().split("\\s+");
    if (f.length < 4) {
      throw new IllegalArgumentException("not a block device stat line: " + line);
    }
    long reads = Long.parseLong(f[0]);
    long millis = Long.parseLong(f[3]);
    if (reads < 0 || millis < 0) {
      throw new IllegalArgumentException("negative counter in block device stat line: " + line);
    }
    return new Reading(reads, millis);
  }

  /** Reads completed between two readings; -1 when either is missing or the counters went back. */
  public static long reads(Reading before, Reading after) {
    if (before == null || after == null || after.reads() < before.reads()) {
      return -1;
    }
    return after.reads() - before.reads();
  }

  /**
   * The mean service time, in milliseconds, of the reads completed between two readings; NaN
   * when either reading is missing, the counters went back or no read completed.
   */
  public static double meanReadMillis(Reading before, Reading after) {
    long reads = reads(before, after);
    if (reads <= 0 || after.readMillis() < before.readMillis()) {
      return Double.NaN;
    }
    return (double) (after.readMillis() - before.readMillis()) / reads;
  }
}
