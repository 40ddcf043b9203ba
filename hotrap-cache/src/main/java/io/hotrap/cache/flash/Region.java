package io.hotrap.cache.flash;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * One region of the flash tier: a fixed slice of the region file that is filled in memory, written
 * once, read many times and finally evicted whole. Its life: {@code CLEAN → ACTIVE} (bound to a
 * {@link RegionBuffer} and a new generation; items are appended) {@code → SEALED} (full; waits to be
 * written, still read from the buffer) {@code → STORED} (on flash; read from the file)
 * {@code → RECLAIMING} (its live items are dropped or reinserted) {@code → CLEAN}.
 *
 * <p>The state, {@link #used}, {@link #keys} and the item count belong to {@link RegionStore}'s
 * lock while the region is active, and to the one thread that reclaims it afterwards.
 * {@link #generation}, {@link #buffer} and {@link #lastAccess} are read without locks by the read
 * path, which also counts hits.
 *
 * <p><b>Hits.</b> The region counts the reads of each item of its fill, by the item's slot
 * ({@link Location#slot}), for hits-based reinsertion. They live here rather than in the index
 * entry so that an index entry is an immutable value the off-heap index can store as bytes, and a
 * hit costs a byte written on the heap instead of an update of the map. Counts are updated without
 * synchronization: concurrent hits may count as one, a hit racing with the growth of the array or
 * with the region's reuse may be lost or land on the next fill's item; any of that only makes
 * reinsertion a little more or less eager, never a read wrong.
 */
final class Region {
  /** Generation of a region that holds no fill. Real generations start at 1. */
  static final long NO_GENERATION = 0;
  /** Largest hit count kept per item; the checkpoint stores it in one byte. */
  static final int MAX_HITS = 255;
  /** Slots the hit counts of a fill start with; they double as items are appended. */
  private static final int FIRST_SLOTS = 64;
  private static final byte[] NO_HITS = new byte[0];

  enum State { CLEAN, ACTIVE, SEALED, STORED, RECLAIMING }

  final int id;
  /** The fill the region holds, or {@link #NO_GENERATION}; changes before its bytes are reused. */
  volatile long generation = NO_GENERATION;
  /** The buffer holding the region's bytes while it is active or sealed, else {@code null}. */
  volatile RegionBuffer buffer;
  /** Access epoch of the last hit (see {@link RegionEvictionPolicy#LRU}). */
  volatile long lastAccess;
  State state = State.CLEAN;
  /** Bytes of items in the region; final once sealed. */
  int used;
  /**
   * The keys of the items appended in this fill, in order, with duplicates. Eviction walks them
   * and drops an index entry only if it still points into this fill.
   */
  final ArrayList<ItemKey> keys = new ArrayList<>();
  /** Hits per slot of this fill, capped at {@link #MAX_HITS}; at least {@link #items} long. */
  private volatile byte[] hits = NO_HITS;
  /** Items appended in this fill, so the next item's slot. */
  private int items;

  Region(int id) {
    this.id = id;
  }

  /** Gives the next item of the fill its slot, with no hits. Under the store's lock. */
  int nextSlot() {
    int slot = items++;
    byte[] h = hits;
    if (slot >= h.length) {
      hits = Arrays.copyOf(h, Math.max(FIRST_SLOTS, h.length * 2));
    }
    return slot;
  }

  /** Items appended in this fill. */
  int items() {
    return items;
  }

  /** Counts a read of the item at {@code loc}, if it still belongs to this fill. */
  void countHit(Location loc) {
    byte[] h = hits;
    if (generation != loc.generation || loc.slot >= h.length) {
      return;
    }
    int n = h[loc.slot] & 0xFF;
    if (n < MAX_HITS) {
      h[loc.slot] = (byte) (n + 1);
    }
  }

  /** Reads of the item in {@code slot} since it was written. */
  int hits(int slot) {
    byte[] h = hits;
    return slot < h.length ? h[slot] & 0xFF : 0;
  }

  /** A copy of the hit counts of the fill's {@link #items()} items, for the checkpoint. */
  byte[] hitCounts() {
    return Arrays.copyOf(hits, items);
  }

  /** Starts a fill, or empties the region: no items, no hits. */
  void clearItems() {
    keys.clear();
    items = 0;
    hits = NO_HITS;
  }

  /** Restores the items' hit counts of a fill saved by a checkpoint, one per slot. */
  void restoreItems(byte[] counts) {
    items = counts.length;
    hits = counts.clone();
  }

  /** Records a hit in access epoch {@code epoch}; the race between two hits is harmless. */
  void touch(long epoch) {
    if (lastAccess < epoch) {
      lastAccess = epoch;
    }
  }

  @Override
  public String toString() {
    return "Region[" + id + ", " + state + ", generation=" + generation + ", used=" + used + "]";
  }
}
