package io.hotrap.bench.report;

import java.util.Arrays;

/**
 * Belady's MIN over an {@link AccessSequence}: the most counted hits any placement of at most
 * {@code capacity} records can score on that sequence, knowing the future.
 *
 * <p>The model is a fast set of at most {@code capacity} records that a record enters only when it
 * is accessed: a write always puts it there (it lands on the fast tier), a get may (a promotion)
 * or may not, and any record may leave at any time for free. A get of a record in the set is a
 * hit. Records cannot be placed ahead of their first access, or any placement would score 100%.
 *
 * <p>The rule (Belady, "A study of replacement algorithms for a virtual-storage computer", IBM
 * Systems Journal 5(2), 1966): keep the records whose next access matters soonest. When a record
 * must leave, the one whose next access is furthest in the future leaves. Two refinements make it
 * the optimum of this model rather than of demand paging:
 *
 * <ul>
 *   <li>A get that misses need not admit its record: the record competes with the set's furthest
 *       one and stays out when its own next access is further (demand-paged MIN would admit it
 *       and evict a record it needs sooner; on the textbook string 7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0
 *       1 7 0 1 in three frames that costs one more miss, 9 against 8).
 *   <li>Only a counted get (one in the sequence's final window) makes holding a record worth
 *       anything: when its next access is a write (which puts it back anyway), an uncounted get
 *       (whose miss is free and may re-admit it) or none, the record is worthless now and leaves
 *       first. Plain MIN would instead keep a record for a warm-up hit and give up one that
 *       counts.
 * </ul>
 *
 * <p>Next accesses are computed in one backward pass; the set is a max-heap on them with each
 * record's heap slot indexed, so an access is O(log capacity) and the replay O(n log n). Memory:
 * 4 bytes per operation, 12 per distinct record and 4 per unit of capacity. An exhaustive search
 * in the tests confirms the optimum on small sequences.
 */
public final class BeladyMin {

  /** The priority of a record whose holding is worth nothing: it leaves first. */
  private static final int WORTHLESS = Integer.MAX_VALUE;
  private static final int ABSENT = -1;

  private BeladyMin() {}

  /** The counted hits of MIN on {@code seq} with room for {@code capacity} records. */
  public static long hits(AccessSequence seq, long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0 but was " + capacity);
    }
    int n = seq.size();
    int room = (int) Math.min(capacity, seq.records());
    if (room == 0) {
      return 0;
    }
    int[] nextValue = nextCountedAccess(seq);
    int[] heap = new int[room];
    int[] slot = new int[seq.records()];
    int[] priority = new int[seq.records()];
    Arrays.fill(slot, ABSENT);
    int size = 0;
    long hits = 0;
    for (int i = 0; i < n; i++) {
      int r = seq.record(i);
      int p = nextValue[i];
      if (slot[r] != ABSENT) {
        if (seq.counts(i)) {
          hits++;
        }
        int old = priority[r];
        priority[r] = p;
        if (p > old) {
          siftUp(heap, slot, priority, slot[r]);
        } else {
          siftDown(heap, slot, priority, slot[r], size);
        }
      } else if (size < room) {
        priority[r] = p;
        heap[size] = r;
        slot[r] = size;
        siftUp(heap, slot, priority, size++);
      } else if (seq.isWrite(i) || p < priority[heap[0]]) {
        // A write must land; a get is admitted only if it is worth more than the furthest record.
        slot[heap[0]] = ABSENT;
        priority[r] = p;
        heap[0] = r;
        slot[r] = 0;
        siftDown(heap, slot, priority, 0, size);
      }
    }
    return hits;
  }

  /**
   * For each operation, the index of its record's next access if that is a counted get, else
   * {@link #WORTHLESS}.
   */
  private static int[] nextCountedAccess(AccessSequence seq) {
    int n = seq.size();
    int[] value = new int[n];
    int[] seen = new int[seq.records()];
    Arrays.fill(seen, ABSENT);
    for (int i = n - 1; i >= 0; i--) {
      int r = seq.record(i);
      int next = seen[r];
      value[i] = next != ABSENT && seq.counts(next) ? next : WORTHLESS;
      seen[r] = i;
    }
    return value;
  }

  private static void siftUp(int[] heap, int[] slot, int[] priority, int at) {
    int r = heap[at];
    while (at > 0) {
      int parent = (at - 1) >>> 1;
      if (priority[heap[parent]] >= priority[r]) {
        break;
      }
      heap[at] = heap[parent];
      slot[heap[at]] = at;
      at = parent;
    }
    heap[at] = r;
    slot[r] = at;
  }

  private static void siftDown(int[] heap, int[] slot, int[] priority, int at, int size) {
    int r = heap[at];
    while (true) {
      int child = 2 * at + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && priority[heap[child + 1]] > priority[heap[child]]) {
        child++;
      }
      if (priority[heap[child]] <= priority[r]) {
        break;
      }
      heap[at] = heap[child];
      slot[heap[at]] = at;
      at = child;
    }
    heap[at] = r;
    slot[r] = at;
  }
}
