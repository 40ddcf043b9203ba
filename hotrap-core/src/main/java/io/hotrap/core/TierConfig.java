package io.hotrap.core;

import java.nio.file.Path;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptionsUniversal;
import org.rocksdb.CompactionStyle;
import org.rocksdb.DbPath;
import org.rocksdb.Options;

/**
 * RocksDB settings of the tiers' column families (DESIGN.md §3), one path each ({@code cf_paths}),
 * so that each tier's files stay on its disk. {@code fast} is leveled with {@code
 * level_compaction_dynamic_level_bytes} (RocksDB turns it off for several paths, DESIGN.md §13);
 * {@code slow} and {@code fast-hot} are universal ({@link #slow}, {@link #fastHot}).
 * The block cache and Bloom filter policy are shared; the caller owns the returned options and the
 * cache and filter, and closes them after RocksDB.
 */
final class TierConfig {
  /** {@code cf_paths} target of the slow tier: in effect unlimited (the last path takes overflow). */
  private static final long UNLIMITED = Long.MAX_VALUE / 4;
  /** The fast tier's first level below L0 holds this fraction of the budget. */
  private static final long FAST_LEVEL_BASE_DIVISOR = 10;
  /**
   * Size ratio of the fast tier's adjacent levels. The tier is small and bounded, so RocksDB's
   * default of 10 puts nearly all of it in one last level and rewrites that level ~10× per byte
   * entering it; 3 spreads the same bytes over more, closer levels and writes less. Measured with
   * {@code hotrap-bench migration --budget-mib 4 --times 20}: fast-tier write amplification 7.50 at
   * 10, 5.99 at 3 (5.69 with {@link #FAST_L0_TRIGGER}), against rocksdb-tiered's 5.3–5.4.
   */
  private static final double FAST_LEVEL_MULTIPLIER = 3;
  /** L0 files that start an L0 compaction on the fast tier: twice RocksDB's default, so each merges more. */
  static final int FAST_L0_TRIGGER = 8;
  /**
   * With a memory tier, L0 compacts once it holds this share of the tier ({@link #fast}): each L0
   * compaction rewrites the base level's overlap, so larger batches write the fast disk less.
   * Measured with {@code hotrap-bench memory-tier --systems hotrap-mem --codec NONE} (64 MiB tier,
   * 1.6 MiB write buffers): 50% wrote 3.98 GB (WH-uniform) and 2.46 GB (UH-zipf) to the fast
   * device, 75% 3.64 and 2.25 GB, with 3.1 and 10.2 s of write stalls on WH-uniform.
   */
  static final int MEMORY_L0_TRIGGER_PERCENT = 75;
  /**
   * Sorted runs of {@code fast-hot} that start a universal compaction: LuMDB keeps r_h = 3 runs of
   * hot data and merges the oldest first.
   */
  static final int HOT_RUNS = 3;
  /**
   * L0 files that start an L0 compaction on {@code fast} while write-hot separation routes the
   * hot keys away ({@link #coldSide}): five times {@link #FAST_L0_TRIGGER}.
   */
  static final int COLD_L0_TRIGGER = 40;
  /**
   * Sorted runs of the slow tier that start a universal compaction ({@link #slow}): four times
   * RocksDB's default, so that a merge takes in many demoted files at once.
   */
  static final int SLOW_RUNS = 16;
  /**
   * The slow tier's bound on space amplification (RocksDB's default): the runs above the oldest
   * may hold up to twice its bytes before all are merged into one.
   */
  static final int SLOW_SIZE_AMPLIFICATION_PERCENT = 200;
  /** Upper bound of {@code fast-hot}'s write buffer, in fast-tier write buffers. */
  static final long HOT_WRITE_BUFFERS = 8;

  private TierConfig() {}

  /**
   * How long a file of the fast tier's deepest level is left alone before RocksDB may rewrite it
   * only to clear sequence numbers or versions a snapshot kept ({@code
   * bottommost_file_compaction_delay}, in seconds; RocksJava has no setter for it). RocksDB does
   * that as soon as the snapshot is released, and every migration step holds one, so without the
   * delay files of that level were written twice, and a file that migration had just demoted whole
   * was rewritten before it could leave whole. Ten minutes is far longer than migration takes to
   * reach a cold file under writes, and still bounds how long versions a released user snapshot
   * kept stay in the deepest level when nothing else compacts it.
   */
  static final long FAST_BOTTOMMOST_REWRITE_DELAY_SECONDS = 600;

  static ColumnFamilyOptions fast(HotRapOptions o, StoreLayout layout, Cache cache, BloomFilter filter) {
    return fast(o, layout, cache, filter, null);
  }

  /**
   * {@link #fast(HotRapOptions, StoreLayout, Cache, BloomFilter)}, with a memory tier when
   * {@code memoryFiles} is not null: L0 in {@code memoryFiles} (path 0, whose target is the base
   * level's size, RocksDB's estimate of L0), every level below in the fast directory (path 1),
   * and L0 sized to the memory tier ({@link MemoryTier}): compaction at
   * {@value #MEMORY_L0_TRIGGER_PERCENT}% of it, writes stopped at all of it, in write buffers.
   */
  static ColumnFamilyOptions fast(HotRapOptions o, StoreLayout layout, Cache cache, BloomFilter filter,
      Path memoryFiles) {
    ColumnFamilyOptions cfo = fastOnDisk(o, layout, cache, filter);
    if (memoryFiles == null) {
      return cfo;
    }
    long base = fastLevelBase(o);
    int stop = (int) Math.max(2, Math.min(1000, o.memoryTierBytes() / o.writeBufferBytes()));
    int trigger = Math.max(1, MEMORY_L0_TRIGGER_PERCENT * stop / 100);
    return cfo
        .setCfPaths(List.of(new DbPath(memoryFiles, base), new DbPath(layout.fastDataDir(), o.fastBudgetBytes())))
        .setLevel0FileNumCompactionTrigger(trigger)
        .setLevel0SlowdownWritesTrigger(Math.max(trigger, (trigger + stop + 1) / 2))
        .setLevel0StopWritesTrigger(stop);
  }

  private static ColumnFamilyOptions fastOnDisk(HotRapOptions o, StoreLayout layout, Cache cache,
      BloomFilter filter) {
    java.util.Properties props = new java.util.Properties();
    props.setProperty("bottommost_file_compaction_delay", Long.toString(FAST_BOTTOMMOST_REWRITE_DELAY_SECONDS));
    ColumnFamilyOptions base = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(props);
    if (base == null) {
      throw new IllegalStateException("RocksDB did not accept bottommost_file_compaction_delay");
    }
    return tier(o, cache, filter, layout.fastDataDir(), o.fastBudgetBytes(), o.fastBlockSize(),
        o.fastTargetFileBytes(), fastLevelBase(o), true, base)
        .setCompressionType(o.fastCompression())
        .setMaxBytesForLevelMultiplier(FAST_LEVEL_MULTIPLIER)
        .setLevel0FileNumCompactionTrigger(FAST_L0_TRIGGER);
  }

  /**
   * The {@code fast-hot} column family of write-hot separation ({@link WriteHotSeparator}):
   * universal (tiering) compaction on the fast disk, in its own directory, merging once
   * {@value #HOT_RUNS} runs exist. Its data is small and rewritten often, so each merge drops the
   * versions later ones overwrote.
   */
  static ColumnFamilyOptions fastHot(HotRapOptions o, StoreLayout layout, Cache cache, BloomFilter filter) {
    ColumnFamilyOptions cfo = tier(o, cache, filter, layout.hotDataDir(), o.fastBudgetBytes(),
        o.fastBlockSize(), o.fastTargetFileBytes(), 4 * o.fastTargetFileBytes())
        .setCompressionType(o.fastCompression())
        .setLevelCompactionDynamicLevelBytes(false)
        .setCompactionStyle(CompactionStyle.UNIVERSAL)
        .setLevel0FileNumCompactionTrigger(HOT_RUNS)
        .setWriteBufferSize(hotWriteBuffer(o));
    cfo.setCompactionOptionsUniversal(new CompactionOptionsUniversal()
        .setMinMergeWidth(2)
        .setSizeRatio(1)
        .setMaxSizeAmplificationPercent(100));
    return cfo;
  }

  /**
   * Write buffer of {@code fast-hot}: large enough to hold a quarter of its share of the budget,
   * at most {@value #HOT_WRITE_BUFFERS} of the fast tier's buffers and at least one. A hot key
   * rewritten while its last version is still in the memtable costs no flush byte, so the buffer
   * that holds the hot set turns most hot writes into none.
   */
  static long hotWriteBuffer(HotRapOptions o) {
    long share = (long) (o.fastBudgetBytes() * o.writeHotShare()) / 4;
    return Math.max(o.writeBufferBytes(), Math.min(share, HOT_WRITE_BUFFERS * o.writeBufferBytes()));
  }

  /**
   * The mutable settings of {@code fast} while the writes are skewed and write-hot separation
   * routes the hot keys to {@code fast-hot} ({@code cold} true), or as {@link #fast} set them
   * ({@code cold} false). With the hot keys gone, what reaches {@code fast} is cold data that
   * eager merges do not shrink: a new version rarely meets an older one in L0 or the base level
   * (LuMDB §3.3: cold data is "the real villain of compaction"). LuMDB's cold side (2PPL) gives
   * its top levels larger, preset capacities while it separates; here L0 holds up to
   * {@value #COLD_L0_TRIGGER} files ({@link #coldL0Trigger}) before it is merged and the base level half the budget, so
   * each L0 compaction carries more new bytes per byte of the base level it rewrites. Measured
   * with {@code hotrap-bench separation --workloads UH-zipf1.1 --systems hotrap-separated}
   * (16 MiB, 2 rounds each), total compaction MiB: 286 / 273 with the defaults, 268 / 279 with an
   * L0 of 24 files, 256 / 264 with 24 files and a 4 MiB base, 240 / 249 with 40 files and an 8 MiB
   * base; 64 files and 12 MiB, 40 files and 16 MiB, and 64 files and 4 MiB gave no more (242–269).
   */
  static org.rocksdb.MutableColumnFamilyOptions coldSide(HotRapOptions o, boolean cold) {
    // A budget too small for a larger L0 keeps fast's usual shape altogether.
    boolean larger = cold && coldL0Trigger(o) > FAST_L0_TRIGGER;
    int trigger = larger ? coldL0Trigger(o) : FAST_L0_TRIGGER;
    return org.rocksdb.MutableColumnFamilyOptions.builder()
        .setLevel0FileNumCompactionTrigger(trigger)
        // RocksDB's defaults (20, 36) while they stay above the trigger, else as far above it.
        .setLevel0SlowdownWritesTrigger(Math.max(20, trigger + 12))
        .setLevel0StopWritesTrigger(Math.max(36, trigger + 28))
        .setMaxBytesForLevelBase(larger ? Math.max(fastLevelBase(o), o.fastBudgetBytes() / 2) : fastLevelBase(o))
        .build();
  }

  /**
   * The cold side's L0 trigger: {@value #COLD_L0_TRIGGER} files, as long as they fill at most a
   * quarter of the budget, and never fewer than {@link #FAST_L0_TRIGGER}. Migration moves files of
   * the levels below L0, so an L0 larger than the budget's room would keep the tier over its
   * budget and stall writers for as long as the L0 takes to fill (a 1 MiB store with 64 KiB write
   * buffers: 40 files are 2.5 MiB). Where no more than {@link #FAST_L0_TRIGGER} files fit, the
   * cold side leaves the base level as it is too ({@link #coldSide}).
   */
  static int coldL0Trigger(HotRapOptions o) {
    long fit = o.fastBudgetBytes() / 4 / Math.max(1, o.writeBufferBytes());
    return (int) Math.max(FAST_L0_TRIGGER, Math.min(COLD_L0_TRIGGER, fit));
  }

  private static long fastLevelBase(HotRapOptions o) {
    return Math.max(4 * o.fastTargetFileBytes(), o.fastBudgetBytes() / FAST_LEVEL_BASE_DIVISOR);
  }

  /**
   * The slow tier keeps its index and filter blocks with its table readers (RocksDB's default),
   * not in the block cache as the fast tier does. The fast tier serves most gets, and RocksDB's LRU
   * cache moves every block hit once into the high-priority pool meant for index and filter blocks
   * ({@code LRUCacheShard::LRU_Insert}: {@code IsHighPri() || HasHit()}): the fast tier's hot data
   * blocks then pushed the slow tier's index and filter blocks out, which each slow-tier get read
   * again from the slow disk. Measured on ro-hotspot5 at 16 MiB with 16 clients on the throttled
   * disk: 2.05 slow-disk reads per slow-tier get, of which about 1.5 were reads of 512 B–1 KiB
   * (filter and index blocks, traced with {@code perf record -e block:block_bio_queue}); tiered
   * RocksDB, whose cache holds no hot data blocks, 1.05. The readers hold, outside the block cache,
   * 10 Bloom bits per key, one index entry per block and a few KiB per file (RocksDB's
   * {@code estimate-table-readers-mem}: 216 KB for 70 files of 64 KiB in SlowTierMetadataTest).
   *
   * <p>Universal compaction, not leveled. Demoted records enter the slow tier as ingested files
   * spread over the key space, and a leveled slow tier merged each of them down through all its
   * levels: the upper levels' rewriting that the fast tier had already done once, done again on
   * the slow disk (a single tiered LSM-tree writes its slow levels only at the bottom). Universal
   * merges runs of similar size, so each demoted byte is rewritten a few times, not once per level.
   * Measured with {@code hotrap-bench migration} (a load of 10-11x the budget, throttled slow disk),
   * slow-tier write amplification leveled against universal: 5.04 against 1.65 at 32 MiB, 5.29 and
   * 5.35 against 1.78 and 1.73 at 128 MiB (rocksdb-tiered 1.43-1.52). Slow-tier gets read the slow
   * disk about as often as before (Bloom filters are checked per run, in memory): ro-uniform at
   * 16 MiB 1.009 reads per slow get against 0.997, rw-hotspot5 1.066 against 1.107 (less compaction
   * beside the reads). The more runs, the more false positives reach the disk, so the slow tier's
   * filters get more bits than the fast tier's ({@link HotRapOptions#slowBloomBitsPerKey()}). The
   * price is space: up to {@link #SLOW_SIZE_AMPLIFICATION_PERCENT} percent more than the live data
   * between full merges, on the disk that is large and cheap.
   */
  static ColumnFamilyOptions slow(HotRapOptions o, StoreLayout layout, Cache cache, BloomFilter filter) {
    ColumnFamilyOptions cfo = tier(o, cache, filter, layout.slowDataDir(), UNLIMITED, o.slowBlockSize(),
        o.slowTargetFileBytes(), 4 * o.slowTargetFileBytes(), false)
        .setCompressionType(o.slowCompression())
        .setLevelCompactionDynamicLevelBytes(false)
        .setCompactionStyle(CompactionStyle.UNIVERSAL)
        .setLevel0FileNumCompactionTrigger(SLOW_RUNS)
        .setLevel0SlowdownWritesTrigger(SLOW_RUNS + 12)
        .setLevel0StopWritesTrigger(SLOW_RUNS + 28);
    cfo.setCompactionOptionsUniversal(new CompactionOptionsUniversal()
        .setMaxSizeAmplificationPercent(SLOW_SIZE_AMPLIFICATION_PERCENT));
    return cfo;
  }

  /**
   * Options for an {@link org.rocksdb.SstFileWriter} whose files are ingested into the slow tier:
   * its compression, block size and Bloom filter, so an ingested file reads like one the slow
   * tier wrote. The caller owns the returned options and {@code filter}.
   */
  static Options slowFileWriter(HotRapOptions o, BloomFilter filter) {
    BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockSize(o.slowBlockSize());
    if (filter != null) {
      table.setFilterPolicy(filter);
    }
    return new Options().setCompressionType(o.slowCompression()).setTableFormatConfig(table);
  }

  private static ColumnFamilyOptions tier(HotRapOptions o, Cache cache, BloomFilter filter, Path dir,
      long pathTarget, int blockSize, long targetFile, long levelBase) {
    return tier(o, cache, filter, dir, pathTarget, blockSize, targetFile, levelBase, true);
  }

  private static ColumnFamilyOptions tier(HotRapOptions o, Cache cache, BloomFilter filter, Path dir,
      long pathTarget, int blockSize, long targetFile, long levelBase, boolean cacheIndexAndFilter) {
    return tier(o, cache, filter, dir, pathTarget, blockSize, targetFile, levelBase, cacheIndexAndFilter,
        new ColumnFamilyOptions());
  }

  /** {@code cacheIndexAndFilter}: index and filter blocks in the block cache (else with the readers, {@link #slow}). */
  private static ColumnFamilyOptions tier(HotRapOptions o, Cache cache, BloomFilter filter, Path dir,
      long pathTarget, int blockSize, long targetFile, long levelBase, boolean cacheIndexAndFilter,
      ColumnFamilyOptions base) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(blockSize)
        .setCacheIndexAndFilterBlocks(cacheIndexAndFilter)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinL0FilterAndIndexBlocksInCache(true);
    if (filter != null) {
      table.setFilterPolicy(filter);
    }
    return base
        .setCfPaths(List.of(new DbPath(dir, pathTarget)))
        .setWriteBufferSize(o.writeBufferBytes())
        .setMaxWriteBufferNumber(HotRapOptions.WRITE_BUFFERS_PER_TIER)
        .setTargetFileSizeBase(targetFile)
        .setMaxBytesForLevelBase(levelBase)
        .setLevelCompactionDynamicLevelBytes(true)
        .setTableFormatConfig(table);
  }
}
