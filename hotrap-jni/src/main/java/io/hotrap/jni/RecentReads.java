package io.hotrap.jni;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys of the last {@code capacity} reads, the hint {@link CompactionPrefetcher} prefetches
 * by: a key read within the cache's reach of reads is one a cache of that many blocks would still
 * hold, were its block not rewritten by a flush or a compaction (SAS-Cache's "key range" hint, §IV-E).
 *
 * <p>A ring: each read overwrites the oldest slot. Keys are copied when recorded, since a caller
 * may reuse its buffer. Thread-safe: slots are written with release semantics and read with
 * acquire semantics; a snapshot taken while reads go on may miss a key recorded meanwhile, which
 * costs one prefetch, not a wrong value.
 */
public final class RecentReads {
  private final AtomicReferenceArray<byte[]> ring;
  private final int mask;
  private final AtomicLong next = new AtomicLong();

  /** @param capacity how many reads to remember, rounded up to a power of two, 1 to 2^24 */
  public RecentReads(int capacity) {
    if (capacity < 1 || capacity > 1 << 24) {
      throw new IllegalArgumentException("capacity must be 1 to 2^24, was " + capacity);
    }
    int size = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
    this.ring = new AtomicReferenceArray<>(size);
    this.mask = size - 1;
  }

  /** Slots in the ring: the capacity asked for, rounded up to a power of two. */
  public int capacity() {
    return mask + 1;
  }

  /** Remembers a read of {@code key}. */
  public void record(byte[] key) {
    int slot = (int) (next.getAndIncrement() & mask);
    ring.lazySet(slot, key.clone());
  }

  /** The distinct keys remembered, in unsigned bytewise order (RocksDB's default comparator). */
  public byte[][] sortedDistinct() {
    return sortedDistinct(capacity());
  }

  /**
   * The distinct keys of the last {@code reads} reads remembered (all, if fewer), in unsigned
   * bytewise order (RocksDB's default comparator).
   */
  public byte[][] sortedDistinct(int reads) {
    long end = next.get();
    long start = Math.max(0, end - Math.min(reads, capacity()));
    List<byte[]> keys = new ArrayList<>((int) (end - start));
    for (long i = start; i < end; i++) {
      byte[] key = ring.get((int) (i & mask));
      if (key != null) {
        keys.add(key);
      }
    }
    keys.sort(Arrays::compareUnsigned);
    List<byte[]> distinct = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), key)) {
        distinct.add(key);
      }
    }
    return distinct.toArray(new byte[0][]);
  }

  /**
   * The keys of {@code sorted} (unsigned bytewise order) within {@code [smallest, largest]}, both
   * inclusive, in order.
   */
  public static List<byte[]> within(byte[][] sorted, byte[] smallest, byte[] largest) {
    int from = lowerBound(sorted, smallest);
    List<byte[]> keys = new ArrayList<>();
    for (int i = from; i < sorted.length && Arrays.compareUnsigned(sorted[i], largest) <= 0; i++) {
      keys.add(sorted[i]);
    }
    return keys;
  }

  /** The first index whose key is not below {@code key}. */
  private static int lowerBound(byte[][] sorted, byte[] key) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(sorted[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
