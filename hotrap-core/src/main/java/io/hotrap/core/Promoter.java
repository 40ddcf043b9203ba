package io.hotrap.core;

import io.hotrap.cache.AdmissionFilter;
import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * a background thread of its own and by compaction on the migrator's thread.
 *
 * <p><b>Rule P2 (the reader).</b> {@link #beforeFastLookup} reads the key's stripe write counter
 * before the fast lookup; {@link #offer} inserts the slow hit under the key's stripe lock only if the
 * counter did not move. The race it prevents: a user write lands between the reader's fast miss and
 * its insert, and the insert would cache the older slow version after the write's invalidation ran.
 * Writers bump the counter and call {@link #invalidate} under the same stripe lock
 * ({@link CommitGate#markWritten}), so a write either aborts the insert or removes what it inserted.
 *
 * <p><b>Promotion by flush: which updated set.</b> The commit of a checked immutable cache consults
 * the cache's own updated marks ({@link ImmutablePromotionCache#isUpdated}), not a
 * {@link CommitGate} {@link UpdatedKeys}: the immutable table is registered for marks inside
 * {@link PromotionCache#freeze()} before the mutable reference is swapped, and writers mark it
 * through {@link #invalidate} inside their shared hold of the gate. The decisive read of the marks is
 * made while the gate is held exclusive, so a concurrent write is either marked by then (the record
 * is dropped) or lands after the commit (and is newer). Promotion by compaction, which reads the
 * mutable table, uses the migration's {@link UpdatedKeys} instead, registered before the migration
 * took its snapshot and so before it read the cache.
 *
 * <p><b>Which records are hot.</b> Both paths promote the records RALT calls stable-hot
 * ({@code Ralt.isStableHot}): RALT's hot set also holds some room of records seen only once, mostly
 * the latest; promoting those would copy recently read cold records to the fast disk under uniform
 * access.
 *
 * <p><b>Second reads only.</b> With the hotness check on, a slow-tier hit is cached only if its
 * key was read from the slow tier lately ({@link AdmissionFilter}, whose window is twice RALT's
 * hot-set limit in records): a record read once cannot be promoted, and caching every cold read
 * cost cold uniform gets about a fifth of their throughput (copies, skip-list inserts, a checker
 * wake-up per table). Every record in a table has thus come back, the test of Algorithm 1,
 * whether or not RALT has merged its two accesses yet (it learns that a key came back only when
 * the runs holding them merge, and a hot set read in passes from a cold tracker would otherwise
 * wait for a third pass). The check takes such records as hot up to RALT's room to grow
 * ({@link #returnRoom}): beyond it retention would demote them again.
 *
 * <p><b>Came back by chance.</b> Under reads spread over far more data than the window, a few keys
 * come back by chance, and a table fills with them slowly. What tells them from a hot set is the
 * reads around them: the check promotes only while the filter's admitted share of recent read bytes
 * is at least {@value #MIN_ADMITTED_SHARE} (a table that held every read would have been half hot;
 * DESIGN.md §9 asks for half a file). Gets served by the promotion cache count as admitted reads:
 * the tail of a hot set that is mostly promoted makes few slow-tier reads beside the cold ones,
 * but its records, put back, are read from the cache. Otherwise the check puts back at most half
 * a table, those a get read first, so that the mutable table is not refilled by its own
 * put-backs, and a record that waits through
 * {@value #MAX_PUT_BACKS_UNREAD} checks in a row without a get reading it is dropped by the next
 * one: a record that came back by chance is no likelier than any other to be read again, and a hot
 * one is read while it waits. A record put back and not read since rides along with a promotion but
 * does not count toward the half table that makes one.
 *
 * <p><b>Writes first.</b> While user writes wait in the {@link WriteThrottle} for room on the fast
 * tier, promotion by flush puts its records back instead of writing them. Without this, reads of a
 * hot set larger than the fast tier keep it full of promoted records that migration demotes again,
 * and writers wait for room that promotion takes back (measured: a race test of 3 writers and 2
 * readers went from 10 s to over 3 minutes).
 *
 * <p><b>One table checked at a time.</b> A full mutable table is frozen only when no check is in
 * progress; while one is (it may wait for RALT to write its buffer, hundreds of milliseconds), the
 * mutable table grows past its target, up to {@value #MAX_BACKLOG_TARGETS} targets, and the check
 * freezes it when it ends. Past that one more table may queue ({@value #MAX_PENDING_CHECKS} in all);
 * beyond, slow-tier hits are not cached (counted as shed), so the cache's memory and the tables a
 * get walks stay bounded however far checks fall behind. Freezing at every target instead queued a frozen table per ~60
 * slow-tier reads (at a 4 MiB budget) behind a waiting check, and every get that missed the
 * mutable table walked them all: 1.8 tables on average in a run of cold gets, against 0.6–0.75
 * now, and every freeze woke the checker thread.
 *
 * <p>In both paths a record is also dropped when the fast tier holds its key at commit time (a
 * promoted copy would be the same version at best). Promotion writes only to the fast tier; the
 * copy left in the slow tier is harmless (I1).
 *
 * <p>Thread-safe. Freezes may come from any reader; checks run one at a time on the promoter
 * thread.
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
   * Smallest admitted share of recent slow-tier read bytes ({@link AdmissionFilter#admittedShare})
   * at which a check promotes: the half of DESIGN.md §9's half-file rule, for a table that holds
   * only the reads that came back.
   */
  static final double MIN_ADMITTED_SHARE = 0.5;
  /**
   * Checks a record may wait through, put back each time for want of company, with no get reading
   * it; the next check drops it. One is not enough: a hot set that makes a small share of the reads
   * is read only now and then, and its records should have two chances to be read while they wait.
   */
  static final int MAX_PUT_BACKS_UNREAD = 2;
  /**
   * How far past its target the mutable table may grow while a check is in progress, as a multiple
   * of the target; beyond it a full table is frozen and queued behind the running check anyway.
   */
  static final int MAX_BACKLOG_TARGETS = 4;
  /**
   * Frozen tables waiting for or in a check, at most. With the mutable table capped at
   * {@link #MAX_BACKLOG_TARGETS} targets, the cache holds at most (this + that) targets of records,
   * and a get that misses walks at most this many frozen tables; reads beyond are shed.
   */
  static final int MAX_PENDING_CHECKS = 2;

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
  private final WriteOptions writeOptions = new WriteOptions();
  private final ExecutorService checker;
  private final Object idle = new Object();
  /** Frozen tables handed to the checker and not yet released; written under {@link #idle}. */
  private volatile int pendingChecks;
  private volatile boolean stopping;

  Promoter(RocksDB db, ColumnFamilyHandle fast, HotRapOptions options, CommitGate gate,
      AccessTracker tracker, StoreCounters counters) {
    this.db = db;
    this.fast = fast;
    this.options = options;
    this.gate = gate;
    this.stripes = gate.counters();
    this.tracker = tracker;
    this.counters = counters;
    this.hooks = options.promotionHooks();
    this.cache = PromotionCache.builder()
        .targetBytes(options.promotionCacheBytes())
        .maxRecordBytes(options.maxPromotedRecordBytes())
        .build();
    this.admission = options.hotnessCheck() ? new AdmissionFilter(cache.targetBytes(),
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
    if (admission != null && !admission.admit(key, (int) size)) {
      counters.promotionReadsNotAdmitted.increment();
      return;
    }
    if (pendingChecks >= MAX_PENDING_CHECKS
        && cache.mutableBytes() >= (long) MAX_BACKLOG_TARGETS * cache.targetBytes()) {
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
   * admitted {@code admittedShare} of the read bytes.
   */
  private void check(ImmutablePromotionCache imm, double admittedShare) throws Exception {
    long returnRoom = 0;
    if (options.hotnessCheck()) {
      // RALT answers from its files; accesses still in its buffer are invisible, to this check and
      // to retention, which would demote a promoted record RALT does not yet know as hot. The
      // floor keeps a run per check from being mostly file overhead and merges when checks come
      // often (a small cache, or a hot set read at full speed). A check with too few returns
      // among the reads promotes nothing whatever RALT says, and leaves RALT to write its buffer
      // when full, as it does with promotion off.
      if (admittedShare >= MIN_ADMITTED_SHARE) {
        tracker.flushIfBuffered(RALT_FLUSH_FLOOR);
      }
      returnRoom = returnRoom();
    }
    List<PromotionCache.Entry> hot = new ArrayList<>();
    /** Bytes of the hot records that count toward a promotion: all but returns already counted. */
    long hotBytes = 0;
    long returned = 0;
    long unread = 0;
    for (PromotionCache.Entry e : imm) {
      if (e.putBacksUnread() >= MAX_PUT_BACKS_UNREAD && !e.wasRead()) {
        unread++;
        continue;
      }
      boolean fresh = true;
      if (options.hotnessCheck() && !tracker.isStableHot(e.key())) {
        // Admitted, so read again within the filter's window: it came back, whether or not RALT
        // has merged its accesses yet.
        long size = e.key().length + e.value().length;
        if (size > returnRoom) {
          continue;
        }
        returnRoom -= size;
        returned++;
        // Put back and not read since, it is here on the return an earlier check counted: it
        // goes with a promotion, but does not make one (see the class javadoc).
        fresh = e.wasRead() || e.putBacksUnread() == 0;
      }
      hot.add(e);
      if (fresh) {
        hotBytes += e.bytes();
      }
    }
    counters.promotionsDroppedUnread.add(unread);
    counters.promotionCandidatesReturned.add(returned);
    if (hot.isEmpty() || stopping) {
      return;
    }
    if (hotBytes < cache.targetBytes() / 2 || admittedShare < MIN_ADMITTED_SHARE
        || counters.writersStalled.get() > 0) {
      // Too few to make a file of, or too few among the reads around them to tell them from
      // chance returns: they wait in the mutable cache, up to half a table, to be read or joined.
      // Or user writes are being held back for room on the fast tier, and a promotion would take
      // that room from them (and be demoted again by the migration that makes it).
      cache.putBack(imm, upToHalfATable(hot));
      return;
    }
    hooks.beforeFlushCommit(imm);
    long promoted = commit(hot, imm::isUpdated);
    counters.bytesPromotedByFlush.add(promoted);
  }

  /**
   * Of {@code records}, those that fit in half the cache's target, the ones a get read from the
   * cache first: put back, they leave the mutable table room to fill with new reads instead of
   * being frozen again at once, and the records read while they waited are the likeliest to be
   * read again.
   */
  private List<PromotionCache.Entry> upToHalfATable(List<PromotionCache.Entry> records) {
    List<PromotionCache.Entry> kept = new ArrayList<>();
    long room = cache.targetBytes() / 2;
    for (boolean read : new boolean[] {true, false}) {
      for (PromotionCache.Entry e : records) {
        if (e.wasRead() == read && e.bytes() <= room) {
          kept.add(e);
          room -= e.bytes();
        }
      }
    }
    return kept;
  }

  /**
   * Hot bytes (key + value) of records that came back which one check may take as hot: what RALT's
   * hot set can still grow to hold — up to R_hs with auto-tuning, else up to its fixed limit. When
   * the reads' hot set is larger than that, RALT keeps only part of it hot, retention demotes the
   * rest, and promoting the rest would only feed a loop of promotion and demotion that crowds user
   * writes out of the fast tier.
   */
  private long returnRoom() {
    if (!tracker.available()) {
      return 0;
    }
    long cap = options.raltOptions().autoTuning()
        ? options.raltOptions().maxHotSetLimit() : tracker.hotSetLimit();
    return Math.max(0, cap - tracker.hotSetBytes());
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
    long promoted = 0;
    if (!hot.isEmpty()) {
      hooks.beforeCompactionCommit(taken);
      promoted = commit(hot, updated::contains);
      counters.bytesPromotedByCompaction.add(promoted);
    }
    cache.removeIfUnchanged(taken);
    return promoted;
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
