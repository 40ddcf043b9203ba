package io.hotrap.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The write-hot keys of one window as ranges in key order (LuMDB §6): keys that occur at least
 * {@link SkewDetector#DEFAULT_HOT_COUNT} times, and runs of such keys with no other key of the
 * window between them merged into one range {@code [low, high]}. A key inside a range is hot even
 * if the window did not see it: nothing the window saw separates it from its hot neighbours.
 *
 * <p>Memory: one range costs its two key arrays (16 bytes of header each plus the key) and two
 * references, about 2 × (16 + k) + 8 bytes for k-byte keys — 88 bytes for the bench's 24-byte keys
 * when a range is a single key, whose low and high are one array (56 bytes). The caller bounds the
 * number of hot keys ({@code maxKeys}), so an index is bounded too.
 *
 * <p>Immutable and thread-safe; {@link #contains} is a binary search over the range starts.
 */
final class HotKeyIndex {
  static final HotKeyIndex EMPTY = new HotKeyIndex(new byte[0][], new byte[0][], 0);

  private final byte[][] lows;
  private final byte[][] highs;
  private final int keys;

  private HotKeyIndex(byte[][] lows, byte[][] highs, int keys) {
    this.lows = lows;
    this.highs = highs;
    this.keys = keys;
  }

  /**
   * The index of a closed window: a key is hot if {@code hot} accepts it with its count. When more
   * than {@code maxKeys} keys qualify, only the most frequent are kept: the least count kept is
   * raised until at most {@code maxKeys} remain.
   */
  static HotKeyIndex build(Map<ByteArrayKey, int[]> counts, HotPredicate hot, int maxKeys) {
    int n = counts.size();
    if (n == 0 || maxKeys <= 0) {
      return EMPTY;
    }
    byte[][] sorted = new byte[n][];
    int[] freq = new int[n];
    int i = 0;
    for (Map.Entry<ByteArrayKey, int[]> e : counts.entrySet()) {
      if (i == n) {
        break; // records that raced the close added keys; they are in no decision
      }
      sorted[i] = e.getKey().bytes();
      freq[i] = e.getValue()[0];
      i++;
    }
    n = i;
    Integer[] order = new Integer[n];
    for (int j = 0; j < n; j++) {
      order[j] = j;
    }
    byte[][] keysRef = sorted;
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keysRef[a], keysRef[b]));
    boolean[] isHot = new boolean[n];
    int hotCount = 0;
    int[] hotFreqs = new int[n];
    for (int j = 0; j < n; j++) {
      int k = order[j];
      if (hot.test(sorted[k], freq[k])) {
        isHot[j] = true;
        hotFreqs[hotCount++] = freq[k];
      }
    }
    int cutoff = 0;
    if (hotCount > maxKeys) {
      int[] f = Arrays.copyOf(hotFreqs, hotCount);
      Arrays.sort(f);
      // The least count kept: the maxKeys-th largest, raised by one if ties would overflow.
      cutoff = f[hotCount - maxKeys];
      int atOrAbove = 0;
      for (int v : f) {
        if (v >= cutoff) {
          atOrAbove++;
        }
      }
      if (atOrAbove > maxKeys) {
        cutoff++;
      }
    }
    List<byte[]> lows = new ArrayList<>();
    List<byte[]> highs = new ArrayList<>();
    int kept = 0;
    int j = 0;
    while (j < n) {
      if (!isHot[j] || freq[order[j]] < cutoff) {
        j++;
        continue;
      }
      byte[] low = sorted[order[j]];
      byte[] high = low;
      kept++;
      j++;
      while (j < n && isHot[j] && freq[order[j]] >= cutoff) {
        high = sorted[order[j]];
        kept++;
        j++;
      }
      lows.add(low);
      highs.add(high);
    }
    if (kept == 0) {
      return EMPTY;
    }
    return new HotKeyIndex(lows.toArray(new byte[0][]), highs.toArray(new byte[0][]), kept);
  }

  /** Decides whether a key of the window, with its count, is hot. */
  interface HotPredicate {
    boolean test(byte[] key, int count);
  }

  /** {@link HotPredicate} of LuMDB's rule alone: at least {@code hotCount} occurrences. */
  static HotPredicate atLeast(int hotCount) {
    return (key, count) -> count >= hotCount;
  }

  /** {@link HotPredicate} that also accepts keys {@code sticky} accepts when they occurred at all. */
  static HotPredicate atLeastOrSeen(int hotCount, Predicate<byte[]> sticky) {
    return (key, count) -> count >= hotCount || (count >= 1 && sticky.test(key));
  }

  /** Whether {@code key} lies in one of the ranges. */
  boolean contains(byte[] key) {
    int lo = 0;
    int hi = lows.length - 1;
    // The last range whose low is <= key.
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(lows[mid], key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && Arrays.compareUnsigned(key, highs[found]) <= 0;
  }

  /** Number of ranges. */
  int ranges() {
    return lows.length;
  }

  /** Number of the window's keys the ranges were built from. */
  int keys() {
    return keys;
  }

  boolean isEmpty() {
    return lows.length == 0;
  }
}
