package io.hotrap.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.Status;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A tiered key-value store after HotRAP: one RocksDB instance whose column family {@code fast}
 * lives on the fast directory and {@code slow} on the slow one (DESIGN.md §3). Every write lands on
 * the fast tier; a {@link TierMigrator} keeps the fast tier within its byte budget by moving cold
 * records down ({@link MigrationScheduler} runs it), and keeps the records RALT calls hot
 * (retention).
 *
 * <p><b>Paths</b> (DESIGN.md §4). {@code put} writes the fast tier. {@code delete} writes
 * tombstones to both tiers in one atomic batch, so that no compaction of either tier can bring an
 * older value back (I3). {@code get} reads the fast tier, then the promotion cache, then
 * the slow tier, and offers a slow hit to the cache ({@link Promoter}, rule P2 of DESIGN.md §6); a version reaches the slow tier only through the fast tier,
 * and leaves the fast tier only after it is in the slow one (in the same atomic batch, or right
 * after the file holding it was ingested there, in one exclusive hold of the {@link CommitGate}),
 * so a fast hit is always the newest version (I1, I2). Scans merge both tiers at one snapshot. Every returned
 * record is logged as an access in RALT. With {@link HotRapOptions#flashCache()}, a get reads the
 * slow tier through a record-level flash cache on the fast disk ({@link SlowTierCache}), which
 * writes keep from serving an old version.
 *
 * <p><b>Concurrency.</b> All methods are thread-safe. Writers follow the {@link CommitGate}
 * protocol so that a write racing a migration always wins; writers wait in {@link WriteThrottle}
 * while the fast tier is at its stall threshold. {@link #close()} waits for calls in flight
 * ({@link LifecycleGuard}); any call after it throws {@link IllegalStateException}.
 *
 * <p><b>Durability.</b> Every user write ({@code put}, {@code delete}, {@code write}) goes through
 * RocksDB's write-ahead log on the fast disk before it is acknowledged, as one atomic record.
 * <ul>
 *   <li>A <em>process crash</em> (the JVM killed, an uncaught error) loses no acknowledged write:
 *       the log record is in the operating system's buffers when the call returns.
 *   <li>A <em>power loss or kernel crash</em> keeps acknowledged writes only with
 *       {@link HotRapOptions#syncWrites()} on (each write syncs the log). Off (the default), it may
 *       lose the most recent writes, always a suffix in write order: RocksDB recovers the log to the
 *       last intact record, so a later write never survives without an earlier one.
 *   <li>Background movers — migration to the slow tier and promotion to the fast tier — write
 *       without syncing. That is safe because each of their batches moves a record in one atomic
 *       log record (copy and tombstone together, or a copy of a version the slow tier keeps): lost,
 *       it leaves the record where it was (I5); and because the log is recovered as a prefix, a
 *       synced user write that followed a mover's batch carries that batch with it. A migration
 *       that ingests a file into the slow tier has the copy durable (file and manifest synced)
 *       before it writes the fast tier's tombstones, so a loss between the two leaves the same
 *       version in both tiers, which reads resolve to the fast one.
 *   <li>SST files of both tiers are synced by RocksDB before they become part of the store; RALT's
 *       files, the promotion cache and the flash cache hold no user data: losing them costs hotness
 *       or hits, never a value (the flash cache starts cold after a crash).
 *   <li>The fast disk holds the log and the manifest: losing it loses the store, whatever the slow
 *       disk keeps.
 *   <li>With a memory tier ({@link HotRapOptions.Builder#memoryTier}), the fast tier's L0 lives in
 *       the memory directory and user writes are durable through the tier log on the fast disk
 *       instead of RocksDB's WAL, with the same guarantees for a process crash and, with {@code
 *       syncWrites}, a power loss; losing the memory directory's contents (RAM) loses nothing
 *       acknowledged: the next open recovers the lower levels from the disks and replays the log
 *       ({@link MemoryTier}). A reader may see a write before
 *       it is acknowledged, and a crash may then lose that write.
 * </ul>
 *
 * <p><b>Errors</b> (DESIGN.md §11). A null key or value throws {@link NullPointerException} naming
 * it; a key or value over its limit {@link IllegalArgumentException} with the limit; RocksDB errors
 * {@link HotRapException} with RocksDB's status; a full fast disk fails the write that met it with
 * a {@link HotRapException} (RocksDB's {@code NoSpace} status), loses nothing acknowledged before,
 * and the store serves reads meanwhile. A failure of RALT switches access tracking off and the store
 * keeps serving.
 */
public final class HotRapDB implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(HotRapDB.class.getName());
  static final String FAST_CF = "fast";
  static final String SLOW_CF = "slow";
  static final String HOT_CF = "fast-hot";
  /** Longest wait for RocksDB's flushes and compactions in {@link #awaitBackgroundWork()}. */
  private static final long MAX_IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);
  private static final int MAX_AWAIT_ROUNDS = 64;

  private final HotRapOptions options;
  private final StoreLayout layout;
  private final List<AutoCloseable> resources;
  private final RocksDB db;
  private final ColumnFamilyHandle defaultCf;
  private final ColumnFamilyHandle fastCf;
  private final ColumnFamilyHandle slowCf;
  /** Column family of write-hot separation; always open, empty while separation is off. */
  private final ColumnFamilyHandle hotCf;
  /** Null when {@link HotRapOptions#writeHotSeparation()} is off. */
  private final WriteHotSeparator separator;
  private final ReadOptions readOptions;
  /** Reads that fail with {@code Incomplete} rather than do I/O; used with a flash cache. */
  private final ReadOptions memoryOnlyReads;
  private final WriteOptions writeOptions;
  private final AccessTracker tracker;
  /**
   * Fed the key of every get; while it finds reads uniform, gets idle RALT and promotion
   * ({@link HotRapOptions#readSkewDetection()}). Null when that option is off.
   */
  private final SkewDetector readSkew;
  private final StoreCounters counters = new StoreCounters();
  private final CommitGate gate;
  private final WriteThrottle throttle;
  /** What a writer held back by the throttle runs: a migration check now. */
  private final Runnable requestMigration;
  private final TierMigrator migrator;
  /** Null when {@link HotRapOptions#promotion()} is off. */
  private final Promoter promoter;
  /** Null without {@link HotRapOptions#flashCache()}. */
  private final SlowTierCache flashCache;
  private final String storeId;
  private final MigrationScheduler scheduler;
  /** Null without {@link HotRapOptions#memoryTier()}. */
  private final MemoryTier memory;
  private final TierEventListener listener;
  private final HotRapMetrics metrics;
  private final LifecycleGuard guard = new LifecycleGuard();
  /** Open iterators and snapshots, closed with the store. */
  private final Set<AutoCloseable> openViews = ConcurrentHashMap.newKeySet();
  /** Open user snapshots: the only views that pin versions migration would drop. */
  private final Set<HotRapSnapshot> openSnapshots = ConcurrentHashMap.newKeySet();
  /**
   * User snapshots open or being taken: counted before RocksDB's snapshot is taken and uncounted
   * after it is released, so a migration that reads zero knows no snapshot predates its last write
   * ({@link NativeDemotion} rule 3).
   */
  private final AtomicInteger liveSnapshots = new AtomicInteger();
  /** Null when demotion writes tombstones ({@link HotRapOptions#nativeMigration()} off). */
  private final NativeDemotion nativeDemotion;

  private HotRapDB(HotRapOptions options, StoreLayout layout, String storeId, List<AutoCloseable> resources,
      RocksDB db, List<ColumnFamilyHandle> handles, TierEventListener listener,
      NativeDemotion nativeDemotion, StoreHooks hooks, java.nio.file.Path memoryFiles) {
    this.options = options;
    this.nativeDemotion = nativeDemotion;
    this.layout = layout;
    this.resources = resources;
    this.db = db;
    this.defaultCf = handles.get(0);
    this.fastCf = handles.get(1);
    this.slowCf = handles.get(2);
    this.hotCf = handles.get(3);
    this.listener = listener;
    this.storeId = storeId;
    this.readOptions = new ReadOptions();
    this.memoryOnlyReads = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
    this.writeOptions = new WriteOptions().setSync(options.syncWrites());
    this.tracker = AccessTracker.open(options.raltOptions());
    // Without the hotness check every slow read is to be promoted, uniform ones too.
    this.readSkew = options.readSkewDetection() && options.hotnessCheck()
        ? SkewDetector.forReads(this::estimatedKeys, w -> {
          counters.readsSkewed = w.skewed;
          counters.readConcentration = w.variance;
          counters.readSkewWindows.increment();
        })
        : null;
    this.gate = new CommitGate(new StripedWriteCounters(options.lockStripes()));
    Promoter p = null;
    SlowTierCache fc = null;
    MemoryTier m = null;
    WriteHotSeparator sep = null;
    boolean constructed = false;
    try {
      m = memoryFiles != null
          ? MemoryTier.open(options, db, fastCf, slowCf, counters, memoryFiles) : null;
      this.memory = m;
      p = options.promotion() ? new Promoter(db, fastCf, options, gate, tracker, counters, hooks.promotion()) : null;
      this.promoter = p;
      if (promoter != null && nativeDemotion != null) {
        promoter.setBeforeFastWrite(nativeDemotion::beforeWrite);
      }
      fc = options.flashCache() != null ? SlowTierCache.open(options, gate.stripes(), counters,
          storeId, db.getLatestSequenceNumber()) : null;
      this.flashCache = fc;
      if (fc != null) {
        counters.flashStats = fc::stats;
      }
      gate.setPromotionInvalidator(invalidators(promoter, flashCache));
      this.throttle = new WriteThrottle(options.writeStallBytes(), options.maxWriteStall().toNanos(),
          counters);
      sep = options.writeHotSeparation()
          ? new WriteHotSeparator(db, fastCf, hotCf, options, gate, counters, nativeDemotion) : null;
      this.separator = sep;
      this.migrator = new TierMigrator(db, fastCf, hotCf, slowCf, options, gate, tracker, counters,
          throttle::sizesChanged, promoter != null ? promoter : PromotionByCompaction.NONE,
          () -> liveSnapshots.get() > 0, nativeDemotion, sep, hooks.migration());
      this.scheduler = new MigrationScheduler(migrator, counters, options);
      this.requestMigration = scheduler::requestCheck;
      if (promoter != null) {
        promoter.setAwaitRoom(() -> throttle.awaitRoomForPromotion(requestMigration));
      }
      constructed = true;
    } finally {
      if (!constructed) {
        // Nothing has started yet; free what the constructor opened before the failure.
        if (p != null) {
          p.close();
        }
        if (fc != null) {
          fc.close();
        }
        if (m != null) {
          m.close();
        }
        if (sep != null) {
          sep.close();
        }
        tracker.close();
        readOptions.close();
        memoryOnlyReads.close();
        writeOptions.close();
      }
    }
    this.metrics = new HotRapMetrics(counters, tracker, options.fastBudgetBytes(), storeId);
  }

  /**
   * Opens the store at the options' paths, creating it if the fast directory holds none.
   *
   * @throws IllegalArgumentException if the directories belong to another store or the store was
   *     created with other paths
   * @throws HotRapException if RocksDB fails to open
   */
  public static HotRapDB open(HotRapOptions options) {
    return open(options, StoreHooks.NONE);
  }

  /** {@link #open(HotRapOptions)} with test hooks inside migration and promotion. */
  static HotRapDB open(HotRapOptions options, StoreHooks hooks) {
    Objects.requireNonNull(options, "options");
    NativeLibrary.load();
    StoreLayout layout = new StoreLayout(options.fastPath(), options.slowPath());
    if (options.memoryTier()) {
      MemoryTier.checkDirectory(options.memoryDir()); // before anything is created
    }
    String storeId = layout.createOrVerify();
    MemoryTier.checkLayout(options, layout);
    List<AutoCloseable> resources = new ArrayList<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db = null;
    boolean success = false;
    try {
      // HotKey-LSM's split block cache: with a hot share, fast-hot gets a cache of its own.
      double hotShare = options.hotBlockCacheShare();
      Cache cache = track(resources, hotShare > 0
          ? new org.rocksdb.LRUCache((long) (options.blockCacheBytes() * (1 - hotShare)), -1, false,
              HotRapOptions.BLOCK_CACHE_HIGH_PRIORITY_RATIO)
          : options.newBlockCache());
      BloomFilter filter = options.bloomBitsPerKey() > 0
          ? track(resources, new BloomFilter(options.bloomBitsPerKey())) : null;
      BloomFilter slowFilter = options.slowBloomBitsPerKey() > 0
          ? track(resources, new BloomFilter(options.slowBloomBitsPerKey())) : null;
      // Closed after RocksDB and the column family options that hold its filter.
      // Not with a memory tier: a machine loss would forget the slow tier's memtable (MemoryTier).
      NativeDemotion nativeDemotion = options.nativeMigration() && !options.memoryTier()
          ? track(resources, NativeDemotion.create()) : null;
      MemoryTier.Preparation memoryPrep = options.memoryTier()
          ? MemoryTier.prepare(options, layout, storeId) : null;
      ColumnFamilyOptions fastCfo = track(resources, TierConfig.fast(options, layout, cache, filter,
          memoryPrep == null ? null : memoryPrep.dir));
      if (nativeDemotion != null) {
        fastCfo.setCompactionFilter(nativeDemotion.filter());
      }
      ColumnFamilyOptions slowCfo = track(resources, TierConfig.slow(options, layout, cache, slowFilter));
      track(resources, slowCfo.compactionOptionsUniversal()); // RocksDB copied it into slowCfo
      Cache hotCache = hotShare > 0
          ? track(resources, new org.rocksdb.LRUCache((long) (options.blockCacheBytes() * hotShare), -1,
              false, HotRapOptions.BLOCK_CACHE_HIGH_PRIORITY_RATIO))
          : cache;
      ColumnFamilyOptions hotCfo = track(resources, TierConfig.fastHot(options, layout, hotCache, filter));
      track(resources, hotCfo.compactionOptionsUniversal()); // closed after the options that hold it
      ColumnFamilyOptions defaultCfo = track(resources, new ColumnFamilyOptions()
          .setWriteBufferSize(HotRapOptions.MIN_FILE_SIZE));
      TierEventListener listener = track(resources, new TierEventListener());
      DBOptions dbo = track(resources, new DBOptions()
          .setCreateIfMissing(true)
          .setCreateMissingColumnFamilies(true)
          .setMaxBackgroundJobs(options.backgroundJobs())
          .setUseDirectReads(options.directReads())
          .setUseDirectIoForFlushAndCompaction(options.directIoForFlushAndCompaction())
          // The slow tier's memtable fills slowly; this bound makes RocksDB flush it instead of
          // keeping old WAL files on the fast disk.
          .setMaxTotalWalSize(Math.max(4L << 20, 8 * options.writeBufferBytes()))
          .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
          .setKeepLogFileNum(2)
          // After a machine loss, RocksDB's MANIFEST names L0 files lost with the RAM (MemoryTier).
          .setBestEffortsRecovery(memoryPrep != null && memoryPrep.lost)
          // With a memory tier, the user writes in the memtables are in the tier log, which the
          // next open replays; a flush at close waited, with L0 at its stop trigger, for
          // compactions that closing cancels, and hung (seen in KillTrialsTest).
          .setAvoidFlushDuringShutdown(memoryPrep != null)
          .setListeners(List.of(listener)));
      List<ColumnFamilyDescriptor> descriptors = List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultCfo),
          new ColumnFamilyDescriptor(utf8(FAST_CF), fastCfo),
          new ColumnFamilyDescriptor(utf8(SLOW_CF), slowCfo),
          new ColumnFamilyDescriptor(utf8(HOT_CF), hotCfo));
      db = RocksDB.open(dbo, layout.dbDir().toString(), descriptors, handles);
      if (memoryPrep != null) {
        memoryPrep.opened();
      }
      StoreMetadata.writeOrCheck(db, handles.get(0), options, storeId);
      if (memoryPrep != null
          && db.getLongProperty(handles.get(0), "rocksdb.num-entries-active-mem-table") > 0) {
        // Recovery after a machine loss ignores RocksDB's WAL (MemoryTier): the metadata goes to a file.
        try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
          db.flush(fo, handles.get(0));
        }
      }
      HotRapDB store = new HotRapDB(options, layout, storeId, resources, db, handles, listener,
          nativeDemotion, hooks, memoryPrep == null ? null : memoryPrep.dir);
      try {
        store.start();
      } catch (RocksDBException | RuntimeException | Error e) {
        // The store owns every resource now: close it as a whole, threads and RALT included, so a
        // failed open leaves no thread, lock or open file behind.
        try {
          store.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        success = true; // nothing left for the cleanup below
        throw e;
      }
      success = true;
      return store;
    } catch (RocksDBException e) {
      throw new HotRapException("cannot open the store at " + options.fastPath(), e);
    } catch (java.io.IOException e) {
      throw new HotRapException("cannot open the store at " + options.fastPath()
          + ": the memory tier's directory or log failed", e);
    } finally {
      if (!success) {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
        if (db != null) {
          db.close();
        }
        closeAll(resources);
      }
    }
  }

  /**
   * Loads RocksDB's native library as {@link #open} does: from one copy per library build in the
   * temporary directory, shared by every JVM, rather than a new copy per process that a killed JVM
   * leaves behind. Call it before using RocksJava directly in a JVM that does so before it opens a
   * store. Idempotent.
   */
  public static void loadNativeLibrary() {
    NativeLibrary.load();
  }

  private void start() throws RocksDBException {
    if (separator != null) {
      rebuildMembers(separator);
    } else if (db.getLongProperty(hotCf, "rocksdb.estimate-num-keys") > 0
        || db.getLongProperty(hotCf, "rocksdb.num-entries-active-mem-table") > 0
        || db.getLongProperty(hotCf, "rocksdb.live-sst-files-size") > 0) {
      // Opened with separation off after it was on: move fast-hot's records back to fast first.
      try (WriteHotSeparator drain = new WriteHotSeparator(db, fastCf, hotCf, options, gate, counters,
          nativeDemotion)) {
        rebuildMembers(drain);
      }
    }
    migrator.refreshSizes();
    listener.attach(migrator, scheduler);
    if (memory != null) {
      listener.attachMemory(memory);
    }
    scheduler.start();
    if (flashCache != null) {
      metrics.addBinder(flashCache.metrics(metrics.tags()));
    }
    if (options.meterRegistry() != null) {
      metrics.bindTo(options.meterRegistry());
    }
    scheduler.requestCheck();
  }

  private static void rebuildMembers(WriteHotSeparator s) throws RocksDBException {
    try {
      s.rebuildMembers();
    } catch (RocksDBException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new HotRapException("cannot read the fast-hot column family", e);
    }
  }

  // ---------------------------------------------------------------- reads

  /**
   * The value of {@code key}, or null when absent.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalArgumentException if {@code key} is longer than {@link HotRapOptions#maxKeyBytes()}
   */
  public byte[] get(byte[] key) {
    checkKey(key);
    guard.enter();
    try {
      return read(readOptions, key, true);
    } finally {
      guard.exit();
    }
  }

  /** The value of {@code key} as of {@code snapshot}, or null when absent. */
  public byte[] get(HotRapSnapshot snapshot, byte[] key) {
    Objects.requireNonNull(snapshot, "snapshot");
    checkKey(key);
    checkOwner(snapshot);
    guard.enter();
    try {
      return snapshot.read(ro -> read(ro, key, false));
    } finally {
      guard.exit();
    }
  }

  /**
   * Fast tier, then the promotion cache (its mutable table, then the tables being checked), then
   * the slow tier (DESIGN.md §4); with a flash cache, the slow tier is read in three steps: its
   * memtables and block cache without I/O, then the flash cache, then the disk ({@link
   * SlowTierCache}). Reads at a snapshot ({@code latest} false) skip both caches, which hold only
   * newest versions, and do not offer what they read to them.
   */
  private byte[] read(ReadOptions ro, byte[] key, boolean latest) {
    try {
      Promoter p = latest ? promoter : null;
      SlowTierCache fc = latest ? flashCache : null;
      // Reads at a snapshot are user reads too: they count for skew and for RALT alike.
      boolean track = trackRead(key);
      // Rule P2's counter, read before the fast lookup, guards both caches' inserts.
      long counter = p != null ? p.beforeFastLookup(key)
          : fc != null ? gate.stripes().counter(gate.stripes().stripeOf(key)) : 0;
      byte[] value = null;
      // Write-hot separation: fast-hot holds the newest version of its members (S1, S2 in
      // WriteHotSeparator); a reader that finds the key no member can skip it. A read at a
      // snapshot cannot: the key may have been a member then.
      if (separator != null && (!latest || separator.mayHold(key))) {
        value = db.get(hotCf, ro, key);
      }
      if (value == null) {
        value = db.get(fastCf, ro, key);
      }
      if (value == null && p != null) {
        value = p.lookup(key);
      }
      if (value != null) {
        counters.getsServedFast.increment();
        if (track) {
          tracker.record(key, value.length, false);
        }
        return value;
      }
      counters.getsServedSlow.increment();
      if (fc != null) {
        // The slow tier's memtables, filters and block cache first, without I/O: a record found
        // there (or ruled out) needs neither the flash cache nor the disk. (keyMayExist's value
        // is not used: in RocksJava 11.8.1 it sometimes reported an empty value as found.)
        try {
          value = db.get(slowCf, memoryOnlyReads, key);
          if (value == null) {
            return null;
          }
          if (track) {
            tracker.record(key, value.length, true);
          }
          return value;
        } catch (RocksDBException e) {
          if (e.getStatus() == null || e.getStatus().getCode() != Status.Code.Incomplete) {
            throw e;
          }
        }
        value = fc.lookup(key);
        if (value != null) {
          if (track) {
            tracker.record(key, value.length, true);
          }
          return value;
        }
      }
      value = db.get(slowCf, ro, key);
      if (value != null) {
        if (track) {
          tracker.record(key, value.length, true);
          if (p != null) {
            p.offer(key, value, counter);
          }
        }
        if (fc != null) {
          fc.offer(key, value, counter);
        }
      }
      return value;
    } catch (RocksDBException e) {
      throw new HotRapException("get failed", e);
    }
  }

  /**
   * Feeds one get's key to the read-skew detector and tells whether the get is to be recorded in
   * RALT and offered to promotion: always without detection, otherwise while the last window of
   * reads was skewed (or none has closed yet).
   */
  private boolean trackRead(byte[] key) {
    SkewDetector d = readSkew;
    if (d == null) {
      return true;
    }
    d.record(key, 1);
    if (d.skewed()) {
      return true;
    }
    counters.untrackedReads.increment();
    return false;
  }

  /** Whether scans record what they read in RALT: as gets do ({@link #trackRead}), without feeding the detector. */
  boolean readsTracked() {
    return readSkew == null || readSkew.skewed();
  }

  /**
   * The store's keys as RocksDB estimates them (every column family's {@code
   * rocksdb.estimate-num-keys}: versions and tombstones count too, which can only make the read-skew
   * detector call reads skewed sooner); at least 1, and 1 when the estimate fails.
   */
  private long estimatedKeys() {
    try {
      long keys = 0;
      for (ColumnFamilyHandle cf : new ColumnFamilyHandle[] {fastCf, hotCf, slowCf}) {
        keys += db.getLongProperty(cf, "rocksdb.estimate-num-keys");
      }
      return Math.max(1, keys);
    } catch (RocksDBException | RuntimeException e) {
      return 1;
    }
  }

  /** An iterator over the whole store at an implicit snapshot taken now. */
  public HotRapIterator newIterator() {
    return iterator(null, null, null);
  }

  /** An iterator over {@code [lowInclusive, highExclusive)} at an implicit snapshot; a null bound is open. */
  public HotRapIterator newIterator(byte[] lowInclusive, byte[] highExclusive) {
    return iterator(null, lowInclusive, highExclusive);
  }

  /** An iterator over the whole store as of {@code snapshot}. */
  public HotRapIterator newIterator(HotRapSnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    return iterator(snapshot, null, null);
  }

  /** An iterator over {@code [lowInclusive, highExclusive)} as of {@code snapshot}. */
  public HotRapIterator newIterator(HotRapSnapshot snapshot, byte[] lowInclusive, byte[] highExclusive) {
    Objects.requireNonNull(snapshot, "snapshot");
    return iterator(snapshot, lowInclusive, highExclusive);
  }

  private HotRapIterator iterator(HotRapSnapshot snapshot, byte[] low, byte[] high) {
    if (snapshot != null) {
      checkOwner(snapshot);
    }
    if (low != null && high != null && Arrays.compareUnsigned(low, high) > 0) {
      throw new IllegalArgumentException("lowInclusive must not be above highExclusive");
    }
    guard.enter();
    try {
      HotRapIterator it = new HotRapIterator(this, snapshot, low, high);
      openViews.add(it);
      return it;
    } finally {
      guard.exit();
    }
  }

  /** A snapshot of both tiers; close it when done. */
  public HotRapSnapshot getSnapshot() {
    guard.enter();
    try {
      liveSnapshots.incrementAndGet();
      HotRapSnapshot s;
      try {
        s = new HotRapSnapshot(this, db);
      } catch (RuntimeException | Error e) {
        liveSnapshots.decrementAndGet();
        throw e;
      }
      openViews.add(s);
      openSnapshots.add(s);
      counters.openSnapshots = openSnapshots.size();
      return s;
    } finally {
      guard.exit();
    }
  }

  // ---------------------------------------------------------------- writes

  /**
   * Writes {@code value} for {@code key} on the fast tier. May wait while the fast tier is at its
   * budget (see {@link HotRapOptions#maxWriteStall()}).
   */
  public void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    if (memory != null) {
      applyMemory("put", new byte[][] {key}, new byte[][] {value});
      return;
    }
    apply("put", () -> db.put(route(key), writeOptions, key, value), key, null);
    if (separator != null) {
      separator.recordWrite(key, key.length + value.length);
    }
  }

  /** Deletes {@code key} from both tiers in one atomic batch (I3). */
  public void delete(byte[] key) {
    checkKey(key);
    if (memory != null) {
      applyMemory("delete", new byte[][] {key}, new byte[][] {null});
      return;
    }
    apply("delete", () -> {
      try (WriteBatch batch = new WriteBatch()) {
        batch.delete(fastCf, key);
        batch.delete(slowCf, key);
        if (separator != null) {
          batch.delete(hotCf, key);
        }
        db.write(writeOptions, batch);
      }
    }, key, null);
  }

  /** Applies {@code batch} atomically: all its operations become visible at once, or none. */
  public void write(HotRapWriteBatch batch) {
    Objects.requireNonNull(batch, "batch");
    List<HotRapWriteBatch.Op> ops = batch.ops();
    for (HotRapWriteBatch.Op op : ops) {
      checkKey(op.key);
      if (op.value != null) {
        checkValue(op.value);
      }
    }
    if (ops.isEmpty()) {
      return;
    }
    if (memory != null) {
      byte[][] keys = new byte[ops.size()][];
      byte[][] values = new byte[ops.size()][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = ops.get(i).key;
        values[i] = ops.get(i).value;
      }
      applyMemory("write", keys, values);
      return;
    }
    apply("write", () -> {
      try (WriteBatch wb = new WriteBatch()) {
        for (HotRapWriteBatch.Op op : ops) {
          if (op.value != null) {
            wb.put(route(op.key), op.key, op.value);
          } else {
            wb.delete(fastCf, op.key);
            wb.delete(slowCf, op.key);
            if (separator != null) {
              wb.delete(hotCf, op.key);
            }
          }
        }
        db.write(writeOptions, wb);
      }
    }, null, ops);
    if (separator != null) {
      for (HotRapWriteBatch.Op op : ops) {
        if (op.value != null) {
          separator.recordWrite(op.key, op.key.length + op.value.length);
        }
      }
    }
  }

  /** The column family a user put of {@code key} goes to; call inside the writer's shared hold. */
  private ColumnFamilyHandle route(byte[] key) {
    return separator == null ? fastCf : separator.route(key);
  }

  /** One RocksDB write of a user operation. */
  @FunctionalInterface
  private interface RocksWrite {
    void run() throws RocksDBException;
  }

  /**
   * The one write path of every user write: a put, a delete and a batch are each one atomic RocksDB
   * write of one or more keys ({@code key}, or the keys of {@code ops}). The sequence is the
   * writer's side of the {@link CommitGate} protocol (DESIGN.md §6): wait for room on the fast tier
   * before taking the gate (a writer waiting inside it would keep the migrator, which needs it
   * exclusive, from making room); then, inside one shared hold, write and mark every key written.
   */
  private void apply(String what, RocksWrite write, byte[] key, List<HotRapWriteBatch.Op> ops) {
    guard.enter();
    try {
      throttle.awaitRoom(requestMigration);
      gate.enterWriter();
      try {
        if (nativeDemotion != null) {
          if (key != null) {
            nativeDemotion.beforeWrite(key);
          } else {
            for (HotRapWriteBatch.Op op : ops) {
              nativeDemotion.beforeWrite(op.key);
            }
          }
        }
        write.run();
        if (key != null) {
          gate.markWritten(key);
        } else {
          for (HotRapWriteBatch.Op op : ops) {
            gate.markWritten(op.key);
          }
        }
      } finally {
        gate.exitWriter();
      }
    } catch (RocksDBException e) {
      throw new HotRapException(what + " failed", e);
    } finally {
      guard.exit();
    }
  }

  /**
   * {@link #apply} for a store with a memory tier: the same writer protocol around
   * {@link MemoryTier#write}, which logs the write and applies it without RocksDB's WAL.
   */
  private void applyMemory(String what, byte[][] keys, byte[][] values) {
    guard.enter();
    try {
      throttle.awaitRoom(requestMigration);
      gate.enterWriter();
      try {
        memory.write(keys, values);
        for (byte[] k : keys) {
          gate.markWritten(k);
        }
      } finally {
        gate.exitWriter();
      }
    } catch (RocksDBException e) {
      throw new HotRapException(what + " failed", e);
    } catch (java.io.IOException e) {
      throw new HotRapException(what + " failed: the tier log could not be written", e);
    } finally {
      guard.exit();
    }
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Flushes both tiers' memtables to SST files and waits for it (with a memory tier, the fast
   * tier's new L0 files are in the memory directory).
   */
  public void flush() {
    guard.enter();
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo, separator != null ? List.of(hotCf, fastCf, slowCf) : List.of(fastCf, slowCf));
      scheduler.requestCheck();
    } catch (RocksDBException e) {
      throw new HotRapException("flush failed", e);
    } finally {
      guard.exit();
    }
  }

  /**
   * Waits until the background work triggered so far is done: RALT's buffered accesses, RocksDB's
   * flushes and compactions, and the migrations they call for. When it returns the fast tier is
   * under its high watermark unless open snapshots pin the versions migration would free.
   */
  public void awaitBackgroundWork() {
    guard.enter();
    try {
      tracker.awaitQuiescence();
      for (int round = 0; round < MAX_AWAIT_ROUNDS; round++) {
        if (promoter != null) {
          promoter.awaitIdle();
        }
        if (separator != null) {
          separator.awaitIdle();
        }
        awaitRocksIdle();
        long ticket = scheduler.requestCheck();
        scheduler.awaitCheck(ticket);
        if (!scheduler.lastCheckMigrated() && rocksIdle()) {
          return;
        }
      }
    } catch (RocksDBException e) {
      throw new HotRapException("waiting for background work failed", e);
    } finally {
      guard.exit();
    }
  }

  private void awaitRocksIdle() throws RocksDBException {
    long deadline = System.nanoTime() + MAX_IDLE_WAIT_NANOS;
    boolean idle;
    while (!(idle = rocksIdle()) && System.nanoTime() < deadline) {
      // RocksDB offers no wait for this in RocksJava; its own tests poll the same properties.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
    // Only when the deadline passed: a second check here found work begun after the loop saw
    // RocksDB idle, and warned of a 120-s wait in runs of a few seconds.
    if (!idle) {
      LOG.warning("RocksDB is still busy after " + TimeUnit.NANOSECONDS.toSeconds(MAX_IDLE_WAIT_NANOS)
          + " s: " + busyState());
    }
  }

  /** RocksDB's background-work properties, for a message. */
  private String busyState() throws RocksDBException {
    StringBuilder b = new StringBuilder()
        .append("running flushes ").append(db.getLongProperty("rocksdb.num-running-flushes"))
        .append(", running compactions ").append(db.getLongProperty("rocksdb.num-running-compactions"));
    for (ColumnFamilyHandle cf : List.of(fastCf, slowCf, hotCf)) {
      b.append("; ").append(new String(cf.getName(), StandardCharsets.UTF_8))
          .append(": flush pending ").append(db.getLongProperty(cf, "rocksdb.mem-table-flush-pending"))
          .append(", compaction pending ").append(db.getLongProperty(cf, "rocksdb.compaction-pending"))
          .append(", L0 files ").append(db.getProperty(cf, "rocksdb.num-files-at-level0"));
    }
    return b.toString();
  }

  private boolean rocksIdle() throws RocksDBException {
    return db.getLongProperty("rocksdb.num-running-flushes") == 0
        && db.getLongProperty("rocksdb.num-running-compactions") == 0
        && db.getLongProperty(fastCf, "rocksdb.mem-table-flush-pending") == 0
        && db.getLongProperty(slowCf, "rocksdb.mem-table-flush-pending") == 0
        && db.getLongProperty(fastCf, "rocksdb.compaction-pending") == 0
        && db.getLongProperty(slowCf, "rocksdb.compaction-pending") == 0
        // Not fast-hot's "compaction-pending": under universal compaction it stays 1 whenever the
        // sorted runs reach the trigger, even when the picker finds nothing to merge and no
        // compaction ever starts (RocksDB issue 9275); running compactions cover the real ones.
        && db.getLongProperty(hotCf, "rocksdb.mem-table-flush-pending") == 0;
  }

  /** Current statistics. */
  public HotRapStats stats() {
    guard.enter();
    try {
      if (memory != null) {
        memory.refreshCounters();
      }
      long hotWritten = Math.max(0, sstBytesWritten(hotCf));
      counters.hotBytesWritten = hotWritten;
      if (promoter != null) {
        counters.promotionCacheBytes = promoter.cache().bytes();
        counters.promotionCachePeakBytes = promoter.cache().peakBytes();
        counters.admissionFilterBytes =
            promoter.admission() == null ? 0 : promoter.admission().memoryBytes();
      }
      return new HotRapStats(counters, tracker.available(), tracker.stats(),
          sstBytesWritten(fastCf) + hotWritten, sstBytesWritten(slowCf), separator);
    } finally {
      guard.exit();
    }
  }

  /** The store's meters, to bind to a registry other than {@link HotRapOptions#meterRegistry()}. */
  public HotRapMetrics metrics() {
    return metrics;
  }

  /** The options the store was opened with. */
  public HotRapOptions options() {
    return options;
  }

  /**
   * Stops migration, closes open iterators and snapshots, and closes RocksDB and RALT. Waits for
   * calls in flight; writes acknowledged before are durable as far as their {@code sync} setting
   * says. Idempotent.
   */
  @Override
  public void close() {
    if (!guard.beginClose()) {
      return;
    }
    throttle.close();
    guard.drain();
    listener.detach();
    scheduler.close();
    if (promoter != null) {
      promoter.close();
    }
    if (separator != null) {
      separator.close();
    }
    migrator.close();
    metrics.unbindAll();
    for (AutoCloseable view : openViews.toArray(new AutoCloseable[0])) {
      try {
        view.close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "failed to close " + view, e);
      }
    }
    if (memory != null) {
      memory.close();
    }
    tracker.close();
    readOptions.close();
    memoryOnlyReads.close();
    writeOptions.close();
    boolean walSynced = false;
    try {
      db.syncWal();
      walSynced = true;
    } catch (RocksDBException e) {
      LOG.log(Level.WARNING, "WAL sync at close failed", e);
    }
    if (flashCache != null) {
      // After the last write and move, and once the log holds them durably: the saved items are
      // current for this sequence number, which a recovery after a power loss reaches again.
      try {
        if (walSynced) {
          flashCache.close(storeId, db.getLatestSequenceNumber());
        } else {
          flashCache.close();
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "closing the flash cache failed; it will start cold", e);
      }
    }
    defaultCf.close();
    fastCf.close();
    slowCf.close();
    hotCf.close();
    db.close();
    closeAll(resources);
  }

  // ---------------------------------------------------------------- package-private access

  /** Flush and compaction output of one column family, from RocksDB's "rocksdb.cfstats" map. */
  private long sstBytesWritten(ColumnFamilyHandle cf) {
    try {
      String gb = db.getMapProperty(cf, "rocksdb.cfstats").get("compaction.Sum.WriteGB");
      return gb == null ? 0 : (long) (Double.parseDouble(gb) * (1L << 30));
    } catch (RocksDBException | NumberFormatException e) {
      return -1;
    }
  }

  RocksDB rocks() { return db; }

  ColumnFamilyHandle fastHandle() { return fastCf; }

  ColumnFamilyHandle slowHandle() { return slowCf; }

  ColumnFamilyHandle hotHandle() { return hotCf; }

  WriteHotSeparator separator() { return separator; }

  LifecycleGuard guard() { return guard; }

  AccessTracker tracker() { return tracker; }

  CommitGate gate() { return gate; }

  TierMigrator migrator() { return migrator; }

  Promoter promoter() { return promoter; }

  SlowTierCache flashCache() { return flashCache; }

  MigrationScheduler scheduler() { return scheduler; }

  StoreLayout layout() { return layout; }

  MemoryTier memory() { return memory; }

  void forget(AutoCloseable view) {
    openViews.remove(view);
    if (openSnapshots.remove(view)) {
      liveSnapshots.decrementAndGet();
      counters.openSnapshots = openSnapshots.size();
      if (!guard.isClosed()) {
        // Versions the snapshot pinned may be free now.
        scheduler.requestCheck();
      }
    }
  }

  int openSnapshotCount() {
    return openSnapshots.size();
  }

  // ---------------------------------------------------------------- helpers

  private void checkKey(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length > options.maxKeyBytes()) {
      throw new IllegalArgumentException("key is " + key.length + " bytes, above the limit maxKeyBytes = "
          + options.maxKeyBytes());
    }
  }

  private void checkValue(byte[] value) {
    Objects.requireNonNull(value, "value");
    if (value.length > options.maxValueBytes()) {
      throw new IllegalArgumentException("value is " + value.length
          + " bytes, above the limit maxValueBytes = " + options.maxValueBytes());
    }
  }

  private void checkOwner(HotRapSnapshot snapshot) {
    if (snapshot.owner() != this) {
      throw new IllegalArgumentException("the snapshot belongs to another store");
    }
  }

  /** What a user write invalidates under its stripe lock: the promotion cache and the flash cache. */
  private static CommitGate.PromotionInvalidator invalidators(Promoter promoter, SlowTierCache flash) {
    if (promoter == null) {
      return flash != null ? flash : CommitGate.PromotionInvalidator.NONE;
    }
    if (flash == null) {
      return promoter;
    }
    return key -> {
      promoter.invalidate(key);
      flash.invalidate(key);
    };
  }

  private static <T extends AutoCloseable> T track(List<AutoCloseable> resources, T resource) {
    resources.add(resource);
    return resource;
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "failed to close " + resources.get(i), e);
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

}
