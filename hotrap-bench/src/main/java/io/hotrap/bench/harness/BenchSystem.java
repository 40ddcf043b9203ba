package io.hotrap.bench.harness;

/**
 * One storage system under test, behind the interface every system of the harness shares
 * (DESIGN.md §12). Implementations are thread-safe: the harness calls {@link #get} and
 * {@link #put} from many client threads and {@link #counters} from its sampler.
 */
public interface BenchSystem extends AutoCloseable {

  /** The system's name in reports, e.g. {@code rocksdb-tiered}. */
  String name();

  /** The value of {@code key}, or null. */
  byte[] get(byte[] key);

  /** Writes {@code key}. */
  void put(byte[] key, byte[] value);

  /** Flushes memtables and waits until background work (compactions, migrations) has settled. */
  void settle();

  /** Cumulative counters since the system was opened. */
  Counters counters();

  /** Cumulative counters of the system's flash cache, or null for a system without one. */
  default FlashCounters flash() {
    return null;
  }

  @Override
  void close();

  /**
   * Cumulative counters of a system.
   *
   * @param gets gets served
   * @param fastGets gets served without reading the slow tier (memtables, fast tier, promotion
   *     cache)
   * @param promotedByFlushBytes bytes promoted by flush
   * @param promotedByCompactionBytes bytes promoted by compaction
   * @param retainedBytes bytes kept in the fast tier by migration because they were hot
   * @param demotedBytes bytes moved to the slow tier by migration
   * @param fastCompactionBytes flush and compaction output written to the fast tier
   * @param slowCompactionBytes compaction output written to the slow tier
   * @param raltBytes bytes RALT read and wrote
   * @param hotSetLimitBytes RALT's hot-set limit now, 0 without RALT
   */
  record Counters(long gets, long fastGets, long promotedByFlushBytes,
      long promotedByCompactionBytes, long retainedBytes, long demotedBytes,
      long fastCompactionBytes, long slowCompactionBytes, long raltBytes, long hotSetLimitBytes) {

    /**
     * Gets that read the slow tier: every get not counted in {@link #fastGets}, so the complement
     * of the fast hit rate. For HotRAP, {@code HotRapStats.getsServedSlow()} (the flash cache's
     * hits included: they looked past the fast side); for {@code rocksdb-tiered}, gets found
     * below L1 or not found at all; none for {@code rocksdb-fd}; for the flash-cache systems, the
     * gets that read the slow disk.
     */
    public long slowGets() {
      return gets - fastGets;
    }
  }

  /**
   * Cumulative counters of a flash cache in front of the slow disk (DESIGN.md §14); -1 where a
   * system cannot tell.
   *
   * @param lookups gets that looked the cache up (past the bypass filter, if any)
   * @param hits lookups it served with a valid record
   * @param bypassed gets the bypass filter sent straight to the slow disk
   * @param bytesWritten bytes written to the cache's flash file
   * @param offered items offered to flash (evicted from the cache's DRAM tier)
   * @param offeredFromDeleted of those, items of SST files compaction had deleted
   * @param dropped offered items the cache did not write (insertion control, no room)
   * @param gets gets of the system
   * @param getsWithoutSlowRead gets served without reading the slow disk
   */
  record FlashCounters(long lookups, long hits, long bypassed, long bytesWritten, long offered,
      long offeredFromDeleted, long dropped, long gets, long getsWithoutSlowRead) {}
}
