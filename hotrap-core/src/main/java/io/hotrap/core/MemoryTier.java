package io.hotrap.core;

import io.hotrap.wal.Durability;
import io.hotrap.wal.LogRecord;
import io.hotrap.wal.TierLog;
import io.hotrap.wal.TierLogOptions;
import io.hotrap.wal.TierLogStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The memory tier above the fast disk (DESIGN.md §15, after WAL-assisted tiering, MEMSYS '20):
 * the fast tier's level 0 lives in RAM, and every user write is made durable by a {@link TierLog}
 * on the fast disk instead of RocksDB's WAL, until the data that carries it is in an SST file on
 * a disk.
 *
 * <h2>Layout: one column family across RAM and disk</h2>
 *
 * <pre>
 * &lt;memoryDir&gt;/hotrap-&lt;store id&gt;/          path 0 of column family "fast": its L0 files
 * &lt;memoryDir&gt;/hotrap-&lt;store id&gt;/HOTRAP_MEMORY  marker: the directory holds what RocksDB expects
 * &lt;fastPath&gt;/data/                          path 1 of "fast": every level below L0
 * &lt;fastPath&gt;/tierlog/                       the tier log
 * &lt;fastPath&gt;/MEMORY_TIER                   marker: created with a memory tier ({@link #checkLayout})
 * </pre>
 *
 * RocksDB writes a flush to a column family's first path and places a compaction's output by the
 * paths' target sizes ({@code LevelCompactionBuilder::GetPathId}). The first path's target is the
 * base level's size, which is RocksDB's estimate of L0: L0 (flushes and intra-L0 compactions) fits
 * there, and every level below it goes to the second path. Manual compactions name the second
 * path ({@link TierMigrator}). L0 holds up to {@code memoryBytes}: its compaction trigger is three
 * quarters of it and its stop trigger all of it, in write buffers ({@link TierConfig#fast}). So
 * the flush of new data happens in RAM, and the fast disk receives new data for the first time as
 * the output of an L0 compaction: the seed's saving with m = 0. Levels below L0 cannot live in RAM:
 * after a machine loss, RocksDB's recovery accepts a version missing L0 files only (below). RocksDB
 * also turns {@code level_compaction_dynamic_level_bytes} off for a column family with more than
 * one path, so the levels below L0 have fixed targets (the base level, then ×3 per level), where
 * a fast tier without a memory tier sizes them from its last level. They write more per byte that
 * passes, and that costs back most of the flush the memory tier saves (docs/results/NOTES.md).
 *
 * <h2>Durability</h2>
 *
 * A user write (put, delete, batch) is appended to the tier log and applied to RocksDB without
 * its WAL, both under {@code seqLock}, so the log's order is RocksDB's order for user writes. It
 * is acknowledged once the log reached {@code WRITTEN} (process crash) or, with {@link
 * HotRapOptions#syncWrites()}, {@code SYNCED} (power loss). A reader may see a write that is not
 * yet acknowledged, and a crash may then lose it; an acknowledged one is never lost. The store's
 * own writes (promotions, migration) keep RocksDB's WAL.
 *
 * <h2>Which log records are dead: the watermark</h2>
 *
 * RocksDB gives Java no per-record sequence numbers of what a compaction moved; the log is
 * trimmed by a watermark instead, conservatively. {@link #trim} computes, in RocksDB's sequence
 * numbers, W = the smallest of
 * <ul>
 *   <li>for "fast" and "slow" (user deletes tombstone both), if the column family's memtables hold
 *       anything, one more than the largest sequence number its flushes wrote so far
 *       ({@link #flushed}: memtables flush in order, so every entry not flushed is newer);
 *   <li>the smallest sequence number of any L0 file in the memory directory;
 *   <li>one more than the latest sequence number, read first.
 * </ul>
 * Every user write below W is in an SST file on a disk (fast or slow) or was dropped for a newer
 * version or a tombstone that is. The latest sequence number is read before the memtables, and
 * the memtables before the files, so data a flush moves meanwhile is seen in one place or the
 * other. W is mapped to the log's numbers by samples taken under {@code seqLock} before a write is
 * applied: (t, L) means the log records below t were applied at RocksDB sequence numbers up to L.
 * For the newest sample with L &lt; W, records below t are marked dead. Deadness is therefore
 * always a prefix of the log, and the log on disk (after trims and after a crash that lost marks)
 * is always a suffix of the history of user writes.
 *
 * <h2>Recovery</h2>
 *
 * Open replays every record the log holds, in order, with new RocksDB sequence numbers. Replaying a
 * suffix is right whatever RocksDB kept: for a key the suffix writes, its last record is applied
 * last and wins; for a key it does not write, the last write is older than every record the log
 * dropped, so it is below W and on disk. Replaying a record RocksDB already has writes the same
 * value again.
 * <ul>
 *   <li>After a process crash (the memory directory intact, its marker present) RocksDB opens
 *       normally, replays its WAL (the store's own writes), and the log replay restores the user
 *       writes that were only in memtables.
 *   <li>After a machine loss (the marker gone with the RAM) RocksDB's MANIFEST names L0 files that
 *       no longer exist. RocksDB then opens with {@code best_efforts_recovery}, which accepts a
 *       version missing only a suffix of L0 (here: all of it, every L0 file being in RAM). It looks
 *       for every file in a column family's first path only (RocksDB 11.8.1,
 *       {@code VersionBuilder::ApplyFileAddition}), so before the open {@link #prepare} links each
 *       SST file of the fast directory into the memory directory, and {@link
 *       Preparation#opened} removes the links. The recovery ignores RocksDB's WAL: the store's own
 *       writes that were only in memtables are lost, which loses no data (below).
 * </ul>
 * A machine loss forgets, besides L0 and the memtables, only writes of the store's own:
 * <ul>
 *   <li>a promotion's copy into "fast": the record is still in "slow";
 *   <li>a migration's delete from "fast" after its copy reached "slow" (as an ingested file,
 *       synced): the same version stays in both tiers, and reads see it;
 *   <li>a migration's batch that puts into "slow" and deletes from "fast": with a memory tier the
 *       migrator flushes "slow" before the delete ({@link TierMigrator}), so the delete cannot
 *       reach a disk while the copy is still only in a memtable;
 *   <li>the store's metadata, flushed when it is written ({@link HotRapDB#open}).
 * </ul>
 * Native demotion is off with a memory tier (it drops records in a compaction, with the copy in
 * the slow tier's memtable).
 *
 * <h2>Threads</h2>
 *
 * Writers call {@link #write} inside the commit gate's shared hold. One daemon thread
 * ({@code hotrap-tierlog-trim}) runs {@link #trim}, after flush and compaction events and once a
 * second; {@link #flushed} is raised by RocksDB's flush callbacks.
 */
final class MemoryTier implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MemoryTier.class.getName());
  static final String LOG_DIR = "tierlog";
  static final String MARKER = "HOTRAP_MEMORY";
  /**
   * Marker in the fast directory of a store created with a memory tier: its column family "fast"
   * has two paths, so it opens only with one (and a store created without one only without).
   */
  static final String LAYOUT_MARKER = "MEMORY_TIER";
  private static final int REPLAY_BATCH_BYTES = 4 << 20;
  private static final long MIN_SEGMENT_BYTES = 256 << 10;
  private static final long MAX_SEGMENT_BYTES = 64L << 20;
  /**
   * Log segments per memory tier: segments are deleted whole, so smaller ones free the log sooner
   * after the watermark passes them.
   */
  private static final long SEGMENTS_PER_TIER = 8;
  /** A sample of (log sequence, RocksDB sequence) every this many writes. */
  private static final int SAMPLE_EVERY = 64;
  private static final int FAST = 0;
  private static final int SLOW = 1;

  private final HotRapOptions options;
  private final RocksDB db;
  private final ColumnFamilyHandle fastCf;
  private final ColumnFamilyHandle slowCf;
  private final StoreCounters counters;
  private final Path filesDir;
  private final String filesDirPrefix;
  private final WriteOptions noWal = new WriteOptions().setDisableWAL(true);
  private final Durability ack;
  private final TierLog log;

  private final ReentrantLock seqLock = new ReentrantLock();
  private long nextSeq; // guarded by seqLock
  private int sinceSample; // guarded by seqLock
  /** Samples {log sequence t, RocksDB sequence L}, oldest first; guarded by itself. */
  private final ArrayDeque<long[]> samples = new ArrayDeque<>();
  /** Per column family (FAST, SLOW): the largest sequence number a flush of it wrote. */
  private final long[] flushed = new long[2];
  /** Log records below this are marked dead; guarded by trimLock. */
  private long deadBelow;
  private final Object trimLock = new Object();
  private final ScheduledExecutorService trimmer;
  private final AtomicBoolean trimQueued = new AtomicBoolean();
  private volatile boolean closed;

  /** What {@link #prepare} found and did before RocksDB opens. */
  static final class Preparation {
    final Path dir;
    /** The memory directory lost its files: open with {@code best_efforts_recovery}. */
    final boolean lost;
    private final List<Path> links;

    private Preparation(Path dir, boolean lost, List<Path> links) {
      this.dir = dir;
      this.lost = lost;
      this.links = links;
    }

    /** After RocksDB opened: removes the links and writes the marker. */
    void opened() throws IOException {
      for (Path link : links) {
        if (Files.isSymbolicLink(link)) {
          Files.delete(link);
        }
      }
      Path marker = dir.resolve(MARKER);
      if (!Files.exists(marker)) {
        StoreLayout.writeDurably(marker, "hotrap memory tier\n".getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /** The directory of this store's L0 files inside the memory directory. */
  static Path filesDir(HotRapOptions o, String storeId) {
    return o.memoryDir().resolve("hotrap-" + storeId);
  }

  /**
   * Before RocksDB opens: creates the store's directory in the memory directory, or, for an
   * existing store whose directory lost its marker (a machine loss), links the fast directory's
   * SST files into it so that best-efforts recovery finds them (see the class comment).
   */
  static Preparation prepare(HotRapOptions o, StoreLayout layout, String storeId) throws IOException {
    Path dir = filesDir(o, storeId);
    checkRoom(o, dir);
    boolean existing = layout.dbExists();
    if (Files.exists(dir.resolve(MARKER)) && existing) {
      return new Preparation(dir, false, List.of());
    }
    if (Files.exists(dir)) {
      StoreLayout.deleteTree(dir); // whatever is left of a lost or a never-opened directory
    }
    Files.createDirectories(dir);
    if (!existing) {
      return new Preparation(dir, false, List.of());
    }
    List<Path> links = new ArrayList<>();
    if (Files.isDirectory(layout.fastDataDir())) {
      try (Stream<Path> files = Files.list(layout.fastDataDir())) {
        for (Path f : (Iterable<Path>) files::iterator) {
          if (f.getFileName().toString().endsWith(".sst")) {
            Path link = dir.resolve(f.getFileName());
            Files.createSymbolicLink(link, f.toAbsolutePath());
            links.add(link);
          }
        }
      }
    }
    LOG.info("the memory tier's directory " + dir + " lost its files; recovering the store from"
        + " the fast and slow disks and the tier log");
    return new Preparation(dir, true, links);
  }

  /**
   * Bad input (DESIGN.md §11): the memory directory's file system must have room for the tier
   * (free space plus what this store holds there already). A smaller tmpfs would fill up, and
   * RocksDB would stop the store at the first flush that does not fit.
   */
  private static void checkRoom(HotRapOptions o, Path dir) throws IOException {
    long held = 0;
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          if (Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            held += Files.size(f);
          }
        }
      }
    }
    long free = Files.getFileStore(o.memoryDir()).getUsableSpace();
    if (free + held < o.memoryTierBytes()) {
      throw new IllegalArgumentException("memory tier directory " + o.memoryDir() + " has "
          + (free + held) + " bytes for this store, less than memoryBytes (" + o.memoryTierBytes()
          + ")");
    }
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
   * Before RocksDB opens: a store is opened with a memory tier exactly when it was created with
   * one ({@link #LAYOUT_MARKER}, written before RocksDB creates a new store). RocksDB finds a
   * file of "fast" by its path's index, so a tier added later would send it to look for the fast
   * disk's files in RAM, and one removed later would lose L0 and the log's records.
   *
   * @throws IllegalArgumentException if the store was created the other way
   */
  static void checkLayout(HotRapOptions options, StoreLayout layout) {
    Path marker = options.fastPath().resolve(LAYOUT_MARKER);
    boolean existing = layout.dbExists();
    if (!options.memoryTier()) {
      checkNoOrphanLog(options);
      if (existing && Files.exists(marker)) {
        throw new IllegalArgumentException("the store at " + options.fastPath() + " was created"
            + " with a memory tier; open it with memoryTier(...)");
      }
      return;
    }
    if (existing && !Files.exists(marker)) {
      throw new IllegalArgumentException("the store at " + options.fastPath() + " was created"
          + " without a memory tier (or with the memory tier of an earlier version, whose layout"
          + " differs); a memory tier can only be given to a new store");
    }
    if (!existing) {
      try {
        StoreLayout.writeDurably(marker,
            "hotrap store created with a memory tier\n".getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + marker, e);
      }
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

  /**
   * Opens the tier log and replays it into RocksDB; RocksDB is open.
   *
   * @throws HotRapException if the log cannot be read or RocksDB refuses a replayed write
   */
  static MemoryTier open(HotRapOptions options, RocksDB db, ColumnFamilyHandle fastCf,
      ColumnFamilyHandle slowCf, StoreCounters counters, Path filesDir) {
    try {
      return new MemoryTier(options, db, fastCf, slowCf, counters, filesDir);
    } catch (RocksDBException e) {
      throw new HotRapException("cannot replay the tier log into the store", e);
    } catch (IOException e) {
      throw new HotRapException("cannot open the tier log in " + options.fastPath().resolve(LOG_DIR), e);
    }
  }

  private MemoryTier(HotRapOptions options, RocksDB db, ColumnFamilyHandle fastCf,
      ColumnFamilyHandle slowCf, StoreCounters counters, Path filesDir)
      throws RocksDBException, IOException {
    this.options = options;
    this.db = db;
    this.fastCf = fastCf;
    this.slowCf = slowCf;
    this.counters = counters;
    this.filesDir = filesDir;
    String prefix = filesDir.toAbsolutePath().normalize().toString();
    this.filesDirPrefix = prefix.endsWith("/") ? prefix : prefix + "/";
    this.ack = options.syncWrites() ? Durability.SYNCED : Durability.WRITTEN;
    long start = System.nanoTime();
    Replay replay = new Replay();
    TierLog opened;
    try {
      opened = TierLog.open(logOptions(), replay::accept);
      replay.finish();
    } catch (UncheckedIOException e) {
      noWal.close();
      throw e.getCause();
    } catch (ReplayFailure e) {
      noWal.close();
      throw e.cause;
    }
    this.log = opened;
    boolean ok = false;
    try {
      // Everything replayed goes to L0 files now; from here on, flushes raise `flushed`.
      long latest = db.getLatestSequenceNumber();
      try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
        db.flush(fo, List.of(fastCf, slowCf));
      }
      flushed[FAST] = latest;
      flushed[SLOW] = latest;
      nextSeq = log.lastSequence() + 1;
      samples.add(new long[] {nextSeq, latest});
      counters.memoryTierRecoveryNanos = System.nanoTime() - start;
      counters.memoryTierRecoveredRecords = replay.records;
      if (!log.recoveryReport().clean()) {
        LOG.warning("tier log recovery: " + log.recoveryReport());
      }
      ok = true;
    } finally {
      if (!ok) {
        log.close();
        noWal.close();
      }
    }
    trimmer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hotrap-tierlog-trim");
      t.setDaemon(true);
      return t;
    });
    trimmer.scheduleWithFixedDelay(this::runTrim, 1, 1, TimeUnit.SECONDS);
    trim(); // the counters, before the first scheduled pass
  }

  private TierLogOptions logOptions() {
    long segment = Math.max(MIN_SEGMENT_BYTES,
        Math.min(MAX_SEGMENT_BYTES, options.memoryTierBytes() / SEGMENTS_PER_TIER));
    TierLogOptions.Builder b = TierLogOptions.builder()
        .directory(options.fastPath().resolve(LOG_DIR))
        .memoryTierBytes(options.memoryTierBytes())
        .segmentBytes(segment)
        .codec(options.tierLogCodec())
        // Records die within about one tier's worth of writes (the watermark): compressing a
        // segment that will be deleted soon writes its records a second time for nothing.
        .compressAboveRatio(1.0);
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

  /** Applies replayed log records in order, in batches, without RocksDB's WAL. */
  private final class Replay {
    private WriteBatch batch = new WriteBatch();
    long records;

    void accept(LogRecord r) {
      records++;
      try {
        MemoryRecords.decode(r, (key, value) -> addTo(batch, key, value));
        if (batch.getDataSize() >= REPLAY_BATCH_BYTES) {
          db.write(noWal, batch);
          batch.close();
          batch = new WriteBatch();
        }
      } catch (RocksDBException e) {
        throw new ReplayFailure(e);
      }
    }

    void finish() throws RocksDBException {
      try {
        if (batch.count() > 0) {
          db.write(noWal, batch);
        }
      } finally {
        batch.close();
      }
    }
  }

  /** A put goes to "fast"; a delete tombstones "fast" and "slow" (I3). */
  private void addTo(WriteBatch batch, byte[] key, byte[] value) throws RocksDBException {
    if (value == null) {
      batch.delete(fastCf, key);
      batch.delete(slowCf, key);
    } else {
      batch.put(fastCf, key, value);
    }
  }

  // ---------------------------------------------------------------- writes

  /**
   * Applies one user operation or batch (values null for deletes); call inside the gate's shared
   * hold. Returns once the log record reached the store's durability.
   */
  void write(byte[][] keys, byte[][] values) throws RocksDBException, IOException {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.length; i++) {
        addTo(batch, keys[i], values[i]);
      }
      seqLock.lock();
      try {
        long seq = nextSeq;
        LogRecord record = MemoryRecords.encode(seq, keys, values);
        log.append(seq, record.key(), record.value(), Durability.BUFFERED);
        nextSeq = seq + 1;
        if (++sinceSample >= SAMPLE_EVERY) {
          sinceSample = 0;
          long[] sample = {seq, db.getLatestSequenceNumber()};
          synchronized (samples) {
            samples.add(sample);
          }
        }
        db.write(noWal, batch);
      } finally {
        seqLock.unlock();
      }
    }
    log.flush(ack);
  }

  // ---------------------------------------------------------------- the watermark

  /** From RocksDB's flush callback: a flush of {@code cf} wrote up to {@code largestSeqno}. */
  void flushCompleted(String cf, long largestSeqno) {
    int i = HotRapDB.FAST_CF.equals(cf) ? FAST : HotRapDB.SLOW_CF.equals(cf) ? SLOW : -1;
    if (i >= 0) {
      synchronized (flushed) {
        flushed[i] = Math.max(flushed[i], largestSeqno);
      }
      requestTrim();
    }
  }

  /** Asks the trim thread for a pass; cheap, callable from RocksDB's callbacks. */
  void requestTrim() {
    if (!closed && trimQueued.compareAndSet(false, true)) {
      try {
        trimmer.execute(this::runTrim);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        trimQueued.set(false); // closing
      }
    }
  }

  private void runTrim() {
    trimQueued.set(false);
    if (closed) {
      return;
    }
    try {
      trim();
    } catch (RocksDBException | RuntimeException e) {
      if (!closed) {
        LOG.log(Level.WARNING, "tier log trim pass failed", e);
      }
    }
  }

  /**
   * One pass: computes the watermark (class comment), marks the log records below it dead, and
   * flushes "slow" when its memtable holds the watermark back while the log outgrows the tier.
   * Returns the watermark, in RocksDB's sequence numbers.
   */
  long trim() throws RocksDBException {
    synchronized (trimLock) {
      if (closed) {
        return 0;
      }
      long latest = db.getLatestSequenceNumber();
      long w = latest + 1;
      long fastFlushed;
      long slowFlushed;
      synchronized (flushed) {
        fastFlushed = flushed[FAST];
        slowFlushed = flushed[SLOW];
      }
      if (!memtablesEmpty(fastCf)) {
        w = Math.min(w, fastFlushed + 1);
      }
      boolean slowHolds = false;
      if (!memtablesEmpty(slowCf)) {
        slowHolds = slowFlushed + 1 < w;
        w = Math.min(w, slowFlushed + 1);
      }
      long l0Bytes = 0;
      for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
        if (inMemory(f)) {
          l0Bytes += f.size();
          if (f.smallestSeqno() < w) {
            w = f.smallestSeqno();
            slowHolds = false;
          }
        }
      }
      long below = -1;
      synchronized (samples) {
        while (samples.size() > 1 && second(samples)[1] < w) {
          samples.removeFirst();
        }
        long[] head = samples.peekFirst();
        if (head != null && head[1] < w) {
          below = head[0];
        }
      }
      if (below > deadBelow) {
        log.markDead(Math.max(0, deadBelow), below - 1);
        deadBelow = below;
        counters.memoryTierRetirements.increment();
      }
      counters.memoryTierBytes = l0Bytes + db.getLongProperty(fastCf, "rocksdb.cur-size-all-mem-tables");
      if (slowHolds && log.stats().totalBytes() > options.memoryTierBytes()) {
        // Opportunistic: RocksDB refuses a manual flush while writes are stopped; the next pass asks again.
        try (FlushOptions fo = new FlushOptions().setWaitForFlush(false).setAllowWriteStall(true)) {
          db.flush(fo, slowCf);
        } catch (RocksDBException e) {
          LOG.log(Level.FINE, "flushing the slow tier for the tier log failed", e);
        }
      }
      refreshCounters();
      return w;
    }
  }

  private static long[] second(ArrayDeque<long[]> q) {
    var it = q.iterator();
    it.next();
    return it.next();
  }

  private boolean memtablesEmpty(ColumnFamilyHandle cf) throws RocksDBException {
    return db.getLongProperty(cf, "rocksdb.num-entries-active-mem-table") == 0
        && db.getLongProperty(cf, "rocksdb.num-entries-imm-mem-tables") == 0;
  }

  /** Whether {@code f} is a file of "fast" in the memory directory. */
  private boolean inMemory(LiveFileMetaData f) {
    if (!HotRapDB.FAST_CF.equals(new String(f.columnFamilyName(), StandardCharsets.UTF_8))) {
      return false;
    }
    String p = f.path();
    String dir = p.endsWith("/") ? p : p + "/";
    return dir.equals(filesDirPrefix);
  }

  /** Copies sizes into the counters behind {@link HotRapStats} and the meters. */
  void refreshCounters() {
    if (closed) {
      return;
    }
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

  /** The directory of this store's L0 files. */
  Path filesDir() {
    return filesDir;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    trimmer.shutdown();
    try {
      trimmer.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closed = true;
    try {
      log.close();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "closing the tier log failed", e);
    }
    noWal.close();
  }
}
