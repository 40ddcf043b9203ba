package io.hotrap.ycsb;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed set of locks, one chosen per key by hash, so that writes of one key are serialized while
 * writes of different keys almost never wait for each other. Two keys may share a stripe; that only
 * costs a wait. Thread-safe.
 */
final class KeyLocks {
  private final ReentrantLock[] stripes;
  private final int mask;

  /** @param stripes a power of two */
  KeyLocks(int stripes) {
    if (stripes < 1 || Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes must be a positive power of two but was " + stripes);
    }
    this.stripes = new ReentrantLock[stripes];
    for (int i = 0; i < stripes; i++) {
      this.stripes[i] = new ReentrantLock();
    }
    this.mask = stripes - 1;
  }

  /** The lock guarding {@code key}; always the same lock for equal keys. */
  ReentrantLock lockFor(byte[] key) {
    int h = Arrays.hashCode(key);
    // Spread the high bits down: keys that differ only in their last bytes still pick apart stripes.
    h ^= h >>> 16;
    return stripes[h & mask];
  }
}
