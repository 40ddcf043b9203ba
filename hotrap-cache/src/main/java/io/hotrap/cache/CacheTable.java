package io.hotrap.cache;

import io.hotrap.cache.PromotionCache.Entry;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One table of a {@link PromotionCache}: the records in unsigned key order, their charged bytes, and
 * a count of the mutating operations currently inside it.
 *
 * <p><b>Why the in-flight count.</b> A mutating operation reads the cache's mutable reference and
 * then changes the table it read. Without more, a freeze could swap the reference between the two
 * steps and the change would land in a table that is already immutable and being checked: its
 * contents and byte count would move under the checker, and an insert could vanish into a table that
 * nobody reads. So a mutating operation {@linkplain #enter enters} the table, re-reads the reference
 * and retries when a freeze intervened; a freeze swaps the reference and then
 * {@linkplain #awaitNoneInFlight waits} until the operations already inside the old table have left.
 * Operations that enter after the swap see the new reference and leave at once, so the wait ends.
 * Every operation inside a table is a non-blocking map operation, so the wait is short and cannot
 * deadlock.
 *
 * <p>The count is striped by thread (one padded slot per stripe) so that threads on different cores
 * do not contend on one cache line. A thread leaves through the slot it entered.
 *
 * <p><b>Presence bits.</b> Most gets that reach the promotion cache miss it (cold slow-tier reads),
 * and a skip-list miss walks a dozen nodes scattered over the heap. So each table also keeps one
 * bit per slot of a hash of the keys ever stored in it ({@link #markPresent}), set <em>before</em>
 * the map operation that stores the key and never cleared; {@link #mightHold} false means the map
 * does not hold the key. Both are volatile accesses, so a get that starts after an insert returned
 * sees its bit. Removed keys leave their bits set: a false positive costs only the map lookup the
 * bit would have saved, and the table is replaced at every freeze.
 *
 * <p>Byte and entry counts are {@link LongAdder}s updated right after each map operation with what
 * that operation returned, so they are exact whenever no operation is inside the table — in
 * particular for a frozen table once its freeze has returned.
 */
final class CacheTable {
  /** Ints per stripe: 64 bytes, one cache line, so that neighbouring stripes do not false-share. */
  private static final int STRIDE = 16;
  private static final int STRIPES = stripeCount();
  /** Spins before a waiting freeze starts yielding the processor to the operations it waits for. */
  private static final int SPINS_BEFORE_YIELD = 64;

  final ConcurrentSkipListMap<byte[], Entry> map =
      new ConcurrentSkipListMap<>(PromotionCache.KEY_ORDER);
  private final LongAdder bytes = new LongAdder();
  private final LongAdder entries = new LongAdder();
  private final AtomicIntegerArray inFlight = new AtomicIntegerArray(STRIPES * STRIDE);
  private final AtomicLongArray present;
  private final int presentMask;

  /** A table with {@code presenceBits} presence bits, a power of two, at least 64. */
  CacheTable(int presenceBits) {
    if (presenceBits < 64 || Integer.bitCount(presenceBits) != 1) {
      throw new IllegalArgumentException("presenceBits must be a power of two >= 64: " + presenceBits);
    }
    present = new AtomicLongArray(presenceBits >>> 6);
    presentMask = presenceBits - 1;
  }

  private static int stripeCount() {
    int n = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors() * 2 - 1)) << 1;
    return Math.min(64, n);
  }

  /** The stripe of the calling thread; pass it to both {@link #enter} and {@link #exit}. */
  static int stripeOfCurrentThread() {
    long h = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & (STRIPES - 1);
  }

  /** The hash that {@link #markPresent} and {@link #mightHold} take. */
  static int hash(byte[] key) {
    return KeyHash.hash32(key);
  }

  /** Sets the bit of a key hashed to {@code hash}; call before storing the key in {@link #map}. */
  void markPresent(int hash) {
    int slot = hash & presentMask;
    long bit = 1L << slot;
    int word = slot >>> 6;
    if ((present.get(word) & bit) == 0) {
      present.getAndAccumulate(word, bit, (a, b) -> a | b);
    }
  }

  /** False if no key hashed to {@code hash} was ever stored in this table. */
  boolean mightHold(int hash) {
    int slot = hash & presentMask;
    return (present.get(slot >>> 6) & (1L << slot)) != 0;
  }

  void enter(int stripe) {
    inFlight.getAndIncrement(stripe * STRIDE);
  }

  void exit(int stripe) {
    inFlight.getAndDecrement(stripe * STRIDE);
  }

  /**
   * Waits until every operation that entered before the caller swapped this table out has left.
   * Seeing a stripe at zero once is enough: whatever enters it later read the new reference.
   */
  void awaitNoneInFlight() {
    for (int s = 0; s < STRIPES; s++) {
      int spins = 0;
      while (inFlight.get(s * STRIDE) != 0) {
        if (++spins < SPINS_BEFORE_YIELD) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
      }
    }
  }

  void added(Entry e) {
    bytes.add(e.bytes());
    entries.increment();
  }

  void removed(Entry e) {
    bytes.add(-e.bytes());
    entries.decrement();
  }

  long bytes() {
    return bytes.sum();
  }

  int entries() {
    return (int) entries.sum();
  }
}
