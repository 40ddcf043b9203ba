package io.hotrap.core;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters behind {@link HotRapStats} and the Micrometer meters. Counters only grow;
 * tier sizes are refreshed by the migrator after each flush, compaction and migration step.
 * Thread-safe; reads are not atomic across counters.
 */
final class StoreCounters {
  final LongAdder getsServedFast = new LongAdder();
  final LongAdder getsServedSlow = new LongAdder();
  /** Gets not recorded in RALT nor offered to promotion: the read-skew detector saw uniform reads. */
  final LongAdder untrackedReads = new LongAdder();
  /** The read-skew detector's last decision (true before its first window closes) and statistic. */
  volatile boolean readsSkewed = true;
  volatile double readConcentration = Double.NaN;
  final LongAdder readSkewWindows = new LongAdder();
  final LongAdder recordsDemoted = new LongAdder();
  final LongAdder bytesDemoted = new LongAdder();
  final LongAdder recordsRetained = new LongAdder();
  final LongAdder bytesRetained = new LongAdder();
  final LongAdder demotionsDroppedAsUpdated = new LongAdder();
  /** Tombstones demotion wrote into the fast tier (the tombstone path and its snapshot fallback). */
  final LongAdder demotionTombstones = new LongAdder();
  /** Fast files that left whole, every record demoted or stale (TierMigrator.dropWholeFiles). */
  final LongAdder demotionFilesDropped = new LongAdder();
  /** Demoted records registered for the native filter to drop (no tombstone written). */
  final LongAdder recordsDemotedNatively = new LongAdder();
  /** Demoted records that reached the slow tier in an ingested file rather than a write batch. */
  final LongAdder recordsDemotedByIngestion = new LongAdder();
  /** Files of demoted records ingested into the slow tier, and the time spent ingesting them. */
  final LongAdder demotionIngestions = new LongAdder();
  final LongAdder demotionIngestionNanos = new LongAdder();
  final LongAdder migrations = new LongAdder();
  final LongAdder migrationNanos = new LongAdder();
  final LongAdder retentionOverrides = new LongAdder();
  final LongAdder compactionsBeforeOverride = new LongAdder();
  final LongAdder writeStalls = new LongAdder();
  final LongAdder writeStallNanos = new LongAdder();
  final LongAdder writeStallTimeouts = new LongAdder();
  /** Promotion checks that waited for room before writing ({@link WriteThrottle#awaitRoomForPromotion}). */
  final LongAdder promotionWaitsForRoom = new LongAdder();
  final LongAdder promotionWaitNanos = new LongAdder();
  final LongAdder promotionWaitTimeouts = new LongAdder();
  final LongAdder migrationFailures = new LongAdder();
  final LongAdder bytesPromotedByFlush = new LongAdder();
  final LongAdder bytesPromotedByCompaction = new LongAdder();
  final LongAdder promotionCacheHits = new LongAdder();
  final LongAdder promotionInsertsAborted = new LongAdder();
  final LongAdder promotionsSkippedUpdated = new LongAdder();
  final LongAdder promotionsSkippedInFast = new LongAdder();
  final LongAdder promotionCandidatesReturned = new LongAdder();
  final LongAdder promotionsDroppedUnread = new LongAdder();
  final LongAdder promotionReadsNotAdmitted = new LongAdder();
  final LongAdder promotionReadsAdmittedAfterDemotion = new LongAdder();
  /** Slow-tier hits not cached because checks fell behind and the cache was at its bound. */
  final LongAdder promotionInsertsShed = new LongAdder();
  /** Gets the flash cache served (also counted in {@link #getsServedSlow}). */
  final LongAdder getsServedFlash = new LongAdder();
  /** Slow-tier reads not inserted into the flash cache because a write raced them (rule P2). */
  final LongAdder flashInsertsAborted = new LongAdder();
  /** The flash cache's own counters; null without one. */
  volatile java.util.function.Supplier<io.hotrap.cache.flash.FlashCacheStats> flashStats;
  /** User writes waiting in {@link WriteThrottle} for room on the fast tier right now. */
  final AtomicInteger writersStalled = new AtomicInteger();
  /** Live SST bytes of write-hot separation's {@code fast-hot} column family (in {@link #fastSstBytes}). */
  volatile long hotSstBytes;
  /** User writes routed to {@code fast-hot} ({@link WriteHotSeparator}). */
  final LongAdder hotWrites = new LongAdder();
  /** Keys moved from {@code fast-hot} back to {@code fast}. */
  final LongAdder hotEvictions = new LongAdder();
  /** Flush and compaction output of {@code fast-hot} (in the fast tier's bytes written). */
  volatile long hotBytesWritten;
  volatile long fastSstBytes;
  /**
   * Fast-tier SST bytes that are no longer live but still on disk because open iterators read them
   * (RocksDB's total minus live SST size).
   */
  volatile long fastFilesPinnedBytes;
  /**
   * Fast-tier bytes the last migration check could not free because open user snapshots see the
   * versions it demoted; 0 when migration is not held up. Writers are throttled above this much
   * over the stall threshold instead of at it.
   */
  volatile long snapshotPinnedBytes;
  /** Open user snapshots. */
  volatile int openSnapshots;
  volatile long slowSstBytes;
  volatile long maxFastSstBytes;

  // Migration picker (TierMigrator's rankings, one per round).
  final LongAdder migrationPicks = new LongAdder();
  final LongAdder migrationPickNanos = new LongAdder();
  /** Fast-tier candidate files ranked, summed over rankings. */
  final LongAdder migrationPickFastFiles = new LongAdder();
  /** Slow-tier files indexed, summed over rankings. */
  final LongAdder migrationPickSlowFiles = new LongAdder();
  /** Estimated heap of the last ranking's structures ({@code MigrationPicker.roundBytes}). */
  volatile long migrationPickBytes;
  /** Largest {@link #migrationPickBytes} since open. */
  volatile long migrationPickPeakBytes;

  // Promotion cache; refreshed by stats().
  /** Charged bytes of the promotion cache's tables now. */
  volatile long promotionCacheBytes;
  /** Largest charged bytes the promotion cache held since open. */
  volatile long promotionCachePeakBytes;
  /** Bits of the promotion admission filter, bytes. */
  volatile long admissionFilterBytes;

  // Memory tier (MemoryTier); refreshed by its trim passes and by stats().
  /** Trim passes that found newer log records on disk and marked them dead. */
  final LongAdder memoryTierRetirements = new LongAdder();
  volatile long memoryTierBytes;
  volatile long tierLogBytes;
  volatile long tierLogLiveBytes;
  volatile long tierLogPeakBytes;
  volatile long tierLogTrims;
  volatile long tierLogCompressions;
  volatile long memoryTierRecoveryNanos;
  volatile long memoryTierRecoveredRecords;

  /** Counts one ranking of the migration picker. */
  synchronized void pickRanked(long nanos, long fastFiles, long slowFiles, long bytes) {
    migrationPicks.increment();
    migrationPickNanos.add(nanos);
    migrationPickFastFiles.add(fastFiles);
    migrationPickSlowFiles.add(slowFiles);
    migrationPickBytes = bytes;
    if (bytes > migrationPickPeakBytes) {
      migrationPickPeakBytes = bytes;
    }
  }

  void updateSizes(long fast, long slow) {
    fastSstBytes = fast;
    slowSstBytes = slow;
    if (fast > maxFastSstBytes) {
      maxFastSstBytes = fast;
    }
  }
}
