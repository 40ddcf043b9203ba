package io.hotrap.cache.flash;

import io.hotrap.cache.KeyHash;
import java.util.Arrays;

/**
 * A key of the flash cache: the caller's bytes with their 64-bit hash, compared by content. It is
 * the key of the DRAM tier, of the flash index and of the per-region key lists, so one object per
 * cached item is shared by all three.
 *
 * <p>The hash feeds the bypass filter (low bits pick a bucket, the top 16 bits are the fingerprint,
 * see {@link CuckooFilter}) and the key stripes of {@link FlashCache}; {@link #hashCode()} folds it
 * to 32 bits for the hash maps. It is the project's one key hash, {@link KeyHash}.
 *
 * <p>The bytes are not copied: the caller must not modify them after handing them over.
 */
final class ItemKey {

  final byte[] bytes;
  final long hash;

  ItemKey(byte[] bytes) {
    this.bytes = bytes;
    this.hash = hash(bytes);
  }

  /** The 64-bit hash of {@code b} ({@link KeyHash}); stable across runs and JVMs. */
  static long hash(byte[] b) {
    return KeyHash.hash64(b);
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
