package io.hotrap.kafka;

import io.hotrap.core.HotRapOptions;
import io.hotrap.ralt.RaltOptions;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;

/**
 * The settings every task's store of one supplier shares, turned into {@link HotRapOptions} for a
 * task's own pair of directories.
 *
 * <p>{@link HotRapOptions} has no {@code toBuilder()}, so a template is copied setting by setting
 * through its public accessors; {@code OptionsTemplateTest} compares every accessor of a copy with
 * the template's, so a setting added to the options and not copied here fails the build.
 */
final class OptionsTemplate {
  /** Placeholder paths to validate settings before any task has directories. */
  private static final Path PROBE_FAST = Path.of("/hotrap-options-probe/fast");
  private static final Path PROBE_SLOW = Path.of("/hotrap-options-probe/slow");

  private final HotRapOptions template;
  private final long budget;

  private OptionsTemplate(HotRapOptions template, long budget) {
    this.template = template;
    this.budget = budget;
  }

  /**
   * Default settings for {@code fastBudgetBytes}.
   *
   * @throws IllegalArgumentException if the budget is too small for the default settings
   */
  static OptionsTemplate ofBudget(long fastBudgetBytes) {
    OptionsTemplate t = new OptionsTemplate(null, fastBudgetBytes);
    try {
      t.optionsFor(PROBE_FAST, PROBE_SLOW, null);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("fastBudgetBytes " + fastBudgetBytes
          + " is too small for HotRapDB's default settings: " + e.getMessage(), e);
    }
    return t;
  }

  /** The settings of {@code template} but its paths. */
  static OptionsTemplate of(HotRapOptions template) {
    return new OptionsTemplate(template, template.fastBudgetBytes());
  }

  long fastBudgetBytes() {
    return budget;
  }

  /**
   * Options for one store.
   *
   * @param registry the registry to bind the store's meters to, or null for the template's
   */
  HotRapOptions optionsFor(Path fastPath, Path slowPath, MeterRegistry registry) {
    HotRapOptions.Builder b = template == null
        ? HotRapOptions.builder().fastBudgetBytes(budget)
        : copy(template);
    b.fastPath(fastPath).slowPath(slowPath);
    if (registry != null) {
      b.meterRegistry(registry);
    }
    return b.build();
  }

  private static HotRapOptions.Builder copy(HotRapOptions t) {
    HotRapOptions.Builder b = HotRapOptions.builder()
        .fastBudgetBytes(t.fastBudgetBytes())
        .blockCacheBytes(t.blockCacheBytes())
        .fastBlockSize(t.fastBlockSize())
        .slowBlockSize(t.slowBlockSize())
        .bloomBitsPerKey(t.bloomBitsPerKey())
        .slowBloomBitsPerKey(t.slowBloomBitsPerKey())
        .fastCompression(t.fastCompression())
        .slowCompression(t.slowCompression())
        .directReads(t.directReads())
        .directIoForFlushAndCompaction(t.directIoForFlushAndCompaction())
        .backgroundJobs(t.backgroundJobs())
        .writeBufferBytes(t.writeBufferBytes())
        .fastTargetFileBytes(t.fastTargetFileBytes())
        .slowTargetFileBytes(t.slowTargetFileBytes())
        .highWatermark(t.highWatermark())
        .lowWatermark(t.lowWatermark())
        .migrationCheckInterval(t.migrationCheckInterval())
        .maxWriteStall(t.maxWriteStall())
        .migrationBatchBytes(t.migrationBatchBytes())
        .retainHotRecords(t.retainHotRecords())
        .promotion(t.promotion())
        .hotnessCheck(t.hotnessCheck())
        .promoteByCompaction(t.promoteByCompaction())
        .promotionCacheBytes(t.promotionCacheBytes())
        .maxPromotedRecordBytes(t.maxPromotedRecordBytes())
        .maxKeyBytes(t.maxKeyBytes())
        .maxValueBytes(t.maxValueBytes())
        .syncWrites(t.syncWrites())
        .lockStripes(t.lockStripes())
        .ralt(r -> copyRalt(t.raltOptions(), r));
    if (t.meterRegistry() != null) {
      b.meterRegistry(t.meterRegistry());
    }
    return b;
  }

  /** Copies RALT's settings but its directory, which the store's options set under its fast path. */
  private static void copyRalt(RaltOptions t, RaltOptions.Builder r) {
    r.fastDiskBytes(t.fastDiskBytes())
        .alpha(t.alpha())
        .tickPeriodBytes(t.tickPeriodBytes())
        .beta(t.beta())
        .hotSetBeta(t.hotSetBeta())
        .bloomBitsPerKey(t.bloomBitsPerKey())
        .blockBytes(t.blockBytes())
        .bufferBytes(t.bufferBytes())
        .segmentBytes(t.segmentBytes())
        .initialHotSetLimit(t.initialHotSetLimit())
        .initialPhysicalLimit(t.initialPhysicalLimit())
        .autoTuning(t.autoTuning())
        .deltaC(t.deltaC())
        .cMax(t.cMax())
        .minHotSetLimit(t.minHotSetLimit())
        .maxHotSetLimit(t.maxHotSetLimit())
        .maxUnstableHotBytes(t.maxUnstableHotBytes())
        .unstableShareOfStable(t.unstableShareOfStable())
        .maxDecayStretch(t.maxDecayStretch())
        .counterDecayPeriodBytes(t.counterDecayPeriodBytes())
        .scorer(t.scorer())
        .levelSizeRatio(t.levelSizeRatio())
        .level0RunLimit(t.level0RunLimit())
        .evictionSampleBlocks(t.evictionSampleBlocks());
  }
}
