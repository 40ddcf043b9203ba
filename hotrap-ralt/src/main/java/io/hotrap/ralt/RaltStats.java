package io.hotrap.ralt;

import java.util.Arrays;

/**
 * A point-in-time view of a {@link Ralt}: sizes against their limits, the clock, the shape of the
 * tracker's LSM-tree and its cumulative I/O. Immutable.
 */
public final class RaltStats {
  private final long hotSetBytes;
  private final long stableHotBytes;
  private final long physicalBytes;
  private final long hotSetLimit;
  private final long physicalLimit;
  private final long tick;
  private final long accessedBytes;
  private final long accesses;
  private final int[] runsPerLevel;
  private final long bytesRead;
  private final long bytesWritten;
  private final long evictions;
  private final long memoryBytes;
  private final long hotRecords;
  private final long trackedRecords;
  private final long maxPhysicalOvershoot;
  private final long counterDecayPeriodBytes;

  RaltStats(long hotSetBytes, long stableHotBytes, long physicalBytes, long hotSetLimit,
      long physicalLimit, long tick, long accessedBytes, long accesses, int[] runsPerLevel,
      long bytesRead, long bytesWritten, long evictions, long memoryBytes, long hotRecords,
      long trackedRecords, long maxPhysicalOvershoot, long counterDecayPeriodBytes) {
    this.hotSetBytes = hotSetBytes;
    this.stableHotBytes = stableHotBytes;
    this.physicalBytes = physicalBytes;
    this.hotSetLimit = hotSetLimit;
    this.physicalLimit = physicalLimit;
    this.tick = tick;
    this.accessedBytes = accessedBytes;
    this.accesses = accesses;
    this.runsPerLevel = runsPerLevel.clone();
    this.bytesRead = bytesRead;
    this.bytesWritten = bytesWritten;
    this.evictions = evictions;
    this.memoryBytes = memoryBytes;
    this.hotRecords = hotRecords;
    this.trackedRecords = trackedRecords;
    this.maxPhysicalOvershoot = maxPhysicalOvershoot;
    this.counterDecayPeriodBytes = counterDecayPeriodBytes;
  }

  /**
   * Hot bytes (key + value length) of the records marked hot on disk. A key with hot records in
   * several runs counts once per run until they merge, so this is an upper bound.
   */
  public long hotSetBytes() { return hotSetBytes; }

  /** Hot bytes of the stable records, as measured by the last eviction (Algorithm 1's input). */
  public long stableHotBytes() { return stableHotBytes; }

  /** Bytes of the tracker's files on disk, including merge output not yet published. */
  public long physicalBytes() { return physicalBytes; }

  /** Current hot-set limit in bytes. */
  public long hotSetLimit() { return hotSetLimit; }

  /** Current physical-size limit in bytes. */
  public long physicalLimit() { return physicalLimit; }

  /** Current tick (time slice) of the score decay. */
  public long tick() { return tick; }

  /** Bytes accessed (key + value length) over the tracker's lifetime. */
  public long accessedBytes() { return accessedBytes; }

  /** Accesses recorded since this instance was opened. */
  public long accesses() { return accesses; }

  /** Number of runs on each level, index 0 first; the array is a copy. */
  public int[] runsPerLevel() { return runsPerLevel.clone(); }

  /** Bytes read from the tracker's files since open. */
  public long bytesRead() { return bytesRead; }

  /** Bytes written to the tracker's files since open. */
  public long bytesWritten() { return bytesWritten; }

  /** Evictions since open. */
  public long evictions() { return evictions; }

  /** Memory held by the in-memory filters and indexes, bytes (the access buffer excluded). */
  public long memoryBytes() { return memoryBytes; }

  /** Records marked hot on disk (a key hot in several runs counts once per run). */
  public long hotRecords() { return hotRecords; }

  /** Records on disk, hot or not. */
  public long trackedRecords() { return trackedRecords; }

  /**
   * The largest amount by which the files on disk exceeded the physical limit in force at that
   * moment, bytes, since open; 0 if never.
   */
  public long maxPhysicalOvershoot() { return maxPhysicalOvershoot; }

  /** Algorithm 1's R as last paced: access bytes per counter decrement. */
  public long counterDecayPeriodBytes() { return counterDecayPeriodBytes; }

  @Override
  public String toString() {
    return String.format(
        "RaltStats{hotSet=%s/%s (stable %s), physical=%s/%s, tick=%d, accessed=%s in %d accesses,"
            + " runsPerLevel=%s, read=%s, written=%s, evictions=%d, memory=%s,"
            + " hotRecords=%d, trackedRecords=%d, maxPhysicalOvershoot=%s, decayPeriod=%s}",
        bytes(hotSetBytes), bytes(hotSetLimit), bytes(stableHotBytes), bytes(physicalBytes),
        bytes(physicalLimit), tick, bytes(accessedBytes), accesses, Arrays.toString(runsPerLevel),
        bytes(bytesRead), bytes(bytesWritten), evictions, bytes(memoryBytes), hotRecords,
        trackedRecords, bytes(maxPhysicalOvershoot), bytes(counterDecayPeriodBytes));
  }

  private static String bytes(long b) {
    if (b < 10 * 1024) {
      return b + " B";
    }
    if (b < 10L * 1024 * 1024) {
      return (b >> 10) + " KiB";
    }
    if (b < 10L * 1024 * 1024 * 1024) {
      return (b >> 20) + " MiB";
    }
    return (b >> 30) + " GiB";
  }
}
