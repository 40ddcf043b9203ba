package io.hotrap.cache.flash;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The on-heap {@link FlashIndex}: a {@link ConcurrentHashMap} from key to location, which a clean
 * close writes to the {@link Checkpoint} and the next open reads back. Without a filter it is
 * unbounded (the regions bound it).
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Every method is one atomic operation on one key of the map, the filter changed
 * inside it; {@link #removeGroup} and {@link #forEach} walk the map weakly consistently.
 */
final class HeapIndex implements FlashIndex {
  private final ConcurrentHashMap<ItemKey, Location> map;
  private final CuckooFilter filter;

  /** @param filter the bypass filter to keep in step, or {@code null} for none */
  HeapIndex(CuckooFilter filter, int initialCapacity) {
    this.filter = filter;
    this.map = new ConcurrentHashMap<>(initialCapacity);
  }

  @Override
  public boolean mightContain(ItemKey key) {
    return filter == null || filter.mightContain(key.hash);
  }

  @Override
  public Location get(ItemKey key) {
    return map.get(key);
  }

  @Override
  public boolean containsKey(ItemKey key) {
    return map.containsKey(key);
  }

  @Override
  public boolean put(ItemKey key, Location loc) {
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

  @Override
  public boolean replace(ItemKey key, Location expected, Location moved) {
    return map.replace(key, expected, moved); // Location.equals: the same append
  }

  @Override
  public boolean remove(ItemKey key, Location expected) {
    boolean[] removed = {false};
    map.computeIfPresent(key, (k, old) -> {
      if (expected != null && !old.equals(expected)) {
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

  @Override
  public long removeGroup(long group) {
    long purged = 0;
    for (Map.Entry<ItemKey, Location> e : map.entrySet()) {
      Location loc = e.getValue();
      if (loc.group == group && remove(e.getKey(), loc)) {
        purged++;
      }
    }
    return purged;
  }

  @Override
  public long size() {
    return map.size();
  }

  /** Visits every entry, weakly consistent: entries present throughout the walk are visited. */
  void forEach(BiConsumer<ItemKey, Location> action) {
    for (Map.Entry<ItemKey, Location> e : map.entrySet()) {
      action.accept(e.getKey(), e.getValue());
    }
  }

  @Override
  public void close() {
    // nothing held outside the heap
  }
}
