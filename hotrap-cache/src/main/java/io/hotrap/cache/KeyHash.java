package io.hotrap.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one 64-bit hash of a key used by the caches and by the store's write stripes: the admission
 * filter's probes, the promotion tables' slots, the flash cache's index and bypass filter, and
 * {@code hotrap-core}'s stripe of a key. It reads 8 bytes at a time with a multiply-rotate mix and
 * ends with MurmurHash3's 64-bit finalizer, so nearby keys (counters, big-endian integers) spread
 * over every bit. Not cryptographic. Its values are stable across runs and JVMs: the flash cache's
 * checkpoint relies on that (it does not store them). RALT, a leaf module that depends on nothing,
 * keeps a hash of its own for its Bloom filters.
 */
public final class KeyHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long SEED = 0x9E3779B97F4A7C15L;
  private static final long MUL1 = 0xC2B2AE3D27D4EB4FL;
  private static final long MUL2 = 0x165667B19E3779F9L;

  private KeyHash() {}

  /** The 64-bit hash of {@code key}. */
  public static long hash64(byte[] key) {
    long h = SEED ^ (key.length * MUL2);
    int i = 0;
    for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
      h = Long.rotateLeft(h ^ ((long) LONGS.get(key, i) * MUL1), 31) * MUL2;
    }
    long tail = 0;
    for (int shift = 0; i < key.length; i++, shift += 8) {
      tail |= (key[i] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * MUL1), 27) * MUL2;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }

  /** The hash folded to 32 bits, every bit of it mixed. */
  public static int hash32(byte[] key) {
    long h = hash64(key);
    return (int) (h ^ (h >>> 32));
  }
}
