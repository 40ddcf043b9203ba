package io.hotrap.cache.flash;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/** Keys, values and small caches for the tests of this package. */
final class Items {
  private Items() {}

  static byte[] key(int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A value that names its key and version, so a test can tell a foreign or an old value from the
   * right one: key id (4), version (8), then {@code length - 12} bytes derived from both.
   */
  static byte[] value(int key, long version, int length) {
    ByteBuffer b = ByteBuffer.allocate(Math.max(12, length));
    b.putInt(key).putLong(version);
    Random r = new Random(key * 31L + version);
    while (b.hasRemaining()) {
      b.put((byte) r.nextInt());
    }
    return b.array();
  }

  static int keyOf(byte[] value) {
    return ByteBuffer.wrap(value).getInt(0);
  }

  static long versionOf(byte[] value) {
    return ByteBuffer.wrap(value).getLong(4);
  }

  /** Whether {@code value} is exactly what {@link #value} makes for its own key and version. */
  static boolean wellFormed(byte[] value) {
    if (value.length < 12) {
      return false;
    }
    return java.util.Arrays.equals(value, value(keyOf(value), versionOf(value), value.length));
  }

  /** A builder for a cache with 64 KiB regions: fast to fill and evict. */
  static FlashCacheBuilder small(Path dir, int regions, long dramBytes) {
    return FlashCache.builder()
        .directory(dir)
        .regionBytes(64 << 10)
        .flashBytes((long) regions * (64 << 10))
        .dramBytes(dramBytes);
  }
}
