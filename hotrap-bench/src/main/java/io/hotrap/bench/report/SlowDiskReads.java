package io.hotrap.bench.report;

/**
 * What a slow-tier get cost the slow disk over a run phase: the slow disk's read I/Os against
 * the gets that read the slow tier ({@code slow_disk_reads_per_slow_get}). One is the floor for a
 * get whose data block is not cached; more means index or filter blocks, compactions or
 * migrations read the slow disk too.
 *
 * <p>{@link #reads} counts every read I/O that the processes of the slow disk's blkio cgroup
 * issued to its loop device ({@code blkio.throttle.io_serviced}) between the start and the end
 * of the run phase: the benchmark JVM's gets, and also its background compactions, migrations
 * and promotions that read the slow tier, since they run in the same process. Reads that the
 * page cache or RocksDB's block cache served never reach the device and do not count.
 *
 * <p>{@link #slowGets} counts the gets of the run phase that were not served from the fast side,
 * the complement of the fast hit rate ({@code BenchSystem.Counters.slowGets()}).
 *
 * <p>Either count is {@link #UNKNOWN} when it was not measured: the reads when the slow directory
 * is not on a throttled slow disk or the process is not in its cgroup (the run's
 * {@code slow_disk} description says which), the gets in files written before they were
 * recorded. Instances are immutable.
 *
 * @param reads the slow disk's read I/Os over the run phase, or {@link #UNKNOWN}
 * @param slowGets gets of the run phase that read the slow tier, or {@link #UNKNOWN}
 */
public record SlowDiskReads(long reads, long slowGets) {
  /** A count that was not measured. */
  public static final long UNKNOWN = -1;

  /** Neither count measured: a load phase, or a file written before they were recorded. */
  public static final SlowDiskReads UNMEASURED = new SlowDiskReads(UNKNOWN, UNKNOWN);

  /**
   * @throws IllegalArgumentException when a count is negative but not {@link #UNKNOWN}
   */
  public SlowDiskReads {
    requireCount("reads", reads);
    requireCount("slowGets", slowGets);
  }

  /**
   * The counts between two readings of the cumulative counters, at the start and at the end of
   * the run phase. A reading of {@link #UNKNOWN} makes its count unknown; so does a counter that
   * went backwards (the cgroup's statistics were reset, or the cgroup made anew, during the run),
   * since the difference would then be meaningless.
   */
  public static SlowDiskReads between(long readsBefore, long readsAfter, long slowGetsBefore,
      long slowGetsAfter) {
    return new SlowDiskReads(delta(readsBefore, readsAfter), delta(slowGetsBefore, slowGetsAfter));
  }

  /** Whether the slow disk's reads were measured. */
  public boolean measured() {
    return reads != UNKNOWN;
  }

  /**
   * The slow disk's reads per slow-tier get; NaN when either count is unknown or no get read the
   * slow tier (reads without such gets have no per-get cost).
   */
  public double perSlowGet() {
    if (reads == UNKNOWN || slowGets == UNKNOWN || slowGets == 0) {
      return Double.NaN;
    }
    return (double) reads / slowGets;
  }

  private static long delta(long before, long after) {
    if (before == UNKNOWN || after == UNKNOWN || after < before) {
      return UNKNOWN;
    }
    return after - before;
  }

  private static void requireCount(String name, long value) {
    if (value < 0 && value != UNKNOWN) {
      throw new IllegalArgumentException(
          name + " must be >= 0 or " + UNKNOWN + " (unknown) but was " + value);
    }
  }
}
