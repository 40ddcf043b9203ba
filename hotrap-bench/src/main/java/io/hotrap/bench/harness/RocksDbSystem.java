package io.hotrap.bench.harness;

import io.hotrap.core.HotRapOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.DbPath;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.StatsLevel;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * Plain RocksDB, one column family, with the settings HotRAP's tiers use (block cache, write
 * buffer, file size, block size, Bloom filter, background jobs, direct I/O); index and filter
 * blocks stay with the table readers ({@link #tableConfig}).
 *
 * <ul>
 *   <li>{@code rocksdb-fd}: everything on the fast disk, no budget — the upper bound.
 *   <li>{@code rocksdb-tiered}: {@code cf_paths} = [fast directory with the budget, slow
 *       directory]; RocksDB places whole levels by their target sizes (the paper's RocksDB-fat).
 *       L1's target is half the budget and RocksDB counts L0 as large as L1, so L0 and L1 fill the
 *       fast path and L2 onwards go to the slow one; a get is a fast hit when RocksDB found it in a
 *       memtable, L0 or L1 (its per-level get tickers).
 * </ul>
 */
final class RocksDbSystem implements BenchSystem, TickerSource {
  /** Ratio of adjacent level sizes, RocksDB's default. */
  private static final int LEVEL_MULTIPLIER = 10;
  /** Memtables per column family, as in each of HotRAP's tiers. */
  private static final int WRITE_BUFFERS = 2;

  private final String name;
  private final boolean tiered;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Statistics statistics;
  private final RocksDB db;
  private final LongAdder gets = new LongAdder();
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true);

  RocksDbSystem(String name, SystemConfig config, boolean tiered) {
    this.name = name;
    this.tiered = tiered;
    HotRapOptions o = config.shared();
    Path fast = config.fastDir().resolve(name);
    Path slow = config.slowDir().resolve(name);
    boolean ok = false;
    try {
      Files.createDirectories(fast);
      Files.createDirectories(slow);
      LRUCache cache = track(o.newBlockCache());
      BloomFilter filter = track(new BloomFilter(o.bloomBitsPerKey()));
      BlockBasedTableConfig table = RocksDbSystem.tableConfig(o, cache, filter);
      statistics = track(new Statistics());
      statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      Options options = track(new Options()
          .setCreateIfMissing(true)
          .setMaxBackgroundJobs(o.backgroundJobs())
          .setUseDirectReads(o.directReads())
          .setUseDirectIoForFlushAndCompaction(o.directIoForFlushAndCompaction())
          .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
          .setKeepLogFileNum(2)
          .setStatistics(statistics)
          .setWriteBufferSize(o.writeBufferBytes())
          .setMaxWriteBufferNumber(WRITE_BUFFERS)
          .setTargetFileSizeBase(o.fastTargetFileBytes())
          .setMaxBytesForLevelMultiplier(LEVEL_MULTIPLIER)
          .setTableFormatConfig(table));
      if (tiered) {
        long budget = config.fastBudgetBytes();
        options.setDbPaths(List.of(new DbPath(fast, budget), new DbPath(slow, Long.MAX_VALUE / 4)))
            .setMaxBytesForLevelBase(budget / 2)
            .setLevelCompactionDynamicLevelBytes(false)
            .setCompressionPerLevel(perLevel(o.fastCompression(), o.slowCompression()));
      } else {
        options.setMaxBytesForLevelBase(Math.max(4 * o.fastTargetFileBytes(),
                config.fastBudgetBytes() / 10))
            .setLevelCompactionDynamicLevelBytes(true)
            .setCompressionType(o.fastCompression());
      }
      db = RocksDB.open(options, fast.toString());
      ok = true;
    } catch (RocksDBException | java.io.IOException e) {
      throw new IllegalStateException("cannot open " + name + " under " + fast, e);
    } finally {
      if (!ok) {
        closeResources();
      }
    }
  }

  private static List<CompressionType> perLevel(CompressionType fast, CompressionType slow) {
    List<CompressionType> levels = new ArrayList<>(Collections.nCopies(7, slow));
    levels.set(0, fast);
    levels.set(1, fast);
    return levels;
  }

  private <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    gets.increment();
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("get failed", e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("put failed", e);
    }
  }

  @Override
  public void settle() {
    settle(db, flushOptions);
  }

  /**
   * The block-based table settings of every RocksDB-based bench system ({@code rocksdb-fd},
   * {@code rocksdb-tiered} and the flash-cache systems): the fast tier's block size and Bloom
   * filter, data blocks in {@code cache}, index and filter blocks with the table readers.
   *
   * <p>The last is HotRAP's slow tier's setting ({@code TierConfig.slow}) and RocksDB's default.
   * These systems keep the whole data set, 11 times the budget, under one block cache of a few
   * MiB, which cannot hold its index and filter blocks once the data outgrows it: at a 256 MiB
   * budget (2.8 GiB of data, 8 MiB cache) with the blocks cached, each slow get of {@code
   * rocksdb-tiered} read the slow disk 2.64 times and each get of {@code rocksdb-fd} read its disk
   * 2.56 times (docs/results/NOTES.md, "The paper profile's budget: 256 MiB" and "rocksdb-fd and
   * the ablations at 256 MiB"). The flash caches would pay the same misses, on the slow disk or
   * in the cache.
   */
  static BlockBasedTableConfig tableConfig(HotRapOptions o, org.rocksdb.Cache cache,
      BloomFilter filter) {
    return new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(o.fastBlockSize())
        .setFilterPolicy(filter)
        .setCacheIndexAndFilterBlocks(false);
  }

  /**
   * Flushes {@code db} and waits until no flush or compaction runs or is pending. RocksJava has no
   * wait-for-compactions call, so this polls RocksDB's properties (at most an hour).
   */
  static void settle(RocksDB db, FlushOptions flushOptions) {
    try {
      db.flush(flushOptions);
      for (int i = 0; i < 36_000 && busy(db); i++) {
        Thread.sleep(100);
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException("flush failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean busy(RocksDB db) throws RocksDBException {
    return db.getLongProperty("rocksdb.compaction-pending") > 0
        || db.getLongProperty("rocksdb.num-running-compactions") > 0
        || db.getLongProperty("rocksdb.num-running-flushes") > 0;
  }

  @Override
  public Counters counters() {
    long total = gets.sum();
    long fast;
    long fastWritten;
    long slowWritten;
    Map<String, String> cf = cfStats();
    if (tiered) {
      fast = statistics.getTickerCount(TickerType.MEMTABLE_HIT)
          + statistics.getTickerCount(TickerType.GET_HIT_L0)
          + statistics.getTickerCount(TickerType.GET_HIT_L1);
      fastWritten = gib(cf, "compaction.L0.WriteGB") + gib(cf, "compaction.L1.WriteGB");
      slowWritten = Math.max(0, gib(cf, "compaction.Sum.WriteGB") - fastWritten);
    } else {
      fast = total;
      fastWritten = gib(cf, "compaction.Sum.WriteGB");
      slowWritten = 0;
    }
    return new Counters(total, Math.min(fast, total), 0, 0, 0, 0, fastWritten, slowWritten, 0, 0);
  }

  @Override
  public long ticker(TickerType ticker) {
    return statistics.getTickerCount(ticker);
  }

  private Map<String, String> cfStats() {
    return cfStats(db);
  }

  /** RocksDB's "rocksdb.cfstats" map of the default column family; empty when unavailable. */
  static Map<String, String> cfStats(RocksDB db) {
    try {
      return db.getMapProperty("rocksdb.cfstats");
    } catch (RocksDBException e) {
      return Map.of();
    }
  }

  /** A "…GB" figure of {@link #cfStats} in bytes; 0 when missing or not a number. */
  static long gib(Map<String, String> stats, String key) {
    String v = stats.get(key);
    if (v == null) {
      return 0;
    }
    try {
      return (long) (Double.parseDouble(v) * (1L << 30));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    db.close();
    flushOptions.close();
    closeResources();
  }

  private void closeResources() {
    closeAll(resources);
  }

  /** Closes {@code resources} last first, ignoring failures (closing native handles does not fail in practice). */
  static void closeAll(List<? extends AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        // nothing to do
      }
    }
  }
}
