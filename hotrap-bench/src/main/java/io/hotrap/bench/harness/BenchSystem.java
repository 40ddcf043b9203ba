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
      long fastCompactionBytes, long slowCompactionBytes, long raltBytes, long hotSetLimitBytes) {}
}
