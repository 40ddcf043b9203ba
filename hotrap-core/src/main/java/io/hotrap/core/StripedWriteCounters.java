package io.hotrap.core;

import io.hotrap.cache.KeyHash;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed array of locks and write counters indexed by a hash of the key (DESIGN.md §6).
 *
 * <p>A writer bumps the counter of a key's stripe under the stripe's lock after its RocksDB write.
 * A reader that wants to insert a {@code slow} hit into the promotion cache reads the counter before
 * its {@code fast} lookup and inserts, under the same lock, only if the counter did not move: any
 * write of the key in between either bumped the counter (the insert aborts) or comes after the
 * insert (and then invalidates it). Keys sharing a stripe only cause spurious aborts, never wrong
 * results. Thread-safe.
 */
final class StripedWriteCounters {
  private final Object[] locks;
  private final AtomicLongArray counters;
  private final int mask;

  StripedWriteCounters(int stripes) {
    if (Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes must be a power of two but was " + stripes);
    }
    locks = new Object[stripes];
    for (int i = 0; i < stripes; i++) {
      locks[i] = new Object();
    }
    // Counters of neighbouring stripes share cache lines; spacing them by 8 longs avoids that.
    counters = new AtomicLongArray(stripes * 8);
    mask = stripes - 1;
  }

  /** The stripe of {@code key}. */
  int stripeOf(byte[] key) {
    return KeyHash.hash32(key) & mask;
  }

  /** The lock of {@code stripe}; hold it to bump the counter or to insert conditionally. */
  Object lock(int stripe) {
    return locks[stripe];
  }

  /** The current write counter of {@code stripe}. */
  long counter(int stripe) {
    return counters.get(stripe * 8);
  }

  /** Bumps the counter of {@code stripe}; call while holding {@link #lock(int)}. */
  void increment(int stripe) {
    counters.incrementAndGet(stripe * 8);
  }
}
