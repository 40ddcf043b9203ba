package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;

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

  /** Puts {@code items} keys with values of 100 to 2,000 bytes in 50 groups; returns the values. */
  static List<byte[]> fill(FlashCache cache, int items, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      byte[] v = value(i, 1, 100 + r.nextInt(1900));
      cache.put(key(i), v, i % 50);
      values.add(v);
    }
    return values;
  }

  /** Gets every key of {@code values}; fails on a wrong value; returns the hits. */
  static int hits(FlashCache cache, List<byte[]> values) {
    int hits = 0;
    for (int i = 0; i < values.size(); i++) {
      byte[] got = cache.get(key(i));
      if (got != null) {
        assertArrayEquals(values.get(i), got, "key " + i);
        hits++;
      }
    }
    return hits;
  }

  /** Copies the files of a cache's directory (no subdirectories) into {@code to}. */
  static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** Deletes a cache's directory and its files. */
  static void deleteTree(Path d) throws IOException {
    try (Stream<Path> files = Files.list(d)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.delete(f);
      }
    }
    Files.delete(d);
  }
}
