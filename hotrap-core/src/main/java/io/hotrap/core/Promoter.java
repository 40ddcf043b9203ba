package io.hotrap.core;

import io.hotrap.cache.AdmissionFilter;
import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Promotion of slow-tier records to the fast tier (HotRAP §3.3, §3.4; DESIGN.md §4, §6, §7 step 3,
 * §9): owns the {@link PromotionCache}, offers it slow-tier hits under rule P2, promotes by flush on
 * a checker thread of its own and by compaction on the migrator's thread. What a check promotes is
 * {@link PromotionPolicy}'s decision; this class holds the protocol and the thread.
 *
 * <p><b>Rule P2 (the reader).</b> {@link #beforeFastLookup} reads the key's stripe write counter
 * before the fast lookup; {@link #offer} inserts the slow hit under the key's stripe lock only if the
 * counter did not move. The race it prevents: a user write lands between the reader's fast miss and
 * its insert, and the insert would cache the older slow version after the write's invalidation ran.
 * Writers bump the counter and call {@link #invalidate} under the same stripe lock
 * ({@link CommitGate#markWritten}), so a write either aborts the insert or removes what it inserted.
 *
 * <p><b>Admission.</b> With the hotness check on, a slow-tier hit is cached only if its key was read
 * from the slow tier lately ({@link AdmissionFilter}, whose window is
 * {@value #ADMISSION_WINDOW_HOT_SET_LIMITS} times RALT's hot-set limit in records): a record read
 * once cannot be promoted, and caching every cold read cost cold uniform gets about a fifth of
 * their throughput.
 *
 * <p><b>Concurrent writes.</b> Both kinds of promotion commit under the {@link CommitGate}'s
 * protocol, with the marks it describes (the frozen table's own for promotion by flush, the
 * migration step's {@link UpdatedKeys} for promotion by compaction); a record whose key the fast
 * tier holds at commit time is dropped too. Promotion writes only to the fast tier; the copy left
 * in the slow tier is harmless (I1).
 *
 * <p><b>Room.</b> A check that promotes waits first while the fast tier is at the threshold where
 * user writes wait ({@link WriteThrottle#awaitRoomForPromotion}), on the checker thread and outside
 * the gate, so migration can make the room; the table's records stay readable meanwhile and queue
 * behind it as below. Promotion by compaction never waits: it runs inside a migration step, which
 * is what makes room.
 *
 * <p><b>One table checked at a time.</b> A full mutable table is frozen only when no check is in
 * progress; while one is (it may wait for RALT to write its buffer, hundreds of milliseconds), the
 * mutable table grows past its target, up to {@value #MAX_BACKLOG_TARGETS} targets, and the check
 * freezes it when it ends. Past that one more table may queue ({@value #MAX_PENDING_CHECKS} in all);
 * beyond, the mutable table grows to {@link #shedBytes} and further slow-tier hits are not cached
 * (counted as shed), so the cache's memory and the tables a get walks stay bounded however far
 * checks fall behind. (Freezing at every target instead queued a
 * frozen table per ~60 slow-tier reads at a 4 MiB budget, and every get that missed walked them.)
 *
 * <p>Thread-safe. Freezes may come from any reader; checks run one at a time on the checker thread.
 */
final class Promoter implements CommitGate.PromotionInvalidator, PromotionByCompaction, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Promoter.class.getName());
  /**
   * Share of RALT's buffer that must be filled before a promotion check flushes it. At an eighth,
   * cold slow-tier gets with promotion on ran at 0.82–0.92× promotion off in JMH (RALT wrote a
   * small run and merged every few checks); at a half, 0.91–0.94×, with the same two-pass hit
   * rate.
   */
  static final double RALT_FLUSH_FLOOR = 0.5;
  /**
   * The admission filter's window, in bytes of slow-tier reads, as a multiple of RALT's hot-set
   * limit. The window counts every slow-tier read, and a pass over a hot set comes with the cold
   * reads around it; the filter is sure to remember only the last window of reads, so a window of
   * one hot-set limit forgot part of a hot set as large as the limit between two passes (the
   * hot-spot test promoted 85% of it, against 100% at two limits). Under uniform reads the
   * chance returns it admits grow with the window: at two limits, about 2% of the cold gets of
   * {@code ColdGetBenchmark}.
   */
  static final long ADMISSION_WINDOW_HOT_SET_LIMITS = 2;
  /**
   * Largest window of the admission filter, in keys: bounds its memory at 2 generations of
   * 32 Mibit (8 MiB).
   */
  static final int MAX_ADMISSION_WINDOW = 1 << 21;
  /**
   * How far past its target the mutable table may grow while a check is in progress, as a multiple
   * of the target; beyond it a full table is frozen and queued behind the running check anyway.
   */
  static final int MAX_BACKLOG_TARGETS = 4;
  /**
   * Frozen tables waiting for or in a check, at most; reads beyond are shed, and a get that misses
   * walks at most this many frozen tables. No table, mutable or frozen, outgrows
   * {@link #shedBytes}, so the cache holds at most (this + 1) × that of records, plus the half
   * target a check may put back: 12 targets once the target is past 256 KiB, a constant multiple
   * that grows with the budget like the data (9 targets at peak in {@code docs/results/scale/}).
   */
  static final int MAX_PENDING_CHECKS = 2;
  /**
   * Least size the mutable table may reach before reads are shed. A check can be held for a
   * while — waiting for room in the fast tier, or for RALT to write its buffer — and a small table
   * target made the bound so tight that a single reader outran a 100-ms wait: with 32-KiB tables
   * (192 KiB of backlog) one pass over a 1-MiB hot set shed 115–155 first admissions in 3 of 10
   * runs of {@code HotSetAcrossRestartTest}, which then missed them on the next pass. A mebibyte
   * is cheap next to any store's memory and leaves large targets' bound as it was.
   */
  static final long MIN_SHED_BYTES = 1L << 20;

  private final RocksDB db;
  private final ColumnFamilyHandle fast;
  private final HotRapOptions options;
  private final CommitGate gate;
  private final StripedWriteCounters stripes;
  private final AccessTracker tracker;
  private final StoreCounters counters;
  private final PromotionHooks hooks;
  private final PromotionCache cache;
  /** Null when the hotness check is off: then every slow-tier hit is cached. */
  private final AdmissionFilter admission;
  /**
   * Keys of records demoted while RALT tracked them as read but not hot ({@link
   * #demotedAfterAccess}), over a window of such demotions of {@value #ADMISSION_WINDOW_HOT_SET_LIMITS}
   * hot-set limits like {@link #admission}'s; null when the hotness check is off. A record read
   * while in the fast tier was never read from the slow tier, so without this its first slow-tier
   * read after the demotion — its second read — was not admitted, and it came back only on a third.
   * Measured in {@code HotSetAcrossRestartTest} (a hot set, part of it written last and so on the
   * fast tier, read in passes while promotions push the fast tier over its budget): 20–150 of its
   * 1,049 keys were read once on the fast tier, demoted, and then missed on both later passes.
   * Its memory is bounded as {@link #admission}'s, by {@link #MAX_ADMISSION_WINDOW}.
   */
  private final AdmissionFilter demotedAfterRead;
  private final WriteOptions writeOptions = new WriteOptions();
  private final ExecutorService checker;
  private final Object idle = new Object();
  /** Frozen tables handed to the checker and not yet released; written under {@link #idle}. */
  private volatile int pendingChecks;
  private volatile boolean stopping;
  /**
   * Runs for each key before a promotion writes it, inside the gate's exclusive hold: the native
   * demotion path's removal of the key's pairs ({@link NativeDemotion#beforeWrite}), so the filter
   * never drops a promoted copy. Set once, before the first promotion.
   */
  private volatile Consumer<byte[]> beforeFastWrite = key -> { };
  /**
   * Runs before a check writes what it promotes: waits while the fast tier is at the threshold
   * where user writes wait ({@link WriteThrottle#awaitRoomForPromotion}). Set once, before the
   * first promotion.
   */
  private volatile Runnable awaitRoom = () -> { };

  Promoter(RocksDB db, ColumnFamilyHandle fast, HotRapOptions options, CommitGate gate,
      AccessTracker tracker, StoreCounters counters, PromotionHooks hooks) {
    this.db = db;
    this.fast = fast;
    this.options = options;
    this.gate = gate;
    this.stripes = gate.stripes();
    this.tracker = tracker;
    this.counters = counters;
    this.hooks = hooks;
    this.cache = PromotionCache.builder()
        .targetBytes(options.promotionCacheBytes())
        .maxRecordBytes(options.maxPromotedRecordBytes())
        .build();
    this.admission = options.hotnessCheck() ? new AdmissionFilter(cache.targetBytes(),
        () -> ADMISSION_WINDOW_HOT_SET_LIMITS * tracker.hotSetLimit(), MAX_ADMISSION_WINDOW) : null;
    this.demotedAfterRead = options.hotnessCheck() ? new AdmissionFilter(cache.targetBytes(),
        () -> ADMISSION_WINDOW_HOT_SET_LIMITS * tracker.hotSetLimit(), MAX_ADMISSION_WINDOW) : null;
    this.checker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hotrap-promoter-" + options.fastPath().getFileName());
      t.setDaemon(true);
      return t;
    });
  }

  PromotionCache cache() {
    return cache;
  }

  /** The admission filter, or null when the hotness check is off. */
  AdmissionFilter admission() {
    return admission;
  }

  /** Rule P2, first half: the key's stripe write counter, read before the fast lookup. */
  long beforeFastLookup(byte[] key) {
    return stripes.counter(stripes.stripeOf(key));
  }

  /**
   * The promotion cache's copy of {@code key} (mutable table, then those being checked), or null;
   * counted as a hit.
   */
  byte[] lookup(byte[] key) {
    byte[] v = cache.get(key);
    if (v == null) {
      return null;
    }
    counters.promotionCacheHits.increment();
    if (admission != null) {
      admission.cacheHit(key.length + v.length);
    }
    return v.clone();
  }

  /**
   * Rule P2, second half: caches a slow-tier hit if the admission filter lets it in and no write
   * of its stripe happened since {@code counterBeforeFast} was read; freezes the cache when full.
   */
  void offer(byte[] key, byte[] value, long counterBeforeFast) {
    hooks.afterSlowRead(key);
    long size = (long) key.length + value.length;
    if (size > cache.maxRecordBytes()) {
      return;
    }
    if (admission != null) {
      boolean demotedAfterAccess = demotedAfterRead.mightContain(key);
      if (!admission.admit(key, (int) size, demotedAfterAccess)) {
        counters.promotionReadsNotAdmitted.increment();
        return;
      }
      if (demotedAfterAccess) {
        counters.promotionReadsAdmittedAfterDemotion.increment();
      }
    }
    if (pendingChecks >= MAX_PENDING_CHECKS && cache.mutableBytes() >= shedBytes(cache.targetBytes())) {
      // Checks are behind and the backlog is at its bound: shed this read rather than grow.
      counters.promotionInsertsShed.increment();
      return;
    }
    int stripe = stripes.stripeOf(key);
    synchronized (stripes.lock(stripe)) {
      if (stripes.counter(stripe) != counterBeforeFast) {
        counters.promotionInsertsAborted.increment();
        return;
      }
      cache.insert(key.clone(), value.clone());
    }
    if (cache.isFull() && (pendingChecks == 0 || (pendingChecks < MAX_PENDING_CHECKS
        && cache.mutableBytes() >= (long) MAX_BACKLOG_TARGETS * cache.targetBytes()))) {
      freezeIfFull();
    }
  }

  /**
   * Size of the mutable table at which slow-tier hits are shed while {@link #MAX_PENDING_CHECKS}
   * tables wait: {@link #MAX_BACKLOG_TARGETS} targets, and at least {@link #MIN_SHED_BYTES}.
   */
  static long shedBytes(long targetBytes) {
    return Math.max((long) MAX_BACKLOG_TARGETS * targetBytes, MIN_SHED_BYTES);
  }

  @Override
  public void demotedAfterAccess(byte[] key, int recordBytes) {
    if (demotedAfterRead != null) {
      demotedAfterRead.admit(key, recordBytes);
    }
  }

  /** Called by writers under the key's stripe lock ({@link CommitGate#markWritten}). */
  @Override
  public void invalidate(byte[] key) {
    cache.invalidate(key);
  }

  private void freezeIfFull() {
    if (stopping) {
      return;
    }
    ImmutablePromotionCache imm = cache.freezeIfFull();
    if (imm == null) {
      return;
    }
    // The reads that filled this table, not those made while it waits for the checker.
    double admittedShare = admission != null ? admission.admittedShare() : 1.0;
    synchronized (idle) {
      pendingChecks++;
    }
    try {
      checker.execute(() -> {
        try {
          check(imm, admittedShare);
        } catch (Exception | AssertionError e) {
          LOG.log(Level.WARNING, "promotion by flush failed; the cached records are dropped", e);
        } finally {
          cache.release(imm);
          // The mutable table may have filled while this check ran, and waited for it: hand it
          // over now rather than at the next insert, which may never come. Before the count
          // drops, so that awaitIdle does not return in between.
          if (cache.isFull()) {
            freezeIfFull();
          }
          synchronized (idle) {
            pendingChecks--;
            idle.notifyAll();
          }
        }
      });
    } catch (RuntimeException e) {
      cache.release(imm);
      synchronized (idle) {
        pendingChecks--;
        idle.notifyAll();
      }
    }
  }

  /** Waits until every frozen cache handed to the checker so far has been checked. */
  void awaitIdle() {
    synchronized (idle) {
      while (pendingChecks > 0) {
        try {
          idle.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Promotion by flush of one immutable cache (DESIGN.md §9), filled while the admission filter
   * admitted {@code admittedShare} of the read bytes: {@link PromotionPolicy} decides, this carries
   * the decision out.
   */
  private void check(ImmutablePromotionCache imm, double admittedShare) throws Exception {
    boolean writersWaiting = counters.writersStalled.get() > 0;
    PromotionPolicy.Context context;
    if (options.hotnessCheck()) {
      // RALT answers from its files; accesses still in its buffer are invisible, to this check and
      // to retention, which would demote a promoted record RALT does not yet know as hot. The
      // floor keeps a run per check from being mostly file overhead. A check that may not promote
      // leaves RALT to write its buffer when full, as it does with promotion off.
      if (PromotionPolicy.mayPromote(admittedShare)) {
        tracker.flushIfBuffered(RALT_FLUSH_FLOOR);
      }
      context = new PromotionPolicy.Context(tracker::isStableHot, returnRoom(), admittedShare,
          writersWaiting, cache.targetBytes());
    } else {
      context = PromotionPolicy.Context.withoutHotnessCheck(writersWaiting, cache.targetBytes());
    }
    List<PromotionPolicy.Candidate<PromotionCache.Entry>> table = new ArrayList<>();
    for (PromotionCache.Entry e : imm) {
      table.add(new PromotionPolicy.Candidate<>(e, e.key(), e.key().length + e.value().length,
          e.bytes(), e.putBacksUnread(), e.wasRead()));
    }
    PromotionPolicy.Decision<PromotionCache.Entry> decision = PromotionPolicy.decide(table, context);
    counters.promotionsDroppedUnread.add(decision.droppedUnread());
    counters.promotionCandidatesReturned.add(decision.returned());
    if (stopping) {
      return;
    }
    switch (decision.action()) {
      case PUT_BACK:
        cache.putBack(imm, decision.records());
        break;
      case PROMOTE:
        // Only a check that writes waits for room; while it waits, gets still find its records here.
        awaitRoom.run();
        if (stopping) {
          return;
        }
        hooks.beforeFlushCommit(imm);
        counters.bytesPromotedByFlush.add(commit(decision.records(), imm::isUpdated));
        break;
      case NOTHING:
        break;
    }
  }

  /**
   * Hot bytes (key + value) of records that came back which one check may take as hot
   * ({@link PromotionPolicy#returnRoom}), against RALT's cap: R_hs with auto-tuning, else its fixed
   * limit.
   */
  private long returnRoom() {
    if (!tracker.available()) {
      return 0;
    }
    long cap = options.raltOptions().autoTuning()
        ? options.raltOptions().maxHotSetLimit() : tracker.hotSetLimit();
    return PromotionPolicy.returnRoom(cap, tracker.hotSetBytes());
  }

  /** Promotion by compaction of a migrated range (DESIGN.md §7 step 3). */
  @Override
  public long promote(byte[] smallestKey, byte[] largestKey, UpdatedKeys updated) throws Exception {
    if (!options.promoteByCompaction() || stopping) {
      return 0;
    }
    List<PromotionCache.Entry> taken = cache.range(smallestKey, largestKey);
    if (taken.isEmpty()) {
      return 0;
    }
    List<PromotionCache.Entry> hot = new ArrayList<>();
    for (PromotionCache.Entry e : taken) {
      if (!options.hotnessCheck() || tracker.isStableHot(e.key())) {
        hot.add(e);
      }
    }
    if (hot.isEmpty()) {
      return 0;
    }
    hooks.beforeCompactionCommit(taken);
    long promoted = commit(hot, updated::contains);
    counters.bytesPromotedByCompaction.add(promoted);
    // Only the promoted leave the cache. The others stay for the check of their table: they came
    // back (the admission filter let them in) though RALT has not written both accesses yet, and
    // taking them out lost them — a hot set read in passes while migrations ran left up to a
    // quarter of its records in the slow tier after a second pass (HotSetAcrossRestartTest).
    cache.removeIfUnchanged(hot);
    return promoted;
  }

  /** See {@link #awaitRoom}. */
  void setAwaitRoom(Runnable action) {
    this.awaitRoom = java.util.Objects.requireNonNull(action);
  }

  /** See {@link #beforeFastWrite}. */
  void setBeforeFastWrite(Consumer<byte[]> action) {
    this.beforeFastWrite = java.util.Objects.requireNonNull(action);
  }

  private interface Marks {
    boolean isUpdated(byte[] key);
  }

  /**
   * Writes {@code records} into the fast tier in one batch under the gate held exclusive, without
   * those marked updated or that the fast tier holds. Returns the key + value bytes written.
   *
   * <p>The fast-tier lookups run before the gate is taken, so writers wait only for the marks to be
   * read and the batch to be written, not for a lookup per record. That is safe: a key absent from
   * the fast tier at the lookup that a user writes before the commit is marked updated by that
   * write (the marks were registered before the records were read), and the only other writes of
   * the fast tier, promotions, copy the same slow-tier version.
   */
  private long commit(List<PromotionCache.Entry> records, Marks updated) throws Exception {
    List<PromotionCache.Entry> absent = notInFast(records);
    long[] bytes = new long[1];
    gate.commit(() -> {
      try (WriteBatch batch = new WriteBatch()) {
        long skippedUpdated = 0;
        for (PromotionCache.Entry e : absent) {
          if (updated.isUpdated(e.key())) {
            skippedUpdated++;
          } else {
            beforeFastWrite.accept(e.key());
            gate.markPromoted(e.key());
            batch.put(fast, e.key(), e.value());
            bytes[0] += e.key().length + e.value().length;
          }
        }
        if (batch.count() > 0) {
          db.write(writeOptions, batch);
        }
        counters.promotionsSkippedUpdated.add(skippedUpdated);
      }
    });
    return bytes[0];
  }

  /** The records whose key the fast tier does not hold, by one batched lookup. */
  private List<PromotionCache.Entry> notInFast(List<PromotionCache.Entry> records) throws RocksDBException {
    List<byte[]> keys = new ArrayList<>(records.size());
    List<ColumnFamilyHandle> cfs = new ArrayList<>(records.size());
    for (PromotionCache.Entry e : records) {
      keys.add(e.key());
      cfs.add(fast);
    }
    List<byte[]> found = db.multiGetAsList(cfs, keys);
    List<PromotionCache.Entry> absent = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      if (found.get(i) == null) {
        absent.add(records.get(i));
      }
    }
    counters.promotionsSkippedInFast.add(records.size() - absent.size());
    return absent;
  }

  /** Stops accepting work, drops queued checks' promotions and waits for the checker thread. */
  @Override
  public void close() {
    stopping = true;
    checker.shutdown();
    // The write options are freed only once the checker has stopped: a check still running after a
    // timeout would write through freed native options. A check stops at its next batch boundary.
    boolean interrupted = false;
    while (true) {
      try {
        if (checker.awaitTermination(60, TimeUnit.SECONDS)) {
          break;
        }
        LOG.warning("promotion checker has not stopped after 60 s; still waiting");
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
