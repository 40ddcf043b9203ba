package io.hotrap.jni;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The hash that identifies a version's value in a {@link DemotionSet}: XXH64 with seed 0, the same
 * function the native filter ({@code src/main/c/value_hash.c}) computes over the bytes RocksDB hands
 * it. The two must agree bit for bit; {@code ValueHashTest} checks them against each other and
 * against reference vectors of the published algorithm.
 *
 * <p>64 bits make an accidental match of a different value of the same key negligible (about
 * 2<sup>-64</sup> per pair); the demotion protocol does not rely on it anyway, since a writer
 * removes its key from the set before it writes.
 */
public final class ValueHash {
  private static final long PRIME1 = 0x9E3779B185EBCA87L;
  private static final long PRIME2 = 0xC2B2AE3D27D4EB4FL;
  private static final long PRIME3 = 0x165667B19E3779F9L;
  private static final long PRIME4 = 0x85EBCA77C2B2AE63L;
  private static final long PRIME5 = 0x27D4EB2F165667C5L;
  private static final int STRIPE = 32;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private ValueHash() {}

  /** The hash of a whole value. */
  public static long of(byte[] value) {
    return of(value, 0, value.length);
  }

  /**
   * The hash of {@code value[offset, offset + length)}.
   *
   * @throws IndexOutOfBoundsException if the range lies outside the array
   */
  public static long of(byte[] value, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, value.length);
    int p = offset;
    int end = offset + length;
    long h;
    if (length >= STRIPE) {
      long v1 = PRIME1 + PRIME2;
      long v2 = PRIME2;
      long v3 = 0;
      long v4 = -PRIME1;
      int limit = end - STRIPE;
      do {
        v1 = round(v1, (long) LONGS.get(value, p));
        v2 = round(v2, (long) LONGS.get(value, p + 8));
        v3 = round(v3, (long) LONGS.get(value, p + 16));
        v4 = round(v4, (long) LONGS.get(value, p + 24));
        p += STRIPE;
      } while (p <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12)
          + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = PRIME5;
    }
    h += length;
    while (p + 8 <= end) {
      h ^= round(0, (long) LONGS.get(value, p));
      h = Long.rotateLeft(h, 27) * PRIME1 + PRIME4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= (Integer.toUnsignedLong((int) INTS.get(value, p))) * PRIME1;
      h = Long.rotateLeft(h, 23) * PRIME2 + PRIME3;
      p += 4;
    }
    while (p < end) {
      h ^= (value[p] & 0xFFL) * PRIME5;
      h = Long.rotateLeft(h, 11) * PRIME1;
      p++;
    }
    h ^= h >>> 33;
    h *= PRIME2;
    h ^= h >>> 29;
    h *= PRIME3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * PRIME2;
    acc = Long.rotateLeft(acc, 31);
    return acc * PRIME1;
  }

  private static long mergeRound(long acc, long val) {
    acc ^= round(0, val);
    return acc * PRIME1 + PRIME4;
  }
}
