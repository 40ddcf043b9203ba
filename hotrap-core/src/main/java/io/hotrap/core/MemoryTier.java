package io.hotrap.core;

import io.hotrap.wal.Durability;
import io.hotrap.wal.LogRecord;
import io.hotrap.wal.TierLog;
import io.hotrap.wal.TierLogOptions;
import io.hotrap.wal.TierLogStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The memory tier above the fast disk (DESIGN.md §15, after WAL-assisted tiering, MEMSYS '20): the
 * newest user writes live in a RocksDB instance of their own whose files are all in the memory
 * directory (a tmpfs), and are made durable by a {@link TierLog} on the fast disk until they reach
 * an SST file of the fast tier. Upper-level compactions of the newest data run in RAM; the fast
 * disk receives the tier's data once, as large sorted files.
 *
 * <h2>Layout</h2>
 *
 * <pre>
 * &lt;memoryDir&gt;/hotrap-&lt;store id&gt;/   the memory instance (MANIFEST, SST files); rebuilt at every
 *                                     open, deleted at close
 * &lt;fastPath&gt;/tierlog/                the tier log ({@link TierLog})
 * &lt;fastPath&gt;/ingest/                 sorted files on their way into the fast tier
 * main instance, default CF           "hotrap.memory.moved.through": the highest log sequence
 *                                     number whose data is in the fast tier's files
 * </pre>
 *
 * <h2>Generations</h2>
 *
 * The memory instance holds one column family per <em>generation</em>, each covering a contiguous
 * range of log sequence numbers. User writes go to the newest (active) one. Once it holds
 * {@code memoryBytes / 2}, the mover ({@link #moveIfNeeded}, on the {@link MemoryMover} thread)
 * freezes it — a new active generation starts at the
 * next sequence number — writes the frozen generation's records as sorted SST files, ingests them
 * into the fast tier, records the frozen generation's last sequence number as <em>moved through</em>
 * (synced), marks the log dead up to it, and retires the generation; it is dropped once no reader
 * holds it. Reads look at the generations newest first, then at the fast tier, the promotion cache
 * and the slow tier. Ingestion gives the files a sequence number above everything in the fast tier,
 * which is right because every version in the frozen generation is newer than every version of the
 * same key in the fast and slow tiers (they only ever received older generations, and promotions,
 * which copy slow-tier versions). One exception: a delete written while the generation was frozen
 * tombstoned the fast and slow tiers directly, and the ingestion lands above those tombstones (the
 * delete itself sits in the newer generation, which hides the key meanwhile). Migration may then
 * demote the ingested older version above the slow tier's tombstone; so when a generation moves,
 * its deletes tombstone the slow tier again, in the same exclusive hold (the ingested file carries
 * them into the fast tier). {@code MemoryTierTest.aDeleteRacingTheMoveOfAnOlderGeneration...}.
 *
 * <p>The mover runs beside tier migration and promotion. Both read the fast tier and later commit
 * under the {@link CommitGate}, dropping the keys written meanwhile; an ingestion changes the fast
 * tier like a write, so it is treated as one: with the gate held exclusive, the mover ingests and
 * marks every ingested key written ({@link CommitGate#markWritten}). A migration that read the fast
 * tier before then drops those keys at commit instead of demoting (and tombstoning) the newer
 * ingested version; one that reads after sees it.
 *
 * <h2>Deletes</h2>
 *
 * A delete is stored in the memory tier as a value with the {@link MemoryRecords#DELETED} tag,
 * not as a RocksDB tombstone, because a Java get cannot tell a tombstone from a miss: a tagged
 * delete stops a read before it reaches the older tiers, so every user write, put or delete,
 * becomes visible in one atomic write of the memory instance. The delete also writes tombstones to the fast and slow
 * tiers as in the core store (I3); when its generation moves, it becomes a tombstone in the ingested
 * file. Values in the memory instance carry a one-byte tag ({@link MemoryRecords}).
 *
 * <h2>Durability and recovery</h2>
 *
 * The memory instance writes no RocksDB WAL; the tier log is its log. A write is appended to the
 * log and applied to the memory instance under one lock ({@code seqLock}), so the log's order is the
 * instance's order, and acknowledged once the log reached {@code WRITTEN} (process crash) or, with
 * {@link HotRapOptions#syncWrites()}, {@code SYNCED} (power loss). A reader may see a write that is
 * not yet acknowledged, and a crash may then lose it; an acknowledged one is never lost.
 *
 * <p>Open always rebuilds the memory instance from the log: it deletes whatever the memory
 * directory holds for this store, creates an empty instance and replays, in sequence order, every
 * log record above <em>moved through</em>. A process crash (memory directory intact) and a machine
 * loss (memory directory empty) take the same path, so the main instance's MANIFEST never refers
 * to a file in RAM and needs no repair. Why the replay cannot bring back an old version:
 * <ul>
 *   <li>Records at or below <em>moved through</em> are skipped even if their liveness bits were
 *       lost in the crash, so the replay is exactly the suffix of the log above it.
 *   <li>Generations move oldest first and <em>moved through</em> is written only after the
 *       ingestion returned (the ingested files are in the MANIFEST, synced), so everything at or
 *       below it is in the fast tier's files, and everything above it is in the log.
 *   <li>The replayed records go into the memory tier, which reads shadow the disk tiers with; every
 *       replayed record is newer than any version of its key on disk (the bullet on ingestion
 *       above), so shadowing is right. If a crash hit between an ingestion and the write of
 *       <em>moved through</em>, the replay puts a copy of versions already on disk above them:
 *       the same versions, harmless.
 *   <li>A replayed delete rewrites its tombstones into the fast and slow tiers; nothing there is
 *       newer than it, by the same argument.
 * </ul>
 *
 * <h2>Threads</h2>
 *
 * Thread-safe. Writers call {@link #write} inside the {@link CommitGate}'s shared hold; freezing a
 * generation, retiring one, and taking a {@link View} for a snapshot or an iterator run with the
 * gate exclusive, so a view sees every write completely or not at all and sees either the frozen
 * generation or its ingested files (possibly both: the same versions). Plain gets take a
 * {@link View} without the gate: a generation is retired only after its files are ingested, and a
 * reader that holds it keeps it from being dropped ({@code views} lock, reference counts).
 */
final class MemoryTier implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MemoryTier.class.getName());
  static final String LOG_DIR = "tierlog";
  static final String INGEST_DIR = "ingest";
  private static final byte[] MOVED_THROUGH = utf8("hotrap.memory.moved.through");
  private static final int REPLAY_BATCH_BYTES = 4 << 20;
  private static final long MIN_SEGMENT_BYTES = 256 << 10;
  private static final long MAX_SEGMENT_BYTES = 64L << 20;
  /**
   * Log segments per memory tier: each seal forces the segment on the write path, so segments
   * are large, yet at λ_t = 2.5 the log still spans about ten of them for trim to choose from.
   */
  private static final long SEGMENTS_PER_TIER = 4;

  private final HotRapOptions options;
  private final RocksDB main;
  private final ColumnFamilyHandle metaCf;
  private final ColumnFamilyHandle fastCf;
  private final ColumnFamilyHandle slowCf;
  private final WriteOptions mainWrite;
  private final WriteOptions syncWrite = new WriteOptions().setSync(true);
  private final CommitGate gate;
  private final StoreCounters counters;
  private final Path memDir;
  private final Path ingestDir;
  private final DBOptions memDbOptions;
  private final ColumnFamilyOptions genOptions;
  private final WriteOptions memWrite = new WriteOptions().setDisableWAL(true);
  private final RocksDB mem;
  private final List<ColumnFamilyHandle> memHandles = new ArrayList<>();
  /** The generations' Bloom filter policy and block cache, closed after the instance. */
  private final List<AutoCloseable> tableResources = new ArrayList<>();
  private final Durability ack;
  private final long freezeBytes;
  /** Bytes written between two size checks of the active generation (each asks the mover). */
  private final long checkBytes;
  private TierLog log;

  /** Live generations, newest first; replaced (copy on write) with the gate exclusive. */
  private volatile List<Generation> gens = List.of();
  private final Object views = new Object();

  private final ReentrantLock seqLock = new ReentrantLock();
  private long nextSeq; // guarded by seqLock
  private volatile long movedThrough;

  private final ReentrantLock roomLock = new ReentrantLock();
  private final Condition roomFreed = roomLock.newCondition();
  private final AtomicLong bytesSinceCheck = new AtomicLong();
  private volatile Runnable requestMove = () -> { };
  private volatile boolean closed;
  /** Test hook: runs on the mover thread after a freeze, before the frozen generation is read. */
  volatile Runnable afterFreeze;

  /** One column family of the memory instance and the log sequence numbers it covers. */
  static final class Generation {
    final long firstSeq;
    final ColumnFamilyHandle cf;
    /** Guarded by {@code views}. */
    int refs;
    boolean retired;

    Generation(long firstSeq, ColumnFamilyHandle cf) {
      this.firstSeq = firstSeq;
      this.cf = cf;
    }
  }

  /**
   * The generations a reader reads, held until {@link #close()}; with a snapshot of the memory
   * instance when made by {@link #snapshotView()}.
   */
  final class View implements AutoCloseable {
    final List<Generation> gens;
    final Snapshot snapshot;
    final ReadOptions readOptions;
    private boolean released;

    private View(List<Generation> gens, Snapshot snapshot) {
      this.gens = gens;
      this.snapshot = snapshot;
      this.readOptions = snapshot == null ? null : new ReadOptions().setSnapshot(snapshot);
    }

    /** Reads {@code key} in the generations, newest first; see {@link MemoryTier#lookup}. */
    byte[] lookup(byte[] key) throws RocksDBException {
      return MemoryTier.this.lookup(this, readOptions, key);
    }

    /** One iterator per generation, newest first; the caller closes them before this view. */
    List<RocksIterator> iterators(ReadOptions ro) throws RocksDBException {
      List<ColumnFamilyHandle> cfs = new ArrayList<>();
      for (Generation g : gens) {
        cfs.add(g.cf);
      }
      return cfs.isEmpty() ? List.of() : mem.newIterators(cfs, ro);
    }

    @Override
    public void close() {
      synchronized (views) {
        if (released) {
          return;
        }
        released = true;
      }
      if (snapshot != null) {
        mem.releaseSnapshot(snapshot);
        readOptions.close();
      }
      release(gens);
    }
  }


  private MemoryTier(HotRapOptions options, RocksDB main, ColumnFamilyHandle metaCf,
      ColumnFamilyHandle fastCf, ColumnFamilyHandle slowCf, CommitGate gate,
      StoreCounters counters, Path memDir, DBOptions memDbOptions, ColumnFamilyOptions genOptions,
      RocksDB mem) {
    this.options = options;
    this.main = main;
    this.metaCf = metaCf;
    this.fastCf = fastCf;
    this.slowCf = slowCf;
    this.mainWrite = new WriteOptions().setSync(options.syncWrites());
    this.gate = gate;
    this.counters = counters;
    this.memDir = memDir;
    this.ingestDir = options.fastPath().resolve(INGEST_DIR);
    this.memDbOptions = memDbOptions;
    this.genOptions = genOptions;
    this.mem = mem;
    this.ack = options.syncWrites() ? Durability.SYNCED : Durability.WRITTEN;
    this.freezeBytes = Math.max(options.writeBufferBytes(), options.memoryTierBytes() / 2);
    this.checkBytes = Math.max(options.writeBufferBytes() / 4, freezeBytes / 8);
  }

  /**
   * Checks the memory directory, rebuilds the memory instance from the tier log and returns the
   * tier, ready for writes.
   *
   * @throws IllegalArgumentException if the memory directory is missing, not a directory or not
   *     writable
   * @throws HotRapException if RocksDB or the tier log fails
   */
  static MemoryTier open(HotRapOptions options, String storeId, RocksDB main,
      ColumnFamilyHandle metaCf, ColumnFamilyHandle fastCf, ColumnFamilyHandle slowCf,
      CommitGate gate, StoreCounters counters) {
    Path root = options.memoryDir();
    checkDirectory(root);
    Path memDir = root.resolve("hotrap-" + storeId);
    DBOptions dbo = null;
    ColumnFamilyOptions cfo = null;
    RocksDB mem = null;
    MemoryTier tier = null;
    // Owned by the column family options' user, closed after the instance (see close()).
    org.rocksdb.BloomFilter filter = new org.rocksdb.BloomFilter(HotRapOptions.DEFAULT_BLOOM_BITS_PER_KEY);
    org.rocksdb.LRUCache cache = new org.rocksdb.LRUCache(blockCacheBytes(options));
    try {
      StoreLayout.deleteTree(memDir); // rebuilt from the log: see the class javadoc
      StoreLayout.deleteTree(options.fastPath().resolve(INGEST_DIR));
      Files.createDirectories(memDir);
      Files.createDirectories(options.fastPath().resolve(INGEST_DIR));
      dbo = new DBOptions()
          .setCreateIfMissing(true)
          .setMaxBackgroundJobs(2)
          .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
          .setKeepLogFileNum(1);
      cfo = new ColumnFamilyOptions()
          .setWriteBufferSize(options.writeBufferBytes())
          .setMaxWriteBufferNumber(HotRapOptions.WRITE_BUFFERS_PER_TIER)
          .setTargetFileSizeBase(options.fastTargetFileBytes())
          .setMaxBytesForLevelBase(Math.max(4 * options.writeBufferBytes(),
              options.memoryTierBytes() / 8))
          // RAM is not the bottleneck CPU is here; the fast tier compresses what reaches it.
          .setCompressionType(CompressionType.NO_COMPRESSION)
          .setTableFormatConfig(new org.rocksdb.BlockBasedTableConfig()
              // Reads of keys the tier does not hold must not search every level of every
              // generation; the files are in RAM, so a small cache of parsed blocks suffices.
              .setFilterPolicy(filter)
              .setBlockCache(cache));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      mem = RocksDB.open(dbo, memDir.toString(),
          List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY)), handles);
      tier = new MemoryTier(options, main, metaCf, fastCf, slowCf, gate, counters, memDir, dbo,
          cfo, mem);
      tier.memHandles.addAll(handles);
      tier.tableResources.add(filter);
      tier.tableResources.add(cache);
      tier.recover();
      return tier;
    } catch (RocksDBException e) {
      cleanUp(tier, mem, dbo, cfo, filter, cache);
      throw new HotRapException("cannot open the memory tier in " + memDir, e);
    } catch (IOException e) {
      cleanUp(tier, mem, dbo, cfo, filter, cache);
      throw new HotRapException("cannot open the memory tier in " + memDir + " or its log", e);
    } catch (RuntimeException | Error e) {
      cleanUp(tier, mem, dbo, cfo, filter, cache);
      throw e;
    }
  }

  private static void cleanUp(MemoryTier tier, RocksDB mem, DBOptions dbo,
      ColumnFamilyOptions cfo, AutoCloseable... table) {
    if (tier != null) {
      tier.close();
      return;
    }
    for (AutoCloseable c : table) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "cannot close " + c, e);
      }
    }
    if (mem != null) {
      mem.close();
    }
    if (cfo != null) {
      cfo.close();
    }
    if (dbo != null) {
      dbo.close();
    }
  }

  /** The memory instance's block cache: a sixteenth of the tier, in addition to it. */
  static long blockCacheBytes(HotRapOptions options) {
    return Math.max(1L << 20, options.memoryTierBytes() / 16);
  }

  /** Bad input (DESIGN.md §11): the memory directory must exist and be writable. */
  static void checkDirectory(Path dir) {
    if (!Files.exists(dir)) {
      throw new IllegalArgumentException("memory tier directory " + dir + " does not exist");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("memory tier directory " + dir + " is not a directory");
    }
    Path probe = dir.resolve(".hotrap-write-probe");
    try {
      Files.deleteIfExists(probe);
      Files.createFile(probe);
      Files.delete(probe);
    } catch (IOException e) {
      throw new IllegalArgumentException("memory tier directory " + dir + " is not writable: " + e,
          e);
    }
  }

  /**
   * Refuses to open a store whose tier log holds records without the memory tier: they would be
   * ignored, and acknowledged writes lost.
   */
  static void checkNoOrphanLog(HotRapOptions options) {
    Path dir = options.fastPath().resolve(LOG_DIR);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      if (files.anyMatch(p -> p.getFileName().toString().endsWith(".log")
          || p.getFileName().toString().endsWith(".seg"))) {
        throw new IllegalArgumentException("the store at " + options.fastPath()
            + " has a memory tier log (" + dir + "); open it with memoryTier(...) so its records"
            + " are recovered");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void recover() throws RocksDBException, IOException {
    byte[] moved = main.get(metaCf, MOVED_THROUGH);
    movedThrough = moved == null ? -1 : ByteBuffer.wrap(moved).getLong();
    Generation first = createGeneration(movedThrough + 1);
    gens = List.of(first);
    Replay replay = new Replay(first);
    long start = System.nanoTime();
    try {
      log = TierLog.open(logOptions(), replay::accept);
      replay.finish();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (ReplayFailure e) {
      throw e.cause;
    }
    long replayed = replay.records;
    if (movedThrough >= 0) {
      log.markDead(0, movedThrough); // marks saved before a crash may have been lost
    }
    seqLock.lock();
    try {
      nextSeq = Math.max(log.lastSequence(), movedThrough) + 1;
    } finally {
      seqLock.unlock();
    }
    counters.memoryTierRecoveryNanos = System.nanoTime() - start;
    counters.memoryTierRecoveredRecords = replayed;
    if (!log.recoveryReport().clean()) {
      LOG.warning("tier log recovery: " + log.recoveryReport());
    }
    refreshCounters();
  }

  private TierLogOptions logOptions() {
    long segment = Math.max(MIN_SEGMENT_BYTES,
        Math.min(MAX_SEGMENT_BYTES, options.memoryTierBytes() / SEGMENTS_PER_TIER));
    TierLogOptions.Builder b = TierLogOptions.builder()
        .directory(options.fastPath().resolve(LOG_DIR))
        .memoryTierBytes(options.memoryTierBytes())
        .segmentBytes(segment)
        .codec(options.tierLogCodec());
    if (!options.tierLogTrim()) {
      b.trimTriggerRatio(1000);
    }
    return b.build();
  }

  private static final class ReplayFailure extends RuntimeException {
    final RocksDBException cause;

    ReplayFailure(RocksDBException cause) {
      super(cause);
      this.cause = cause;
    }
  }

  /** Applies replayed log records in chunks, memory instance and disk tiers each in order. */
  private final class Replay {
    private final Generation target;
    private WriteBatch memBatch = new WriteBatch();
    private WriteBatch mainBatch = new WriteBatch();
    long records;

    Replay(Generation target) {
      this.target = target;
    }

    void accept(LogRecord r) {
      if (r.seq() <= movedThrough) {
        return;
      }
      records++;
      try {
        MemoryRecords.decode(r, (key, value) -> {
          if (value == null) {
            memBatch.put(target.cf, key, new byte[] {MemoryRecords.DELETED});
            mainBatch.delete(fastCf, key);
            mainBatch.delete(slowCf, key);
          } else {
            memBatch.put(target.cf, key, value);
          }
        });
        if (memBatch.getDataSize() + mainBatch.getDataSize() >= REPLAY_BATCH_BYTES) {
          flushBatches();
        }
      } catch (RocksDBException e) {
        throw new ReplayFailure(e);
      }
    }

    private void flushBatches() throws RocksDBException {
      if (memBatch.count() > 0) {
        mem.write(memWrite, memBatch);
        memBatch.close();
        memBatch = new WriteBatch();
      }
      if (mainBatch.count() > 0) {
        main.write(mainWrite, mainBatch);
        mainBatch.close();
        mainBatch = new WriteBatch();
      }
    }

    void finish() throws RocksDBException {
      try {
        flushBatches();
      } finally {
        memBatch.close();
        mainBatch.close();
      }
    }
  }

  // ---------------------------------------------------------------- writes

  /**
   * Waits, outside the gate, while the active generation is full, until the mover froze it (which
   * waits for the previous generation to be moved), at most {@link HotRapOptions#maxWriteStall()}.
   * Like {@link WriteThrottle}: a writer must not wait inside the gate, which the mover needs
   * exclusive.
   */
  void awaitRoom() {
    if (bytesSinceCheck.get() < checkBytes || activeBytes() < freezeBytes) {
      return;
    }
    long begin = System.nanoTime();
    long deadline = begin + options.maxWriteStall().toNanos();
    counters.memoryTierStalls.increment();
    roomLock.lock();
    try {
      // Until the mover froze the full generation: at most two generations of freezeBytes, so
      // the tier stays within memoryBytes (give or take the memtable being filled).
      while (!closed && activeBytes() >= freezeBytes) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        requestMove.run();
        roomFreed.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      roomLock.unlock();
      counters.memoryTierStallNanos.add(System.nanoTime() - begin);
    }
  }

  /**
   * Applies one user operation or batch (values null for deletes); call inside the gate's shared
   * hold. Returns once the log record reached the store's durability.
   */
  void write(byte[][] keys, byte[][] values) throws RocksDBException, IOException {
    boolean deletes = false;
    long bytes = 0;
    for (int i = 0; i < keys.length; i++) {
      deletes |= values[i] == null;
      bytes += keys[i].length + (values[i] == null ? 0 : values[i].length);
    }
    try (WriteBatch batch = new WriteBatch()) {
      seqLock.lock();
      try {
        long seq = nextSeq;
        LogRecord record = MemoryRecords.encode(seq, keys, values);
        log.append(seq, record.key(), record.value(), Durability.BUFFERED);
        nextSeq = seq + 1;
        ColumnFamilyHandle active = gens.get(0).cf;
        if (keys.length == 1) {
          mem.put(active, memWrite, keys[0], record.value() == null ? new byte[] {MemoryRecords.DELETED}
              : record.value());
        } else {
          for (int i = 0; i < keys.length; i++) {
            batch.put(active, keys[i], values[i] == null ? new byte[] {MemoryRecords.DELETED}
                : MemoryRecords.tagged(values[i]));
          }
          mem.write(memWrite, batch);
        }
      } finally {
        seqLock.unlock();
      }
    }
    log.flush(ack);
    if (deletes) {
      // I3 as in the core store; the tagged delete in the memory tier already hides the key.
      try (WriteBatch tombstones = new WriteBatch()) {
        for (int i = 0; i < keys.length; i++) {
          if (values[i] == null) {
            tombstones.delete(fastCf, keys[i]);
            tombstones.delete(slowCf, keys[i]);
          }
        }
        main.write(mainWrite, tombstones);
      }
    }
    if (bytesSinceCheck.addAndGet(bytes) >= checkBytes) {
      requestMove.run();
    }
  }

  /** What a writer runs when the active generation is full: ask the {@link MemoryMover}. */
  void setMoveRequester(Runnable requester) {
    this.requestMove = requester;
  }

  // ---------------------------------------------------------------- reads

  /**
   * The newest memory-tier version of {@code key}: null if the tier does not hold the key,
   * {@link MemoryRecords#TOMBSTONE} (compare by identity) if it holds it deleted.
   */
  private byte[] lookup(View view, ReadOptions ro, byte[] key) throws RocksDBException {
    for (Generation g : view.gens) {
      byte[] v = ro == null ? mem.get(g.cf, key) : mem.get(g.cf, ro, key);
      if (v != null) {
        return MemoryRecords.untag(v);
      }
    }
    return null;
  }

  /** The live generations, held until the view is closed; no snapshot. */
  View view() {
    synchronized (views) {
      List<Generation> current = gens;
      for (Generation g : current) {
        g.refs++;
      }
      return new View(current, null);
    }
  }

  /**
   * A view with a snapshot of the memory instance; call with the gate exclusive, together with
   * the main instance's snapshot or iterators, so that both are one cut.
   */
  View snapshotView() {
    synchronized (views) {
      List<Generation> current = gens;
      for (Generation g : current) {
        g.refs++;
      }
      return new View(current, mem.getSnapshot());
    }
  }

  private void release(List<Generation> held) {
    List<Generation> doomed = new ArrayList<>();
    synchronized (views) {
      for (Generation g : held) {
        if (--g.refs == 0 && g.retired) {
          doomed.add(g);
        }
      }
    }
    for (Generation g : doomed) {
      drop(g);
    }
  }

  private void drop(Generation g) {
    try {
      if (!closed) {
        mem.dropColumnFamily(g.cf);
        synchronized (memHandles) {
          memHandles.remove(g.cf);
        }
        g.cf.close();
      }
    } catch (RocksDBException e) {
      LOG.log(Level.WARNING, "cannot drop memory generation " + g.firstSeq, e);
    }
  }

  // ---------------------------------------------------------------- the mover

  /**
   * Moves the active generation into the fast tier if it holds at least {@code memoryBytes / 2}
   * ({@code force}: if it holds anything). Runs on the migration thread only. Returns whether it
   * moved.
   */
  boolean moveIfNeeded(boolean force) throws Exception {
    refreshCounters();
    if (closed) {
      return false;
    }
    long active = activeBytes();
    bytesSinceCheck.set(0);
    if (!(force ? active > 0 || activeHasData() : active >= freezeBytes)) {
      return false;
    }
    // Freeze: from the next write on, writes go to a new generation. With the gate exclusive no
    // write is between its log append and its memory write, so the frozen generation holds
    // exactly the log records below the new generation's first sequence number.
    Generation[] frozen = new Generation[1];
    long[] lastSeq = new long[1];
    gate.commit(() -> {
      seqLock.lock();
      try {
        Generation next = createGeneration(nextSeq);
        frozen[0] = gens.get(0);
        lastSeq[0] = nextSeq - 1;
        List<Generation> list = new ArrayList<>(gens);
        list.add(0, next);
        gens = List.copyOf(list);
      } finally {
        seqLock.unlock();
      }
    });
    signalRoom(); // writers waiting for a full generation may go on in the new one
    Runnable hook = afterFreeze;
    if (hook != null) {
      hook.run();
    }
    List<byte[]> movedKeys = new ArrayList<>();
    List<byte[]> deletedKeys = new ArrayList<>();
    List<Path> files = writeSortedFiles(frozen[0], movedKeys, deletedKeys);
    gate.commit(() -> {
      if (!files.isEmpty()) {
        try (org.rocksdb.IngestExternalFileOptions io = new org.rocksdb.IngestExternalFileOptions()
            .setMoveFiles(true)) {
          List<String> names = new ArrayList<>();
          for (Path p : files) {
            names.add(p.toString());
          }
          main.ingestExternalFile(fastCf, names, io);
        }
      }
      if (!deletedKeys.isEmpty()) {
        // I3 across generations: a delete in this generation tombstoned the slow tier when it was
        // written, but an older generation ingested after that delete (it was frozen first) put
        // an older version into the fast tier, which migration may have demoted to the slow
        // tier above that tombstone. The ingested file's tombstone covers the fast tier; this
        // covers the slow one. Written before "moved through", whose synced write syncs it.
        try (WriteBatch tombstones = new WriteBatch()) {
          for (byte[] key : deletedKeys) {
            tombstones.delete(slowCf, key);
          }
          main.write(mainWrite, tombstones);
        }
      }
      for (byte[] key : movedKeys) {
        gate.markWritten(key); // see "The mover runs beside tier migration" above
      }
      // Only now is everything up to lastSeq in the fast tier's files (ingestion syncs them and
      // the MANIFEST); the synced write also syncs the WAL before it, with the delete tombstones.
      main.put(metaCf, syncWrite, MOVED_THROUGH,
          ByteBuffer.allocate(Long.BYTES).putLong(lastSeq[0]).array());
      movedThrough = lastSeq[0];
      retire(frozen[0]);
    });
    log.markDead(0, lastSeq[0]);
    counters.memoryTierMoves.increment();
    signalRoom();
    refreshCounters();
    return true;
  }

  private void signalRoom() {
    roomLock.lock();
    try {
      roomFreed.signalAll();
    } finally {
      roomLock.unlock();
    }
  }

  private boolean activeHasData() {
    try (RocksIterator it = mem.newIterator(gens.get(0).cf)) {
      it.seekToFirst();
      return it.isValid();
    }
  }

  private void retire(Generation g) {
    boolean dropNow;
    synchronized (views) {
      List<Generation> list = new ArrayList<>(gens);
      list.remove(g);
      gens = List.copyOf(list);
      g.retired = true;
      dropNow = g.refs == 0;
    }
    if (dropNow) {
      drop(g);
    }
  }

  /** The frozen generation's records, tagged deletes as tombstones, in fast-tier-sized files. */
  private List<Path> writeSortedFiles(Generation g, List<byte[]> keys, List<byte[]> deleted)
      throws RocksDBException, IOException {
    List<Path> files = new ArrayList<>();
    boolean success = false;
    org.rocksdb.SstFileWriter writer = null;
    try (org.rocksdb.EnvOptions env = new org.rocksdb.EnvOptions();
        org.rocksdb.Options sstOptions = new org.rocksdb.Options()
            .setCompressionType(options.fastCompression());
        ReadOptions ro = new ReadOptions().setFillCache(false);
        RocksIterator it = mem.newIterator(g.cf, ro)) {
      long written = 0;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (writer == null) {
          Path file = ingestDir.resolve("mem-" + g.firstSeq + "-" + files.size() + ".sst");
          Files.deleteIfExists(file);
          writer = new org.rocksdb.SstFileWriter(env, sstOptions);
          writer.open(file.toString());
          files.add(file);
          written = 0;
        }
        byte[] key = it.key();
        byte[] v = it.value();
        keys.add(key);
        if (v[0] == MemoryRecords.DELETED) {
          writer.delete(key);
          deleted.add(key);
        } else {
          writer.put(key, java.util.Arrays.copyOfRange(v, 1, v.length));
        }
        written += key.length + v.length;
        // Few large files: each ingested file is one more L0 file of the fast tier.
        if (written >= Math.max(options.fastTargetFileBytes(), freezeBytes / 4)) {
          writer.finish();
          writer.close();
          writer = null;
        }
      }
      it.status();
      if (writer != null) {
        writer.finish();
      }
      success = true;
      return files;
    } finally {
      if (writer != null) {
        writer.close();
      }
      if (!success) {
        for (Path p : files) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private Generation createGeneration(long firstSeq) throws RocksDBException {
    ColumnFamilyHandle cf = mem.createColumnFamily(
        new ColumnFamilyDescriptor(utf8("g" + firstSeq + "-" + System.nanoTime()), genOptions));
    synchronized (memHandles) {
      memHandles.add(cf);
    }
    return new Generation(firstSeq, cf);
  }

  // ---------------------------------------------------------------- sizes

  /** Bytes of the active generation: its SST files and memtables. */
  private long activeBytes() {
    return generationBytes(gens.get(0));
  }

  private long generationBytes(Generation g) {
    try {
      return mem.getLongProperty(g.cf, "rocksdb.total-sst-files-size")
          + mem.getLongProperty(g.cf, "rocksdb.cur-size-all-mem-tables");
    } catch (RocksDBException e) {
      return 0;
    }
  }

  /** Copies sizes into the counters behind {@link HotRapStats} and the meters. */
  void refreshCounters() {
    if (closed || log == null) {
      return;
    }
    long bytes = 0;
    synchronized (views) {
      for (Generation g : gens) {
        bytes += generationBytes(g);
      }
    }
    counters.memoryTierBytes = bytes;
    TierLogStats s = log.stats();
    counters.tierLogBytes = s.totalBytes();
    counters.tierLogLiveBytes = s.liveBytes();
    counters.tierLogTrims = s.trims();
    counters.tierLogCompressions = s.compressions();
    if (s.totalBytes() > counters.tierLogPeakBytes) {
      counters.tierLogPeakBytes = s.totalBytes();
    }
  }

  /** The tier log's statistics (tests and the bench). */
  TierLogStats logStats() {
    return log.stats();
  }

  /** Waits for the log's background compression and trim (tests and the bench). */
  void awaitLogWork() throws IOException {
    log.awaitBackgroundWork();
  }

  long movedThrough() {
    return movedThrough;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    roomLock.lock();
    try {
      roomFreed.signalAll();
    } finally {
      roomLock.unlock();
    }
    if (log != null) {
      try {
        log.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "closing the tier log failed", e);
      }
    }
    synchronized (memHandles) {
      for (ColumnFamilyHandle h : memHandles) {
        h.close();
      }
    }
    mem.close();
    try {
      StoreLayout.deleteTree(memDir); // the log holds everything; the next open rebuilds the tier from it
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot free the memory tier's files in " + memDir, e);
    }
    genOptions.close();
    memDbOptions.close();
    for (AutoCloseable c : tableResources) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "cannot close " + c, e);
      }
    }
    memWrite.close();
    mainWrite.close();
    syncWrite.close();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
