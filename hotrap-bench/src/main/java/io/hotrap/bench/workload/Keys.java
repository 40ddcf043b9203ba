package io.hotrap.bench.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The benchmark key format: {@value #KEY_BYTES} bytes, {@code "user"} followed by the key id in 20
 * zero-padded decimal digits (YCSB's naming, fixed width), so unsigned byte order is id order.
 */
public final class Keys {

  /** Length of every key, as in the HotRAP paper's 1 KiB records (24-byte key, 1000-byte value). */
  public static final int KEY_BYTES = 24;

  private static final byte[] PREFIX = "user".getBytes(StandardCharsets.US_ASCII);

  private Keys() {}

  /** The key of {@code id}. */
  public static byte[] key(long id) {
    if (id < 0) {
      throw new IllegalArgumentException("id must be >= 0 but was " + id);
    }
    byte[] key = new byte[KEY_BYTES];
    System.arraycopy(PREFIX, 0, key, 0, PREFIX.length);
    long v = id;
    for (int i = KEY_BYTES - 1; i >= PREFIX.length; i--) {
      key[i] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    return key;
  }

  /** The id of a key made by {@link #key(long)}. */
  public static long id(byte[] key) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException("not a benchmark key: " + key.length + " bytes");
    }
    long v = 0;
    for (int i = PREFIX.length; i < KEY_BYTES; i++) {
      v = v * 10 + (key[i] - '0');
    }
    return v;
  }

  /** The keys of ids {@code 0 .. count - 1}, so that a measured loop allocates nothing. */
  public static byte[][] keys(int count) {
    byte[][] keys = new byte[count][];
    for (int i = 0; i < count; i++) {
      keys[i] = key(i);
    }
    return keys;
  }

  /** A key of all 0x00 bytes, below every benchmark key. */
  public static byte[] lowest() {
    return new byte[KEY_BYTES];
  }

  /** A key of all 0xFF bytes, above every benchmark key. */
  public static byte[] highest() {
    byte[] k = new byte[KEY_BYTES];
    Arrays.fill(k, (byte) 0xFF);
    return k;
  }
}
