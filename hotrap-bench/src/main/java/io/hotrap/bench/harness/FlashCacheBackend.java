package io.hotrap.bench.harness;

import io.hotrap.cache.flash.FlashCache;
import io.hotrap.jni.SecondaryCacheBackend;
import io.hotrap.jni.SstFileGroups;

/**
 * A {@link FlashCache} as the store of RocksDB's block-level secondary cache: blocks keyed by
 * their cache keys, grouped by their SST file ({@link SstFileGroups}), so that the cache's bypass
 * filter, insertion control and group invalidation act on blocks as in SAS-Cache. A block whose
 * group is unknown goes in without one ({@link FlashCache#NO_GROUP}). Thread-safe, as FlashCache
 * is.
 */
final class FlashCacheBackend implements SecondaryCacheBackend {
  private final FlashCache cache;

  FlashCacheBackend(FlashCache cache) {
    this.cache = cache;
  }

  /** The flash cache's group for an SST file's group. */
  static long group(long sstGroup) {
    return sstGroup == SstFileGroups.NONE ? FlashCache.NO_GROUP : sstGroup;
  }

  @Override
  public byte[] lookup(byte[] key) {
    return cache.get(key);
  }

  @Override
  public void insert(byte[] key, byte[] value, long group) {
    cache.put(key, value, group(group));
  }

  @Override
  public void erase(byte[] key) {
    cache.invalidate(key);
  }
}
