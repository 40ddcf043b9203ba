package io.hotrap.core;

import io.hotrap.jni.NativeHooks;
import io.hotrap.ralt.RaltOptions;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;

/**
 * Immutable settings of a {@link HotRapDB}, built by {@link #builder()}.
 *
 * <p>Only {@link Builder#fastPath(Path)}, {@link Builder#slowPath(Path)} and
 * {@link Builder#fastBudgetBytes(long)} are required. Every size that the HotRAP paper gives for a
 * 10 GB fast disk (64 MiB files and write buffers, a 256 MiB block cache) defaults to the same
 * fraction of the fast budget, within sensible bounds, so that a store with a 20 MiB budget behaves
 * like the paper's at 1/500 scale (DESIGN.md §9).
 *
 * <p>The builder fails fast on a bad value with an {@link IllegalArgumentException} naming it, and
 * on a missing or conflicting setting with an {@link IllegalStateException} at {@link Builder#build()}.
 */
public final class HotRapOptions {

  /** Default high watermark: migration starts when the fast tier's SST bytes exceed this fraction. */
  public static final double DEFAULT_HIGH_WATERMARK = 0.8;
  /** Default low watermark: a migration run stops once the fast tier is under this fraction. */
  public static final double DEFAULT_LOW_WATERMARK = 0.65;
  /** Default largest key, bytes. */
  public static final int DEFAULT_MAX_KEY_BYTES = io.hotrap.ralt.Ralt.MAX_KEY_BYTES;
  /** Default largest value, bytes. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024;
  /** Default Bloom filter bits per key of the fast tier (RocksDB's usual choice, about 1% false positives). */
  public static final double DEFAULT_BLOOM_BITS_PER_KEY = 10;
  /**
   * Default Bloom filter bits per key of the slow tier. Its universal compaction keeps up to
   * {@code TierConfig.SLOW_RUNS} sorted runs, and a get probes each newer run's filter before the
   * one that holds the key: every false positive there costs a read of the slow disk. At 16 bits
   * a filter's false-positive rate is under 0.1% (about 1% at 10), for 6 more bits per slow-tier
   * key; the filters stay in memory with the table readers.
   */
  public static final double DEFAULT_SLOW_BLOOM_BITS_PER_KEY = 16;
  /** Default block size of the fast tier, bytes. */
  public static final int DEFAULT_FAST_BLOCK_SIZE = 4 * 1024;
  /** Default block size of the slow tier, bytes: larger blocks suit a seek-bound disk. */
  public static final int DEFAULT_SLOW_BLOCK_SIZE = 16 * 1024;
  /** Default background jobs (flushes and compactions) of the RocksDB instance. */
  public static final int DEFAULT_BACKGROUND_JOBS = 4;
  /** Default period of the migration check that runs even without flush or compaction events. */
  public static final Duration DEFAULT_MIGRATION_CHECK_INTERVAL = Duration.ofSeconds(1);
  /** Default longest time a user write waits for the fast tier to get under its budget. */
  public static final Duration DEFAULT_MAX_WRITE_STALL = Duration.ofSeconds(10);
  /** Default number of lock stripes guarding per-key write counters (DESIGN.md §6). */
  public static final int DEFAULT_LOCK_STRIPES = 1024;
  /** Default largest record (key + value bytes) kept in the promotion cache: 16 KiB, as HotRAP's code. */
  public static final int DEFAULT_MAX_PROMOTED_RECORD_BYTES = 16 * 1024;
  /** Default {@link #writeHotShare()}. */
  public static final double DEFAULT_WRITE_HOT_SHARE = 0.25;

  /** Paper: 64 MiB files for a 10 GB fast disk, i.e. 1/160 of it. */
  static final long FILE_SIZE_DIVISOR = 160;
  /** Paper: 256 MiB block cache for a 10 GB fast disk, i.e. 1/40 of it. */
  static final long BLOCK_CACHE_DIVISOR = 40;
  static final long MIN_FILE_SIZE = 64 * 1024;
  static final long MAX_FILE_SIZE = 64L << 20;
  static final long MIN_BLOCK_CACHE = 8L << 20;
  static final long MAX_BLOCK_CACHE = 256L << 20;
  /**
   * Share of the block cache kept for index and filter blocks, which the store caches with high
   * priority: RocksDB's C++ default. RocksJava's {@code LRUCache(capacity)} keeps none, and data
   * blocks then evict them: a cold get read the filter and index blocks of every file it probed
   * from disk, 13 of its 35 us in a JMH profile at a 4 MiB budget.
   */
  static final double BLOCK_CACHE_HIGH_PRIORITY_RATIO = 0.5;
  /** Memtables per column family. */
  static final int WRITE_BUFFERS_PER_TIER = 2;
  /**
   * Memtables' worth of room the writer-stall threshold leaves under the budget: the fast tier's
   * memtables that may still be flushed, plus one for the tombstones a migration flushes.
   */
  static final int STALL_RESERVE_BUFFERS = WRITE_BUFFERS_PER_TIER + 1;
  /**
   * Slow-tier target files' worth of demoted records a migration commits at once, by default. Each
   * commit is an ingestion: it holds the commit gate exclusive, stops RocksDB's writes while it
   * places the file, syncs the MANIFEST, and adds a run for the slow tier's universal compaction to
   * merge. Measured in the 128 MiB load: 4 files' worth took the time in ingestion from 6.4–7.4 s
   * to 2.6–2.7 s and the slow tier's write amplification from 2.04–2.51 to 1.64–1.95, against 1.
   */
  static final long MIGRATION_BATCH_FILES = 4;
  /** Upper bound on the default commit: the migrator holds up to two commits' records in memory. */
  static final long MAX_MIGRATION_BATCH = 64L << 20;

  private final Path fastPath;
  private final Path slowPath;
  private final long fastBudgetBytes;
  private final long blockCacheBytes;
  private final int fastBlockSize;
  private final int slowBlockSize;
  private final double bloomBitsPerKey;
  private final double slowBloomBitsPerKey;
  private final CompressionType fastCompression;
  private final CompressionType slowCompression;
  private final boolean directReads;
  private final boolean directIoForFlushAndCompaction;
  private final int backgroundJobs;
  private final long writeBufferBytes;
  private final long fastTargetFileBytes;
  private final long slowTargetFileBytes;
  private final double highWatermark;
  private final double lowWatermark;
  private final Duration migrationCheckInterval;
  private final Duration maxWriteStall;
  private final long migrationBatchBytes;
  private final boolean retainHotRecords;
  private final boolean promotion;
  private final boolean readSkewDetection;
  private final boolean hotnessCheck;
  private final boolean promoteByCompaction;
  private final long promotionCacheBytes;
  private final int maxPromotedRecordBytes;
  private final RaltOptions raltOptions;
  private final int maxKeyBytes;
  private final int maxValueBytes;
  private final boolean syncWrites;
  private final boolean nativeMigration;
  private final boolean dropDemotedFiles;
  private final int lockStripes;
  private final MeterRegistry meterRegistry;
  /** Null without a flash cache. */
  private final FlashCacheOptions flashCache;
  private final Path memoryDir;
  private final long memoryTierBytes;
  private final io.hotrap.wal.Codec tierLogCodec;
  private final boolean tierLogTrim;
  private final boolean writeHotSeparation;
  private final double writeHotShare;
  private final double writeSkewThreshold;
  private final long writeHotWindowBytes;
  private final double hotBlockCacheShare;

  private HotRapOptions(Builder b, RaltOptions ralt, long blockCache, long writeBuffer,
      long fastFile, long slowFile, long promotionCache, long hotWindow) {
    fastPath = b.fastPath;
    slowPath = b.slowPath;
    fastBudgetBytes = b.fastBudgetBytes;
    blockCacheBytes = blockCache;
    fastBlockSize = b.fastBlockSize;
    slowBlockSize = b.slowBlockSize;
    bloomBitsPerKey = b.bloomBitsPerKey;
    slowBloomBitsPerKey = b.slowBloomBitsPerKey;
    fastCompression = b.fastCompression;
    slowCompression = b.slowCompression;
    directReads = b.directReads;
    directIoForFlushAndCompaction = b.directIoForFlushAndCompaction;
    backgroundJobs = b.backgroundJobs;
    writeBufferBytes = writeBuffer;
    fastTargetFileBytes = fastFile;
    slowTargetFileBytes = slowFile;
    nativeMigration = Boolean.TRUE.equals(b.nativeMigration);
    dropDemotedFiles = b.dropDemotedFiles;
    highWatermark = b.highWatermark;
    lowWatermark = b.lowWatermark;
    migrationCheckInterval = b.migrationCheckInterval;
    maxWriteStall = b.maxWriteStall;
    migrationBatchBytes = b.migrationBatchBytes > 0 ? b.migrationBatchBytes
        : Math.max(slowFile, Math.min(MIGRATION_BATCH_FILES * slowFile, MAX_MIGRATION_BATCH));
    retainHotRecords = b.retainHotRecords;
    promotion = b.promotion;
    readSkewDetection = b.readSkewDetection;
    // Parts of promotion are off when promotion is.
    hotnessCheck = b.promotion && !Boolean.FALSE.equals(b.hotnessCheck);
    promoteByCompaction = b.promotion && !Boolean.FALSE.equals(b.promoteByCompaction);
    promotionCacheBytes = promotionCache;
    maxPromotedRecordBytes = b.maxPromotedRecordBytes;
    raltOptions = ralt;
    maxKeyBytes = b.maxKeyBytes;
    maxValueBytes = b.maxValueBytes;
    syncWrites = b.syncWrites;
    lockStripes = b.lockStripes;
    meterRegistry = b.meterRegistry;
    flashCache = b.flashCache;
    memoryDir = b.memoryDir;
    memoryTierBytes = b.memoryTierBytes;
    tierLogCodec = b.tierLogCodec;
    tierLogTrim = b.tierLogTrim;
    writeHotSeparation = b.writeHotSeparation;
    writeHotShare = b.writeHotShare;
    writeSkewThreshold = b.writeSkewThreshold;
    writeHotWindowBytes = hotWindow;
    hotBlockCacheShare = b.hotBlockCacheShare;
  }

  /** A builder with every setting at its default; paths and fast budget must be set. */
  public static Builder builder() {
    return new Builder();
  }

  /** Directory on the fast disk: the RocksDB directory, the fast tier's files and RALT. */
  public Path fastPath() { return fastPath; }

  /** Directory on the slow disk holding the slow tier's files. */
  public Path slowPath() { return slowPath; }

  /** Bytes of SST files the fast tier may hold ("FD" of the paper). */
  public long fastBudgetBytes() { return fastBudgetBytes; }

  /** Block cache shared by both tiers, bytes; default budget/40 within [8 MiB, 256 MiB]. */
  public long blockCacheBytes() { return blockCacheBytes; }

  /**
   * A new block cache of {@link #blockCacheBytes()} as the store builds its own, with a
   * high-priority pool for index and filter blocks; the caller closes it. A plain RocksDB compared
   * with this store should use one of these.
   */
  public LRUCache newBlockCache() {
    return new LRUCache(blockCacheBytes, -1, false, BLOCK_CACHE_HIGH_PRIORITY_RATIO);
  }

  /** Block size of the fast tier, bytes; default {@value #DEFAULT_FAST_BLOCK_SIZE}. */
  public int fastBlockSize() { return fastBlockSize; }

  /** Block size of the slow tier, bytes; default {@value #DEFAULT_SLOW_BLOCK_SIZE}. */
  public int slowBlockSize() { return slowBlockSize; }

  /** Bloom filter bits per key in the fast tier; default {@value #DEFAULT_BLOOM_BITS_PER_KEY}; 0 for none. */
  public double bloomBitsPerKey() { return bloomBitsPerKey; }

  /**
   * Bloom filter bits per key in the slow tier, including the files demotion writes for it;
   * default {@value #DEFAULT_SLOW_BLOOM_BITS_PER_KEY}; 0 for none.
   */
  public double slowBloomBitsPerKey() { return slowBloomBitsPerKey; }

  /** Compression of the fast tier; default LZ4 (cheap to decode on the read path). */
  public CompressionType fastCompression() { return fastCompression; }

  /** Compression of the slow tier; default ZSTD (fewer bytes from the slow disk). */
  public CompressionType slowCompression() { return slowCompression; }

  /** Whether user reads bypass the page cache (O_DIRECT); default false. */
  public boolean directReads() { return directReads; }

  /** Whether flushes and compactions bypass the page cache; default false. */
  public boolean directIoForFlushAndCompaction() { return directIoForFlushAndCompaction; }

  /** Background flush and compaction jobs; default {@value #DEFAULT_BACKGROUND_JOBS}. */
  public int backgroundJobs() { return backgroundJobs; }

  /** Memtable size of each tier, bytes; default budget/160 within [64 KiB, 64 MiB]. */
  public long writeBufferBytes() { return writeBufferBytes; }

  /** Target SST file size of the fast tier, bytes; default budget/160 within [64 KiB, 64 MiB]. */
  public long fastTargetFileBytes() { return fastTargetFileBytes; }

  /** Target SST file size of the slow tier, bytes; default 4× the fast tier's. */
  public long slowTargetFileBytes() { return slowTargetFileBytes; }

  /** Fraction of the budget above which migration starts; default {@value #DEFAULT_HIGH_WATERMARK}. */
  public double highWatermark() { return highWatermark; }

  /** Fraction of the budget a migration run brings the fast tier under; default {@value #DEFAULT_LOW_WATERMARK}. */
  public double lowWatermark() { return lowWatermark; }

  /** {@link #highWatermark()} in bytes. */
  public long highWatermarkBytes() { return (long) (highWatermark * fastBudgetBytes); }

  /** {@link #lowWatermark()} in bytes. */
  public long lowWatermarkBytes() { return (long) (lowWatermark * fastBudgetBytes); }

  /**
   * Fast-tier SST bytes at which user writes wait for migration: the budget minus room for the
   * memtables that may still be flushed and the tombstones a migration flushes, so that flushes do
   * not push the tier over its budget.
   */
  public long writeStallBytes() {
    return fastBudgetBytes - STALL_RESERVE_BUFFERS * writeBufferBytes;
  }

  /** Period of the migration check run without events; default 1 s. */
  public Duration migrationCheckInterval() { return migrationCheckInterval; }

  /** Longest wait of one user write for room on the fast tier; then it proceeds; default 10 s. */
  public Duration maxWriteStall() { return maxWriteStall; }

  /**
   * Bytes of demoted records a migration commits at once, as one file ingested into the slow tier
   * (or, when the file cannot be used, one atomic batch); default {@link #slowTargetFileBytes()}.
   */
  public long migrationBatchBytes() { return migrationBatchBytes; }

  /**
   * Whether migration leaves the records RALT calls hot on the fast tier and prefers files with few
   * hot bytes (HotRAP §3.5); default true. Off, migration picks files and moves records blind to
   * hotness.
   */
  public boolean retainHotRecords() { return retainHotRecords; }

  /**
   * Whether records read from the slow tier go through the promotion cache back to the fast tier
   * (HotRAP §3.3); default true. Off, a record demoted to the slow tier stays there.
   */
  public boolean promotion() { return promotion; }

  /**
   * Whether RALT and promotion idle while reads are uniform; default true. The store feeds the
   * keys of its gets to a read-skew detector ({@code SkewDetector.forReads}: the chance that two
   * reads hit the same key, against uniform over the store's keys); while a full window of reads
   * shows no skew, gets neither record their accesses in RALT nor offer slow-tier records to the
   * promotion cache, and {@link HotRapStats#untrackedReads()} counts them. Skew that begins is
   * seen within an eighth of a window (at least 1,024 reads). Off, every get is tracked. A store
   * without the hotness check ({@link #hotnessCheck()} off) promotes every slow read and detects
   * no skew, whatever this says.
   */
  public boolean readSkewDetection() { return readSkewDetection; }

  /**
   * Whether promotion asks RALT which cached records are hot (HotRAP §3.3); default true, and false
   * when promotion is off. Off, every record read from the slow tier is promoted (the paper's
   * ablation).
   */
  public boolean hotnessCheck() { return hotnessCheck; }

  /**
   * Whether migrations promote the hot cached records of their range (DESIGN.md §7 step 3); default
   * true, and false when promotion is off.
   */
  public boolean promoteByCompaction() { return promoteByCompaction; }

  /**
   * Charged bytes at which the mutable promotion cache is frozen and promoted by flush (DESIGN.md
   * §9); default the fast tier's target file size (the paper's 64 MiB at a 10 GB fast disk, scaled
   * with the budget).
   */
  public long promotionCacheBytes() { return promotionCacheBytes; }

  /** Largest key + value bytes that the promotion cache keeps; default 16 KiB. */
  public int maxPromotedRecordBytes() { return maxPromotedRecordBytes; }


  /** Settings of the access tracker, directory {@code <fastPath>/ralt}, fast disk = the budget. */
  public RaltOptions raltOptions() { return raltOptions; }

  /** Largest accepted key, bytes; default {@value #DEFAULT_MAX_KEY_BYTES}. */
  public int maxKeyBytes() { return maxKeyBytes; }

  /** Largest accepted value, bytes; default {@value #DEFAULT_MAX_VALUE_BYTES}. */
  public int maxValueBytes() { return maxValueBytes; }

  /** Whether every user write syncs the WAL before it returns; default false, as in RocksDB. */
  public boolean syncWrites() { return syncWrites; }

  /**
   * Whether demotion removes records from the fast tier with a native compaction filter instead of
   * tombstones (DESIGN.md §8, {@link NativeDemotion}); default false. The native path writes fewer
   * fast-disk bytes while loading, but on rw-hotspot5 it ran at 0.62–0.75× the tombstone path's
   * throughput in paired runs (same fast hit rate, a lower block cache hit rate), so it is opt-in.
   */
  public boolean nativeMigration() { return nativeMigration; }

  /**
   * Whether a fast file whose every record migration demoted leaves the fast tier as a file
   * (RocksDB's {@code DeleteFilesInRanges}) instead of by tombstones and a range compaction;
   * default true. It applies on the tombstone path without a memory tier, to files of the fast
   * tier's deepest level while no user snapshot is open; every other file takes tombstones
   * ({@code TierMigrator}, "Files that leave whole").
   */
  public boolean dropDemotedFiles() { return dropDemotedFiles; }

  /** Lock stripes of the per-key write counters; default {@value #DEFAULT_LOCK_STRIPES}. */
  public int lockStripes() { return lockStripes; }

  /** Registry the store binds its meters to, or null. */
  public MeterRegistry meterRegistry() { return meterRegistry; }

  /** The flash cache in front of the slow tier's gets, or null for none (the default). */
  public FlashCacheOptions flashCache() { return flashCache; }

  /**
   * The flash cache's directory: the one its options name, else {@code <fastPath>/flash-cache};
   * null without a flash cache.
   */
  public Path flashCacheDirectory() {
    if (flashCache == null) {
      return null;
    }
    return flashCache.directory() != null ? flashCache.directory()
        : fastPath.resolve(FlashCacheOptions.DEFAULT_DIRECTORY);
  }

  /**
   * Fast-disk bytes the store's data may take: the fast tier's budget plus the flash cache's region
   * file, if any (see {@link FlashCacheOptions}).
   */
  public long fastDiskBytes() {
    return fastBudgetBytes + (flashCache != null ? flashCache.flashBytes() : 0);
  }

  /** Whether the store has a memory tier ({@link Builder#memoryTier(Path, long)}). */
  public boolean memoryTier() { return memoryDir != null; }

  /** The memory tier's directory (a tmpfs or other RAM-backed file system), or null. */
  public Path memoryDir() { return memoryDir; }

  /** The memory tier's size in bytes, or 0 without one. */
  public long memoryTierBytes() { return memoryTierBytes; }

  /** Codec of the tier log's sealed segments; default LZ4. */
  public io.hotrap.wal.Codec tierLogCodec() { return tierLogCodec; }

  /** Whether the tier log trims dead records (default true); off only to measure its peak. */
  public boolean tierLogTrim() { return tierLogTrim; }

  /**
   * Whether write-hot separation is on ({@link WriteHotSeparator}, DESIGN.md §16): while user
   * writes are skewed, keys written at least twice per window go to the column family
   * {@code fast-hot} with universal compaction; default false.
   */
  public boolean writeHotSeparation() { return writeHotSeparation; }

  /**
   * Share of the fast budget the {@code fast-hot} column family may take; default
   * {@value #DEFAULT_WRITE_HOT_SHARE}. Its bytes count against the budget with the fast tier's.
   */
  public double writeHotShare() { return writeHotShare; }

  /**
   * Variance of per-key write counts in a window above which writes count as skewed (they stop
   * counting as skewed below half of it); default {@value SkewDetector#DEFAULT_ON_THRESHOLD}.
   */
  public double writeSkewThreshold() { return writeSkewThreshold; }

  /**
   * Key + value bytes of user writes per skew-detection window; default one L0's worth, the write
   * buffer times the fast tier's L0 compaction trigger (LuMDB counts the keys of L0).
   */
  public long writeHotWindowBytes() { return writeHotWindowBytes; }

  /**
   * Share of the block cache reserved for {@code fast-hot}, in its own cache (HotKey-LSM gives
   * the hot tree 0.8); 0 (the default) keeps one cache for every column family.
   */
  public double hotBlockCacheShare() { return hotBlockCacheShare; }


  @Override
  public String toString() {
    return "HotRapOptions{fastPath=" + fastPath + ", slowPath=" + slowPath
        + ", fastBudgetBytes=" + fastBudgetBytes + ", blockCacheBytes=" + blockCacheBytes
        + ", fastBlockSize=" + fastBlockSize + ", slowBlockSize=" + slowBlockSize
        + ", bloomBitsPerKey=" + bloomBitsPerKey + ", slowBloomBitsPerKey=" + slowBloomBitsPerKey
        + ", fastCompression=" + fastCompression
        + ", slowCompression=" + slowCompression + ", directReads=" + directReads
        + ", directIoForFlushAndCompaction=" + directIoForFlushAndCompaction
        + ", backgroundJobs=" + backgroundJobs + ", writeBufferBytes=" + writeBufferBytes
        + ", fastTargetFileBytes=" + fastTargetFileBytes + ", slowTargetFileBytes=" + slowTargetFileBytes
        + ", highWatermark=" + highWatermark + ", lowWatermark=" + lowWatermark
        + ", migrationCheckInterval=" + migrationCheckInterval + ", maxWriteStall=" + maxWriteStall
        + ", migrationBatchBytes=" + migrationBatchBytes + ", nativeMigration=" + nativeMigration
        + ", dropDemotedFiles=" + dropDemotedFiles + ", retainHotRecords=" + retainHotRecords
        + ", promotion=" + promotion + ", readSkewDetection=" + readSkewDetection
        + ", hotnessCheck=" + hotnessCheck
        + ", promoteByCompaction=" + promoteByCompaction + ", promotionCacheBytes=" + promotionCacheBytes
        + ", maxPromotedRecordBytes=" + maxPromotedRecordBytes
        + ", maxKeyBytes=" + maxKeyBytes + ", maxValueBytes=" + maxValueBytes
        + ", syncWrites=" + syncWrites + ", lockStripes=" + lockStripes
        + ", flashCache=" + flashCache
        + (memoryDir == null ? "" : ", memoryDir=" + memoryDir + ", memoryTierBytes=" + memoryTierBytes
            + ", tierLogCodec=" + tierLogCodec + ", tierLogTrim=" + tierLogTrim)
        + (writeHotSeparation ? ", writeHotSeparation=true, writeHotShare=" + writeHotShare
            + ", writeSkewThreshold=" + writeSkewThreshold + ", writeHotWindowBytes="
            + writeHotWindowBytes + ", hotBlockCacheShare=" + hotBlockCacheShare : "") + '}';
  }

  /** Validating builder of {@link HotRapOptions}. Not thread-safe. */
  public static final class Builder {
    private Path fastPath;
    private Path slowPath;
    private long fastBudgetBytes = -1;
    private long blockCacheBytes = -1;
    private int fastBlockSize = DEFAULT_FAST_BLOCK_SIZE;
    private int slowBlockSize = DEFAULT_SLOW_BLOCK_SIZE;
    private double bloomBitsPerKey = DEFAULT_BLOOM_BITS_PER_KEY;
    private double slowBloomBitsPerKey = DEFAULT_SLOW_BLOOM_BITS_PER_KEY;
    private CompressionType fastCompression = CompressionType.LZ4_COMPRESSION;
    private CompressionType slowCompression = CompressionType.ZSTD_COMPRESSION;
    private boolean directReads;
    private boolean directIoForFlushAndCompaction;
    private int backgroundJobs = DEFAULT_BACKGROUND_JOBS;
    private long writeBufferBytes = -1;
    private long fastTargetFileBytes = -1;
    private long slowTargetFileBytes = -1;
    private double highWatermark = DEFAULT_HIGH_WATERMARK;
    private double lowWatermark = DEFAULT_LOW_WATERMARK;
    private Duration migrationCheckInterval = DEFAULT_MIGRATION_CHECK_INTERVAL;
    private Duration maxWriteStall = DEFAULT_MAX_WRITE_STALL;
    private long migrationBatchBytes = -1;
    private Boolean nativeMigration;
    private boolean dropDemotedFiles = true;
    private boolean retainHotRecords = true;
    private boolean promotion = true;
    private boolean readSkewDetection = true;
    /** Null until set: on by default, and off with promotion. */
    private Boolean hotnessCheck;
    private Boolean promoteByCompaction;
    private long promotionCacheBytes = -1;
    private int maxPromotedRecordBytes = DEFAULT_MAX_PROMOTED_RECORD_BYTES;
    private Consumer<RaltOptions.Builder> raltCustomizer = b -> { };
    private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;
    private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
    private boolean syncWrites;
    private int lockStripes = DEFAULT_LOCK_STRIPES;
    private MeterRegistry meterRegistry;
    private FlashCacheOptions flashCache;
    private Path memoryDir;
    private long memoryTierBytes;
    private io.hotrap.wal.Codec tierLogCodec = io.hotrap.wal.Codec.LZ4;
    private boolean tierLogTrim = true;
    private boolean writeHotSeparation;
    private double writeHotShare = DEFAULT_WRITE_HOT_SHARE;
    private double writeSkewThreshold = SkewDetector.DEFAULT_ON_THRESHOLD;
    private long writeHotWindowBytes = -1;
    private double hotBlockCacheShare;

    private Builder() {}

    /** See {@link HotRapOptions#writeHotSeparation()}; not with a memory tier. */
    public Builder writeHotSeparation(boolean enabled) {
      this.writeHotSeparation = enabled;
      return this;
    }

    /** See {@link HotRapOptions#writeHotShare()}; in (0, 0.5]. */
    public Builder writeHotShare(double share) {
      if (!(share > 0 && share <= 0.5)) {
        throw new IllegalArgumentException("writeHotShare must be in (0, 0.5] but was " + share);
      }
      this.writeHotShare = share;
      return this;
    }

    /** See {@link HotRapOptions#writeSkewThreshold()}; at least 0 (0: any repeated key is skew). */
    public Builder writeSkewThreshold(double variance) {
      if (!(variance >= 0) || Double.isInfinite(variance)) {
        throw new IllegalArgumentException("writeSkewThreshold must be a finite value >= 0 but was "
            + variance);
      }
      this.writeSkewThreshold = variance;
      return this;
    }

    /** See {@link HotRapOptions#writeHotWindowBytes()}; at least 4 KiB. */
    public Builder writeHotWindowBytes(long bytes) {
      this.writeHotWindowBytes = atLeast("writeHotWindowBytes", bytes, 4096);
      return this;
    }

    /** See {@link HotRapOptions#hotBlockCacheShare()}; in [0, 1). */
    public Builder hotBlockCacheShare(double share) {
      if (!(share >= 0 && share < 1)) {
        throw new IllegalArgumentException("hotBlockCacheShare must be in [0, 1) but was " + share);
      }
      this.hotBlockCacheShare = share;
      return this;
    }

    /**
     * Adds a memory tier above the fast disk ({@link MemoryTier}, DESIGN.md §15): the newest
     * {@code memoryBytes} of data live in {@code memoryDir}, made durable by a log on the fast
     * disk. Must be at least two write buffers; the directory must exist and be writable when the
     * store opens.
     */
    public Builder memoryTier(Path memoryDir, long memoryBytes) {
      this.memoryDir = Objects.requireNonNull(memoryDir, "memoryDir").toAbsolutePath().normalize();
      this.memoryTierBytes = positive("memoryBytes", memoryBytes);
      return this;
    }

    /** Codec of the tier log's sealed segments (LZ4 default, ZSTD, NONE). */
    public Builder tierLogCodec(io.hotrap.wal.Codec codec) {
      this.tierLogCodec = Objects.requireNonNull(codec, "codec");
      return this;
    }

    /** Whether the tier log trims dead records out of sealed segments (default true). */
    public Builder tierLogTrim(boolean trim) {
      this.tierLogTrim = trim;
      return this;
    }

    public Builder fastPath(Path path) {
      this.fastPath = Objects.requireNonNull(path, "fastPath").toAbsolutePath().normalize();
      return this;
    }

    public Builder slowPath(Path path) {
      this.slowPath = Objects.requireNonNull(path, "slowPath").toAbsolutePath().normalize();
      return this;
    }

    public Builder fastBudgetBytes(long bytes) {
      this.fastBudgetBytes = positive("fastBudgetBytes", bytes);
      return this;
    }

    public Builder blockCacheBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("blockCacheBytes must be >= 0 but was " + bytes);
      }
      this.blockCacheBytes = bytes;
      return this;
    }

    public Builder fastBlockSize(int bytes) {
      this.fastBlockSize = blockSize("fastBlockSize", bytes);
      return this;
    }

    public Builder slowBlockSize(int bytes) {
      this.slowBlockSize = blockSize("slowBlockSize", bytes);
      return this;
    }

    public Builder bloomBitsPerKey(double bits) {
      this.bloomBitsPerKey = filterBits("bloomBitsPerKey", bits);
      return this;
    }

    public Builder slowBloomBitsPerKey(double bits) {
      this.slowBloomBitsPerKey = filterBits("slowBloomBitsPerKey", bits);
      return this;
    }

    private static double filterBits(String name, double bits) {
      if (!(bits >= 0 && bits <= 100)) {
        throw new IllegalArgumentException(name + " must be in [0, 100] but was " + bits);
      }
      return bits;
    }

    public Builder fastCompression(CompressionType type) {
      this.fastCompression = Objects.requireNonNull(type, "fastCompression");
      return this;
    }

    public Builder slowCompression(CompressionType type) {
      this.slowCompression = Objects.requireNonNull(type, "slowCompression");
      return this;
    }

    public Builder directReads(boolean enabled) {
      this.directReads = enabled;
      return this;
    }

    public Builder directIoForFlushAndCompaction(boolean enabled) {
      this.directIoForFlushAndCompaction = enabled;
      return this;
    }

    public Builder backgroundJobs(int jobs) {
      if (jobs < 2 || jobs > 256) {
        throw new IllegalArgumentException("backgroundJobs must be in [2, 256] but was " + jobs);
      }
      this.backgroundJobs = jobs;
      return this;
    }

    public Builder writeBufferBytes(long bytes) {
      this.writeBufferBytes = atLeast("writeBufferBytes", bytes, MIN_FILE_SIZE);
      return this;
    }

    public Builder fastTargetFileBytes(long bytes) {
      this.fastTargetFileBytes = atLeast("fastTargetFileBytes", bytes, MIN_FILE_SIZE);
      return this;
    }

    public Builder slowTargetFileBytes(long bytes) {
      this.slowTargetFileBytes = atLeast("slowTargetFileBytes", bytes, MIN_FILE_SIZE);
      return this;
    }

    /** Fraction of the budget in (0, 1] above which migration starts. */
    public Builder highWatermark(double fraction) {
      this.highWatermark = fraction("highWatermark", fraction);
      return this;
    }

    /** Fraction of the budget in (0, 1] that a migration run brings the fast tier under. */
    public Builder lowWatermark(double fraction) {
      this.lowWatermark = fraction("lowWatermark", fraction);
      return this;
    }

    public Builder migrationCheckInterval(Duration interval) {
      Objects.requireNonNull(interval, "migrationCheckInterval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("migrationCheckInterval must be positive but was " + interval);
      }
      this.migrationCheckInterval = interval;
      return this;
    }

    public Builder maxWriteStall(Duration stall) {
      Objects.requireNonNull(stall, "maxWriteStall");
      if (stall.isNegative()) {
        throw new IllegalArgumentException("maxWriteStall must be >= 0 but was " + stall);
      }
      this.maxWriteStall = stall;
      return this;
    }

    /**
     * Bytes of demoted records a migration commits at once, as one file ingested into the slow
     * tier; default four times the slow tier's target file size, at most 64 MiB (and never less
     * than one target file), so that each ingestion, which holds writers back, moves more
     * (TierMigrator).
     */
    public Builder migrationBatchBytes(long bytes) {
      this.migrationBatchBytes = positive("migrationBatchBytes", bytes);
      return this;
    }

    /** Retention (HotRAP §3.5; the paper's ablation "no retention" turns it off); default true. */
    public Builder retainHotRecords(boolean enabled) {
      this.retainHotRecords = enabled;
      return this;
    }

    /** Promotion of records read from the slow tier (HotRAP §3.3); default true. */
    public Builder promotion(boolean enabled) {
      this.promotion = enabled;
      return this;
    }

    /** See {@link HotRapOptions#readSkewDetection()}; default true. */
    public Builder readSkewDetection(boolean enabled) {
      this.readSkewDetection = enabled;
      return this;
    }

    /** Whether promotion promotes only what RALT calls hot; default true; false promotes every slow read. */
    public Builder hotnessCheck(boolean enabled) {
      this.hotnessCheck = Boolean.valueOf(enabled);
      return this;
    }

    /** Promotion by compaction (DESIGN.md §7 step 3); default true. */
    public Builder promoteByCompaction(boolean enabled) {
      this.promoteByCompaction = Boolean.valueOf(enabled);
      return this;
    }

    /** Target size of the mutable promotion cache, bytes; default the fast tier's target file size. */
    public Builder promotionCacheBytes(long bytes) {
      this.promotionCacheBytes = positive("promotionCacheBytes", bytes);
      return this;
    }

    /** Largest key + value bytes that the promotion cache keeps; default 16 KiB; 0 caches nothing. */
    public Builder maxPromotedRecordBytes(int bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxPromotedRecordBytes must not be negative but was " + bytes);
      }
      this.maxPromotedRecordBytes = bytes;
      return this;
    }


    /**
     * Adjusts the access tracker's settings. The directory ({@code <fastPath>/ralt}) and the fast
     * disk size (the budget) are set before the customizer runs; the customizer may override them.
     */
    public Builder ralt(Consumer<RaltOptions.Builder> customizer) {
      this.raltCustomizer = Objects.requireNonNull(customizer, "ralt");
      return this;
    }

    /**
     * Largest accepted key, bytes; at most {@link io.hotrap.ralt.Ralt#MAX_KEY_BYTES}, the longest
     * key RALT tracks (a key the store accepts must never be one its tracker rejects).
     */
    public Builder maxKeyBytes(int bytes) {
      positive("maxKeyBytes", bytes);
      if (bytes > io.hotrap.ralt.Ralt.MAX_KEY_BYTES) {
        throw new IllegalArgumentException("maxKeyBytes was " + bytes
            + " but RALT, the access tracker, records keys of at most " + io.hotrap.ralt.Ralt.MAX_KEY_BYTES + " bytes");
      }
      this.maxKeyBytes = bytes;
      return this;
    }

    public Builder maxValueBytes(int bytes) {
      this.maxValueBytes = (int) positive("maxValueBytes", bytes);
      return this;
    }

    public Builder syncWrites(boolean enabled) {
      this.syncWrites = enabled;
      return this;
    }

    /**
     * Native demotion (true) or the pure-Java tombstone path (false, the default). {@link #build()}
     * rejects true where the native hooks did not load ({@link NativeHooks#available()}), with the
     * reason.
     */
    public Builder nativeMigration(boolean enabled) {
      this.nativeMigration = Boolean.valueOf(enabled);
      return this;
    }

    /** See {@link HotRapOptions#dropDemotedFiles()}; default true. */
    public Builder dropDemotedFiles(boolean enabled) {
      this.dropDemotedFiles = enabled;
      return this;
    }

    /** Number of lock stripes, a power of two in [1, 65536]. */
    public Builder lockStripes(int stripes) {
      if (stripes < 1 || stripes > 65536 || Integer.bitCount(stripes) != 1) {
        throw new IllegalArgumentException(
            "lockStripes must be a power of two in [1, 65536] but was " + stripes);
      }
      this.lockStripes = stripes;
      return this;
    }

    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
      return this;
    }

    /**
     * A record-level flash cache on the fast disk in front of the slow tier's gets (DESIGN.md §14):
     * a get that misses the fast tier and the promotion cache, and whose record the slow tier's
     * block cache does not hold, tries the flash cache before reading the slow disk, and a record
     * read from the slow disk is inserted. Its bytes are on the fast disk besides the budget
     * ({@link FlashCacheOptions}). Default: none.
     */
    public Builder flashCache(FlashCacheOptions options) {
      this.flashCache = Objects.requireNonNull(options, "flashCache");
      return this;
    }


    /**
     * Builds the options.
     *
     * @throws IllegalStateException if a path or the budget is missing, the paths overlap, the
     *     watermarks are inverted, or the memtables leave no room between the high watermark and
     *     the budget
     */
    public HotRapOptions build() {
      if (fastPath == null) {
        throw new IllegalStateException("fastPath was not set");
      }
      if (slowPath == null) {
        throw new IllegalStateException("slowPath was not set");
      }
      if (fastBudgetBytes < 0) {
        throw new IllegalStateException("fastBudgetBytes was not set");
      }
      if (fastPath.equals(slowPath) || fastPath.startsWith(slowPath) || slowPath.startsWith(fastPath)) {
        throw new IllegalStateException(
            "fastPath (" + fastPath + ") and slowPath (" + slowPath + ") must not overlap");
      }
      if (flashCache != null && flashCache.directory() != null) {
        Path d = flashCache.directory();
        if (d.equals(fastPath) || d.startsWith(slowPath)
            || d.startsWith(fastPath.resolve(StoreLayout.DB_DIR))
            || d.startsWith(fastPath.resolve(StoreLayout.DATA_DIR))
            || d.startsWith(fastPath.resolve(StoreLayout.RALT_DIR))) {
          throw new IllegalStateException("the flash cache's directory (" + d + ") must be on the"
              + " fast disk apart from the store's own directories: not the fast path, not under"
              + " the slow path or under " + fastPath + "/{db,data,ralt}");
        }
      }
      if (!promotion && Boolean.TRUE.equals(hotnessCheck)) {
        throw new IllegalStateException("hotnessCheck(true) contradicts promotion(false): the hotness"
            + " check decides what promotion promotes, and promotion is off");
      }
      if (!promotion && Boolean.TRUE.equals(promoteByCompaction)) {
        throw new IllegalStateException("promoteByCompaction(true) contradicts promotion(false):"
            + " promotion by compaction is part of promotion, which is off");
      }
      // The native hooks load RocksDB's library if nothing has: load it first from the one shared
      // copy (NativeLibrary), or asking whether the hooks are available would leave a copy per process.
      NativeLibrary.load();
      if (Boolean.TRUE.equals(nativeMigration) && !NativeHooks.available()) {
        throw new IllegalStateException("nativeMigration(true) but the native hooks did not load: "
            + NativeHooks.unavailableReason());
      }
      if (lowWatermark > highWatermark) {
        throw new IllegalStateException("lowWatermark (" + lowWatermark
            + ") must not exceed highWatermark (" + highWatermark + ")");
      }
      long scaledFile = clamp(fastBudgetBytes / FILE_SIZE_DIVISOR, MIN_FILE_SIZE, MAX_FILE_SIZE);
      long writeBuffer = writeBufferBytes > 0 ? writeBufferBytes : scaledFile;
      long fastFile = fastTargetFileBytes > 0 ? fastTargetFileBytes : scaledFile;
      long slowFile = slowTargetFileBytes > 0 ? slowTargetFileBytes : Math.min(MAX_FILE_SIZE, 4 * fastFile);
      long blockCache = blockCacheBytes >= 0 ? blockCacheBytes
          : clamp(fastBudgetBytes / BLOCK_CACHE_DIVISOR, MIN_BLOCK_CACHE, MAX_BLOCK_CACHE);
      long high = (long) (highWatermark * fastBudgetBytes);
      long stall = fastBudgetBytes - STALL_RESERVE_BUFFERS * writeBuffer;
      if (stall <= high) {
        throw new IllegalStateException("fastBudgetBytes (" + fastBudgetBytes + ") leaves no room for "
            + STALL_RESERVE_BUFFERS + " write buffers of " + writeBuffer
            + " bytes above the high watermark (" + high + " bytes); raise the budget or lower"
            + " writeBufferBytes or highWatermark");
      }
      if (fastFile > fastBudgetBytes - high + fastBudgetBytes / 2) {
        throw new IllegalStateException("fastTargetFileBytes (" + fastFile
            + ") is too large for fastBudgetBytes (" + fastBudgetBytes + ")");
      }
      if (memoryDir != null && memoryTierBytes < 2 * writeBuffer) {
        throw new IllegalArgumentException("memoryBytes (" + memoryTierBytes + ") is smaller than"
            + " two write buffers (2 x " + writeBuffer + " bytes): the memory tier needs room for"
            + " a generation being written and one being moved, each at least one write buffer");
      }
      if (memoryDir != null && (memoryDir.startsWith(fastPath) || memoryDir.startsWith(slowPath))) {
        throw new IllegalArgumentException("memoryDir (" + memoryDir + ") must not lie inside"
            + " fastPath or slowPath");
      }
      if (writeHotSeparation && memoryDir != null) {
        throw new IllegalStateException("writeHotSeparation(true) cannot be combined with a memory"
            + " tier: the memory tier takes every user write before the fast tier sees it");
      }
      long hotWindow = writeHotWindowBytes > 0 ? writeHotWindowBytes
          : writeBuffer * TierConfig.FAST_L0_TRIGGER;
      RaltOptions.Builder rb = RaltOptions.builder()
          .directory(fastPath.resolve(StoreLayout.RALT_DIR))
          .fastDiskBytes(fastBudgetBytes);
      raltCustomizer.accept(rb);
      RaltOptions ralt = rb.build();
      long promotionCache = promotionCacheBytes > 0 ? promotionCacheBytes : fastFile;
      return new HotRapOptions(this, ralt, blockCache, writeBuffer, fastFile, slowFile, promotionCache,
          hotWindow);
    }

    private static long clamp(long v, long lo, long hi) {
      return Math.max(lo, Math.min(hi, v));
    }

    private static long positive(String name, long value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be positive but was " + value);
      }
      return value;
    }

    private static long atLeast(String name, long value, long min) {
      if (value < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + " but was " + value);
      }
      return value;
    }

    private static int blockSize(String name, int bytes) {
      if (bytes < 512 || bytes > (4 << 20)) {
        throw new IllegalArgumentException(name + " must be in [512, 4194304] but was " + bytes);
      }
      return bytes;
    }

    private static double fraction(String name, double f) {
      if (!(f > 0 && f <= 1)) {
        throw new IllegalArgumentException(name + " must be in (0, 1] but was " + f);
      }
      return f;
    }
  }
}
