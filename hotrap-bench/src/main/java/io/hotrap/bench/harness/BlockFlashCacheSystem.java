package io.hotrap.bench.harness;

import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashCacheStats;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.jni.CompactionPrefetcher;
import io.hotrap.jni.FlashSecondaryCache;
import io.hotrap.jni.RecentReads;
import io.hotrap.jni.SecondaryCacheBackend;
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
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BloomFilter;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
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
 *   <li>{@code sas-cache}: the bypass filter, insertion control (the last deleted files, as many
 *       as {@link FlashCacheSystem#invalidGroupsRemembered}) and
 *       compaction-aware invalidation: when a compaction completes, its input files' blocks are
 *       purged in the background ({@link SstGroupListener}).
 *   <li>{@code sas-cache-pf}: {@code sas-cache} with the third part of SAS-Cache's compaction-aware
 *       replacement, the prefetch of new files ({@link CompactionPrefetcher}): after each flush
 *       and compaction, the blocks of the new files that hold keys among the last reads are read
 *       into the block cache. The reads hinted are as many as the caches hold blocks: their bytes
 *       over the larger of the block size and the mean value read. On SAS-Cache's 90%-read Zipf
 *       mix over the throttled disk it added 3.5 points of hit ratio and cost 13–17% of the
 *       throughput: each new file of the harness's size costs an open and two reads for a few hot
 *       blocks (docs/results/NOTES.md, "SAS-Cache's prefetch of new files"), so {@code sas-cache}
 *       runs without it.
 * </ul>
 *
 * <p>Gets go straight to RocksDB; writes need no invalidation, since blocks never change. A get
 * counts as served without the slow disk unless RocksDB read a block (data, index or filter) from
 * it during that get: the calling thread's perf context ({@code block_read_count}) before and after
 * the get tells (a hit in the secondary cache is a block cache hit, not a read). The statistics
 * ticker {@code BLOCK_CACHE_DATA_MISS} cannot tell: it also counts the data blocks compactions
 * read, and under the 10% updates of SAS-Cache's mix those outnumbered the gets' own misses, which
 * put the overall hit ratio at 0. Thread-safe.
 */
final class BlockFlashCacheSystem implements BenchSystem, TickerSource {
  static {
    HotRapDB.loadNativeLibrary(); // before the native option objects below are created
  }

  /** As in the store's own block cache ({@link HotRapOptions#newBlockCache()}). */
  private static final double BLOCK_CACHE_HIGH_PRIORITY_RATIO = 0.5;
  /** The most reads the prefetch hints by (a power of two). */
  private static final int PREFETCH_HINT_SLOTS = 1 << 16;
  /** A file of the harness's sizes is read whole by the first seek. */
  private static final long PREFETCH_READAHEAD_BYTES = 1 << 20;
  static final ThreadLocal<PerfContext> PERF =
      ThreadLocal.withInitial(BlockCacheProbe::countingContext);

  private final String name;
  private final boolean sas;
  private final long cacheBytes;
  private final long blockBytes;
  /** The last reads, for the prefetch; null without it. */
  private final RecentReads recentReads;
  private final CompactionPrefetcher prefetcher;
  private final LongAdder valueBytes = new LongAdder();
  private final LongAdder values = new LongAdder();
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Statistics statistics;
  private final RocksDB db;
  private final FlashCache cache;
  private final FlashSecondaryCache blockCache;
  private final WriteOptions writeOptions = new WriteOptions();
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true);
  private final Set<Long> deadGroups = ConcurrentHashMap.newKeySet();
  private final LongAdder gets = new LongAdder();
  /** Gets during which RocksDB read a block from the slow disk. */
  private final LongAdder slowGets = new LongAdder();
  private final LongAdder offered = new LongAdder();
  private final LongAdder offeredDead = new LongAdder();
  /** Blocks the block cache evicted into the flash cache, and those of deleted files; bytes. */
  private final LongAdder puts = new LongAdder();
  private final LongAdder putBytes = new LongAdder();
  private final LongAdder deadPuts = new LongAdder();
  private final LongAdder deadPutBytes = new LongAdder();

  /** True where the block-level secondary cache can be built; else see {@link #unavailableReason}. */
  static boolean available() {
    return FlashSecondaryCache.available();
  }

  static String unavailableReason() {
    return FlashSecondaryCache.unavailableReason();
  }

  BlockFlashCacheSystem(String name, SystemConfig config, boolean sas, boolean prefetch) {
    this.name = name;
    this.sas = sas;
    HotRapOptions o = config.shared();
    this.cacheBytes = config.fastBudgetBytes() + o.blockCacheBytes();
    this.blockBytes = o.fastBlockSize();
    this.recentReads = prefetch ? new RecentReads(PREFETCH_HINT_SLOTS) : null;
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
      blockCache = track(FlashSecondaryCache.builder(counting(new FlashCacheBackend(cache)))
          .capacity(o.blockCacheBytes())
          .highPriorityPoolRatio(BLOCK_CACHE_HIGH_PRIORITY_RATIO)
          .build());
      BloomFilter filter = track(new BloomFilter(o.bloomBitsPerKey()));
      BlockBasedTableConfig table = RocksDbSystem.tableConfig(o, blockCache, filter);
      statistics = track(new Statistics());
      statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      SstGroupListener listener = track(new SstGroupListener(group -> { }, this::fileDeleted));
      List<AbstractEventListener> listeners = new ArrayList<>(List.of(listener));
      if (prefetch) {
        Options readerOptions = track(new Options()
            .setUseDirectReads(o.directReads())
            .setTableFormatConfig(RocksDbSystem.tableConfig(o, blockCache, filter)));
        prefetcher = track(new CompactionPrefetcher(readerOptions, this::hintedKeys,
            PREFETCH_READAHEAD_BYTES, 1));
        listeners.add(prefetcher);
      } else {
        prefetcher = null;
      }
      Options options =
          track(FlashCacheSystem.rocksDbOptions(o, config, fast, statistics, listeners, table));
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

  /** The distinct keys of as many recent reads as the caches hold blocks. */
  private byte[][] hintedKeys() {
    long n = values.sum();
    long meanValue = n == 0 ? 0 : valueBytes.sum() / n;
    long reach = cacheBytes / Math.max(blockBytes, meanValue);
    return recentReads.sortedDistinct((int) Math.min(PREFETCH_HINT_SLOTS, Math.max(1, reach)));
  }

  private <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  /** Counts the blocks offered, and those of deleted files, by number and bytes. */
  private SecondaryCacheBackend counting(SecondaryCacheBackend backend) {
    return new SecondaryCacheBackend() {
      @Override
      public byte[] lookup(byte[] key) {
        return backend.lookup(key);
      }

      @Override
      public void insert(byte[] key, byte[] value, long group) {
        puts.increment();
        putBytes.add(value.length);
        if (deadGroups.contains(group)) {
          deadPuts.increment();
          deadPutBytes.add(value.length);
        }
        backend.insert(key, value, group);
      }

      @Override
      public void erase(byte[] key) {
        backend.erase(key);
      }
    };
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
    PerfContext perf = PERF.get();
    long readsBefore = perf.getBlockReadCount();
    try {
      byte[] value = db.get(key);
      if (recentReads != null) {
        recentReads.record(key);
        if (value != null) {
          values.increment();
          valueBytes.add(value.length);
        }
      }
      return value;
    } catch (RocksDBException e) {
      throw new IllegalStateException("get failed", e);
    } finally {
      if (perf.getBlockReadCount() != readsBefore) {
        slowGets.increment();
      }
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
      if (prefetcher != null) {
        prefetcher.awaitIdle();
      }
      cache.awaitQuiescence();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public long ticker(TickerType ticker) {
    return statistics.getTickerCount(ticker);
  }

  @Override
  public Counters counters() {
    long total = gets.sum();
    long written = RocksDbSystem.gib(RocksDbSystem.cfStats(db), "compaction.Sum.WriteGB");
    return new Counters(total, total - slowGets.sum(), 0, 0, 0, 0, 0, written, 0, 0);
  }

  @Override
  public FlashCounters flash() {
    FlashCacheStats s = cache.stats();
    long total = gets.sum();
    return new FlashCounters(s.gets() - s.bypassedLookups(), s.dramHits() + s.flashHits(),
        s.bypassedLookups(), s.flashBytesWritten(), offered.sum(), offeredDead.sum(),
        s.droppedInserts(), total, total - slowGets.sum());
  }

  @Override
  public void close() {
    // The counters behind the run's figures, for a look at why a run went as it did.
    FlashCacheStats s = cache.stats();
    System.err.printf("%s: flash cache at close: write amplification %.3f (device %.3f), %s;"
        + " secondary cache %s; blocks offered by the block cache %d (%d bytes), of deleted"
        + " files %d (%d bytes)%n", name, s.writeAmplification(), s.deviceWriteAmplification(), s,
        blockCache.stats(), puts.sum(), putBytes.sum(), deadPuts.sum(), deadPutBytes.sum());
    if (prefetcher != null) {
      System.err.printf("%s: prefetch %s%n", name, prefetcher.stats());
      prefetcher.close(); // before the database, whose files it reads
    }
    db.close();
    writeOptions.close();
    flushOptions.close();
    RocksDbSystem.closeAll(resources);
  }
}
