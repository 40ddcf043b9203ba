package io.hotrap.core;

import io.hotrap.ralt.RaltStats;

/**
 * A point-in-time view of a {@link HotRapDB}: where gets were served, what migration moved, the
 * tier sizes and RALT's own statistics. Counters are cumulative since open. Immutable; the
 * counters are read one by one, so they are not an atomic cut of a busy store.
 */
public final class HotRapStats {
  private final long getsServedFast;
  private final long getsServedSlow;
  private final long getsServedFlash;
  private final long flashInsertsAborted;
  private final io.hotrap.cache.flash.FlashCacheStats flashCacheStats;
  private final long fastSstBytes;
  private final long slowSstBytes;
  private final long maxFastSstBytes;
  private final long fastFilesPinnedBytes;
  private final long snapshotPinnedBytes;
  private final int openSnapshots;
  private final long recordsDemoted;
  private final long bytesDemoted;
  private final long recordsRetained;
  private final long bytesRetained;
  private final long demotionsDroppedAsUpdated;
  private final long demotionTombstones;
  private final long recordsDemotedNatively;
  private final long demotionFilesDropped;
  private final long recordsDemotedByIngestion;
  private final long demotionIngestions;
  private final long demotionIngestionNanos;
  private final long migrations;
  private final long bytesPromotedByFlush;
  private final long bytesPromotedByCompaction;
  private final long promotionCacheHits;
  private final long promotionInsertsAborted;
  private final long promotionsSkippedUpdated;
  private final long promotionsSkippedInFast;
  private final long promotionCandidatesReturned;
  private final long promotionsDroppedUnread;
  private final long promotionReadsNotAdmitted;
  private final long promotionReadsAdmittedAfterDemotion;
  private final long promotionInsertsShed;
  private final long migrationNanos;
  private final long migrationFailures;
  private final long retentionOverrides;
  private final long compactionsBeforeOverride;
  private final long writeStalls;
  private final long writeStallNanos;
  private final long writeStallTimeouts;
  private final long promotionWaitsForRoom;
  private final long promotionWaitNanos;
  private final long promotionWaitTimeouts;
  private final boolean raltAvailable;
  private final RaltStats raltStats;
  private final long fastBytesWritten;
  private final long slowBytesWritten;
  private final long memoryTierBytes;
  private final long memoryTierRetirements;
  private final long tierLogBytes;
  private final long tierLogLiveBytes;
  private final long tierLogPeakBytes;
  private final long tierLogTrims;
  private final long tierLogCompressions;
  private final long memoryTierRecoveryNanos;
  private final boolean writeHotSeparation;
  private final boolean readsSkewed;
  private final double readConcentration;
  private final long untrackedReads;
  private final long readSkewWindows;
  private final boolean writeSkewed;
  private final double writeSkewVariance;
  private final long writeHotWrites;
  private final long writeHotEvictions;
  private final long writeHotWindows;
  private final long writeSkewSkippedWrites;
  private final int writeHotMembers;
  private final int writeHotIndexKeys;
  private final long hotSstBytes;
  private final long hotBytesWritten;
  private final long migrationPicks;
  private final long migrationPickNanos;
  private final long migrationPickFastFiles;
  private final long migrationPickSlowFiles;
  private final long migrationPickBytes;
  private final long migrationPickPeakBytes;
  private final long promotionCacheBytes;
  private final long promotionCachePeakBytes;
  private final long admissionFilterBytes;

  HotRapStats(StoreCounters c, boolean raltAvailable, RaltStats raltStats, long fastBytesWritten,
      long slowBytesWritten) {
    this(c, raltAvailable, raltStats, fastBytesWritten, slowBytesWritten, null);
  }

  HotRapStats(StoreCounters c, boolean raltAvailable, RaltStats raltStats, long fastBytesWritten,
      long slowBytesWritten, WriteHotSeparator separator) {
    writeHotSeparation = separator != null;
    readsSkewed = c.readsSkewed;
    readConcentration = c.readConcentration;
    untrackedReads = c.untrackedReads.sum();
    readSkewWindows = c.readSkewWindows.sum();
    writeSkewed = separator != null && separator.skewed();
    writeSkewVariance = separator != null ? separator.lastVariance() : Double.NaN;
    writeHotWrites = separator != null ? separator.hotWrites.sum() : 0;
    writeHotEvictions = separator != null ? separator.evictions.sum() : 0;
    writeHotWindows = separator != null ? separator.windows.sum() : 0;
    writeSkewSkippedWrites = separator != null ? separator.skippedWrites() : 0;
    writeHotMembers = separator != null ? separator.members() : 0;
    writeHotIndexKeys = separator != null ? separator.indexKeys() : 0;
    hotSstBytes = c.hotSstBytes;
    hotBytesWritten = c.hotBytesWritten;
    migrationPicks = c.migrationPicks.sum();
    migrationPickNanos = c.migrationPickNanos.sum();
    migrationPickFastFiles = c.migrationPickFastFiles.sum();
    migrationPickSlowFiles = c.migrationPickSlowFiles.sum();
    migrationPickBytes = c.migrationPickBytes;
    migrationPickPeakBytes = c.migrationPickPeakBytes;
    promotionCacheBytes = c.promotionCacheBytes;
    promotionCachePeakBytes = c.promotionCachePeakBytes;
    admissionFilterBytes = c.admissionFilterBytes;
    this.fastBytesWritten = fastBytesWritten;
    this.slowBytesWritten = slowBytesWritten;
    memoryTierBytes = c.memoryTierBytes;
    memoryTierRetirements = c.memoryTierRetirements.sum();
    tierLogBytes = c.tierLogBytes;
    tierLogLiveBytes = c.tierLogLiveBytes;
    tierLogPeakBytes = c.tierLogPeakBytes;
    tierLogTrims = c.tierLogTrims;
    tierLogCompressions = c.tierLogCompressions;
    memoryTierRecoveryNanos = c.memoryTierRecoveryNanos;
    getsServedFast = c.getsServedFast.sum();
    getsServedSlow = c.getsServedSlow.sum();
    getsServedFlash = c.getsServedFlash.sum();
    flashInsertsAborted = c.flashInsertsAborted.sum();
    java.util.function.Supplier<io.hotrap.cache.flash.FlashCacheStats> flash = c.flashStats;
    flashCacheStats = flash != null ? flash.get() : null;
    fastSstBytes = c.fastSstBytes;
    slowSstBytes = c.slowSstBytes;
    maxFastSstBytes = c.maxFastSstBytes;
    fastFilesPinnedBytes = c.fastFilesPinnedBytes;
    snapshotPinnedBytes = c.snapshotPinnedBytes;
    openSnapshots = c.openSnapshots;
    recordsDemoted = c.recordsDemoted.sum();
    bytesDemoted = c.bytesDemoted.sum();
    recordsRetained = c.recordsRetained.sum();
    bytesRetained = c.bytesRetained.sum();
    demotionsDroppedAsUpdated = c.demotionsDroppedAsUpdated.sum();
    demotionTombstones = c.demotionTombstones.sum();
    recordsDemotedNatively = c.recordsDemotedNatively.sum();
    demotionFilesDropped = c.demotionFilesDropped.sum();
    recordsDemotedByIngestion = c.recordsDemotedByIngestion.sum();
    demotionIngestions = c.demotionIngestions.sum();
    demotionIngestionNanos = c.demotionIngestionNanos.sum();
    migrations = c.migrations.sum();
    bytesPromotedByFlush = c.bytesPromotedByFlush.sum();
    bytesPromotedByCompaction = c.bytesPromotedByCompaction.sum();
    promotionCacheHits = c.promotionCacheHits.sum();
    promotionInsertsAborted = c.promotionInsertsAborted.sum();
    promotionsSkippedUpdated = c.promotionsSkippedUpdated.sum();
    promotionsSkippedInFast = c.promotionsSkippedInFast.sum();
    promotionCandidatesReturned = c.promotionCandidatesReturned.sum();
    promotionsDroppedUnread = c.promotionsDroppedUnread.sum();
    promotionReadsNotAdmitted = c.promotionReadsNotAdmitted.sum();
    promotionReadsAdmittedAfterDemotion = c.promotionReadsAdmittedAfterDemotion.sum();
    promotionInsertsShed = c.promotionInsertsShed.sum();
    migrationNanos = c.migrationNanos.sum();
    migrationFailures = c.migrationFailures.sum();
    retentionOverrides = c.retentionOverrides.sum();
    compactionsBeforeOverride = c.compactionsBeforeOverride.sum();
    writeStalls = c.writeStalls.sum();
    writeStallNanos = c.writeStallNanos.sum();
    writeStallTimeouts = c.writeStallTimeouts.sum();
    promotionWaitsForRoom = c.promotionWaitsForRoom.sum();
    promotionWaitNanos = c.promotionWaitNanos.sum();
    promotionWaitTimeouts = c.promotionWaitTimeouts.sum();
    this.raltAvailable = raltAvailable;
    this.raltStats = raltStats;
  }

  /**
   * Bytes RocksDB wrote to the fast tier's SST files since open (flushes and compactions), as its
   * compaction statistics report them; divided by the bytes users wrote, the tier's write
   * amplification.
   */
  public long fastBytesWritten() { return fastBytesWritten; }

  /** Bytes RocksDB wrote to the slow tier's SST files since open (flushes and compactions). */
  public long slowBytesWritten() { return slowBytesWritten; }

  /** Gets answered without reading the slow tier: memtables, fast tier or promotion cache. */
  public long getsServedFast() { return getsServedFast; }

  /** Gets that read the slow tier, whether they found the key or not. */
  public long getsServedSlow() { return getsServedSlow; }

  /**
   * Gets the flash cache served ({@link HotRapOptions#flashCache()}); part of
   * {@link #getsServedSlow()}, which counts every get that went past the fast tier and the
   * promotion cache. 0 without a flash cache.
   */
  public long getsServedFlash() { return getsServedFlash; }

  /** Slow-tier reads not inserted into the flash cache because a write of their key raced them. */
  public long flashInsertsAborted() { return flashInsertsAborted; }

  /** The flash cache's own counters (hits by tier, bytes written, bypassed lookups), or null without one. */
  public io.hotrap.cache.flash.FlashCacheStats flashCacheStats() { return flashCacheStats; }

  /** Live SST bytes of the fast tier at the last refresh (after each flush, compaction, migration). */
  public long fastSstBytes() { return fastSstBytes; }

  /** Live SST bytes of the slow tier at the last refresh. */
  public long slowSstBytes() { return slowSstBytes; }

  /** Largest fast-tier SST size seen at a refresh since open. */
  public long maxFastSstBytes() { return maxFastSstBytes; }

  /**
   * Fast-tier SST bytes no longer part of the tier but kept on disk for open iterators, which
   * pin the files they read until closed.
   */
  public long fastFilesPinnedBytes() { return fastFilesPinnedBytes; }

  /**
   * Fast-tier bytes migration could not free at its last check because open user snapshots see
   * them; writers are throttled this far above the usual threshold. 0 when nothing is pinned.
   */
  public long snapshotPinnedBytes() { return snapshotPinnedBytes; }

  /** User snapshots open now. */
  public int openSnapshots() { return openSnapshots; }

  /** Records moved from the fast to the slow tier. */
  public long recordsDemoted() { return recordsDemoted; }

  /** Key plus value bytes moved from the fast to the slow tier. */
  public long bytesDemoted() { return bytesDemoted; }

  /** Records a migration found hot and left on the fast tier (counted per migration). */
  public long recordsRetained() { return recordsRetained; }

  /** Key plus value bytes a migration found hot and left on the fast tier (counted per migration). */
  public long bytesRetained() { return bytesRetained; }

  /** Demotions dropped at commit because a user wrote the key during the migration (DESIGN.md §6). */
  public long demotionsDroppedAsUpdated() { return demotionsDroppedAsUpdated; }

  /**
   * Tombstones demotion wrote into the fast tier: on the tombstone path one per demoted record,
   * except those of files that left whole ({@link #demotionFilesDropped()}); on the native path only
   * for batches committed while a user snapshot was open (0 otherwise).
   */
  public long demotionTombstones() { return demotionTombstones; }

  /**
   * Demoted records that left the fast tier through the native compaction filter, without a
   * tombstone ({@link HotRapOptions#nativeMigration()}).
   */
  public long recordsDemotedNatively() { return recordsDemotedNatively; }

  /**
   * Fast files that left the fast tier whole once migration had demoted every record in them, with
   * no tombstone and no compaction ({@link HotRapOptions#dropDemotedFiles()}).
   */
  public long demotionFilesDropped() { return demotionFilesDropped; }

  /**
   * Demoted records that reached the slow tier in a file ingested there; the rest of {@link
   * #recordsDemoted()} went in write batches (a commit whose keys users kept writing).
   */
  public long recordsDemotedByIngestion() { return recordsDemotedByIngestion; }

  /**
   * Files of demoted records ingested into the slow tier. Migration fills each to the slow tier's
   * file size ({@link HotRapOptions#migrationBatchBytes()}) across the files of a round, where a
   * round has that much to demote.
   */
  public long demotionIngestions() { return demotionIngestions; }

  /** Time spent in those ingestions, nanoseconds; user writes wait for the gate meanwhile. */
  public long demotionIngestionNanos() { return demotionIngestionNanos; }

  /** Key plus value bytes written into the fast tier by promotion by flush (DESIGN.md §9). */
  public long bytesPromotedByFlush() { return bytesPromotedByFlush; }

  /** Key plus value bytes written into the fast tier by promotion by compaction (DESIGN.md §7 step 3). */
  public long bytesPromotedByCompaction() { return bytesPromotedByCompaction; }

  /** Gets served by the promotion cache (also counted in {@link #getsServedFast()}). */
  public long promotionCacheHits() { return promotionCacheHits; }

  /** Slow-tier hits not cached because a write of the key's stripe raced the read (rule P2). */
  public long promotionInsertsAborted() { return promotionInsertsAborted; }

  /** Records not promoted because a user wrote the key while they were being promoted. */
  public long promotionsSkippedUpdated() { return promotionsSkippedUpdated; }

  /** Records not promoted because the fast tier held the key at commit time. */
  public long promotionsSkippedInFast() { return promotionsSkippedInFast; }

  /**
   * Records that a promotion check took as hot because their key was read from the slow tier
   * twice within the admission filter's window, though RALT did not yet call them stable-hot.
   */
  public long promotionCandidatesReturned() { return promotionCandidatesReturned; }

  /**
   * Records dropped by a promotion check because an earlier check had put them back for want of
   * company and no get read them from the cache while they waited.
   */
  public long promotionsDroppedUnread() { return promotionsDroppedUnread; }

  /**
   * Slow-tier hits not cached because their key had not been read from the slow tier lately: a
   * record read once cannot be promoted (see {@code io.hotrap.cache.AdmissionFilter}). Always 0 with
   * the hotness check off, when every slow-tier hit is cached.
   */
  public long promotionReadsNotAdmitted() { return promotionReadsNotAdmitted; }

  /**
   * Slow-tier hits cached on their first slow-tier read because the record had been read on the
   * fast tier before a migration demoted it (it came back). Always 0 with the hotness check off.
   */
  public long promotionReadsAdmittedAfterDemotion() { return promotionReadsAdmittedAfterDemotion; }

  /** Slow-tier hits not cached because promotion checks fell behind and the cache was at its bound. */
  public long promotionInsertsShed() { return promotionInsertsShed; }

  /** Migration steps (one fast-tier file each). */
  public long migrations() { return migrations; }

  /** Time spent migrating, nanoseconds, flushes and range compactions included. */
  public long migrationNanos() { return migrationNanos; }

  /** Migration checks that failed with an error (they are retried). */
  public long migrationFailures() { return migrationFailures; }

  /** Migration steps that demoted hot records because every candidate was hot and the budget was exceeded. */
  public long retentionOverrides() { return retentionOverrides; }

  /**
   * Times migration compacted the whole fast tier because a round had found only hot records:
   * before it overrides retention it drops the older versions and brings the cold records of the
   * upper levels down to where rounds look, once per check.
   */
  public long compactionsBeforeOverride() { return compactionsBeforeOverride; }

  /** User writes that waited for room on the fast tier. */
  public long writeStalls() { return writeStalls; }

  /** Total wait of stalled writes, nanoseconds. */
  public long writeStallNanos() { return writeStallNanos; }

  /** Stalled writes that gave up waiting after {@link HotRapOptions#maxWriteStall()}. */
  public long writeStallTimeouts() { return writeStallTimeouts; }

  /**
   * Promotion checks that waited, before writing, while the fast tier was at the threshold where
   * user writes wait ({@link HotRapOptions#writeStallBytes()}): promotion may not fill the tier past
   * its budget faster than migration empties it. The records wait with the check; none is dropped.
   */
  public long promotionWaitsForRoom() { return promotionWaitsForRoom; }

  /** Total wait of {@link #promotionWaitsForRoom()}, nanoseconds. */
  public long promotionWaitNanos() { return promotionWaitNanos; }

  /** Promotion checks that stopped waiting after {@link HotRapOptions#maxWriteStall()} and wrote anyway. */
  public long promotionWaitTimeouts() { return promotionWaitTimeouts; }

  /**
   * Rankings of the fast tier's files by the migration picker, one per migration round (HotRAP
   * §3.5); a round then migrates several of the files it ranked.
   */
  public long migrationPicks() { return migrationPicks; }

  /**
   * Time the migration picker's rankings took, nanoseconds: the metadata reads of both tiers, the
   * slow tier's index and one RALT range query per candidate.
   */
  public long migrationPickNanos() { return migrationPickNanos; }

  /** Fast-tier candidate files ranked, summed over {@link #migrationPicks()}. */
  public long migrationPickFastFiles() { return migrationPickFastFiles; }

  /** Slow-tier files indexed for the rankings, summed over {@link #migrationPicks()}. */
  public long migrationPickSlowFiles() { return migrationPickSlowFiles; }

  /**
   * Estimated heap the last ranking held while it ran (its file descriptions, keys, slow-tier index
   * and picks; released when the round ends), bytes; 0 before the first.
   */
  public long migrationPickBytes() { return migrationPickBytes; }

  /** Largest {@link #migrationPickBytes()} since open. */
  public long migrationPickPeakBytes() { return migrationPickPeakBytes; }

  /**
   * Bytes the promotion cache's tables are charged now (key, value and a per-entry overhead; the
   * mutable table and the frozen ones still being checked). 0 without promotion.
   */
  public long promotionCacheBytes() { return promotionCacheBytes; }

  /** Largest {@link #promotionCacheBytes()} since open, sampled as the cache releases entries. */
  public long promotionCachePeakBytes() { return promotionCachePeakBytes; }

  /** Heap bytes of the promotion admission filter's bits; 0 without the hotness check. */
  public long admissionFilterBytes() { return admissionFilterBytes; }

  /** Whether RALT tracks accesses (false after it failed to open or failed later). */
  public boolean raltAvailable() { return raltAvailable; }

  /** RALT's statistics, or null when it is not available. */
  public RaltStats raltStats() { return raltStats; }

  /**
   * Whether the last window of gets was skewed ({@link HotRapOptions#readSkewDetection()}): while
   * it was not, gets idle RALT and promotion. True before the first window closes, and always
   * without detection.
   */
  public boolean readsSkewed() { return readsSkewed; }

  /**
   * The last closed read window's concentration: the estimated chance that two gets hit the same
   * key, times the store's keys (1 for uniform reads, 1/h for reads spread over a hot share h of
   * the keys); NaN before a window closed or without detection.
   */
  public double readConcentration() { return readConcentration; }

  /** Gets that neither RALT nor promotion saw, because reads were uniform, since open. */
  public long untrackedReads() { return untrackedReads; }

  /** Read windows the read-skew detector closed since open. */
  public long readSkewWindows() { return readSkewWindows; }

  /** Whether write-hot separation is on ({@link HotRapOptions#writeHotSeparation()}). */
  public boolean writeHotSeparation() { return writeHotSeparation; }

  /** Whether the last closed window of user writes was skewed; false without separation. */
  public boolean writeSkewed() { return writeSkewed; }

  /** Variance of per-key write counts in the last closed window; NaN before one closed. */
  public double writeSkewVariance() { return writeSkewVariance; }

  /** User writes routed to the {@code fast-hot} column family since open. */
  public long writeHotWrites() { return writeHotWrites; }

  /** Keys moved from {@code fast-hot} back to {@code fast} since open. */
  public long writeHotEvictions() { return writeHotEvictions; }

  /** Skew-detection windows of user writes closed since open. */
  public long writeHotWindows() { return writeHotWindows; }

  /**
   * User writes the write-skew detector let pass uncounted since open: after a window of plainly
   * uniform writes it skips the next seven windows' worth (SkewDetector's quiet windows).
   */
  public long writeSkewSkippedWrites() { return writeSkewSkippedWrites; }

  /** Keys that may have a version in {@code fast-hot} now. */
  public int writeHotMembers() { return writeHotMembers; }

  /** Keys of the current hot-key index. */
  public int writeHotIndexKeys() { return writeHotIndexKeys; }

  /** Live SST bytes of the {@code fast-hot} column family, included in {@link #fastSstBytes()}. */
  public long hotSstBytes() { return hotSstBytes; }

  /** Bytes RocksDB wrote to {@code fast-hot}'s SST files since open; part of {@link #fastBytesWritten()}. */
  public long hotBytesWritten() { return hotBytesWritten; }

  @Override
  public String toString() {
    return "HotRapStats{getsServedFast=" + getsServedFast + ", getsServedSlow=" + getsServedSlow
        + ", readsSkewed=" + readsSkewed + ", readConcentration=" + readConcentration
        + ", untrackedReads=" + untrackedReads + ", readSkewWindows=" + readSkewWindows
        + ", fastSstBytes=" + fastSstBytes + ", slowSstBytes=" + slowSstBytes
        + ", maxFastSstBytes=" + maxFastSstBytes + ", fastFilesPinnedBytes=" + fastFilesPinnedBytes
        + ", snapshotPinnedBytes=" + snapshotPinnedBytes + ", openSnapshots=" + openSnapshots + ", recordsDemoted=" + recordsDemoted
        + ", bytesDemoted=" + bytesDemoted + ", recordsRetained=" + recordsRetained
        + ", bytesRetained=" + bytesRetained + ", demotionsDroppedAsUpdated=" + demotionsDroppedAsUpdated
        + ", demotionTombstones=" + demotionTombstones + ", recordsDemotedNatively=" + recordsDemotedNatively
        + ", demotionFilesDropped=" + demotionFilesDropped
        + ", recordsDemotedByIngestion=" + recordsDemotedByIngestion
        + ", demotionIngestions=" + demotionIngestions
        + ", demotionIngestionMillis=" + demotionIngestionNanos / 1_000_000
        + ", fastBytesWritten=" + fastBytesWritten + ", slowBytesWritten=" + slowBytesWritten
        + ", bytesPromotedByFlush=" + bytesPromotedByFlush
        + ", bytesPromotedByCompaction=" + bytesPromotedByCompaction
        + ", promotionCacheHits=" + promotionCacheHits + ", promotionInsertsAborted=" + promotionInsertsAborted
        + ", promotionsSkippedUpdated=" + promotionsSkippedUpdated
        + ", promotionsSkippedInFast=" + promotionsSkippedInFast
        + ", promotionCandidatesReturned=" + promotionCandidatesReturned
        + ", promotionsDroppedUnread=" + promotionsDroppedUnread
        + ", promotionReadsNotAdmitted=" + promotionReadsNotAdmitted
        + ", promotionReadsAdmittedAfterDemotion=" + promotionReadsAdmittedAfterDemotion
        + ", promotionInsertsShed=" + promotionInsertsShed
        + ", promotionCacheBytes=" + promotionCacheBytes
        + ", promotionCachePeakBytes=" + promotionCachePeakBytes
        + ", migrations=" + migrations + ", migrationMillis=" + migrationNanos / 1_000_000
        + ", migrationPicks=" + migrationPicks + ", migrationPickMicros=" + migrationPickNanos / 1_000
        + ", migrationPickPeakBytes=" + migrationPickPeakBytes
        + ", migrationFailures=" + migrationFailures + ", retentionOverrides=" + retentionOverrides
        + ", compactionsBeforeOverride=" + compactionsBeforeOverride
        + ", writeStalls=" + writeStalls + ", writeStallMillis=" + writeStallNanos / 1_000_000
        + ", writeStallTimeouts=" + writeStallTimeouts
        + ", promotionWaitsForRoom=" + promotionWaitsForRoom
        + ", promotionWaitMillis=" + promotionWaitNanos / 1_000_000
        + ", promotionWaitTimeouts=" + promotionWaitTimeouts + ", raltAvailable=" + raltAvailable
        + (writeHotSeparation ? ", writeSkewed=" + writeSkewed + ", writeSkewVariance=" + writeSkewVariance
            + ", writeSkewSkippedWrites=" + writeSkewSkippedWrites
            + ", writeHotWrites=" + writeHotWrites + ", writeHotEvictions=" + writeHotEvictions
            + ", writeHotMembers=" + writeHotMembers + ", hotSstBytes=" + hotSstBytes
            + ", hotBytesWritten=" + hotBytesWritten : "")
        + ", ralt=" + raltStats + '}';
  }

  // ---- memory tier (all 0 without one)

  /** Bytes the memory tier holds: the fast tier's L0 files in the memory directory and its memtables. */
  public long memoryTierBytes() { return memoryTierBytes; }

  /**
   * Times since open the tier log's watermark advanced: newer user writes were found in SST files
   * on a disk, and their log records marked dead.
   */
  public long memoryTierRetirements() { return memoryTierRetirements; }

  /** Bytes of the tier log's files on the fast disk. */
  public long tierLogBytes() { return tierLogBytes; }

  /** Estimated bytes of the tier log's records not yet known to be in an SST file on a disk. */
  public long tierLogLiveBytes() { return tierLogLiveBytes; }

  /** Largest {@link #tierLogBytes()} seen since open (sampled at each trim pass of the log). */
  public long tierLogPeakBytes() { return tierLogPeakBytes; }

  /** Tier log segments rewritten by trim since open. */
  public long tierLogTrims() { return tierLogTrims; }

  /** Tier log segments compressed since open. */
  public long tierLogCompressions() { return tierLogCompressions; }

  /** Time the last open took to replay the tier log, in nanoseconds. */
  public long memoryTierRecoveryNanos() { return memoryTierRecoveryNanos; }
}
