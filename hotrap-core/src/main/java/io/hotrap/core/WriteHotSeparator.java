package io.hotrap.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Write-hot separation (DESIGN.md §16, after LuMDB §6 and HotKey-LSM): user writes of keys that
 * are updated often go to the column family {@code fast-hot} on the fast disk, compacted as
 * universal (tiering) runs, and every other write to {@code fast} as before. A {@link SkewDetector}
 * watches the writes; at each window it closes, if the writes are skewed, the keys written at least
 * twice become the {@link HotKeyIndex}; if not, the index is empty and separation idles. While
 * the writes are skewed, {@code fast} also takes the cold side's larger L0 and base level
 * ({@link TierConfig#coldSide}), and its usual ones back when they are not.
 *
 * <p><b>Members.</b> A key is a <em>member</em> from the moment a write routes it to
 * {@code fast-hot} until an eviction moves it back. The rule that makes two column families read as
 * one store:
 * <ul>
 *   <li>(S1) {@code fast-hot} holds a version of a key only while the key is a member;
 *   <li>(S2) while a key is a member every user write of it goes to {@code fast-hot}, so the
 *       version there is the newest of the store (deletes write tombstones into all three column
 *       families, so a deleted member reads as deleted);
 *   <li>(S3) a version leaves {@code fast-hot} only by an eviction, which in one atomic batch
 *       writes it into {@code fast} and deletes it from {@code fast-hot}.
 * </ul>
 * A get therefore reads {@code fast-hot} first when the key is a member, then {@code fast}; a
 * non-member's older version in {@code fast} (written before the key became hot) is shadowed and
 * stays until an eviction overwrites it or migration moves it. A scan merges
 * {@code fast-hot} above {@code fast}.
 *
 * <p><b>Concurrency</b> (the writer protocol of {@link CommitGate}). {@link #route} runs inside the
 * writer's shared hold and adds the key to the members <em>before</em> the write reaches RocksDB,
 * so a reader that finds a key not a member knows {@code fast-hot} had no version of it when it
 * looked (S1); what the reader then finds in {@code fast} was the newest version at that moment,
 * because making a key a member writes nothing into {@code fast}. The index changes and members
 * leave only with the gate held exclusive, so two writers of one key inside overlapping shared
 * holds always route it to the same column family: no write to {@code fast} can land after a write
 * of the same key to {@code fast-hot} while the key is a member. An eviction is a mover: it
 * registers its {@link UpdatedKeys} before it reads the versions it moves, and its commit skips
 * keys written since (they stay members until the next window) and marks the moved ones promoted,
 * so that no migration step demotes the older {@code fast} version over the evicted copy.
 *
 * <p><b>Crash.</b> Membership is not persisted: {@link #rebuildMembers()} scans {@code fast-hot}
 * at open and makes every key it holds a member, which restores S1–S3. A store opened with
 * separation off moves everything out of {@code fast-hot} before it serves.
 *
 * <p><b>Bounds.</b> The index keeps at most as many keys as fit half of the {@code fast-hot}
 * share of the budget ({@link HotRapOptions#writeHotShare()}; half, for the runs universal
 * compaction has not merged yet); members not seen in the last window are evicted when it closes.
 */
final class WriteHotSeparator implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(WriteHotSeparator.class.getName());
  /** Keys one eviction batch moves; each is read, written and deleted under one exclusive hold. */
  static final int EVICTION_BATCH = 512;

  private final RocksDB db;
  private final ColumnFamilyHandle fast;
  private final ColumnFamilyHandle hot;
  private final CommitGate gate;
  private final StoreCounters counters;
  private final NativeDemotion nativeDemotion;
  private final boolean enabled;
  private final HotRapOptions options;
  private final long hotShareBytes;
  private final SkewDetector detector;
  private final Set<ByteArrayKey> members = ConcurrentHashMap.newKeySet();
  private final WriteOptions writeOptions = new WriteOptions();
  private final ExecutorService worker;
  private final AtomicReference<SkewDetector.Window> pending = new AtomicReference<>();
  /** Read by writers inside their shared hold; replaced only with the gate held exclusive. */
  private volatile HotKeyIndex index = HotKeyIndex.EMPTY;
  private volatile boolean closed;
  /** Whether {@code fast} has the cold side's settings; written by the separator's thread only. */
  private volatile boolean coldSide;
  final LongAdder coldSideChanges = new LongAdder();
  /**
   * Runs in each eviction batch between its read of the members' versions and its commit: the
   * seam where tests put a user write to prove the commit skips it. Does nothing by default.
   */
  volatile Runnable beforeEvictionCommit = () -> { };
  final LongAdder hotWrites;
  final LongAdder evictions;
  final LongAdder evictionsSkippedUpdated = new LongAdder();
  final LongAdder windows = new LongAdder();
  /** Times {@link #shed} gave every member back because {@code fast-hot} outgrew its share. */
  final LongAdder sheds = new LongAdder();

  WriteHotSeparator(RocksDB db, ColumnFamilyHandle fast, ColumnFamilyHandle hot, HotRapOptions options,
      CommitGate gate, StoreCounters counters, NativeDemotion nativeDemotion) {
    this.db = db;
    this.fast = fast;
    this.hot = hot;
    this.gate = gate;
    this.counters = counters;
    this.hotWrites = counters.hotWrites;
    this.evictions = counters.hotEvictions;
    this.nativeDemotion = nativeDemotion;
    this.enabled = options.writeHotSeparation();
    this.options = options;
    this.hotShareBytes = (long) (options.fastBudgetBytes() * options.writeHotShare());
    this.detector = new SkewDetector(options.writeHotWindowBytes(), options.writeSkewThreshold(),
        options.writeSkewThreshold() * SkewDetector.DEFAULT_OFF_THRESHOLD / SkewDetector.DEFAULT_ON_THRESHOLD,
        SkewDetector.DEFAULT_QUIET_WINDOWS, this::windowClosed);
    // One thread, one queued task at most: a window that closes while the last is being applied
    // replaces the one waiting (pending), so a burst of writes cannot queue stale windows.
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "hotrap-separator-" + options.fastPath().getFileName());
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * Makes every key {@code fast-hot} holds a member (S1 after a restart); with separation off,
   * then evicts them all. Call once at open, before any user write.
   */
  void rebuildMembers() throws Exception {
    try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(hot, ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        members.add(ByteArrayKey.wrap(it.key()));
      }
      it.status();
    }
    if (!enabled && !members.isEmpty()) {
      evict(new ArrayList<>(members));
    }
  }

  // ------------------------------------------------------------------ writer side

  /**
   * The column family a user write of {@code key} goes to. Call inside the writer's shared hold of
   * the gate, before the write: a key routed to {@code fast-hot} is a member from here on.
   */
  ColumnFamilyHandle route(byte[] key) {
    if (members.isEmpty() && index.isEmpty()) {
      return fast;
    }
    ByteArrayKey k = ByteArrayKey.wrap(key);
    if (members.contains(k)) {
      hotWrites.increment();
      return hot;
    }
    if (index.contains(key)) {
      members.add(ByteArrayKey.copyOf(key));
      hotWrites.increment();
      return hot;
    }
    return fast;
  }

  /** Feeds a written record to the detector; call after the write, outside the gate. */
  void recordWrite(byte[] key, int bytes) {
    if (enabled) {
      detector.record(key, bytes);
    }
  }

  // ------------------------------------------------------------------ reader side

  /**
   * Whether {@code fast-hot} may hold a version of {@code key} now. False means it held none at
   * the moment of the call (S1), and {@code fast} then had the newest fast-tier version.
   */
  boolean mayHold(byte[] key) {
    return !members.isEmpty() && members.contains(ByteArrayKey.wrap(key));
  }

  ColumnFamilyHandle handle() {
    return hot;
  }

  // ------------------------------------------------------------------ windows

  private void windowClosed(SkewDetector.Window window) {
    windows.increment();
    if (closed || pending.getAndSet(window) != null) {
      return; // a task is queued already and will take this window
    }
    try {
      worker.execute(this::applyPending);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      pending.set(null); // closing
    }
  }

  private void applyPending() {
    SkewDetector.Window w = pending.getAndSet(null);
    if (w == null || closed) {
      return;
    }
    try {
      apply(w);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "write-hot separation could not apply a window; the last index stays", e);
    }
  }

  /** Publishes the window's index and evicts the members it no longer holds hot. */
  void apply(SkewDetector.Window w) throws Exception {
    HotKeyIndex next = HotKeyIndex.EMPTY;
    if (w.skewed) {
      long perRecord = Math.max(1, w.bytes / Math.max(1, w.records));
      int maxKeys = (int) Math.min(Integer.MAX_VALUE, hotShareBytes / 2 / perRecord);
      // Every key of the window, the ones seen once too: a key seen once between two hot keys
      // splits their range, or the range would make it hot as well (and with it every key
      // written later between them, beyond maxKeys).
      next = HotKeyIndex.build(w.counts(),
          HotKeyIndex.atLeastOrSeen(SkewDetector.DEFAULT_HOT_COUNT, k -> members.contains(ByteArrayKey.wrap(k))),
          maxKeys);
    }
    HotKeyIndex published = next;
    if (!(published.isEmpty() && index.isEmpty())) {
      // The gate held exclusive waits for every write in flight and holds back new ones. An empty
      // index replacing an empty one changes nothing a writer can see, so unskewed windows,
      // every window under uniform writes, take no hold (index is written on this thread only).
      gate.commit(() -> index = published);
    }
    coldSide(w.skewed);
    List<ByteArrayKey> leaving = new ArrayList<>();
    for (ByteArrayKey k : members) {
      if (!published.contains(k.bytes())) {
        leaving.add(k);
      }
    }
    evict(leaving);
  }

  /**
   * Gives every member back to {@code fast} and empties the index until the next window closes;
   * the caller then compacts {@code fast-hot} to free the bytes. The migrator calls it when the
   * fast tier is over its high watermark, nothing is left in {@code fast} to move, and
   * {@code fast-hot} holds more than its share of the budget, which migration never moves: without
   * it, writers would wait for room no one makes. The index bounds the hot keys by the window's
   * mean record size, so hot keys with larger records than the window's others, or a hot set that
   * grew after the window closed, can outgrow the share. Runs on the separator's thread, after the
   * window being applied, and waits for it; a window that closes later may make keys hot again.
   *
   * @return the members evicted
   */
  int shed() throws Exception {
    if (!enabled) {
      return 0;
    }
    java.util.concurrent.Future<Integer> done;
    try {
      done = worker.submit(() -> {
        if (closed) {
          return 0;
        }
        gate.commit(() -> index = HotKeyIndex.EMPTY);
        long before = evictions.sum();
        evict(new ArrayList<>(members));
        sheds.increment();
        return (int) (evictions.sum() - before);
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return 0; // closing
    }
    try {
      return done.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
  }

  /**
   * Gives {@code fast} the cold side's settings while the writes are skewed and its usual ones
   * when they are not ({@link TierConfig#coldSide}); RocksDB applies them to the compactions it
   * picks next. Runs on the separator's one thread, so the last window's decision is the one set.
   */
  private void coldSide(boolean skewed) throws RocksDBException {
    if (skewed == coldSide) {
      return;
    }
    db.setOptions(fast, TierConfig.coldSide(options, skewed));
    coldSide = skewed;
    coldSideChanges.increment();
  }

  /**
   * Moves the members {@code keys} back to {@code fast} (S3), batch by batch, under the mover
   * protocol: registered before the read, committed exclusive without the keys written since.
   */
  private void evict(List<ByteArrayKey> keys) throws Exception {
    for (int from = 0; from < keys.size() && !closed; from += EVICTION_BATCH) {
      List<ByteArrayKey> batchKeys = keys.subList(from, Math.min(keys.size(), from + EVICTION_BATCH));
      UpdatedKeys updated = gate.registerMover();
      try {
        List<byte[]> raw = new ArrayList<>(batchKeys.size());
        List<ColumnFamilyHandle> cfs = new ArrayList<>(batchKeys.size());
        for (ByteArrayKey k : batchKeys) {
          raw.add(k.bytes());
          cfs.add(hot);
        }
        List<byte[]> values = db.multiGetAsList(cfs, raw);
        beforeEvictionCommit.run();
        gate.commit(() -> {
          List<ByteArrayKey> moved = new ArrayList<>(batchKeys.size());
          try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < batchKeys.size(); i++) {
              byte[] key = raw.get(i);
              if (updated.contains(key) || index.contains(key)) {
                evictionsSkippedUpdated.increment();
                continue;
              }
              byte[] v = values.get(i);
              if (v != null) {
                if (nativeDemotion != null) {
                  nativeDemotion.beforeWrite(key);
                }
                gate.markPromoted(key);
                batch.put(fast, key, v);
              }
              batch.delete(hot, key);
              moved.add(batchKeys.get(i));
            }
            if (batch.count() > 0) {
              db.write(writeOptions, batch);
            }
          }
          members.removeAll(moved);
          evictions.add(moved.size());
        });
      } finally {
        gate.unregisterMover(updated);
      }
    }
  }

  // ------------------------------------------------------------------ state

  boolean skewed() {
    return detector.skewed();
  }

  /** Whether {@code fast} has the cold side's settings ({@link TierConfig#coldSide}) now. */
  boolean coldSideActive() {
    return coldSide;
  }

  long skippedWrites() {
    return detector.skippedRecords();
  }

  double lastVariance() {
    return detector.lastVariance();
  }

  int members() {
    return members.size();
  }

  int indexKeys() {
    return index.keys();
  }

  /** Waits until the window handed over last has been applied (tests and {@code awaitBackgroundWork}). */
  void awaitIdle() {
    try {
      worker.submit(() -> { }).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (worker.awaitTermination(60, TimeUnit.SECONDS)) {
          break;
        }
        LOG.warning("write-hot separator has not stopped after 60 s; still waiting");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    writeOptions.close();
  }
}
