package io.hotrap.kafka;

import java.util.Arrays;

/**
 * Translation of Kafka's key ranges, inclusive at both ends, into HotRapDB's, whose upper bound is
 * exclusive. Keys compare as unsigned bytes, lexicographically, in both.
 */
final class KeyRanges {
  private KeyRanges() {}

  /**
   * The smallest key above {@code key}: {@code key} followed by a zero byte, so that
   * {@code [from, successor(to))} holds exactly the keys of Kafka's {@code [from, to]}.
   */
  static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /**
   * The smallest key above every key starting with {@code prefix}, or null when there is none
   * (the prefix is empty or all {@code 0xFF}): the prefix with trailing {@code 0xFF} bytes dropped and
   * its last byte incremented.
   */
  static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }
}
