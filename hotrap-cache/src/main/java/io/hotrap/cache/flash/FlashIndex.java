package io.hotrap.cache.flash;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The flash tier's index, key → {@link Location}, kept in step with the bypass filter: the filter
 * holds one fingerprint for every key in the index. A key gains its fingerprint when the index
 * gains the key and loses it when the index loses the key; moving a key to a new location changes
 * nothing in the filter. Both changes happen inside the map's atomic per-key operation, so the two
 * never disagree about a key for longer than that operation (a concurrent lookup may still see
 * the filter a moment ahead or behind, which costs a miss, not a wrong value).
 *
 * <p>When the filter is full, a key that is not yet indexed is not indexed: {@link #put} fails
 * and the caller drops the item. Without a filter the index is unbounded (the regions bound it).
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Every method is one atomic operation on one key of a {@link ConcurrentHashMap}.
 * The conditional forms ({@link #replace}, {@link #remove(ItemKey, Location)}) compare locations
 * by identity, which is what makes a reinsertion or a purge safe against a concurrent put: they
 * act only on the location they read.
 */
final class FlashIndex {
  private final ConcurrentHashMap<ItemKey, Location> map;
  private final CuckooFilter filter;

  /** @param filter the bypass filter to keep in step, or {@code null} for none */
  FlashIndex(CuckooFilter filter, int initialCapacity) {
    this.filter = filter;
    this.map = new ConcurrentHashMap<>(initialCapacity);
  }

  /** Whether the key may be on flash; without a filter always {@code true}. */
  boolean mightContain(ItemKey key) {
    return filter == null || filter.mightContain(key.hash);
  }

  Location get(ItemKey key) {
    return map.get(key);
  }

  boolean containsKey(ItemKey key) {
    return map.containsKey(key);
  }

  /**
   * Maps {@code key} to {@code loc}, replacing any location.
   *
   * @return {@code false} if the key was not indexed and the filter has no room for it
   */
  boolean put(ItemKey key, Location loc) {
    boolean[] added = {true};
    map.compute(key, (k, old) -> {
      if (old == null && filter != null && !filter.add(k.hash)) {
        added[0] = false;
        return null;
      }
      return loc;
    });
    return added[0];
  }

  /** Moves {@code key} from {@code expected} to {@code moved} if it still maps to {@code expected}. */
  boolean replace(ItemKey key, Location expected, Location moved) {
    return map.replace(key, expected, moved);
  }

  /** Removes {@code key}; returns its location, or {@code null} if it was not indexed. */
  Location remove(ItemKey key) {
    Location[] removed = {null};
    map.computeIfPresent(key, (k, old) -> {
      removed[0] = old;
      if (filter != null) {
        filter.remove(k.hash);
      }
      return null;
    });
    return removed[0];
  }

  /** Removes {@code key} if it still maps to {@code expected} (identity). */
  boolean remove(ItemKey key, Location expected) {
    boolean[] removed = {false};
    map.computeIfPresent(key, (k, old) -> {
      if (old != expected) {
        return old;
      }
      removed[0] = true;
      if (filter != null) {
        filter.remove(k.hash);
      }
      return null;
    });
    return removed[0];
  }

  int size() {
    return map.size();
  }

  /** Visits every entry, weakly consistent: entries present throughout the walk are visited. */
  void forEach(BiConsumer<ItemKey, Location> action) {
    for (Map.Entry<ItemKey, Location> e : map.entrySet()) {
      action.accept(e.getKey(), e.getValue());
    }
  }
}
