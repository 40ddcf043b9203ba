package io.hotrap.core;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys user writes touched while one background mover ran (HotRAP §3.4's <em>updated</em>
 * field, filled at write time here because the store owns the write path). A mover works on one
 * key range, so only keys inside it are kept: memory grows with the writes to that range while the
 * mover runs, not with every write to the store. Thread-safe: writers add, the mover reads at
 * commit time under the exclusive {@link CommitGate}.
 */
final class UpdatedKeys {
  private final Set<ByteArrayKey> keys = ConcurrentHashMap.newKeySet();
  /** Inclusive bounds of the mover's range; null for an open end. */
  private final byte[] low;
  private final byte[] high;

  /** Keys of every range. */
  UpdatedKeys() {
    this(null, null);
  }

  /** Keys in {@code [lowInclusive, highInclusive]}; a null bound is open. */
  UpdatedKeys(byte[] lowInclusive, byte[] highInclusive) {
    this.low = lowInclusive;
    this.high = highInclusive;
  }

  void add(byte[] key) {
    if ((low == null || Arrays.compareUnsigned(key, low) >= 0)
        && (high == null || Arrays.compareUnsigned(key, high) <= 0)) {
      keys.add(ByteArrayKey.copyOf(key));
    }
  }

  /**
   * Whether a write touched {@code key} since the mover registered.
   *
   * @throws IllegalArgumentException if {@code key} is outside the mover's range, where writes
   *     are not recorded
   */
  boolean contains(byte[] key) {
    if ((low != null && Arrays.compareUnsigned(key, low) < 0)
        || (high != null && Arrays.compareUnsigned(key, high) > 0)) {
      throw new IllegalArgumentException("key outside the mover's range");
    }
    return keys.contains(ByteArrayKey.wrap(key));
  }

  int size() {
    return keys.size();
  }
}
