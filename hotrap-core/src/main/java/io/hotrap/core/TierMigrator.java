package io.hotrap.core;

import io.hotrap.jni.ValueHash;
import io.hotrap.ralt.HotKeyIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompactionOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileMetaData;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Keeps the fast tier within its budget by moving cold records to the slow tier: HotRAP's FD→SD
 * compaction with retention (HotRAP §3.5, DESIGN.md §7).
 *
 * <p><b>Trigger.</b> {@link MigrationScheduler} runs {@link #checkOnce()} on its thread when asked
 * (flush and compaction events, stalled writers, {@link HotRapDB#awaitBackgroundWork()}) and
 * periodically. A check refreshes the tier sizes; if the fast tier's live SST bytes exceed the high
 * watermark it migrates file by file until they are under the low watermark.
 *
 * <p><b>One round.</b> {@link MigrationPicker}'s ranking chooses files until the bytes they are
 * expected to free cover the excess over the low watermark; they are migrated one by one in key
 * order (steps 2–5); then step 6 runs once for all of them.
 * <ol>
 *   <li>The ranking takes files of the fast tier's bottommost level (the next level up once every
 *       bottommost file is taken).
 *   <li>The step registers its {@link UpdatedKeys} with the {@link CommitGate}, then takes a
 *       snapshot. It reads the file with {@link SstFileReader} in lockstep with a snapshot iterator
 *       of the fast tier: a record is a candidate only if the file's version is the newest the
 *       snapshot sees (newer versions in upper levels stay where they are).
 *   <li>Candidates are merged with RALT's hot keys of the file's range: hot ones are retained,
 *       cold ones demoted. A round that retained records and demoted none makes the next round
 *       ignore hotness (the budget holds even when everything is hot), unless it left out files
 *       being compacted: then the check ends, as the cold records may be in those files
 *       ({@link #afterRound}). The first time in a check, the whole fast tier is compacted
 *       instead and the next round keeps hotness: older versions of updated keys, which no round
 *       moves, are dropped, and cold records written since come down from the upper levels.
 *   <li>Demotions are committed in chunks of {@link HotRapOptions#migrationBatchBytes()}, gathered
 *       across the round's steps ({@link Group}), without the keys a user wrote since their step
 *       registered: each chunk is written as a file (on a second thread, while the scan goes on:
 *       {@link Written}), ingested
 *       into the slow tier and tombstoned in the fast tier in one exclusive hold of the gate, or,
 *       failing that, committed as one atomic batch that does both ({@link #commit}). A crash
 *       leaves every record in the slow tier, the fast tier or both with the same version, so no
 *       acknowledged write is lost (I5), and the tombstone is written only after the copy, so no
 *       slow version can shadow a newer fast one (I1, I2).
 *   <li>Promotion by compaction of the range ({@link PromotionByCompaction}).
 *   <li>The fast tier is flushed and the round's key range compacted, which drops the demoted
 *       versions and rewrites the retained ones in place.
 * </ol>
 * On the native path ({@link NativeDemotion}) step 4 only copies into the slow tier; once the
 * steps' records are committed the WAL is synced, the copies no user overwrote meanwhile are
 * registered with the native filter in one exclusive hold of the gate (or tombstoned, while a user
 * snapshot is open), the steps' files are compacted alone into their own level, where the filter
 * drops them, and the pairs are released. Step 6 runs for every round on both paths.
 *
 * <p>Measured on rw-hotspot5 at the standard profile (fast hit rate; tombstone path 0.943–0.947 in
 * the same runs): native steps with per-file compaction alone 0.933–0.934, because a file
 * compacted alone keeps the stale versions of keys overwritten since; per-file compaction plus
 * step 6, 0.945; registrations held until step 6 instead of released per file, 0.86–0.89.
 *
 * <p>Thread-safety: checks run on the scheduler's single thread. {@link #migrateNow} may run on
 * another thread at the same time; that is safe (see there). {@link #refreshSizes()} and
 * may be called from any thread.
 */
final class TierMigrator implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(TierMigrator.class.getName());
  private static final String LIVE_SST_BYTES = "rocksdb.live-sst-files-size";
  private static final String TOTAL_SST_BYTES = "rocksdb.total-sst-files-size";
  /** Upper bound on rounds per check, so that a check always ends and close stays prompt. */
  static final int MAX_ROUNDS_PER_CHECK = 512;
  /** Rounds in a row that may leave the fast tier's size unchanged before a check gives up. */
  static final int MAX_ROUNDS_WITHOUT_PROGRESS = 3;
  /** Times a commit rewrites its file without keys written meanwhile before it writes a batch. */
  static final int INGEST_ATTEMPTS = 3;
  /** Directory under the slow path for files on their way into the slow tier; emptied at open. */
  static final String DEMOTE_DIR = "demote";
  /** Steps the scan's fast-tier iterator takes by next() to reach a file's key before it seeks. */
  static final int CATCH_UP_NEXTS = 16;
  /** Upper bound on the files one round migrates before its range compaction. */
  static final int MAX_FILES_PER_ROUND = 64;

  private final RocksDB db;
  private final ColumnFamilyHandle fast;
  /** Write-hot separation's column family: its bytes count against the fast budget. */
  private final ColumnFamilyHandle hot;
  private final ColumnFamilyHandle slow;
  private final HotRapOptions options;
  private final CommitGate gate;
  private final AccessTracker tracker;
  private final StoreCounters counters;
  private final Runnable sizesChanged;
  private final MigrationHooks hooks;
  private final PromotionByCompaction promotion;
  private final BooleanSupplier snapshotsOpen;
  /** Null on the tombstone path. */
  private final NativeDemotion nativeDemotion;
  /** Null without write-hot separation. */
  private final WriteHotSeparator separator;
  /** {@code fast-hot}'s share of the budget ({@link HotRapOptions#writeHotShare()}), in bytes. */
  private final long hotShareBytes;

  private final Options readerOptions = new Options();
  private final WriteOptions writeOptions = new WriteOptions();
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true);
  private final CompactRangeOptions compactOptions = new CompactRangeOptions()
      .setExclusiveManualCompaction(false).setAllowWriteStall(true);
  /**
   * {@link #compactOptions} that rewrite the deepest level's files too: for a range whose dead
   * versions may all sit in that level, where a compaction from above never reaches them.
   */
  private final CompactRangeOptions deepCompactOptions = new CompactRangeOptions()
      .setExclusiveManualCompaction(false).setAllowWriteStall(true)
      .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized);
  private final CompactionOptions fileCompactionOptions;
  /** Demoted records on their way into the slow tier: files written here, then ingested (see commit). */
  private final Path demoteDir;
  private final BloomFilter demoteFilter;
  private final Options demoteWriterOptions;
  private final EnvOptions envOptions = new EnvOptions();
  private final AtomicLong demoteFiles = new AtomicLong();
  /** The longest a round's last drop waits for compactions beside its files to end. */
  static final long MAX_DROP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
  /** Compactions that ended, counted by {@link #compactionEnded()}; guarded by itself. */
  private final long[] compactionsEnded = new long[1];
  /** Whether wholly demoted files may leave the fast tier as files (see {@link #dropWholeFiles}). */
  private final boolean dropFiles;
  /**
   * Held around every change this class makes to the fast tier's files (range compactions,
   * compactions of files alone, whole-file drops), so that {@link #migrateNow} on another thread
   * cannot change them while a drop checks and deletes.
   */
  private final Object fastFilesLock = new Object();
  private final org.rocksdb.MutableColumnFamilyOptions autoCompactionsOff =
      org.rocksdb.MutableColumnFamilyOptions.builder().setDisableAutoCompactions(true).build();
  private final org.rocksdb.MutableColumnFamilyOptions autoCompactionsOn =
      org.rocksdb.MutableColumnFamilyOptions.builder().setDisableAutoCompactions(false).build();

  private volatile boolean stopping;
  /** Writes demotion files while the migration thread scans on ({@link Written}). */
  private final ExecutorService fileWriter;

  TierMigrator(RocksDB db, ColumnFamilyHandle fast, ColumnFamilyHandle hot, ColumnFamilyHandle slow,
      HotRapOptions options,
      CommitGate gate, AccessTracker tracker, StoreCounters counters, Runnable sizesChanged,
      PromotionByCompaction promotion, BooleanSupplier snapshotsOpen, NativeDemotion nativeDemotion,
      WriteHotSeparator separator, MigrationHooks hooks) {
    this.snapshotsOpen = snapshotsOpen;
    this.separator = separator;
    this.hotShareBytes = (long) (options.fastBudgetBytes() * options.writeHotShare());
    this.nativeDemotion = nativeDemotion;
    this.dropFiles = options.dropDemotedFiles() && nativeDemotion == null && !options.memoryTier();
    if (options.memoryTier()) {
      // Path 1 of "fast" is the fast disk; path 0 holds only L0, in RAM (MemoryTier).
      compactOptions.setTargetPathId(1);
      deepCompactOptions.setTargetPathId(1);
    }
    this.db = db;
    this.fast = fast;
    this.hot = hot;
    this.slow = slow;
    this.options = options;
    this.gate = gate;
    this.tracker = tracker;
    this.counters = counters;
    this.sizesChanged = sizesChanged;
    this.hooks = hooks;
    this.promotion = promotion;
    this.fileCompactionOptions = new CompactionOptions()
        .setCompression(options.fastCompression())
        .setOutputFileSizeLimit(options.fastTargetFileBytes());
    this.demoteDir = options.slowPath().resolve(DEMOTE_DIR);
    // A crash may leave files written and not yet ingested (or ingested and not yet deleted: an
    // ingestion that moved the file left nothing behind, one that copied it left the original).
    try {
      StoreLayout.deleteTree(demoteDir);
      Files.createDirectories(demoteDir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot prepare " + demoteDir, e);
    }
    this.demoteFilter = options.slowBloomBitsPerKey() > 0 ? new BloomFilter(options.slowBloomBitsPerKey()) : null;
    this.demoteWriterOptions = TierConfig.slowFileWriter(options, demoteFilter);
    this.fileWriter = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hotrap-demotion-writer-" + options.fastPath().getFileName());
      t.setDaemon(true);
      return t;
    });
  }

  /** Called by the event listener when a compaction ended; wakes a drop that waits for one. */
  void compactionEnded() {
    synchronized (compactionsEnded) {
      compactionsEnded[0]++;
      compactionsEnded.notifyAll();
    }
  }

  private long compactionsEnded() {
    synchronized (compactionsEnded) {
      return compactionsEnded[0];
    }
  }

  /**
   * Waits until a compaction ends after the count {@code seen} was read, or {@code deadline}
   * passes; returns false if it passed.
   */
  private boolean awaitCompactionEnd(long seen, long deadline) {
    synchronized (compactionsEnded) {
      while (compactionsEnded[0] == seen) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || stopping) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(compactionsEnded, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /** Refreshes the cached tier sizes and wakes stalled writers. */
  void refreshSizes() throws RocksDBException {
    long live = db.getLongProperty(fast, LIVE_SST_BYTES);
    counters.fastFilesPinnedBytes = Math.max(0, db.getLongProperty(fast, TOTAL_SST_BYTES) - live);
    long hotLive = hot == null ? 0 : db.getLongProperty(hot, LIVE_SST_BYTES);
    counters.hotSstBytes = hotLive;
    counters.updateSizes(live + hotLive, db.getLongProperty(slow, LIVE_SST_BYTES));
    sizesChanged.run();
  }

  /** One check: migrates while the fast tier is over its watermarks. Returns whether it moved any file. */
  boolean checkOnce() throws Exception {
    refreshSizes();
    if (counters.fastSstBytes <= options.highWatermarkBytes()) {
      setSnapshotPinned(0);
      return false;
    }
    boolean migrated = false;
    boolean gaveUp = false;
    boolean ignoreHotness = false;
    boolean shedHot = false;
    boolean compactedAll = false;
    int withoutProgress = 0;
    rounds:
    for (int round = 0; round < MAX_ROUNDS_PER_CHECK && !stopping; round++) {
      long excess = counters.fastSstBytes - options.lowWatermarkBytes();
      if (excess <= 0) {
        break;
      }
      long before = counters.fastSstBytes;
      long start = System.nanoTime();
      Round r = migrateRound(excess, ignoreHotness);
      if (r.files > 0) {
        migrated = true;
      }
      finishRound(r);
      counters.migrationNanos.add(System.nanoTime() - start);
      refreshSizes();
      if (r.files == 0) {
        if (!r.skippedBusy && !shedHot && makeRoomInHot()) {
          // fast-hot gave its records back to fast, which the next round can move.
          shedHot = true;
          continue;
        }
        // Every candidate is being compacted, or every other one is hot; that compaction's
        // completion asks for a new check.
        break;
      }
      switch (afterRound(r.demotedRecords, r.retainedRecords, ignoreHotness, r.skippedBusy, compactedAll)) {
        case WAIT_FOR_COMPACTION:
          // Files being compacted were left out, and the cold records may be among them (a
          // compaction pushing new data into the bottommost level): overriding retention now would
          // demote hot records while cold ones wait. That compaction's completion asks for a check.
          break rounds;
        case COMPACT_ALL:
          compactedAll = true;
          compactAll();
          break;
        case IGNORE_HOTNESS:
          ignoreHotness = true;
          counters.retentionOverrides.increment();
          break;
        default:
          ignoreHotness = false;
      }
      withoutProgress = counters.fastSstBytes < before ? 0 : withoutProgress + 1;
      if (withoutProgress >= MAX_ROUNDS_WITHOUT_PROGRESS) {
        LOG.fine(() -> "migration makes no progress (snapshots may pin demoted versions); fast tier at "
            + counters.fastSstBytes + " bytes");
        gaveUp = true;
        break;
      }
    }
    // Pinning policy (DESIGN.md §6): only user snapshots keep versions compaction would drop (plain
    // iterators pin files, not versions). What they pin is bounded by what the store held when they
    // were taken, so writers are throttled above the pinned bytes instead of at the budget: the
    // tier grows by at most what open snapshots see, and shrinks once they close.
    boolean pinned = gaveUp && snapshotsOpen.getAsBoolean();
    setSnapshotPinned(pinned ? Math.max(0, counters.fastSstBytes - options.lowWatermarkBytes()) : 0);
    return migrated;
  }

  /**
   * When the fast tier is over its high watermark and {@code fast} has no file left to move, the
   * bytes are in {@code fast-hot}, which migration does not move and which counts against the
   * budget: without this, writers would wait for room no one makes. If {@code fast-hot} holds more
   * than its share ({@link HotRapOptions#writeHotShare()}), it is compacted into one run, which
   * drops what later writes overwrote and evictions deleted (universal compaction merges only once
   * {@link TierConfig#HOT_RUNS} runs exist, so two large runs can stay as they are); if it still
   * holds more, the separator gives its members back to {@code fast} ({@link WriteHotSeparator#shed})
   * and the compaction drops their versions there. Returns whether the fast tier shrank or
   * {@code fast} has records to move again.
   */
  private boolean makeRoomInHot() throws Exception {
    if (hot == null || counters.hotSstBytes <= hotShareBytes) {
      return false;
    }
    long before = counters.fastSstBytes;
    db.compactRange(hot, null, null, compactOptions);
    refreshSizes();
    int evicted = 0;
    if (counters.hotSstBytes > hotShareBytes && separator != null) {
      evicted = separator.shed();
      if (evicted > 0) {
        db.flush(flushOptions, List.of(hot, fast));
        db.compactRange(hot, null, null, compactOptions);
        refreshSizes();
      }
    }
    return evicted > 0 || counters.fastSstBytes < before;
  }

  /** Flushes the fast tier and compacts all of it ({@link NextRound#COMPACT_ALL}). */
  private void compactAll() throws RocksDBException {
    long start = System.nanoTime();
    db.flush(flushOptions, fast);
    synchronized (fastFilesLock) {
      db.compactRange(fast, null, null, compactOptions);
    }
    counters.compactionsBeforeOverride.increment();
    counters.migrationNanos.add(System.nanoTime() - start);
    refreshSizes();
  }

  private void setSnapshotPinned(long bytes) {
    if (counters.snapshotPinnedBytes != bytes) {
      counters.snapshotPinnedBytes = bytes;
      sizesChanged.run();
    }
  }

  /**
   * Runs one round on the caller's thread, whatever the tier's size: migrates files expected to
   * free {@code bytes}, then flushes and compacts their range. It may overlap a round of the
   * background thread; that is safe, as every commit goes through the {@link CommitGate} and a
   * record demoted twice is the same version in the same place.
   *
   * @return the number of files migrated
   */
  int migrateNow(long bytes, boolean ignoreHotness) throws Exception {
    Round r = migrateRound(bytes, ignoreHotness);
    finishRound(r);
    refreshSizes();
    return r.files;
  }

  /**
   * Step 6: flushes the fast tier and compacts the key range the round's files span. On the
   * tombstone path that drops the demoted versions; on both paths it rewrites the retained records
   * into the bottommost level and drops the stale versions of keys overwritten since, in the levels
   * above, which a file compacted alone keeps.
   *
   * <p>Files that left whole need none of it. A file that could have left whole but did not, and
   * retained nothing, has only tombstones to drop: they are left to the fast tier's own
   * compactions, which merge them down with the upper levels' data anyway, unless no file of the
   * round left whole (then the round would free nothing, and its range is compacted). Measured in
   * the 128 MiB load: step 6 took 47% of the migration thread when rounds compacted the range of
   * their few such files ("Files that leave whole", docs/results/NOTES.md).
   */
  private void finishRound(Round r) throws Exception {
    CompactRangeOptions how = compactOptions;
    if (r.smallest == null && r.dropped == 0 && r.lingeringSmallest != null) {
      // Nothing left whole: the files' dead versions may all be in the deepest level (a snapshot
      // kept them there, or they touch files that stay), so that level is rewritten too.
      r.smallest = r.lingeringSmallest;
      r.largest = r.lingeringLargest;
      how = deepCompactOptions;
    }
    if (r.files > 0 && r.smallest != null) {
      db.flush(flushOptions, fast);
      synchronized (fastFilesLock) {
        db.compactRange(fast, r.smallest, r.largest, how);
      }
    }
  }

  /**
   * What one round did: the files it migrated, and the key range that those of them still in the
   * fast tier span (null when every file left whole: nothing to compact).
   */
  private static final class Round {
    int files;
    long demotedRecords;
    long retainedRecords;
    byte[] smallest;
    byte[] largest;
    /** The fast tier's deepest non-empty level when the round ranked its files. */
    int deepestLevel = -1;
    /** Files that left whole. */
    int dropped;
    /** The range of files that could have left whole, did not, and retained nothing. */
    byte[] lingeringSmallest;
    byte[] lingeringLargest;
    /**
     * Steps whose file could not leave whole yet (a compaction was running beside it): still
     * registered, their tombstones deferred, they try again when the round ends.
     */
    final List<Step> waiting = new ArrayList<>();

    /** Notes a settled step: its file left whole, waits for the fast tier's compactions, or needs step 6. */
    void settled(Step s) {
      if (s.dropped) {
        dropped++;
      } else if (s.droppable && s.retainedRecords == 0) {
        lingeringSmallest = min(lingeringSmallest, s.file.smallest);
        lingeringLargest = max(lingeringLargest, s.file.largest);
      } else {
        smallest = min(smallest, s.file.smallest);
        largest = max(largest, s.file.largest);
      }
    }

    private static byte[] min(byte[] a, byte[] b) {
      return a == null || Arrays.compareUnsigned(b, a) < 0 ? b : a;
    }

    private static byte[] max(byte[] a, byte[] b) {
      return a == null || Arrays.compareUnsigned(b, a) > 0 ? b : a;
    }
    /**
     * Whether files being compacted were left out of the round's candidates, or a chosen file was
     * compacted away before its step could open it.
     */
    boolean skippedBusy;
  }

  /** What a check does after a round that left the fast tier over its low watermark. */
  enum NextRound {
    /** Go on, with hotness taken into account. */
    CONTINUE,
    /**
     * Compact the whole fast tier, then go on with hotness taken into account: the round found
     * nothing but hot records, for the first time in this check.
     */
    COMPACT_ALL,
    /** Go on ignoring hotness: the round found nothing but hot records to move, again. */
    IGNORE_HOTNESS,
    /** End the check: the round found only hot records, but left files being compacted out. */
    WAIT_FOR_COMPACTION
  }

  /**
   * The retention override: when a round found only hot records to move (it retained some and
   * demoted none), everything on the fast tier may be hot and the budget must still hold, so the
   * next round ignores hotness, once. That conclusion holds only if the round saw every file: a
   * round that left out files being compacted ({@code skippedBusy}) may have missed all the cold
   * ones, and ends the check instead. And it holds only for what rounds can see: the first time in
   * a check ({@code compactedThisCheck} false) the whole fast tier is compacted instead, and the
   * next round keeps hotness. Under updates of hot keys much of the tier is older versions, which
   * no round moves or counts, and the cold records written since wait in the levels above the
   * bottommost, which rounds take last; the compaction drops the first and brings the second down.
   * Measured on rw-hotspot5 at 128 MiB (docs/results/NOTES.md, "Hotspot at 128 MiB"): three such
   * rounds in 300 s, each of which would have demoted hot records.
   */
  static NextRound afterRound(long demoted, long retained, boolean ignoringHotness, boolean skippedBusy,
      boolean compactedThisCheck) {
    if (demoted > 0 || retained == 0 || ignoringHotness) {
      return NextRound.CONTINUE;
    }
    if (skippedBusy) {
      return NextRound.WAIT_FOR_COMPACTION;
    }
    return compactedThisCheck ? NextRound.IGNORE_HOTNESS : NextRound.COMPACT_ALL;
  }

  /**
   * Migrates picked files one after the other until the bytes they are expected to free cover
   * {@code excess}, so that one range compaction afterwards serves them all. The steps' demotions
   * are committed together, in files of {@link HotRapOptions#migrationBatchBytes()} (see
   * {@link Group}).
   */
  private Round migrateRound(long excess, boolean ignoreHotness) throws Exception {
    Round round = new Round();
    Group group = new Group();
    try {
      for (MigrationPicker.FileInfo file : select(rankCandidates(round), excess, ignoreHotness, round)) {
        if (stopping) {
          break;
        }
        Step step = scan(file, ignoreHotness, group, round.deepestLevel);
        if (step == null) {
          // A compaction took the file since the round chose it: its records, cold ones maybe,
          // are in that compaction's output, which this round did not rank. Without this, a round
          // whose cold files all went so retained only hot ones and overrode retention for the next
          // (seen in HotSetAcrossRestartTest: a quarter of a retained hot set demoted).
          round.skippedBusy = true;
          continue;
        }
        counters.migrations.increment();
        round.files++;
        if (group.bytes >= options.migrationBatchBytes()) {
          commitGroup(group);
        }
        if (group.records.isEmpty()) {
          commitWritten(group);
          finishSteps(group, round, false);
        }
      }
      if (!stopping) {
        commitGroup(group);
        commitWritten(group);
        finishSteps(group, round, true);
      }
    } finally {
      abandonWritten(group);
      releaseSteps(group.steps);
      releaseSteps(round.waiting);
    }
    return round;
  }

  /**
   * The files a round migrates: the best ranked until the bytes they are expected to free cover
   * {@code excess} (or {@link #MAX_FILES_PER_ROUND}), in key order. The ranking chooses the files;
   * key order makes the records a group gathers from consecutive files span a narrower part of
   * the key space, so the file they are ingested as overlaps fewer of the slow tier's files (it is
   * placed, and compacted, by its range).
   */
  private static List<MigrationPicker.FileInfo> select(List<MigrationPicker.Pick> ranked, long excess,
      boolean ignoreHotness, Round round) {
    List<MigrationPicker.FileInfo> chosen = new ArrayList<>();
    long planned = 0;
    for (MigrationPicker.Pick pick : ranked) {
      if (planned >= excess || chosen.size() >= MAX_FILES_PER_ROUND) {
        break;
      }
      if (pick.byAge && round.skippedBusy && !ignoreHotness) {
        // All hot by RALT's estimate: the step would retain its records and the round's
        // compaction rewrite them, while the cold records may sit in the files left out.
        continue;
      }
      chosen.add(pick.file);
      planned += ignoreHotness ? pick.file.size : Math.max(0, pick.file.size - pick.hotSize);
    }
    chosen.sort((a, b) -> Arrays.compareUnsigned(a.smallest, b.smallest));
    return chosen;
  }

  /**
   * The fast tier's files in the order a round migrates them: the bottommost level's files that
   * are not being compacted, ranked by {@link MigrationPicker#rank}; then, if none of that level's
   * files is being compacted, the next level up's, and so on. One metadata read per round. Sets
   * {@code round.skippedBusy} when it stopped at a level with files being compacted. Counts its
   * time (metadata reads included), the files it ranked and the heap it held in the store's
   * counters.
   */
  private List<MigrationPicker.Pick> rankCandidates(Round round) {
    long start = System.nanoTime();
    List<LevelMetaData> levels = db.getColumnFamilyMetaData(fast).levels();
    List<List<MigrationPicker.FileInfo>> slowLevels = new ArrayList<>();
    long slowFiles = 0;
    for (LevelMetaData level : db.getColumnFamilyMetaData(slow).levels()) {
      List<MigrationPicker.FileInfo> files = new ArrayList<>(level.files().size());
      for (SstFileMetaData f : level.files()) {
        files.add(info(f, level.level()));
      }
      slowFiles += files.size();
      slowLevels.add(files);
    }
    MigrationPicker.SlowIndex slowIndex = new MigrationPicker.SlowIndex(slowLevels);
    // Without retention (the paper's ablation) the choice of file is blind to hotness too: the
    // cost-benefit pick is what keeps files of hot records on the fast tier in the first place.
    java.util.function.BiFunction<byte[], byte[], Long> hot =
        options.retainHotRecords() ? tracker::hotSizeInRange : (low, high) -> 0L;
    List<MigrationPicker.Pick> ranked = new ArrayList<>();
    List<MigrationPicker.FileInfo> ranking = new ArrayList<>();
    for (int i = levels.size() - 1; i >= 0; i--) {
      List<SstFileMetaData> files = levels.get(i).files();
      if (files.isEmpty()) {
        continue;
      }
      if (round.deepestLevel < 0) {
        round.deepestLevel = levels.get(i).level();
      }
      List<MigrationPicker.FileInfo> candidates = new ArrayList<>(files.size());
      boolean busy = false;
      for (SstFileMetaData f : files) {
        if (f.beingCompacted()) {
          busy = true;
        } else {
          candidates.add(info(f, levels.get(i).level()));
        }
      }
      ranked.addAll(MigrationPicker.rank(candidates, slowIndex, hot));
      ranking.addAll(candidates);
      if (busy) {
        round.skippedBusy = true;
        break;
      }
    }
    counters.pickRanked(System.nanoTime() - start, ranking.size(), slowFiles,
        MigrationPicker.roundBytes(ranking, slowIndex));
    return ranked;
  }

  private static MigrationPicker.FileInfo info(SstFileMetaData f, int level) {
    // path() is the directory and fileName() starts with '/' (DESIGN.md §13).
    return new MigrationPicker.FileInfo(f.path() + f.fileName(), MigrationPicker.fileNumber(f.fileName()),
        f.size(), f.smallestKey(), f.largestKey(), level);
  }

  /**
   * One file's step: its mover registration, held from before its snapshot until its records are
   * committed, dropped from the fast tier and released ({@link #finishSteps}), and what it did.
   */
  private static final class Step {
    final MigrationPicker.FileInfo file;
    final UpdatedKeys updated;
    long demotedRecords;
    long demotedBytes;
    long retainedRecords;
    long retainedBytes;
    /** Demoted records removed from the fast tier by tombstones. */
    long tombstones;
    /** Native path: keys copied to the slow tier and not yet registered, with their value hashes. */
    final List<byte[]> copied = new ArrayList<>();
    final LongList copiedHashes = new LongList();
    /** Keys registered with {@link NativeDemotion}: demoted records the step's compaction drops. */
    final List<byte[]> registered = new ArrayList<>();
    /**
     * Whether the file may leave whole ({@link #dropFiles}): its demotions write no tombstone when
     * committed, their keys wait in {@link #deferred} until the step is settled.
     */
    boolean droppable;
    /** Whether the step read its file to the end. */
    boolean complete;
    /** Whether the file left the fast tier whole. */
    boolean dropped;
    /** Demoted keys whose tombstones wait for the step to be settled ({@link #settleDeferred}). */
    final List<byte[]> deferred = new ArrayList<>();

    Step(MigrationPicker.FileInfo file, UpdatedKeys updated) {
      this.file = file;
      this.updated = updated;
    }
  }

  /** A record a step chose to demote, waiting for its group's commit. */
  private static final class Pending {
    final byte[] key;
    final byte[] value;
    final Step step;

    Pending(byte[] key, byte[] value, Step step) {
      this.key = key;
      this.value = value;
      this.step = step;
    }
  }

  /**
   * The steps of a round whose records are not yet all committed, and those records. A fast file's
   * cold records are a fraction of a fast file (1/4 of the slow tier's target size by default), and
   * each commit is an ingestion: it holds the gate exclusive, syncs a file on the slow disk and the
   * MANIFEST, and adds a file to the slow tier. One ingestion per file had the migrator spend
   * about a third of its time in ingestion on rw-hotspot5 (thread samples) while writers waited
   * for the gate. So records wait here, each with its step, until they fill a file of
   * {@link HotRapOptions#migrationBatchBytes()} or the round ends; every step stays registered
   * until then, so a user write of any of its keys is still seen at the commit.
   */
  private static final class Group {
    List<Pending> records = new ArrayList<>();
    long bytes;
    /** The chunk whose file the writer thread is writing or has written, not yet committed. */
    Written written;
    /** Registered steps, in the order they were scanned; all but the last are scanned. */
    final List<Step> steps = new ArrayList<>();
    int commits;
  }

  /**
   * Steps 1–3 for one file: registers the step, takes a snapshot, reads the file in lockstep with
   * the fast tier and adds its cold records to {@code group}, committing the group whenever it
   * fills. Returns the step, which stays in {@code group} until it is finished, or null if the file
   * disappeared (a compaction took it) before it could be opened.
   */
  private Step scan(MigrationPicker.FileInfo file, boolean ignoreHotness, Group group, int deepestLevel)
      throws Exception {
    UpdatedKeys updated = gate.registerMover(file.smallest, file.largest);
    Step step = new Step(file, updated);
    step.droppable = dropFiles && file.level >= 1 && file.level == deepestLevel;
    group.steps.add(step);
    Snapshot snapshot = db.getSnapshot();
    HotKeyIterator hot = null;
    // Closing the iterator may release the last reference to files compactions or drops made
    // obsolete; their deletion then runs on RocksDB's background thread, not here (it took a
    // quarter of the migration thread in the 128 MiB load).
    try (ReadOptions snapshotRead = new ReadOptions().setSnapshot(snapshot).setFillCache(false)
            .setBackgroundPurgeOnIteratorCleanup(true);
        ReadOptions fileRead = new ReadOptions().setFillCache(false);
        SstFileReader reader = new SstFileReader(readerOptions)) {
      hooks.afterSnapshot(file.smallest, file.largest);
      try {
        reader.open(file.path);
      } catch (RocksDBException e) {
        LOG.fine(() -> "migration candidate " + file + " is gone: " + e.getMessage());
        group.steps.remove(step);
        gate.unregisterMover(updated);
        return null;
      }
      if (options.retainHotRecords() && !ignoreHotness) {
        hot = tracker.trackedKeys(file.smallest, file.largest);
      }
      try (SstFileReaderIterator fileIt = reader.newIterator(fileRead);
          RocksIterator fastIt = db.newIterator(fast, snapshotRead)) {
        fileIt.seekToFirst();
        fastIt.seek(file.smallest);
        byte[] fastKey = fastIt.isValid() ? fastIt.key() : null;
        while (fileIt.isValid() && !stopping) {
          byte[] key = fileIt.key();
          // The fast tier's iterator catches up by next() over the few newer keys that upper
          // levels hold between two of the file's keys; a seek re-seeks every level and memtable
          // (a third of the migration thread's time when it was taken after one next()).
          for (int n = 0; n < CATCH_UP_NEXTS && fastKey != null && Arrays.compareUnsigned(fastKey, key) < 0;
              n++) {
            fastIt.next();
            fastKey = fastIt.isValid() ? fastIt.key() : null;
          }
          if (fastKey != null && Arrays.compareUnsigned(fastKey, key) < 0) {
            fastIt.seek(key);
            fastKey = fastIt.isValid() ? fastIt.key() : null;
          }
          if (fastKey != null && Arrays.equals(fastKey, key)) {
            byte[] value = fileIt.value();
            if (Arrays.equals(fastIt.value(), value)) {
              int heat = hot != null ? heat(hot, key) : UNTRACKED;
              if (heat == HOT) {
                step.retainedRecords++;
                step.retainedBytes += key.length + value.length;
              } else {
                if (heat == TRACKED) {
                  promotion.demotedAfterAccess(key, key.length + value.length);
                }
                group.records.add(new Pending(key, value, step));
                group.bytes += key.length + value.length;
                if (group.bytes >= options.migrationBatchBytes()) {
                  commitGroup(group);
                }
              }
            }
          }
          fileIt.next();
        }
        fileIt.status();
        fastIt.status();
        step.complete = !stopping;
      }
      return step;
    } finally {
      if (hot != null) {
        try {
          hot.close();
        } catch (RuntimeException e) {
          tracker.fail("trackedKeys.close", e);
        }
      }
      db.releaseSnapshot(snapshot);
    }
  }

  /** {@link #heat}: RALT's files do not hold the key. */
  private static final int UNTRACKED = 0;
  /** {@link #heat}: RALT's files hold the key, read recently but not hot. */
  private static final int TRACKED = 1;
  /** {@link #heat}: the key is in RALT's hot set. */
  private static final int HOT = 2;

  /**
   * Advances {@code tracked} (RALT's tracked keys of the file's range) to {@code key} and tells how
   * hot the key is; {@link #UNTRACKED} after a RALT failure.
   */
  private int heat(HotKeyIterator tracked, byte[] key) {
    try {
      while (tracked.isValid()) {
        int c = tracked.compareKey(key);
        if (c == 0) {
          return tracked.hot() ? HOT : TRACKED;
        }
        if (c > 0) {
          return UNTRACKED;
        }
        tracked.next();
      }
      return UNTRACKED;
    } catch (RuntimeException e) {
      tracker.fail("trackedKeys", e);
      return UNTRACKED;
    }
  }

  /**
   * Steps 4 (native path) and 5 for every step of {@code group}, whose records are all committed:
   * registers the copies no user overwrote and compacts the files that hold them, promotes by
   * compaction over each file's range, then releases the steps.
   */
  private void finishSteps(Group group, Round round, boolean last) throws Exception {
    List<Step> steps = new ArrayList<>(group.steps);
    List<Step> settling = new ArrayList<>(steps);
    if (last) {
      settling.addAll(round.waiting);
    }
    List<Step> waiting = List.of();
    try {
      if (stopping) {
        return;
      }
      boolean copied = false;
      for (Step s : steps) {
        copied |= !s.copied.isEmpty();
      }
      if (copied) {
        registerCopies(steps);
        dropRegistered(steps);
      }
      waiting = settleDeferred(settling, last);
      for (Step s : settling) {
        if (!waiting.contains(s)) {
          round.settled(s);
        }
      }
      for (Step s : steps) {
        counters.recordsRetained.add(s.retainedRecords);
        counters.bytesRetained.add(s.retainedBytes);
        round.demotedRecords += s.demotedRecords;
        round.retainedRecords += s.retainedRecords;
        promotion.promote(s.file.smallest, s.file.largest, s.updated);
      }
    } finally {
      if (last) {
        round.waiting.clear();
      }
      List<Step> done = new ArrayList<>(settling);
      done.removeAll(waiting);
      round.waiting.addAll(waiting);
      releaseSteps(done);
      group.steps.removeAll(steps);
    }
  }

  /**
   * Settles the steps whose demotions deferred their tombstones ({@link Step#droppable}): the files
   * of those that read their file to the end and retained nothing leave the fast tier whole
   * ({@link #dropWholeFiles}); every other deferred key gets its tombstone now, unless a user wrote
   * the key since the step registered (a tombstone written now would hide that newer write).
   * Before the round's {@code last} settling, a file that could not leave yet waits instead (it is
   * returned, and stays registered): the compaction beside it has usually ended by then.
   */
  private List<Step> settleDeferred(List<Step> steps, boolean last) throws Exception {
    List<Step> candidates = new ArrayList<>();
    for (Step s : steps) {
      if (s.droppable && s.complete && s.retainedRecords == 0) {
        candidates.add(s);
      }
    }
    if (!candidates.isEmpty()) {
      dropWholeFiles(candidates, last);
    }
    List<Step> waiting = new ArrayList<>();
    if (!last) {
      for (Step s : candidates) {
        if (!s.dropped) {
          waiting.add(s);
        }
      }
    }
    // Tombstones now for the rest; the gate is taken exclusive only if one has keys to tombstone.
    List<Step> tombstoning = new ArrayList<>();
    for (Step s : steps) {
      if (!s.dropped && !waiting.contains(s) && !s.deferred.isEmpty()) {
        tombstoning.add(s);
      }
    }
    if (tombstoning.isEmpty()) {
      return waiting;
    }
    gate.commit(() -> {
      long written = 0;
      try (WriteBatch batch = new WriteBatch()) {
        for (Step s : tombstoning) {
          for (byte[] key : s.deferred) {
            if (!s.updated.contains(key)) {
              batch.delete(fast, key);
              s.tombstones++;
              written++;
            }
          }
        }
        if (written > 0) {
          db.write(writeOptions, batch);
        }
      }
      counters.demotionTombstones.add(written);
    });
    for (Step s : tombstoning) {
      s.deferred.clear();
    }
    return waiting;
  }

  /**
   * <h3>Files that leave whole</h3>
   *
   * A fast file whose step demoted every record it did not find stale (a newer version above it)
   * can leave the fast tier as a file: RocksDB's {@code DeleteFilesInRanges} over the file's key
   * range takes it out of the LSM-tree in one MANIFEST edit, with no tombstone and no compaction.
   * That call deletes every file of levels 1 and below that lies wholly inside the range and is not
   * being compacted, so it is made safe by these rules, checked here:
   * <ol>
   *   <li>The file is in the fast tier's deepest non-empty level, at level 1 or below: no older
   *       version of its keys is left in the fast tier to show through, and the call can reach it
   *       (it leaves level 0 alone).
   *   <li>Its records are all in the slow tier, committed before this check (ingested, durable in
   *       the MANIFEST), or stale: the step read the file to the end and retained nothing.
   *   <li>No user snapshot is live: one taken before the copies could not see them and must still
   *       read the file's versions. The count rises before RocksDB takes the snapshot, so one taken
   *       after this check reads at a sequence number above the copies.
   *   <li>No other file would go with it. Automatic compactions of the fast tier are switched off
   *       for the check and the call ({@code disable_auto_compactions}: RocksDB picks compactions
   *       under its mutex against the latest options), and this class's own compactions of the
   *       fast tier wait for {@link #fastFilesLock}, so what runs meanwhile is flushes (level 0) and
   *       compactions already running. The check then requires that no file of levels 1 and below
   *       other than this one lies inside the range, and that no file being compacted overlaps it:
   *       a compaction's outputs hold only its inputs' keys, so none can land inside the range.
   * </ol>
   * Steps whose file did not leave (a rule failed, or RocksDB kept it) get their tombstones
   * ({@link #settleDeferred}). Readers are unaffected either way: a get that finds the file gone
   * finds the same version in the slow tier, and iterators pin the files they were created with.
   */
  private void dropWholeFiles(List<Step> candidates, boolean awaitCompactions) throws RocksDBException {
    if (snapshotsOpen.getAsBoolean()) {
      return;
    }
    synchronized (fastFilesLock) {
      db.setOptions(fast, autoCompactionsOff);
      try {
        hooks.beforeFileDrop();
        long deadline = System.nanoTime() + MAX_DROP_WAIT_NANOS;
        List<Step> eligible = new ArrayList<>();
        List<byte[]> ranges = new ArrayList<>();
        while (true) {
          long ended = compactionsEnded();
          List<LevelMetaData> levels = db.getColumnFamilyMetaData(fast).levels();
          eligible.clear();
          ranges.clear();
          boolean busy = false;
          for (List<Step> run : touchingRuns(candidates)) {
            List<MigrationPicker.FileInfo> files = new ArrayList<>(run.size());
            run.forEach(st -> files.add(st.file));
            DropCheck check = mayDrop(files, levels);
            if (check == DropCheck.YES) {
              eligible.addAll(run);
              ranges.add(files.get(0).smallest);
              ranges.add(files.get(files.size() - 1).largest);
            }
            busy |= check == DropCheck.BUSY;
          }
          // With automatic compactions off, the running ones end and no new one starts: waiting
          // for them is cheaper than the tombstones and range compaction the file needs otherwise.
          if (!busy || !awaitCompactions || stopping || !awaitCompactionEnd(ended, deadline)) {
            break;
          }
        }
        if (eligible.isEmpty() || snapshotsOpen.getAsBoolean()) {
          return;
        }
        db.deleteFilesInRanges(fast, ranges, true);
        java.util.Set<Long> left = new java.util.HashSet<>();
        for (LevelMetaData level : db.getColumnFamilyMetaData(fast).levels()) {
          for (SstFileMetaData f : level.files()) {
            left.add(MigrationPicker.fileNumber(f.fileName()));
          }
        }
        for (Step s : eligible) {
          if (!left.contains(s.file.fileNumber)) {
            s.dropped = true;
            counters.demotionFilesDropped.increment();
          }
        }
      } finally {
        db.setOptions(fast, autoCompactionsOn);
      }
    }
  }

  /**
   * {@code steps} in key order, cut into runs of files that touch: where one file's largest key is
   * the next one's smallest (the versions of one key span both, as under a snapshot), RocksDB deletes
   * either only with the other, so they leave over one range.
   */
  private static List<List<Step>> touchingRuns(List<Step> steps) {
    List<Step> sorted = new ArrayList<>(steps);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.file.smallest, b.file.smallest));
    List<List<Step>> runs = new ArrayList<>();
    List<Step> run = null;
    for (Step st : sorted) {
      if (run != null && st.file.level == run.get(0).file.level
          && Arrays.compareUnsigned(run.get(run.size() - 1).file.largest, st.file.smallest) >= 0) {
        run.add(st);
      } else {
        run = new ArrayList<>();
        run.add(st);
        runs.add(run);
      }
    }
    return runs;
  }

  /** What {@link #mayDrop} found. */
  enum DropCheck {
    /** The file may leave now. */
    YES,
    /** Not now: a compaction running beside it overlaps its range; it may once that ends. */
    BUSY,
    /** No: the file is gone, not in the deepest level, or another file lies inside its range. */
    NO
  }

  /** Rules 1 and 4 of {@link #dropWholeFiles} for {@code file} alone, against the fast tier's levels. */
  static DropCheck mayDropAlone(MigrationPicker.FileInfo file, List<LevelMetaData> levels) {
    return mayDrop(List.of(file), levels);
  }

  /**
   * Rules 1 and 4 of {@link #dropWholeFiles} for {@code run}, files of one level in key order that
   * leave together over the one range from the first's smallest key to the last's largest: every
   * file is in the deepest level and not being compacted, no other file of levels 1 and below lies
   * inside the range, and no file being compacted overlaps it.
   */
  static DropCheck mayDrop(List<MigrationPicker.FileInfo> run, List<LevelMetaData> levels) {
    int deepest = -1;
    for (LevelMetaData level : levels) {
      if (!level.files().isEmpty()) {
        deepest = Math.max(deepest, level.level());
      }
    }
    byte[] smallest = run.get(0).smallest;
    byte[] largest = run.get(run.size() - 1).largest;
    java.util.Set<Long> members = new java.util.HashSet<>();
    for (MigrationPicker.FileInfo file : run) {
      if (deepest < 1 || file.level != deepest) {
        return DropCheck.NO;
      }
      members.add(file.fileNumber);
    }
    int found = 0;
    boolean busy = false;
    for (LevelMetaData level : levels) {
      for (SstFileMetaData f : level.files()) {
        byte[] low = f.smallestKey();
        byte[] high = f.largestKey();
        if (members.contains(MigrationPicker.fileNumber(f.fileName()))) {
          if (level.level() != deepest || f.beingCompacted()) {
            return DropCheck.NO;
          }
          found++;
          continue;
        }
        boolean overlaps = Arrays.compareUnsigned(low, largest) <= 0
            && Arrays.compareUnsigned(high, smallest) >= 0;
        boolean inside = Arrays.compareUnsigned(low, smallest) >= 0
            && Arrays.compareUnsigned(high, largest) <= 0;
        if (level.level() >= 1 && inside) {
          return DropCheck.NO;
        }
        busy |= f.beingCompacted() && overlaps;
      }
    }
    return found == run.size() ? (busy ? DropCheck.BUSY : DropCheck.YES) : DropCheck.NO;
  }

  /** Releases the steps' native registrations and mover registrations; never throws. */
  private void releaseSteps(List<Step> steps) {
    for (Step s : steps) {
      try {
        if (!s.registered.isEmpty()) {
          nativeDemotion.release(s.registered);
          s.registered.clear();
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "releasing native demotion registrations failed", e);
      } finally {
        gate.unregisterMover(s.updated);
      }
    }
  }

  /**
   * Commits the records {@code group} holds, if any (step 4), and empties it. The records of
   * several steps are merged in key order: the files of one level do not overlap, and where a
   * round reaches a level above, a key read by two steps is either the same version (no write came
   * between the snapshots) or marked updated in the earlier step, whose copy is dropped.
   */
  private void commitGroup(Group group) throws Exception {
    if (group.records.isEmpty() || stopping) {
      return;
    }
    List<Pending> records = group.records;
    group.records = new ArrayList<>();
    group.bytes = 0;
    records.sort((a, b) -> Arrays.compareUnsigned(a.key, b.key));
    Written next = new Written(records, group.commits++, fileWriter.submit(() -> writeDemotionFile(records)));
    try {
      commitWritten(group);
    } finally {
      group.written = next;
    }
  }

  /**
   * A chunk of demotions on its way to its commit. Its file is written on the writer thread while
   * the migration thread scans the next chunk's records (writing took about a sixth of the
   * migration thread in the 128 MiB load); chunks are committed one at a time, in the order they
   * were gathered, on the migration thread ({@link #commitWritten}). Until then its records are
   * only in the fast tier, and its steps stay registered, so a user write of one of its keys is
   * seen at the commit as before.
   */
  private static final class Written {
    final List<Pending> records;
    final int batchIndex;
    final Future<Path> file;

    Written(List<Pending> records, int batchIndex, Future<Path> file) {
      this.records = records;
      this.batchIndex = batchIndex;
      this.file = file;
    }
  }

  /** Commits the chunk whose file the writer thread has (or is) writing, if any (step 4). */
  private void commitWritten(Group group) throws Exception {
    Written w = group.written;
    if (w == null) {
      return;
    }
    group.written = null;
    if (stopping) {
      discard(w);
      return;
    }
    Path file;
    try {
      file = w.file.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw new IllegalStateException("writing a demotion file failed", cause);
    }
    hooks.beforeCommit(w.batchIndex);
    commit(w.records, file);
    hooks.afterCommit(w.batchIndex);
  }

  /**
   * After a round that ended early (stopping, or an exception): waits for the file of a chunk that
   * will not be committed and deletes it. Its records are still in the fast tier.
   */
  private void abandonWritten(Group group) {
    Written w = group.written;
    group.written = null;
    if (w != null) {
      discard(w);
    }
  }

  /** Waits for the file of a chunk that will not be committed and deletes it. */
  private static void discard(Written w) {
    try {
      Path file = w.file.get();
      if (file != null) {
        Files.deleteIfExists(file);
      }
    } catch (ExecutionException | IOException e) {
      LOG.log(Level.FINE, "abandoned demotion file", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Commits one chunk of demotions (step 4). The records are first written, outside the gate,
   * into a sorted file for the slow tier; then, with the gate held exclusive, the file is ingested
   * into the slow tier if no user wrote any of its keys since its step registered, and the fast
   * tier's tombstones are written right after it (native path: the copies are noted for
   * registration instead). Ingestion puts the file in the MANIFEST (synced) under one new sequence
   * number, so the copy is atomic and durable before the tombstones exist; a crash between the two
   * leaves the same version in both tiers, which I1 makes harmless (I5). The file must not hold
   * a key written since its step read it: ingested above that write's slow-tier tombstone (a
   * delete) or above a newer demoted version, the old copy would come back. So a chunk with such
   * keys is written again without them, up to {@link #INGEST_ATTEMPTS} times, and then committed
   * as one atomic batch that puts each record into the slow tier and deletes it from the fast tier,
   * skipping the keys written meanwhile.
   *
   * <p>Why files: a batch writes every demoted byte into the WAL on the fast disk and into the
   * slow tier's memtable, which flushes it to the slow tier's L0 for compaction to merge level by
   * level; a file of the slow tier's target size skips all three and lands in the deepest level it
   * does not overlap.
   */
  private void commit(List<Pending> pending, Path written) throws Exception {
    boolean committed = false;
    List<Pending> records = pending;
    for (int attempt = 0; attempt < INGEST_ATTEMPTS && !committed && !records.isEmpty(); attempt++) {
      Path file = attempt == 0 ? written : writeDemotionFile(records);
      if (file == null) {
        break;
      }
      try {
        List<Pending> chunk = records;
        boolean[] ingested = new boolean[1];
        gate.commit(() -> {
          for (Pending r : chunk) {
            if (r.step.updated.contains(r.key)) {
              return;
            }
          }
          long start = System.nanoTime();
          try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
            db.ingestExternalFile(slow, List.of(file.toString()), ingest);
          }
          counters.demotionIngestions.increment();
          counters.demotionIngestionNanos.add(System.nanoTime() - start);
          removeFromFast(chunk);
          counters.recordsDemotedByIngestion.add(chunk.size());
          ingested[0] = true;
        });
        committed = ingested[0];
      } finally {
        Files.deleteIfExists(file);
      }
      if (!committed) {
        // Written since: drop those keys (their new versions are newer than the copies) and retry.
        List<Pending> kept = new ArrayList<>(records.size());
        for (Pending r : records) {
          if (r.step.updated.contains(r.key)) {
            counters.demotionsDroppedAsUpdated.increment();
          } else {
            kept.add(r);
          }
        }
        records = kept;
        committed = records.isEmpty();
      }
    }
    if (!committed) {
      commitBatch(records);
    }
  }

  /**
   * Writes {@code records} (in key order) into a new file of the slow tier's format; returns null
   * if it could not (the caller commits a batch instead). A key seen twice in a row is written
   * once: the file may hold two versions of a key that a snapshot kept, and both are the newest
   * value. Runs on the writer thread ({@link Written}) and, to retry a commit, on the migration
   * thread, possibly at once: each call has its own file name and writer, and only reads the
   * shared options.
   */
  private Path writeDemotionFile(List<Pending> records) throws IOException {
    Path file = demoteDir.resolve("demote-" + demoteFiles.incrementAndGet() + ".sst");
    boolean success = false;
    try (SstFileWriter writer = new SstFileWriter(envOptions, demoteWriterOptions)) {
      writer.open(file.toString());
      byte[] last = null;
      for (Pending r : records) {
        if (last != null && Arrays.equals(last, r.key)) {
          continue;
        }
        writer.put(r.key, r.value);
        last = r.key;
      }
      writer.finish();
      success = true;
      return file;
    } catch (RocksDBException e) {
      LOG.log(Level.FINE, "writing a demotion file failed; committing a batch", e);
      return null;
    } finally {
      if (!success) {
        Files.deleteIfExists(file);
      }
    }
  }

  /** Inside the gate, after the copies are in the slow tier: the fast tier's side of a commit. */
  private void removeFromFast(List<Pending> records) throws RocksDBException {
    if (nativeDemotion == null) {
      try (WriteBatch batch = new WriteBatch()) {
        for (Pending r : records) {
          if (r.step.droppable) {
            r.step.deferred.add(r.key);
          } else {
            batch.delete(fast, r.key);
          }
        }
        if (batch.count() > 0) {
          db.write(writeOptions, batch);
        }
      }
    }
    countDemoted(records);
  }

  /**
   * Counts committed demotions in their steps and in the store's counters (once per commit: this
   * runs inside the gate's exclusive hold); on the native path, notes each record's copy for
   * registration, and on the tombstone path its tombstone.
   */
  private void countDemoted(List<Pending> records) {
    long bytes = 0;
    long tombstones = 0;
    for (Pending r : records) {
      long b = r.key.length + r.value.length;
      r.step.demotedRecords++;
      r.step.demotedBytes += b;
      if (nativeDemotion == null) {
        if (!r.step.droppable) {
          r.step.tombstones++;
          tombstones++;
        }
      } else {
        r.step.copied.add(r.key);
        r.step.copiedHashes.add(ValueHash.of(r.value));
      }
      bytes += b;
    }
    counters.recordsDemoted.add(records.size());
    counters.bytesDemoted.add(bytes);
    counters.demotionTombstones.add(tombstones);
  }

  /**
   * The batch path of {@link #commit}: one atomic batch, without the keys written meanwhile. With
   * a memory tier, two: the copies, then, once a flush put them in an SST file, the deletes from
   * the fast tier. A machine loss forgets every memtable (MemoryTier), and a delete from the fast
   * tier may reach a disk by an L0 compaction while the slow tier's memtable still holds its copy;
   * between the two writes both tiers hold the same version, which reads return either way.
   */
  private void commitBatch(List<Pending> pending) throws Exception {
    gate.commit(() -> {
      long dropped = 0;
      List<Pending> written = new ArrayList<>(pending.size());
      boolean split = options.memoryTier();
      try (WriteBatch batch = new WriteBatch(); WriteBatch deletes = new WriteBatch()) {
        for (Pending r : pending) {
          if (r.step.updated.contains(r.key)) {
            dropped++;
            continue;
          }
          batch.put(slow, r.key, r.value);
          if (nativeDemotion == null) {
            if (r.step.droppable) {
              r.step.deferred.add(r.key);
            } else {
              (split ? deletes : batch).delete(fast, r.key);
            }
          }
          written.add(r);
        }
        if (!written.isEmpty()) {
          db.write(writeOptions, batch);
          if (split) {
            db.flush(flushOptions, slow);
            if (deletes.count() > 0) {
              db.write(writeOptions, deletes);
            }
          }
        }
      }
      countDemoted(written);
      counters.demotionsDroppedAsUpdated.add(dropped);
    });
  }

  /**
   * Native path, after the steps' copies are committed: syncs the WAL, so the copies in the slow
   * tier survive a power loss before any compaction may drop the fast versions (NativeDemotion
   * rule 1); then, in one exclusive hold of the gate, registers every copied record that no user
   * wrote since its step began (rule 2), or, if a user snapshot is open by then, tombstones those
   * records instead (rule 3; a snapshot counted later was taken after the copies). A key written
   * since is left alone: its new version is already newer than the copy.
   */
  private void registerCopies(List<Step> steps) throws Exception {
    db.syncWal();
    gate.commit(() -> {
      boolean tombstones = snapshotsOpen.getAsBoolean();
      try (WriteBatch batch = new WriteBatch()) {
        for (Step s : steps) {
          List<byte[]> live = new ArrayList<>(s.copied.size());
          LongList liveHashes = new LongList();
          for (int i = 0; i < s.copied.size(); i++) {
            byte[] key = s.copied.get(i);
            if (!s.updated.contains(key)) {
              live.add(key);
              liveHashes.add(s.copiedHashes.get(i));
            }
          }
          if (live.isEmpty()) {
            continue;
          }
          if (tombstones) {
            for (byte[] key : live) {
              batch.delete(fast, key);
            }
            s.tombstones += live.size();
            counters.demotionTombstones.add(live.size());
            continue;
          }
          nativeDemotion.arm();
          for (int i = 0; i < live.size(); i++) {
            s.registered.add(live.get(i));
            nativeDemotion.register(live.get(i), liveHashes.get(i));
          }
          counters.recordsDemotedNatively.add(live.size());
        }
        if (batch.count() > 0) {
          db.write(writeOptions, batch);
        }
      }
    });
    for (Step s : steps) {
      s.copied.clear();
      s.copiedHashes.clear();
    }
  }

  /**
   * Native step 6 for the steps' files: compacts each level's files alone into that level, where
   * the filter drops the registered versions and the retained records are rewritten, so the
   * steps' pairs are released right after. If RocksDB will not compact those files alone (another
   * compaction holds one, or took it), each file's key range is compacted instead.
   */
  private void dropRegistered(List<Step> steps) throws Exception {
    java.util.TreeMap<Integer, List<MigrationPicker.FileInfo>> byLevel = new java.util.TreeMap<>();
    for (Step s : steps) {
      if (!s.registered.isEmpty()) {
        hooks.beforeNativeCompaction(s.file.smallest, s.file.largest);
        byLevel.computeIfAbsent(s.file.level, l -> new ArrayList<>()).add(s.file);
      }
    }
    for (java.util.Map.Entry<Integer, List<MigrationPicker.FileInfo>> e : byLevel.entrySet()) {
      if (e.getKey() >= 0) {
        List<String> names = new ArrayList<>(e.getValue().size());
        for (MigrationPicker.FileInfo f : e.getValue()) {
          names.add(f.path.substring(f.path.lastIndexOf('/')));
        }
        try {
          db.compactFiles(fileCompactionOptions, fast, names, e.getKey(), -1, null);
          continue;
        } catch (RocksDBException ex) {
          LOG.fine(() -> "compacting " + e.getValue() + " alone failed (" + ex.getMessage()
              + "); compacting their ranges");
        }
      }
      for (MigrationPicker.FileInfo f : e.getValue()) {
        db.compactRange(fast, f.smallest, f.largest, compactOptions);
      }
    }
  }
  /**
   * Makes a running check stop after its current batch and cancels a range compaction it waits
   * for; call before closing RocksDB.
   */
  void stop() {
    stopping = true;
    compactOptions.setCanceled(true);
    deepCompactOptions.setCanceled(true);
    synchronized (compactionsEnded) {
      compactionsEnded.notifyAll();
    }
  }

  boolean stopping() {
    return stopping;
  }

  /** Releases the native options; call after the thread running checks has ended. */
  @Override
  public void close() {
    stopping = true;
    fileWriter.shutdown();
    try {
      if (!fileWriter.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.warning("the demotion file writer did not stop within a minute");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readerOptions.close();
    writeOptions.close();
    fileCompactionOptions.close();
    flushOptions.close();
    compactOptions.close();
    deepCompactOptions.close();
    demoteWriterOptions.close();
    envOptions.close();
    if (demoteFilter != null) {
      demoteFilter.close();
    }
  }

  /** A growable list of longs, to keep value hashes without boxing. */
  static final class LongList {
    private long[] values = new long[64];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = java.util.Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    long get(int i) {
      return values[i];
    }

    void clear() {
      size = 0;
    }
  }
}

