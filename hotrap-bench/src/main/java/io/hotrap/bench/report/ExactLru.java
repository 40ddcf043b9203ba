package io.hotrap.bench.report;

import java.util.Arrays;

/**
 * An exact LRU over an {@link AccessSequence}: the counted hits of a fast set of at most
 * {@code capacity} records that admits every accessed record and, when full, evicts the one
 * accessed longest ago. Gets and writes both admit their record and make it the most recent; only
 * counted gets score.
 *
 * <p>The simplest online policy, as a floor for the hotness tracking to beat; {@link BeladyMin}
 * is the ceiling on the same sequence. The recency list is an array-linked list over the dense
 * record numbers, so an access is O(1) and the replay O(n), with 8 bytes per distinct record and
 * nothing per operation.
 */
public final class ExactLru {

  private static final int NONE = -1;

  private ExactLru() {}

  /** The counted hits of LRU on {@code seq} with room for {@code capacity} records. */
  public static long hits(AccessSequence seq, long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0 but was " + capacity);
    }
    int room = (int) Math.min(capacity, seq.records());
    if (room == 0) {
      return 0;
    }
    // older[r] / newer[r]: r's neighbours in recency order; a record outside the set has both
    // NONE and is neither the newest nor the oldest.
    int[] older = new int[seq.records()];
    int[] newer = new int[seq.records()];
    Arrays.fill(older, NONE);
    Arrays.fill(newer, NONE);
    int newest = NONE;
    int oldest = NONE;
    int size = 0;
    long hits = 0;
    for (int i = 0; i < seq.size(); i++) {
      int r = seq.record(i);
      boolean resident = r == newest || older[r] != NONE || newer[r] != NONE;
      if (resident) {
        if (seq.counts(i)) {
          hits++;
        }
        if (r == newest) {
          continue;
        }
        // Unlink r; it has a newer neighbour because it is not the newest.
        if (older[r] != NONE) {
          newer[older[r]] = newer[r];
        } else {
          oldest = newer[r];
        }
        older[newer[r]] = older[r];
      } else if (size == room) {
        int evicted = oldest;
        oldest = newer[evicted];
        if (oldest != NONE) {
          older[oldest] = NONE;
        } else {
          newest = NONE;
        }
        newer[evicted] = NONE;
      } else {
        size++;
      }
      // Link r as the newest.
      older[r] = newest;
      newer[r] = NONE;
      if (newest != NONE) {
        newer[newest] = r;
      } else {
        oldest = r;
      }
      newest = r;
    }
    return hits;
  }
}
