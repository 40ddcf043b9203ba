package io.hotrap.cache.flash;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters of one {@link FlashCache}, bound to any number of registries. Each meter reads
 * the cache's counters when the registry asks ({@link FlashCache#stats()}), so a meter of a closed
 * cache keeps reporting its last counts.
 *
 * <ul>
 *   <li>{@code hotrap.flash.gets} (counter, tag {@code result=dram|flash|miss}): gets by outcome.
 *   <li>{@code hotrap.flash.lookups.bypassed} (counter): gets the bypass filter kept off flash.
 *   <li>{@code hotrap.flash.misses.corrupt} (counter): flash items that failed their checks.
 *   <li>{@code hotrap.flash.bytes} (counter, bytes, tag {@code kind=written|admitted|reinserted}):
 *       bytes written to the region file, and bytes of items admitted from DRAM or reinserted.
 *   <li>{@code hotrap.flash.items} (counter, tag {@code kind=admitted|reinserted|evicted|purged|dropped}).
 *   <li>{@code hotrap.flash.region.evictions} (counter).
 *   <li>{@code hotrap.flash.group.invalidations} (counter).
 *   <li>{@code hotrap.flash.io.errors} (counter).
 *   <li>{@code hotrap.flash.checkpoints.rejected} (counter): saved indexes refused at open.
 *   <li>{@code hotrap.flash.index.items} (gauge): items on flash now;
 *       {@code hotrap.flash.dram.bytes} (gauge, bytes): charged bytes in DRAM now.
 * </ul>
 */
public final class FlashCacheMetrics implements MeterBinder {
  private final FlashCache cache;
  private final Tags tags;

  /** Meters of {@code cache}; also available as {@link FlashCache#metrics()}. */
  public FlashCacheMetrics(FlashCache cache) {
    this(cache, Tags.empty());
  }

  /**
   * Meters of {@code cache} carrying {@code tags} besides their own (for example the owner's
   * {@code store} tag, so that several caches can share a registry).
   */
  public FlashCacheMetrics(FlashCache cache, Iterable<Tag> tags) {
    this.cache = Objects.requireNonNull(cache, "cache");
    this.tags = Tags.of(tags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    String gets = "Gets of the flash cache by the tier that served them";
    counter(registry, "hotrap.flash.gets", gets, null, "result", "dram", FlashCacheStats::dramHits);
    counter(registry, "hotrap.flash.gets", gets, null, "result", "flash",
        FlashCacheStats::flashHits);
    counter(registry, "hotrap.flash.gets", gets, null, "result", "miss", FlashCacheStats::misses);
    counter(registry, "hotrap.flash.lookups.bypassed",
        "Gets that the bypass filter sent past the flash tier", null, null, null,
        FlashCacheStats::bypassedLookups);
    counter(registry, "hotrap.flash.misses.corrupt",
        "Flash items that failed their checksum or checks", null, null, null,
        FlashCacheStats::corruptMisses);
    String bytes = "Bytes written to flash, and bytes of items written";
    counter(registry, "hotrap.flash.bytes", bytes, BaseUnits.BYTES, "kind", "written",
        FlashCacheStats::flashBytesWritten);
    counter(registry, "hotrap.flash.bytes", bytes, BaseUnits.BYTES, "kind", "admitted",
        FlashCacheStats::flashBytesAdmitted);
    counter(registry, "hotrap.flash.bytes", bytes, BaseUnits.BYTES, "kind", "reinserted",
        FlashCacheStats::reinsertedBytes);
    String items = "Items of the flash cache by what happened to them";
    counter(registry, "hotrap.flash.items", items, null, "kind", "admitted",
        FlashCacheStats::flashItemsAdmitted);
    counter(registry, "hotrap.flash.items", items, null, "kind", "reinserted",
        FlashCacheStats::reinsertions);
    counter(registry, "hotrap.flash.items", items, null, "kind", "evicted",
        FlashCacheStats::evictions);
    counter(registry, "hotrap.flash.items", items, null, "kind", "purged",
        FlashCacheStats::purgedItems);
    counter(registry, "hotrap.flash.items", items, null, "kind", "dropped",
        FlashCacheStats::droppedInserts);
    counter(registry, "hotrap.flash.region.evictions", "Flash regions evicted", null, null, null,
        FlashCacheStats::regionEvictions);
    counter(registry, "hotrap.flash.group.invalidations", "Groups invalidated", null, null, null,
        FlashCacheStats::groupInvalidations);
    counter(registry, "hotrap.flash.io.errors", "Failed reads and writes of the region file", null,
        null, null, FlashCacheStats::ioErrors);
    counter(registry, "hotrap.flash.checkpoints.rejected",
        "Saved indexes refused at open, so that the cache started cold", null, null, null,
        FlashCacheStats::rejectedCheckpoints);
    Gauge.builder("hotrap.flash.index.items", cache, c -> c.stats().flashItems())
        .description("Items on flash")
        .tags(tags)
        .register(registry);
    Gauge.builder("hotrap.flash.dram.bytes", cache, c -> c.stats().dramWeightBytes())
        .description("Charged bytes in the DRAM tier")
        .baseUnit(BaseUnits.BYTES)
        .tags(tags)
        .register(registry);
  }

  private void counter(MeterRegistry registry, String name, String description, String unit,
      String tagKey, String tagValue, ToDoubleFunction<FlashCacheStats> read) {
    FunctionCounter.Builder<FlashCache> b =
        FunctionCounter.builder(name, cache, c -> read.applyAsDouble(c.stats()))
            .description(description)
            .tags(tags);
    if (unit != null) {
      b.baseUnit(unit);
    }
    if (tagKey != null) {
      b.tag(tagKey, tagValue);
    }
    b.register(registry);
  }
}
