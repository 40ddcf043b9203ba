package io.hotrap.cache.flash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A key of the flash cache: the caller's bytes with their 64-bit hash, compared by content. It is
 * the key of the DRAM tier, of the flash index and of the per-region key lists, so one object per
 * cached item is shared by all three.
 *
 * <p>The hash feeds the bypass filter (low bits pick a bucket, the top 16 bits are the fingerprint,
 * see {@link CuckooFilter}) and the key stripes of {@link FlashCache}; {@link #hashCode()} folds it
 * to 32 bits for the hash maps. It is computed 8 bytes at a time with a multiply-rotate mix and a
 * final avalanche, so that nearby keys (counters, big-endian integers) spread over all bits.
 *
 * <p>The bytes are not copied: the caller must not modify them after handing them over.
 */
final class ItemKey {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long SEED = 0x9E3779B97F4A7C15L;
  private static final long MUL1 = 0xC2B2AE3D27D4EB4FL;
  private static final long MUL2 = 0x165667B19E3779F9L;

  final byte[] bytes;
  final long hash;

  ItemKey(byte[] bytes) {
    this.bytes = bytes;
    this.hash = hash(bytes);
  }

  /** The 64-bit hash of {@code b}; stable across runs and JVMs (the checkpoint does not store it). */
  static long hash(byte[] b) {
    long h = SEED ^ (b.length * MUL2);
    int i = 0;
    for (; i + Long.BYTES <= b.length; i += Long.BYTES) {
      h = Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * MUL1), 31) * MUL2;
    }
    long tail = 0;
    for (int shift = 0; i < b.length; i++, shift += 8) {
      tail |= (b[i] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * MUL1), 27) * MUL2;
    // Avalanche (the finalizer of MurmurHash3): every input bit affects every output bit.
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ItemKey other && other.hash == hash && Arrays.equals(other.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return (int) (hash ^ (hash >>> 32));
  }

  @Override
  public String toString() {
    return "ItemKey[" + bytes.length + " bytes, hash=" + Long.toHexString(hash) + "]";
  }
}
