package io.hotrap.bench.harness;

import io.hotrap.core.HotRapOptions;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What every system of one comparison shares: the directories, the fast budget and the RocksDB
 * settings. The RocksDB settings are taken from the {@link HotRapOptions} HotRAP derives from the
 * budget (block cache, write buffer, file sizes, block sizes, Bloom filter, background jobs), so the
 * plain RocksDB systems run with exactly what HotRAP's tiers run with.
 *
 * @param fastDir directory on the fast disk (the system makes its own subdirectory)
 * @param slowDir directory on the slow disk
 * @param fastBudgetBytes bytes the fast tier may hold (HotRAP's budget, {@code rocksdb-tiered}'s
 *     fast {@code cf_paths} target)
 * @param directIo direct I/O for reads, flushes and compactions
 * @param blockCacheBytes block cache of every system, bytes; 0 for the size HotRAP derives from
 *     the budget (a 40th of it, at least 8 MiB)
 */
public record SystemConfig(Path fastDir, Path slowDir, long fastBudgetBytes, boolean directIo,
    long blockCacheBytes) {

  /** A configuration with the block cache HotRAP derives from the budget. */
  public SystemConfig(Path fastDir, Path slowDir, long fastBudgetBytes, boolean directIo) {
    this(fastDir, slowDir, fastBudgetBytes, directIo, 0);
  }

  public SystemConfig {
    Objects.requireNonNull(fastDir, "fastDir");
    Objects.requireNonNull(slowDir, "slowDir");
    if (fastBudgetBytes <= 0) {
      throw new IllegalArgumentException("fastBudgetBytes must be positive but was " + fastBudgetBytes);
    }
    if (blockCacheBytes < 0) {
      throw new IllegalArgumentException("blockCacheBytes must be >= 0 but was " + blockCacheBytes);
    }
  }

  /** HotRAP's options for this configuration, under {@code fast} and {@code slow}. */
  HotRapOptions.Builder hotrap(Path fast, Path slow) {
    HotRapOptions.Builder b = HotRapOptions.builder()
        .fastPath(fast)
        .slowPath(slow)
        .fastBudgetBytes(fastBudgetBytes)
        .directReads(directIo)
        .directIoForFlushAndCompaction(directIo);
    return blockCacheBytes > 0 ? b.blockCacheBytes(blockCacheBytes) : b;
  }

  /** The settings HotRAP derives from the budget; the plain RocksDB systems copy them. */
  HotRapOptions shared() {
    return hotrap(fastDir.resolve("shared-settings"), slowDir.resolve("shared-settings")).build();
  }
}
