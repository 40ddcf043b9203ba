package io.hotrap.cache.flash;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The bypass filter of the flash tier: a cuckoo filter over the hashes of the keys on flash, with
 * 16-bit fingerprints in buckets of 4 (SAS-Cache §IV-C, after Fan et al., "Cuckoo Filter:
 * Practically Better Than Bloom", CoNEXT '14). A lookup it rejects skips the flash tier.
 *
 * <p><b>Contract.</b> {@link #mightContain} is {@code true} for every hash added and not removed
 * since (no false negatives, except transiently while an {@link #add} relocates fingerprints, see
 * below), and {@code true} for a hash never added with a probability of about
 * {@code 8 / 65536 ≈ 0.012%} per lookup at full load (two buckets of four 16-bit slots). A hash may
 * be added several times; each {@link #remove} takes one copy away, so callers must remove only
 * what they added. {@link #add} fails, leaving the filter unchanged, when no free slot can be
 * found within {@value #MAX_KICKS} relocations: the caller then must not rely on the key being
 * found (the flash tier does not index it).
 *
 * <p><b>Design.</b> A key's hash gives a fingerprint (its top 16 bits, 0 reserved for an empty
 * slot) and a first bucket (its low bits); the second bucket is the first XOR a hash of the
 * fingerprint, so either bucket and the fingerprint give the other, and fingerprints can be moved
 * without the key (partial-key cuckoo hashing). A bucket of four 16-bit slots is one {@code long},
 * so a lookup reads two words. Unlike a Bloom filter it deletes, which is why SAS-Cache chose it:
 * the keys on flash change with every insert and region eviction, and a Bloom filter would fill up
 * with keys long gone (the paper measured a Bloom filter lose throughput at 50% reads while the
 * cuckoo filter gained up to 14%, Fig. 18). An insert that runs out of relocations undoes them in
 * reverse, so a failed add loses no other fingerprint.
 *
 * <h2>Concurrency</h2>
 * {@link #add} and {@link #remove} are serialized by the filter's monitor; {@link #mightContain}
 * takes no lock and reads each bucket word atomically. A relocation writes the incoming
 * fingerprint over the one it evicts before that one lands in its other bucket, so a concurrent
 * lookup of the evicted key may see neither and report absent: a false negative lasting one
 * relocation, which costs the flash tier one miss and never a wrong value.
 */
final class CuckooFilter {
  /** Slots per bucket: four 16-bit fingerprints fill one {@code long}. */
  static final int SLOTS = 4;
  /** Relocations tried before an add gives up (the paper's reference code uses 500). */
  static final int MAX_KICKS = 500;
  /** Load the filter is sized for: cuckoo filters with buckets of 4 reach about 95%. */
  static final double TARGET_LOAD = 0.9;
  private static final int MIN_BUCKETS = 16;
  private static final int MAX_BUCKETS = 1 << 30;
  private static final long SLOT_MASK = 0xFFFFL;

  private final AtomicLongArray buckets;
  private final int mask;
  private final int[] undoBucket = new int[MAX_KICKS];
  private final int[] undoSlot = new int[MAX_KICKS];
  private final int[] undoPrevious = new int[MAX_KICKS];
  private long size;
  private long random = 0x2545F4914F6CDD1DL;

  /** A filter with room for at least {@code capacity} keys at {@link #TARGET_LOAD}. */
  CuckooFilter(long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, was " + capacity);
    }
    long wanted = (long) Math.ceil(capacity / TARGET_LOAD / SLOTS);
    long n = Math.max(MIN_BUCKETS, Long.highestOneBit(Math.max(1, wanted - 1)) << 1);
    if (n > MAX_BUCKETS) {
      throw new IllegalArgumentException("capacity " + capacity + " needs more than "
          + MAX_BUCKETS + " buckets");
    }
    this.buckets = new AtomicLongArray((int) n);
    this.mask = (int) n - 1;
  }

  /** Whether a key of this hash may have been added (see the class javadoc for the error rates). */
  boolean mightContain(long hash) {
    int fp = fingerprint(hash);
    int i1 = firstBucket(hash);
    return holds(buckets.get(i1), fp) || holds(buckets.get(otherBucket(i1, fp)), fp);
  }

  /**
   * Adds one copy of {@code hash}'s fingerprint.
   *
   * @return {@code false}, with the filter unchanged, when it is too full to place it
   */
  synchronized boolean add(long hash) {
    int fp = fingerprint(hash);
    int i1 = firstBucket(hash);
    int i2 = otherBucket(i1, fp);
    if (place(i1, fp) || place(i2, fp)) {
      size++;
      return true;
    }
    int bucket = (nextRandom() & 1) == 0 ? i1 : i2;
    int carried = fp;
    for (int kick = 0; kick < MAX_KICKS; kick++) {
      int slot = nextRandom() & (SLOTS - 1);
      long word = buckets.get(bucket);
      int evicted = slotOf(word, slot);
      buckets.set(bucket, withSlot(word, slot, carried));
      undoBucket[kick] = bucket;
      undoSlot[kick] = slot;
      undoPrevious[kick] = evicted;
      carried = evicted;
      bucket = otherBucket(bucket, carried);
      if (place(bucket, carried)) {
        size++;
        return true;
      }
    }
    // Put every relocated fingerprint back, newest first: the filter is as before the add.
    for (int kick = MAX_KICKS - 1; kick >= 0; kick--) {
      int b = undoBucket[kick];
      buckets.set(b, withSlot(buckets.get(b), undoSlot[kick], undoPrevious[kick]));
    }
    return false;
  }

  /** Removes one copy of {@code hash}'s fingerprint; {@code false} if none was found. */
  synchronized boolean remove(long hash) {
    int fp = fingerprint(hash);
    int i1 = firstBucket(hash);
    if (clear(i1, fp) || clear(otherBucket(i1, fp), fp)) {
      size--;
      return true;
    }
    return false;
  }

  /** Fingerprints held. */
  synchronized long size() {
    return size;
  }

  /** Slots in total: the filter holds at most this many fingerprints. */
  long slots() {
    return (long) buckets.length() * SLOTS;
  }

  /** Heap bytes of the bucket array. */
  long memoryBytes() {
    return (long) buckets.length() * Long.BYTES;
  }

  static int fingerprint(long hash) {
    int fp = (int) (hash >>> 48);
    return fp == 0 ? 1 : fp;
  }

  private int firstBucket(long hash) {
    return (int) hash & mask;
  }

  /** The other bucket of a fingerprint in {@code bucket}; applying it twice gives {@code bucket}. */
  private int otherBucket(int bucket, int fp) {
    return (bucket ^ (fp * 0x5BD1E995)) & mask;
  }

  private boolean place(int bucket, int fp) {
    long word = buckets.get(bucket);
    for (int s = 0; s < SLOTS; s++) {
      if (slotOf(word, s) == 0) {
        buckets.set(bucket, withSlot(word, s, fp));
        return true;
      }
    }
    return false;
  }

  private boolean clear(int bucket, int fp) {
    long word = buckets.get(bucket);
    for (int s = 0; s < SLOTS; s++) {
      if (slotOf(word, s) == fp) {
        buckets.set(bucket, withSlot(word, s, 0));
        return true;
      }
    }
    return false;
  }

  private static boolean holds(long word, int fp) {
    for (int s = 0; s < SLOTS; s++) {
      if (slotOf(word, s) == fp) {
        return true;
      }
    }
    return false;
  }

  private static int slotOf(long word, int slot) {
    return (int) ((word >>> (slot * 16)) & SLOT_MASK);
  }

  private static long withSlot(long word, int slot, int fp) {
    int shift = slot * 16;
    return (word & ~(SLOT_MASK << shift)) | ((long) fp << shift);
  }

  /** Xorshift; only picks victims, so quality hardly matters. Called under the monitor. */
  private int nextRandom() {
    long x = random;
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    random = x;
    return (int) (x >>> 32);
  }
}
