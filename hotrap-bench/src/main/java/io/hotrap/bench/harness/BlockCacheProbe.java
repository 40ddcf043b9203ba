package io.hotrap.bench.harness;

import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * Counts the data blocks that one client thread's gets looked up in RocksDB's block cache, found
 * (hits) or read from disk (misses), and adds them to totals shared by all clients.
 *
 * <p>The counts come from RocksDB's perf context, which is per thread and shared by every RocksDB
 * of the process: whichever database a get reads, plain RocksDB or either tier of a
 * {@code HotRapDB}, its block lookups count on the calling thread. So one probe measures every
 * system alike, and measures the users' gets only: compactions, migrations and promotions run on
 * other threads. The statistics tickers ({@code BLOCK_CACHE_DATA_HIT} and {@code _MISS}) would
 * also count background reads, and {@code HotRapDB} keeps its RocksDB, its block cache and its
 * (absent) statistics to itself, so the harness could not read them for HotRAP anyway.
 *
 * <p>Index and filter blocks are left out: HotRAP's fast tier caches them with high priority and
 * pins those of L0, so their near-certain hits would hide how the data blocks fare, and the
 * RocksDB-based systems keep them with their table readers ({@link RocksDbSystem#tableConfig}).
 * A hit is {@code block_cache_hit_count} less its index and filter hits; a miss is
 * {@code block_read_count} less the index, filter and compression-dictionary reads.
 *
 * <p>A probe belongs to the thread that made it; {@link Totals} are thread-safe. Counting costs a
 * few thread-local increments per block lookup ({@link PerfLevel#ENABLE_COUNT}), the same for every
 * system.
 */
final class BlockCacheProbe implements AutoCloseable {

  /** Hits and misses summed over the probes that publish to it. Thread-safe. */
  static final class Totals {
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** Data blocks found in the block cache. */
    long hits() {
      return hits.sum();
    }

    /** Data blocks read from disk. */
    long misses() {
      return misses.sum();
    }
  }

  /**
   * RocksJava reaches the thread's perf level and context only through instance methods of
   * {@link RocksDB}, which use no state of the instance: underneath they are static and act on
   * the calling thread. This instance stands for no database and is never opened or closed.
   */
  private static final class PerfAccess extends RocksDB {
    static final PerfAccess INSTANCE = load();

    private PerfAccess() {
      super(0);
    }

    private static PerfAccess load() {
      RocksDB.loadLibrary(); // a no-op when a system already loaded it
      return new PerfAccess();
    }
  }

  private final Totals totals;
  private final PerfContext context;
  private final PerfLevel previousLevel;
  private long publishedHits;
  private long publishedMisses;

  /** Starts counting on the calling thread, from zero. */
  BlockCacheProbe(Totals totals) {
    this.totals = totals;
    RocksDB perf = PerfAccess.INSTANCE;
    previousLevel = perf.getPerfLevel();
    perf.setPerfLevel(PerfLevel.ENABLE_COUNT);
    context = perf.getPerfContext();
    context.reset();
  }

  /** Adds the lookups since the last call to the totals. Call on the probe's thread. */
  void publish() {
    long hits = context.getBlockCacheHitCount() - context.getBlockCacheIndexHitCount()
        - context.getBlockCacheFilterHitCount();
    long misses = context.getBlockReadCount() - context.getIndexBlockReadCount()
        - context.getFilterBlockReadCount() - context.getCompressionDictBlockReadCount();
    totals.hits.add(hits - publishedHits);
    totals.misses.add(misses - publishedMisses);
    publishedHits = hits;
    publishedMisses = misses;
  }

  /** Publishes the last lookups and puts the thread's perf level back. */
  @Override
  public void close() {
    publish();
    if (previousLevel != PerfLevel.UNINITIALIZED && previousLevel != PerfLevel.OUT_OF_BOUNDS) {
      PerfAccess.INSTANCE.setPerfLevel(previousLevel);
    } else {
      PerfAccess.INSTANCE.setPerfLevel(PerfLevel.DISABLE);
    }
  }

  /**
   * The calling thread's perf context, counting: the thread's perf level is raised to
   * {@link PerfLevel#ENABLE_COUNT} if it is below. The context belongs to the calling thread; read
   * it only there. For systems that tell from the context whether one get read the disk.
   */
  static PerfContext countingContext() {
    RocksDB perf = PerfAccess.INSTANCE;
    PerfLevel level = perf.getPerfLevel();
    if (level == PerfLevel.UNINITIALIZED || level == PerfLevel.DISABLE
        || level == PerfLevel.OUT_OF_BOUNDS) {
      perf.setPerfLevel(PerfLevel.ENABLE_COUNT);
    }
    return perf.getPerfContext();
  }

  /** {@code hits / (hits + misses)}, NaN when there was no lookup. */
  static double hitRate(long hits, long misses) {
    long lookups = hits + misses;
    return lookups <= 0 ? Double.NaN : (double) hits / lookups;
  }
}
