package io.hotrap.core;

import io.hotrap.cache.KeyHash;
import java.util.Arrays;

/** A key as a hash-set element: content equality over a private copy of the bytes. */
final class ByteArrayKey {
  private final byte[] bytes;
  private final int hash;

  private ByteArrayKey(byte[] bytes) {
    this.bytes = bytes;
    this.hash = KeyHash.hash32(bytes);
  }

  /** Wraps a copy of {@code key}, so later changes to the caller's array do not matter. */
  static ByteArrayKey copyOf(byte[] key) {
    return new ByteArrayKey(key.clone());
  }

  /** Wraps {@code key} itself; the caller must not change it afterwards. */
  static ByteArrayKey wrap(byte[] key) {
    return new ByteArrayKey(key);
  }

  /** The wrapped bytes; callers must not change them. */
  byte[] bytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteArrayKey && ((ByteArrayKey) o).hash == hash
        && Arrays.equals(((ByteArrayKey) o).bytes, bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
