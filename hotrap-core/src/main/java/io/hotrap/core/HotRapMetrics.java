package io.hotrap.core;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.hotrap.ralt.RaltStats;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters of one store, bound to any number of registries.
 *
 * <ul>
 *   <li>{@code hotrap.gets} (counter, tag {@code tier=fast|slow}): gets by the tier that served them.
 *   <li>{@code hotrap.migration.bytes} (counter, bytes, tag {@code kind=demoted|retained}).
 *   <li>{@code hotrap.promotion.bytes} (counter, bytes, tag {@code kind=flush|compaction}),
 *       {@code hotrap.promotion.cache.hits}, {@code hotrap.promotion.inserts.aborted} (counters),
 *       {@code hotrap.promotion.skipped} (counter, tag {@code reason=updated|in.fast}).
 *   <li>{@code hotrap.migration.records} (counter, tag {@code kind=demoted|retained}).
 *   <li>{@code hotrap.migration.duration} (function timer): migration steps and their time.
 *   <li>{@code hotrap.tier.sst.bytes} (gauge, bytes, tag {@code tier=fast|slow|fast-hot}); {@code hotrap.tier.fast.budget.bytes}.
 *   <li>{@code hotrap.separation.writes}, {@code hotrap.separation.evictions} (counters): write-hot
 *       separation's routed writes and evictions ({@link WriteHotSeparator}).
 *   <li>{@code hotrap.tier.fast.pinned.bytes} (gauge, bytes, tag {@code by=iterators|snapshots}): who
 *       keeps fast-tier bytes that migration freed or would free; {@code hotrap.snapshots.open} (gauge).
 *   <li>{@code hotrap.write.stalls} (function timer): user writes held back for room on the fast tier.
 *   <li>{@code hotrap.migration.failures}, {@code hotrap.ralt.failures} (counters),
 *       {@code hotrap.ralt.available} (gauge, 1 or 0), {@code hotrap.ralt.hot.set.bytes},
 *       {@code hotrap.ralt.physical.bytes} (gauges, bytes).
 *   <li>{@code hotrap.tierlog.bytes} (gauge, bytes, tag {@code kind=total|live}),
 *       {@code hotrap.tierlog.trims}, {@code hotrap.tierlog.compressions} (counters),
 *       {@code hotrap.memory.tier.bytes} (gauge, bytes): the memory tier and its log, refreshed by
 *       every trim pass of the log (at least once a second); zero without a memory tier.
 * </ul>
 * Every meter reads the store's counters, which outlive it, so a meter of a closed store reports
 * its last values; {@link HotRapDB#close()} removes the meters it registered itself.
 */
public final class HotRapMetrics implements MeterBinder {
  private final StoreCounters counters;
  private final AccessTracker tracker;
  private final long budget;
  private final Tags tags;
  private final List<Meter> bound = new ArrayList<>();
  private final List<MeterRegistry> registries = new ArrayList<>();
  /** Meters of parts with binders of their own (the flash cache's {@code hotrap.flash.*}). */
  private final List<MeterBinder> parts = new ArrayList<>();

  HotRapMetrics(StoreCounters counters, AccessTracker tracker, long budget, String store) {
    this.counters = counters;
    this.tracker = tracker;
    this.budget = budget;
    this.tags = Tags.of(Tag.of("store", store));
  }

  /** The tags every meter of this store carries ({@code store=<id>}). */
  Tags tags() {
    return tags;
  }

  /** Binds {@code binder}'s meters wherever this binder's are bound from now on. */
  synchronized void addBinder(MeterBinder binder) {
    parts.add(binder);
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    registries.add(registry);
    for (MeterBinder part : parts) {
      // A part registers its meters itself; find them by this store's tag to unbind them later.
      Set<Meter> before = new HashSet<>(registry.getMeters());
      part.bindTo(registry);
      for (Meter m : registry.getMeters()) {
        if (!before.contains(m)) {
          bound.add(m);
        }
      }
    }
    counter(registry, "hotrap.gets.flash", "Gets the flash cache served (part of tier=slow)", null,
        null, null, c -> c.getsServedFlash.sum());
    counter(registry, "hotrap.flash.inserts.aborted",
        "Slow-tier reads not inserted into the flash cache because a write raced them", null, null,
        null, c -> c.flashInsertsAborted.sum());
    counter(registry, "hotrap.gets", "Gets by the tier that served them", null, "tier", "fast",
        c -> c.getsServedFast.sum());
    counter(registry, "hotrap.gets", "Gets by the tier that served them", null, "tier", "slow",
        c -> c.getsServedSlow.sum());
    counter(registry, "hotrap.gets.untracked",
        "Gets RALT and promotion did not see because reads were uniform", null, null, null,
        c -> c.untrackedReads.sum());
    String movedHelp = "Bytes moved or kept by tier migration";
    counter(registry, "hotrap.migration.bytes", movedHelp, BaseUnits.BYTES, "kind", "demoted",
        c -> c.bytesDemoted.sum());
    counter(registry, "hotrap.migration.bytes", movedHelp, BaseUnits.BYTES, "kind", "retained",
        c -> c.bytesRetained.sum());
    String promotedHelp = "Bytes written into the fast tier by promotion";
    counter(registry, "hotrap.promotion.bytes", promotedHelp, BaseUnits.BYTES, "kind", "flush",
        c -> c.bytesPromotedByFlush.sum());
    counter(registry, "hotrap.promotion.bytes", promotedHelp, BaseUnits.BYTES, "kind", "compaction",
        c -> c.bytesPromotedByCompaction.sum());
    counter(registry, "hotrap.promotion.cache.hits", "Gets served by the promotion cache", null, null, null,
        c -> c.promotionCacheHits.sum());
    counter(registry, "hotrap.promotion.inserts.aborted",
        "Slow-tier hits not cached because a write raced the read", null, null, null,
        c -> c.promotionInsertsAborted.sum());
    String skippedHelp = "Records not promoted, by reason";
    counter(registry, "hotrap.promotion.skipped", skippedHelp, null, "reason", "updated",
        c -> c.promotionsSkippedUpdated.sum());
    counter(registry, "hotrap.promotion.skipped", skippedHelp, null, "reason", "in.fast",
        c -> c.promotionsSkippedInFast.sum());
    counter(registry, "hotrap.promotion.skipped", skippedHelp, null, "reason", "put.back.unread",
        c -> c.promotionsDroppedUnread.sum());
    counter(registry, "hotrap.promotion.returned",
        "Records taken as hot because their key was read from the slow tier twice lately", null,
        null, null, c -> c.promotionCandidatesReturned.sum());
    counter(registry, "hotrap.promotion.not.admitted",
        "Slow-tier hits not cached because their key was not read from the slow tier lately", null,
        null, null, c -> c.promotionReadsNotAdmitted.sum());
    counter(registry, "hotrap.promotion.admitted.after.demotion",
        "Slow-tier hits cached on their first slow-tier read: read on the fast tier, then demoted",
        null, null, null, c -> c.promotionReadsAdmittedAfterDemotion.sum());
    counter(registry, "hotrap.promotion.shed",
        "Slow-tier hits not cached because promotion checks fell behind", null, null, null,
        c -> c.promotionInsertsShed.sum());
    counter(registry, "hotrap.migration.records", "Records moved or kept by tier migration", null,
        "kind", "demoted", c -> c.recordsDemoted.sum());
    counter(registry, "hotrap.migration.records", "Records moved or kept by tier migration", null,
        "kind", "retained", c -> c.recordsRetained.sum());
    String removedHelp = "Demoted records removed from the fast tier, by how";
    counter(registry, "hotrap.migration.removed", removedHelp, null, "by", "tombstone",
        c -> c.demotionTombstones.sum());
    counter(registry, "hotrap.migration.removed", removedHelp, null, "by", "filter",
        c -> c.recordsDemotedNatively.sum());
    counter(registry, "hotrap.migration.files.dropped",
        "Fast files that left whole, every record demoted", null, null, null,
        c -> c.demotionFilesDropped.sum());
    counter(registry, "hotrap.migration.slow.writes", "Demoted records written into the slow tier, by how",
        null, "by", "ingestion", c -> c.recordsDemotedByIngestion.sum());
    counter(registry, "hotrap.migration.failures", "Migration checks that failed", null, null, null,
        c -> c.migrationFailures.sum());
    bound.add(FunctionTimer.builder("hotrap.migration.duration", counters,
            c -> c.migrations.sum(), c -> c.migrationNanos.sum(), TimeUnit.NANOSECONDS)
        .description("Migration steps, one fast-tier file each").tags(tags).register(registry));
    bound.add(FunctionTimer.builder("hotrap.write.stalls", counters,
            c -> c.writeStalls.sum(), c -> c.writeStallNanos.sum(), TimeUnit.NANOSECONDS)
        .description("User writes held back for room on the fast tier").tags(tags).register(registry));
    gauge(registry, "hotrap.tier.sst.bytes", "Live SST bytes per tier", "tier", "fast",
        c -> c.fastSstBytes);
    gauge(registry, "hotrap.tier.sst.bytes", "Live SST bytes per tier", "tier", "slow",
        c -> c.slowSstBytes);
    gauge(registry, "hotrap.tier.fast.budget.bytes", "Budget of the fast tier", null, null, c -> budget);
    gauge(registry, "hotrap.tier.fast.pinned.bytes", "Fast-tier bytes kept by open views", "by", "iterators",
        c -> c.fastFilesPinnedBytes);
    gauge(registry, "hotrap.tier.fast.pinned.bytes", "Fast-tier bytes kept by open views", "by", "snapshots",
        c -> c.snapshotPinnedBytes);
    bound.add(Gauge.builder("hotrap.snapshots.open", counters, c -> c.openSnapshots)
        .description("User snapshots open").tags(tags).register(registry));
    bound.add(Gauge.builder("hotrap.reads.skewed", counters, c -> c.readsSkewed ? 1 : 0)
        .description("1 while the last window of gets was skewed (RALT and promotion see gets)")
        .tags(tags).register(registry));
    bound.add(Gauge.builder("hotrap.ralt.available", tracker, t -> t.available() ? 1 : 0)
        .description("1 while RALT tracks accesses, 0 after it failed").tags(tags).register(registry));
    bound.add(FunctionCounter.builder("hotrap.ralt.failures", tracker, t -> t.failures())
        .description("RALT calls that failed").tags(tags).register(registry));
    bound.add(Gauge.builder("hotrap.ralt.hot.set.bytes", tracker, t -> raltValue(t, RaltStats::hotSetBytes))
        .description("Bytes RALT marks hot").baseUnit(BaseUnits.BYTES).tags(tags).register(registry));
    bound.add(Gauge.builder("hotrap.ralt.physical.bytes", tracker,
            t -> raltValue(t, RaltStats::physicalBytes))
        .description("Bytes of RALT's files").baseUnit(BaseUnits.BYTES).tags(tags).register(registry));
    bindMemoryTier(registry);
    // Write-hot separation (zero without it); see WriteHotSeparator.
    gauge(registry, "hotrap.tier.sst.bytes", "Live SST bytes per tier", "tier", "fast-hot",
        c -> c.hotSstBytes);
    counter(registry, "hotrap.separation.writes", "User writes routed to the fast-hot column family",
        null, null, null, c -> c.hotWrites.sum());
    counter(registry, "hotrap.separation.evictions", "Keys moved from fast-hot back to fast", null,
        null, null, c -> c.hotEvictions.sum());
  }

  /** The memory tier's meters (zero without one); see {@link MemoryTier}. */
  private void bindMemoryTier(MeterRegistry registry) {
    gauge(registry, "hotrap.tierlog.bytes", "Bytes of the tier log on the fast disk", "kind", "total",
        c -> c.tierLogBytes);
    gauge(registry, "hotrap.tierlog.bytes", "Bytes of the tier log on the fast disk", "kind", "live",
        c -> c.tierLogLiveBytes);
    counter(registry, "hotrap.tierlog.trims", "Tier log segments rewritten by trim", null, null, null,
        c -> c.tierLogTrims);
    counter(registry, "hotrap.tierlog.compressions", "Tier log segments compressed", null, null,
        null, c -> c.tierLogCompressions);
    gauge(registry, "hotrap.memory.tier.bytes", "Bytes held by the memory tier", null, null,
        c -> c.memoryTierBytes);
  }

  private static double raltValue(AccessTracker t, ToLongFunction<RaltStats> f) {
    RaltStats s = t.stats();
    return s == null ? Double.NaN : f.applyAsLong(s);
  }

  private void counter(MeterRegistry registry, String name, String help, String unit, String tagKey,
      String tagValue, ToLongFunction<StoreCounters> f) {
    FunctionCounter.Builder<StoreCounters> b =
        FunctionCounter.builder(name, counters, c -> f.applyAsLong(c)).description(help).tags(tags);
    if (tagKey != null) {
      b.tag(tagKey, tagValue);
    }
    if (unit != null) {
      b.baseUnit(unit);
    }
    bound.add(b.register(registry));
  }

  private void gauge(MeterRegistry registry, String name, String help, String tagKey, String tagValue,
      ToLongFunction<StoreCounters> f) {
    Gauge.Builder<StoreCounters> b = Gauge.builder(name, counters, c -> f.applyAsLong(c))
        .description(help).baseUnit(BaseUnits.BYTES).tags(tags);
    if (tagKey != null) {
      b.tag(tagKey, tagValue);
    }
    bound.add(b.register(registry));
  }

  /** Removes the meters bound so far from their registries. */
  synchronized void unbindAll() {
    for (MeterRegistry r : registries) {
      for (Meter m : bound) {
        r.remove(m);
      }
    }
    bound.clear();
    registries.clear();
  }
}
