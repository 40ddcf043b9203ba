package io.hotrap.bench.harness;

import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashCacheStats;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.jni.FlashSecondaryCache;
import io.hotrap.jni.SstGroupListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * {@code rocksdb-sc} and {@code sas-cache} at block level, as their papers run them (DESIGN.md
 * §14): RocksDB wholly on the slow disk, its LRU block cache over a native secondary cache
 * ({@link FlashSecondaryCache}) whose blocks live in a {@link FlashCache} on the fast disk, at the
 * fast-disk bytes HotRAP's fast tier gets. RocksDB's settings are {@link FlashCacheSystem}'s.
 *
 * <ul>
 *   <li>{@code rocksdb-sc} (Meta's De-SCache): every block the block cache evicts is offered to
 *       flash; no bypass filter; blocks of deleted files stay until evicted.
 *   <li>{@code sas-cache}: the bypass filter, insertion control (the last 10 deleted files) and
 *       compaction-aware invalidation: when a compaction completes, its input files' blocks are
 *       purged in the background ({@link SstGroupListener}). Prefetching new files is not run, as
 *       in {@link FlashCacheSystem}.
 * </ul>
 *
 * <p>Gets go straight to RocksDB; writes need no invalidation, since blocks never change. A get
 * counts as served without the slow disk unless RocksDB read a data block from it: the count of
 * slow reads is RocksDB's data-block cache misses (a hit in the secondary cache counts as a block
 * cache hit), which is one per get that reads the disk when the bloom filters rule out the other
 * files. Thread-safe.
 */
final class BlockFlashCacheSystem implements BenchSystem {
  static {
    HotRapDB.loadNativeLibrary(); // before the native option objects below are created
  }

  /** As in the store's own block cache ({@link HotRapOptions#newBlockCache()}). */
  private static final double BLOCK_CACHE_HIGH_PRIORITY_RATIO = 0.5;

  private final String name;
  private final boolean sas;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Statistics statistics;
  private final RocksDB db;
  private final FlashCache cache;
  private final WriteOptions writeOptions = new WriteOptions();
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true);
  private final Set<Long> deadGroups = ConcurrentHashMap.newKeySet();
  private final LongAdder gets = new LongAdder();
  private final LongAdder offered = new LongAdder();
  private final LongAdder offeredDead = new LongAdder();

  /** True where the block-level secondary cache can be built; else see {@link #unavailableReason}. */
  static boolean available() {
    return FlashSecondaryCache.available();
  }

  static String unavailableReason() {
    return FlashSecondaryCache.unavailableReason();
  }

  BlockFlashCacheSystem(String name, SystemConfig config, boolean sas) {
    this.name = name;
    this.sas = sas;
    HotRapOptions o = config.shared();
    String family = Systems.loadFamily(name);
    Path fast = config.fastDir().resolve(family);
    Path slow = config.slowDir().resolve(family);
    Path cacheDir = config.fastDir().resolve(name + "-cache");
    boolean ok = false;
    try {
      Files.createDirectories(fast);
      Files.createDirectories(slow);
      Matrix.deleteTree(cacheDir); // every run starts with a cold cache
      Files.createDirectories(cacheDir);
      cache = track(FlashCacheSystem.newFlashCache(cacheDir, config, sas, this::admitting));
      FlashSecondaryCache blockCache = track(FlashSecondaryCache.builder(new FlashCacheBackend(cache))
          .capacity(o.blockCacheBytes())
          .highPriorityPoolRatio(BLOCK_CACHE_HIGH_PRIORITY_RATIO)
          .build());
      BloomFilter filter = track(new BloomFilter(o.bloomBitsPerKey()));
      BlockBasedTableConfig table = new BlockBasedTableConfig()
          .setBlockCache(blockCache)
          .setBlockSize(o.fastBlockSize())
          .setFilterPolicy(filter)
          .setCacheIndexAndFilterBlocks(true)
          .setCacheIndexAndFilterBlocksWithHighPriority(true)
          .setPinL0FilterAndIndexBlocksInCache(true);
      statistics = track(new Statistics());
      statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      SstGroupListener listener = track(new SstGroupListener(group -> { }, this::fileDeleted));
      Options options =
          track(FlashCacheSystem.rocksDbOptions(o, config, fast, statistics, listener, table));
      db = RocksDB.open(options, slow.toString());
      listener.track(db);
      ok = true;
    } catch (RocksDBException | IOException e) {
      throw new IllegalStateException("cannot open " + name + " under " + slow, e);
    } finally {
      if (!ok) {
        RocksDbSystem.closeAll(resources);
      }
    }
  }

  private <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  /** A compaction consumed (or RocksDB deleted) a file: only SAS-Cache acts on it. */
  private void fileDeleted(long group) {
    deadGroups.add(group);
    long g = FlashCacheBackend.group(group);
    if (sas && g != FlashCache.NO_GROUP) {
      cache.invalidateGroup(g);
    }
  }

  private void admitting(long group) {
    offered.increment();
    if (deadGroups.contains(group)) {
      offeredDead.increment();
    }
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
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("put failed", e);
    }
  }

  @Override
  public void settle() {
    RocksDbSystem.settle(db, flushOptions);
    try {
      cache.awaitQuiescence();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long slowReads() {
    return statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
  }

  @Override
  public Counters counters() {
    long total = gets.sum();
    long written = RocksDbSystem.gib(RocksDbSystem.cfStats(db), "compaction.Sum.WriteGB");
    return new Counters(total, Math.max(0, total - slowReads()), 0, 0, 0, 0, 0, written, 0, 0);
  }

  @Override
  public FlashCounters flash() {
    FlashCacheStats s = cache.stats();
    long total = gets.sum();
    return new FlashCounters(s.gets() - s.bypassedLookups(), s.dramHits() + s.flashHits(),
        s.bypassedLookups(), s.flashBytesWritten(), offered.sum(), offeredDead.sum(),
        s.droppedInserts(), total, Math.max(0, total - slowReads()));
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    flushOptions.close();
    RocksDbSystem.closeAll(resources);
  }
}
