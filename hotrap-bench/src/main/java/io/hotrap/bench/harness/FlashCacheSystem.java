package io.hotrap.bench.harness;

import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashCacheBuilder;
import io.hotrap.cache.flash.FlashCacheStats;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.jni.SstGroupListener;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.Env;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Logger;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.PersistentCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.Status;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB wholly on the slow disk with a cache on the fast disk in front of it, at the fast-disk
 * bytes HotRAP's fast tier gets (DESIGN.md §14). The write-ahead log is on the fast disk, as in
 * every other system of the harness; RocksDB's settings are {@code rocksdb-fd}'s.
 *
 * <ul>
 *   <li>{@code rocksdb-sc}: a plain secondary cache, the shape of Meta's De-SCache: a
 *       {@link FlashCache} with no bypass filter, every record read from the slow disk inserted.
 *   <li>{@code sas-cache}: the same with SAS-Cache's three ideas: the bypass filter, insertion
 *       control (a FIFO of the last deleted files, SAS-Cache's 10 scaled to this harness's
 *       smaller files, {@link #invalidGroupsRemembered}; puts into them are dropped) and
 *       compaction-aware eviction (the records of a compaction's input files are purged in the
 *       background). Prefetching the blocks of new files is not run here; at block level it is
 *       {@code sas-cache-pf} ({@link BlockFlashCacheSystem}).
 *   <li>{@code rocksdb-pcache}: RocksJava's legacy block-level {@code PersistentCache} on the fast
 *       disk, under the block cache.
 * </ul>
 *
 * <p><b>Record level standing in for block level.</b> {@link Systems} opens {@code rocksdb-sc} and
 * {@code sas-cache} at block level ({@link BlockFlashCacheSystem}) where the native secondary
 * cache of {@code hotrap-jni} is available, and with this class otherwise (or with
 * {@code -Dhotrap.bench.flashLevel=record}). Here both flash systems cache records, keyed by the
 * user key, behind a get path of three steps: the
 * memtables and block cache without I/O, then the flash cache, then the slow disk. To keep the
 * semantics the three ideas act on, a cached record carries the SST file it was read from
 * ({@link SstGroups}, an approximation) and, as a block would, dies with that file: a hit on a
 * record whose file compaction deleted counts as a miss and the record is read and inserted again.
 *
 * <p>A block-level cache also stores a whole block for each record it caches: with records smaller
 * than a block, its flash and DRAM hold fewer of the records that are read than a record cache of
 * the same bytes. So each cached record is padded to the table's block size (4 KiB): a 1 KiB
 * record costs what its block would. The neighbours a real block brings along are not modelled
 * (under a scattered hot set they are mostly cold). {@code sas-cache-rec} is {@code sas-cache}
 * without the padding: a record-level flash cache in its own right.
 *
 * <p>The flash cache's DRAM tier plays the block cache from which De-SCache and SAS-Cache insert:
 * what it evicts is offered to flash. User writes invalidate the key (under a striped lock, with
 * the write counter check that closes the insert-after-read race, as in HotRAP's own flash cache).
 *
 * <p>Thread-safe.
 */
final class FlashCacheSystem implements BenchSystem, TickerSource {
  /** The three shapes. */
  enum Kind { PLAIN, SAS, PERSISTENT }

  /**
   * Largest DRAM tier of the flash cache: SAS-Cache's CacheLib ran with 8 MB of DRAM over 5 GB of
   * flash (§V-B). At the harness's small budgets the tier gets a 16th of the flash instead, so that
   * most of what it holds reaches flash within a run.
   */
  static final long MAX_DRAM_BYTES = 8L << 20;
  static final int FLASH_TO_DRAM = 16;
  /** Flash regions at small sizes: the cache needs a few dozen of them. */
  static final int REGIONS = 64;
  private static final int STRIPES = 1024;
  /** An item: the group (8 bytes), the value's length (4), the value, padding to the block size. */
  private static final int HEADER_BYTES = Long.BYTES + Integer.BYTES;
  private static final int LEVEL_MULTIPLIER = 10;
  /** SAS-Cache's insertion control remembers the last 10 deleted files (§IV-B). */
  static final int SAS_INVALID_GROUPS = 10;
  /**
   * The deleted bytes SAS-Cache's queue spans, in block caches: 10 files of RocksDB's default 64
   * MiB under its 256 MiB block cache (DESIGN.md §14) is 2.5 block caches of deleted files.
   */
  static final double SAS_INVALID_BLOCK_CACHES = 10 * 64.0 / 256;

  static {
    HotRapDB.loadNativeLibrary(); // before the native option objects below are created
  }

  private final String name;
  private final Kind kind;
  /** Bytes an item takes at least: the table's block size, or 0 for record-sized items. */
  private final int minItemBytes;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Statistics statistics;
  private final RocksDB db;
  private final FlashCache cache;
  private final SstGroups groups = new SstGroups();
  private final ReadOptions memoryOnly = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
  private final WriteOptions writeOptions = new WriteOptions();
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true);
  private final Object[] locks = new Object[STRIPES];
  private final AtomicLongArray writeCounters = new AtomicLongArray(STRIPES);
  private final LongAdder gets = new LongAdder();
  private final LongAdder slowReads = new LongAdder();
  private final LongAdder deadHits = new LongAdder();
  private final LongAdder offered = new LongAdder();
  private final LongAdder offeredDead = new LongAdder();
  /** {@code rocksdb-pcache}'s cache, left open at {@link #close()}; null for the others. */
  private PersistentCache persistentCache;

  FlashCacheSystem(String name, SystemConfig config, Kind kind, boolean blockSized) {
    this.name = name;
    this.kind = kind;
    this.minItemBytes = blockSized ? config.shared().fastBlockSize() : 0;
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new Object();
    }
    HotRapOptions o = config.shared();
    String family = Systems.loadFamily(name);
    Path fast = config.fastDir().resolve(family);
    Path slow = config.slowDir().resolve(family);
    Path cacheDir = config.fastDir().resolve(name + "-cache");
    boolean ok = false;
    FlashCache fc = null;
    try {
      Files.createDirectories(fast);
      Files.createDirectories(slow);
      Matrix.deleteTree(cacheDir); // every run starts with a cold cache
      Files.createDirectories(cacheDir);
      if (kind != Kind.PERSISTENT) {
        fc = newFlashCache(cacheDir, config, kind == Kind.SAS, this::admitting);
        resources.add(fc);
      }
      this.cache = fc;
      LRUCache blockCache = track(o.newBlockCache());
      BloomFilter filter = track(new BloomFilter(o.bloomBitsPerKey()));
      BlockBasedTableConfig table = RocksDbSystem.tableConfig(o, blockCache, filter);
      if (kind == Kind.PERSISTENT) {
        Logger quiet = track(new Logger(InfoLogLevel.WARN_LEVEL) {
          @Override
          protected void log(InfoLogLevel level, String message) {
            System.err.println(name + ": " + message);
          }
        });
        PersistentCache pc;
        try {
          pc = track(new PersistentCache(Env.getDefault(), cacheDir.toString(),
              config.fastBudgetBytes(), quiet, false));
        } catch (RocksDBException e) {
          throw new IllegalStateException("RocksJava's PersistentCache rejected a size of "
              + config.fastBudgetBytes() + " bytes (" + e.getMessage() + "); RocksDB's"
              + " persistent cache needs room for its 100 MiB cache files, so use a larger"
              + " --budget-mib", e);
        }
        table.setPersistentCache(pc);
        persistentCache = pc;
      }
      statistics = track(new Statistics());
      statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      Listener listener = track(new Listener());
      Options options = track(rocksDbOptions(o, config, fast, statistics, List.of(listener), table));
      db = RocksDB.open(options, slow.toString());
      groups.refresh(db);
      ok = true;
    } catch (RocksDBException | IOException e) {
      throw new IllegalStateException("cannot open " + name + " under " + slow, e);
    } finally {
      if (!ok) {
        closeResources();
      }
    }
  }

  /**
   * The flash cache of {@code rocksdb-sc} ({@code sas} false: no bypass filter, no insertion
   * control) or {@code sas-cache}, on the whole fast budget, starting cold.
   */
  static FlashCache newFlashCache(Path cacheDir, SystemConfig config, boolean sas,
      LongConsumer admissionObserver) throws IOException {
    FlashCacheBuilder b = FlashCache.builder();
    String budget = System.getProperty(REINSERTION_BUDGET_PROPERTY);
    if (budget != null) {
      b.reinsertionBudget(Double.parseDouble(budget));
    }
    long dram = Long.getLong(DRAM_BYTES_PROPERTY,
        Math.min(MAX_DRAM_BYTES, config.fastBudgetBytes() / FLASH_TO_DRAM));
    return b
        .directory(cacheDir)
        .flashBytes(config.fastBudgetBytes())
        .regionBytes(regionBytes(config.fastBudgetBytes()))
        .dramBytes(dram)
        .bypassFilter(sas)
        .invalidGroupsRemembered(sas ? invalidGroupsRemembered(config.shared()) : 0)
        .warmRestart(false)
        .averageItemBytes(1024)
        .admissionObserver(admissionObserver)
        .build();
  }

  /**
   * System property: the flash cache's reinsertion budget for {@code rocksdb-sc} and the {@code
   * sas-cache} systems (reinserted bytes per byte admitted); the library's default when absent.
   */
  public static final String REINSERTION_BUDGET_PROPERTY = "hotrap.bench.flashReinsertionBudget";
  /** System property: the flash cache's DRAM bytes for the same systems; else the default below. */
  public static final String DRAM_BYTES_PROPERTY = "hotrap.bench.flashDramBytes";

  /**
   * SAS-Cache's queue of deleted files, scaled to this harness's files: as many as span the
   * deleted bytes its 10 files span against the block cache ({@link #SAS_INVALID_BLOCK_CACHES}),
   * at least 10. The queue must hold a file for at least one block-cache residence time, since
   * the blocks it rejects are those the block cache evicts after their file was deleted. The
   * harness's files are a 160th of the budget (205 KiB at 32 MiB, against 64 MiB), and under
   * SAS-Cache's 90%-read mix at 32 MiB compactions deleted 45–70 of them a second, so a queue of
   * 10 held a file for a fraction of a second: on ru-zipf it dropped about 450 blocks a run while
   * 10–11% of what reached flash came from deleted files; with 2.5 × 8 MiB / 205 KiB = 100 files
   * it dropped about 9,500 and none reached flash (docs/results/flash-cache/block/fifo10).
   */
  static int invalidGroupsRemembered(HotRapOptions o) {
    long scaled =
        Math.round(SAS_INVALID_BLOCK_CACHES * o.blockCacheBytes() / o.fastTargetFileBytes());
    return (int) Math.max(SAS_INVALID_GROUPS, Math.min(1 << 16, scaled));
  }

  /** RocksDB wholly on the slow disk with {@code rocksdb-fd}'s settings and the WAL on fast. */
  static Options rocksDbOptions(HotRapOptions o, SystemConfig config, Path fast,
      Statistics statistics, List<AbstractEventListener> listeners, BlockBasedTableConfig table) {
    return new Options()
        .setCreateIfMissing(true)
        .setWalDir(fast.resolve("wal").toString())
        .setMaxBackgroundJobs(o.backgroundJobs())
        .setUseDirectReads(o.directReads())
        .setUseDirectIoForFlushAndCompaction(o.directIoForFlushAndCompaction())
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(2)
        .setStatistics(statistics)
        .setWriteBufferSize(o.writeBufferBytes())
        .setMaxWriteBufferNumber(2)
        .setTargetFileSizeBase(o.fastTargetFileBytes())
        .setMaxBytesForLevelMultiplier(LEVEL_MULTIPLIER)
        .setMaxBytesForLevelBase(Math.max(4 * o.fastTargetFileBytes(),
            config.fastBudgetBytes() / 10))
        .setLevelCompactionDynamicLevelBytes(true)
        .setCompressionType(o.fastCompression())
        .setListeners(listeners)
        .setTableFormatConfig(table);
  }

  /** A 64th of the flash, 4 KiB-aligned, in [64 KiB, 16 MiB] (the cache's default floor is 1 MiB). */
  static int regionBytes(long flashBytes) {
    long r = Math.max(64L << 10, Math.min(16L << 20, flashBytes / REGIONS));
    return (int) (r / 4096 * 4096);
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
      if (cache == null) {
        return persistentGet(key);
      }
      int stripe = stripeOf(key);
      long counter = writeCounters.get(stripe);
      try {
        return db.get(memoryOnly, key); // found or ruled out without I/O
      } catch (RocksDBException e) {
        if (e.getStatus() == null || e.getStatus().getCode() != Status.Code.Incomplete) {
          throw e;
        }
      }
      byte[] item = cache.get(key);
      if (item != null) {
        if (!groups.isDead(ByteBuffer.wrap(item).getLong())) {
          ByteBuffer b = ByteBuffer.wrap(item);
          int length = b.getInt(Long.BYTES);
          return Arrays.copyOfRange(item, HEADER_BYTES, HEADER_BYTES + length);
        }
        deadHits.increment(); // a block-level cache would no longer find this file's block
      }
      slowReads.increment();
      byte[] value = db.get(key);
      if (value != null) {
        insert(key, value, stripe, counter);
      }
      return value;
    } catch (RocksDBException e) {
      throw new IllegalStateException("get failed", e);
    }
  }

  /**
   * {@code rocksdb-pcache}'s get: it counts as slow when RocksDB read a block from the slow disk
   * during it, as {@link BlockFlashCacheSystem}'s do (a persistent cache hit is served before the
   * file read that RocksDB counts in {@code block_read_count}).
   */
  private byte[] persistentGet(byte[] key) throws RocksDBException {
    PerfContext perf = BlockFlashCacheSystem.PERF.get();
    long readsBefore = perf.getBlockReadCount();
    try {
      return db.get(key);
    } finally {
      if (perf.getBlockReadCount() != readsBefore) {
        slowReads.increment();
      }
    }
  }

  /** Inserts a record just read from the slow disk unless a write of its stripe came since. */
  private void insert(byte[] key, byte[] value, int stripe, long counterBeforeRead) {
    long group = groups.groupOf(key);
    byte[] item = ByteBuffer.allocate(Math.max(minItemBytes, HEADER_BYTES + value.length))
        .putLong(group).putInt(value.length).put(value).array();
    synchronized (locks[stripe]) {
      if (writeCounters.get(stripe) == counterBeforeRead) {
        cache.put(key, item, group);
      }
    }
  }

  private void admitting(long group) {
    offered.increment();
    if (groups.isDead(group)) {
      offeredDead.increment();
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("put failed", e);
    }
    if (cache != null) {
      int stripe = stripeOf(key);
      synchronized (locks[stripe]) {
        writeCounters.incrementAndGet(stripe);
        cache.invalidate(key);
      }
    }
  }

  private static int stripeOf(byte[] key) {
    return (Arrays.hashCode(key) * 0x9E3779B9 >>> 16) & (STRIPES - 1);
  }

  @Override
  public void settle() {
    RocksDbSystem.settle(db, flushOptions);
    if (cache != null) {
      try {
        cache.awaitQuiescence();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public long ticker(TickerType ticker) {
    return statistics.getTickerCount(ticker);
  }

  @Override
  public Counters counters() {
    long total = gets.sum();
    long slow = slowReads.sum();
    long written = RocksDbSystem.gib(RocksDbSystem.cfStats(db), "compaction.Sum.WriteGB");
    return new Counters(total, Math.max(0, total - slow), 0, 0, 0, 0, 0, written, 0, 0);
  }

  @Override
  public FlashCounters flash() {
    if (cache == null) {
      long hits = statistics.getTickerCount(TickerType.PERSISTENT_CACHE_HIT);
      long misses = statistics.getTickerCount(TickerType.PERSISTENT_CACHE_MISS);
      Counters c = counters();
      return new FlashCounters(hits + misses, hits, 0, -1, -1, -1, 0, c.gets(), c.fastGets());
    }
    FlashCacheStats s = cache.stats();
    long dead = deadHits.sum();
    long lookups = s.gets() - s.bypassedLookups();
    long hits = s.dramHits() + s.flashHits() - dead;
    return new FlashCounters(lookups, hits, s.bypassedLookups(), s.flashBytesWritten(),
        offered.sum(), offeredDead.sum(), s.droppedInserts(), gets.sum(), gets.sum() - slowReads.sum());
  }

  @Override
  public void close() {
    db.close();
    memoryOnly.close();
    writeOptions.close();
    flushOptions.close();
    // RocksDB's PersistentCache (11.8.1) can hang when disposed after a run that filled it:
    // BlockCacheTier::Close joins its insert thread, which waits in the buffer allocator for room
    // the writer thread never frees (seen at 128 MiB on ro-hotspot5, the main thread in
    // PersistentCache.disposeInternalJni for minutes with no I/O). The bench leaves it to the
    // process's exit; the run's figures were taken before.
    if (persistentCache != null) {
      resources.remove(persistentCache);
    }
    closeResources();
  }

  private void closeResources() {
    RocksDbSystem.closeAll(resources);
  }

  /**
   * Keeps {@link SstGroups} current and, for {@code sas-cache}, invalidates the groups of a
   * compaction's deleted input files. Runs on RocksDB's threads: nothing may escape into RocksDB.
   */
  private final class Listener extends AbstractEventListener {
    Listener() {
      super(EnabledEventCallback.ON_FLUSH_COMPLETED, EnabledEventCallback.ON_COMPACTION_COMPLETED);
    }

    @Override
    public void onFlushCompleted(RocksDB rocks, FlushJobInfo info) {
      try {
        groups.refresh(rocks);
      } catch (Throwable t) {
        System.err.println(name + ": refreshing the file ranges failed: " + t);
      }
    }

    @Override
    public void onCompactionCompleted(RocksDB rocks, CompactionJobInfo info) {
      try {
        Status st = info.status();
        if (st != null && st.getCode() != Status.Code.Ok) {
          return;
        }
        long[] deleted = groups.markDeleted(
            SstGroupListener.consumedFiles(info.inputFiles(), info.outputFiles()));
        groups.refresh(rocks);
        if (kind == Kind.SAS && cache != null) {
          for (long g : deleted) {
            cache.invalidateGroup(g);
          }
        }
      } catch (Throwable t) {
        System.err.println(name + ": handling a compaction failed: " + t);
      }
    }
  }
}
