package io.hotrap.cache.flash;

import java.util.ArrayList;

/**
 * One region of the flash tier: a fixed slice of the region file that is filled in memory, written
 * once, read many times and finally evicted whole. Its life: {@code CLEAN → ACTIVE} (bound to a
 * {@link RegionBuffer} and a new generation; items are appended) {@code → SEALED} (full; waits to be
 * written, still read from the buffer) {@code → STORED} (on flash; read from the file)
 * {@code → RECLAIMING} (its live items are dropped or reinserted) {@code → CLEAN}.
 *
 * <p>The state, {@link #used} and {@link #keys} belong to {@link RegionStore}'s lock while the
 * region is active, and to the one thread that reclaims it afterwards. {@link #generation},
 * {@link #buffer} and {@link #lastAccess} are read without locks by the read path.
 */
final class Region {
  /** Generation of a region that holds no fill. Real generations start at 1. */
  static final long NO_GENERATION = 0;

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

  Region(int id) {
    this.id = id;
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
