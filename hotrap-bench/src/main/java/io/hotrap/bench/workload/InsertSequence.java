package io.hotrap.bench.workload;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids that the inserts of a {@code latest} workload write, shared by all of its runners so
 * that "most recent" means the same thing to every thread: ids are handed out in increasing order
 * from {@code first}, and {@link #written()} is the end of the longest prefix whose writes have all
 * been acknowledged. Readers choose among ids below it, so they never ask for a key whose insert is
 * still in flight, even when threads finish their inserts out of order.
 *
 * <p>Thread-safe. Claiming is one atomic increment. Acknowledging takes this object's monitor: an
 * acknowledgement that is not the next one expected is parked in a ring indexed by
 * {@code id mod length} until the gap below it closes. The ring grows when two parked ids collide,
 * which needs more than its length of ids in flight behind a stalled writer.
 */
final class InsertSequence {

  private static final long EMPTY = -1;

  private final AtomicLong next;
  private volatile long written;
  /** Acknowledged ids at or above {@link #written}, each at slot {@code id & (length - 1)}. */
  private long[] parked = emptyRing(64);

  InsertSequence(long first) {
    if (first < 0) {
      throw new IllegalArgumentException("first id must be >= 0 but was " + first);
    }
    this.next = new AtomicLong(first);
    this.written = first;
  }

  /** A fresh id, larger than every id claimed before. */
  long claim() {
    return next.getAndIncrement();
  }

  /** Every id below this one has been claimed and acknowledged. */
  long written() {
    return written;
  }

  /** Records that the insert of {@code id}, from {@link #claim()}, has been executed. */
  synchronized void acknowledge(long id) {
    long w = written;
    if (id < w || id >= next.get()) {
      throw new IllegalArgumentException("id " + id + " is not in flight (written below " + w
          + ", claimed below " + next.get() + ")");
    }
    if (id != w) {
      park(id);
      return;
    }
    w++;
    int mask = parked.length - 1;
    while (parked[(int) (w & mask)] == w) {
      parked[(int) (w & mask)] = EMPTY;
      w++;
    }
    written = w;
  }

  private void park(long id) {
    while (true) {
      int slot = (int) (id & (parked.length - 1));
      if (parked[slot] == EMPTY) {
        parked[slot] = id;
        return;
      }
      grow();
    }
  }

  /** Doubles the ring until every parked id has a slot of its own. */
  private void grow() {
    for (int length = parked.length * 2; ; length *= 2) {
      long[] bigger = emptyRing(length);
      boolean collided = false;
      for (long id : parked) {
        if (id != EMPTY) {
          int slot = (int) (id & (length - 1));
          collided |= bigger[slot] != EMPTY;
          bigger[slot] = id;
        }
      }
      if (!collided) {
        parked = bigger;
        return;
      }
    }
  }

  private static long[] emptyRing(int length) {
    long[] ring = new long[length];
    Arrays.fill(ring, EMPTY);
    return ring;
  }
}
