package io.hotrap.ralt;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit hash of a byte range, used by the Bloom filters of hot keys and by the access buffer's
 * aggregation table. Words of 8 bytes are folded with a multiply–rotate step and the result is
 * finished with the murmur3 64-bit finalizer, which is enough for filter probes; it is not a
 * cryptographic hash. The value is persisted nowhere, so it may change between versions.
 */
final class KeyHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M1 = 0x9E3779B97F4A7C15L;
  private static final long M2 = 0xC2B2AE3D27D4EB4FL;

  private KeyHash() {}

  static long hash(byte[] key) {
    return hash(key, 0, key.length);
  }

  static long hash(byte[] buf, int off, int len) {
    long h = len * M1;
    int i = 0;
    for (; i + 8 <= len; i += 8) {
      long w = (long) LONGS.get(buf, off + i);
      h = Long.rotateLeft(h ^ (w * M2), 31) * M1;
    }
    long tail = 0;
    for (int shift = 0; i < len; i++, shift += 8) {
      tail |= (buf[off + i] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * M2), 27) * M1;
    return fmix(h);
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
