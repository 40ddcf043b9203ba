package io.hotrap.ralt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Everything a {@link Ralt#hotKeys} iterator returned for one range, read to its end. */
final class HotKeySnapshot {
  final List<byte[]> keys;
  final long[] hotSizes;

  private HotKeySnapshot(List<byte[]> keys, long[] hotSizes) {
    this.keys = keys;
    this.hotSizes = hotSizes;
  }

  /** Reads the hot keys of {@code [low, high]} and closes the iterator. */
  static HotKeySnapshot of(Ralt ralt, byte[] low, byte[] high) {
    List<byte[]> keys = new ArrayList<>();
    long[] sizes = new long[16];
    try (HotKeyIterator it = ralt.hotKeys(low, high)) {
      for (; it.isValid(); it.next()) {
        if (keys.size() == sizes.length) {
          sizes = Arrays.copyOf(sizes, sizes.length * 2);
        }
        sizes[keys.size()] = it.hotSize();
        keys.add(it.key());
      }
    }
    return new HotKeySnapshot(keys, Arrays.copyOf(sizes, keys.size()));
  }

  /** The hot keys of the whole key space of {@link AccessStreams}. */
  static HotKeySnapshot all(Ralt ralt) {
    return of(ralt, AccessStreams.lowestKey(), AccessStreams.highestKey());
  }

  int size() {
    return keys.size();
  }

  long totalHotSize() {
    long sum = 0;
    for (long s : hotSizes) {
      sum += s;
    }
    return sum;
  }

  /**
   * The index of the first key that is not strictly above its predecessor in unsigned byte order
   * (a disorder or a duplicate), or -1 if there is none.
   */
  int firstOrderViolation() {
    for (int i = 1; i < keys.size(); i++) {
      if (Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  /** A readable description of the order violation at {@code i}, for assertion messages. */
  String describeViolation(int i) {
    return "key #" + i + " " + printable(keys.get(i)) + " does not follow "
        + printable(keys.get(i - 1)) + " strictly";
  }

  /** The key as text where its bytes are printable ASCII, hex escapes elsewhere. */
  static String printable(byte[] key) {
    StringBuilder sb = new StringBuilder(key.length);
    for (byte b : key) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F) {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02x", c));
      }
    }
    return sb.toString();
  }
}
