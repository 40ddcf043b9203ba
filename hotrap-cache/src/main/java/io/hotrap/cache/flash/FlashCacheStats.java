package io.hotrap.cache.flash;

/**
 * A snapshot of a {@link FlashCache}'s counters since it was opened. Counters are read one by
 * one while the cache runs, so a snapshot taken under load is not an atomic cut.
 *
 * @param dramHits gets served by the DRAM tier
 * @param flashHits gets served by the flash tier
 * @param misses gets that found nothing (including bypassed lookups and corrupt items)
 * @param bypassedLookups gets that the bypass filter sent past the flash tier (part of misses)
 * @param corruptMisses flash items that failed their checksum or checks when read (part of misses
 *     when read by a get)
 * @param flashBytesWritten bytes written to the region file (whole pages of each region)
 * @param flashItemsAdmitted items DRAM evicted that were written to flash
 * @param flashBytesAdmitted bytes of those items as stored: header, key and value
 * @param reinsertions items of evicted regions written again because they had been read
 * @param reinsertedBytes bytes of those items as stored
 * @param regionEvictions regions evicted
 * @param evictions items dropped from flash with their region
 * @param droppedInserts puts and DRAM evictions not cached: invalid group, no room, full filter
 * @param groupInvalidations calls of {@link FlashCache#invalidateGroup}
 * @param purgedItems items removed by group invalidation
 * @param ioErrors failed reads and writes of the region file
 * @param restoredItems items restored at open from what a clean close saved
 * @param rejectedCheckpoints 1 if the open found a saved index and refused it (a damaged or
 *     mismatched checkpoint or map file, or a map file the index in use cannot read) and so
 *     started cold, else 0
 * @param flashItems items in the flash index now
 * @param dramWeightBytes charged bytes of the DRAM tier now
 */
public record FlashCacheStats(
    long dramHits,
    long flashHits,
    long misses,
    long bypassedLookups,
    long corruptMisses,
    long flashBytesWritten,
    long flashItemsAdmitted,
    long flashBytesAdmitted,
    long reinsertions,
    long reinsertedBytes,
    long regionEvictions,
    long evictions,
    long droppedInserts,
    long groupInvalidations,
    long purgedItems,
    long ioErrors,
    long restoredItems,
    long rejectedCheckpoints,
    long flashItems,
    long dramWeightBytes) {

  /** Gets served so far. */
  public long gets() {
    return dramHits + flashHits + misses;
  }

  /** Share of gets that hit either tier; 0 before the first get. */
  public double hitRatio() {
    long gets = gets();
    return gets == 0 ? 0 : (double) (dramHits + flashHits) / gets;
  }

  /**
   * Flash bytes written per byte of items admitted from DRAM ({@code flashBytesWritten /
   * flashBytesAdmitted}): counts reinsertions and the page-rounded tails of regions as
   * amplification; NaN before anything was admitted.
   */
  public double writeAmplification() {
    return flashBytesAdmitted == 0 ? Double.NaN : (double) flashBytesWritten / flashBytesAdmitted;
  }

  /**
   * Flash bytes written per byte of items written, admitted or reinserted: what packing and
   * region padding cost the device, apart from the cache's choice to reinsert; NaN before
   * anything was written.
   */
  public double deviceWriteAmplification() {
    long items = flashBytesAdmitted + reinsertedBytes;
    return items == 0 ? Double.NaN : (double) flashBytesWritten / items;
  }
}
