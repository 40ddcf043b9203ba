package io.hotrap.cache.flash;

/**
 * Which stored region the flash tier evicts when it needs a clean one. Eviction is by whole
 * regions, as in CacheLib's Navy block cache: the items of the victim that were read since they
 * were written are reinserted (see {@link FlashCacheBuilder#reinsertionHits}), the rest are
 * dropped.
 */
public enum RegionEvictionPolicy {
  /** The region written longest ago: flash writes stay strictly sequential in region order. */
  FIFO {
    @Override
    long rank(long generation, long lastAccess) {
      return generation;
    }
  },
  /**
   * The region whose last hit is oldest, a region that was never hit counting as hit when it was
   * written. Time is counted in region fills (the access epoch is the generation of the region
   * being filled), so a hit costs one volatile read and at most one write, and regions hit within
   * the same fill tie and fall back to FIFO order.
   */
  LRU {
    @Override
    long rank(long generation, long lastAccess) {
      return Math.max(generation, lastAccess);
    }
  };

  /** The region with the smallest rank is evicted first. */
  abstract long rank(long generation, long lastAccess);
}
