package io.hotrap.ralt;

import java.util.List;

/**
 * A sorted run: segments in ascending, disjoint key ranges, on one level of the tracker's LSM-tree.
 * A key appears at most once in a run. Immutable; merges replace runs rather than change them.
 */
final class Run {
  final long id;
  final int level;
  final Segment[] segments;
  final long fileBytes;
  final long recordBytes;
  final long shadowedBytes;
  final long hotBytes;
  final long hotCount;
  final long recordCount;

  Run(long id, int level, List<Segment> segments) {
    this.id = id;
    this.level = level;
    this.segments = segments.toArray(new Segment[0]);
    long f = 0;
    long rb = 0;
    long sb = 0;
    long h = 0;
    long hc = 0;
    long rc = 0;
    for (Segment s : this.segments) {
      f += s.fileBytes;
      rb += s.recordBytes;
      sb += s.shadowedBytes;
      h += s.hotBytes;
      hc += s.hotCount;
      rc += s.recordCount;
    }
    fileBytes = f;
    recordBytes = rb;
    shadowedBytes = sb;
    hotBytes = h;
    hotCount = hc;
    recordCount = rc;
  }

  /** The segment whose key range holds {@code key}, or null. */
  Segment find(byte[] key) {
    int i = firstSegmentAtOrAfter(key);
    if (i < segments.length && segments[i].compareToFirstKey(key) >= 0) {
      return segments[i];
    }
    return null;
  }

  /** Index of the first segment whose last key is at least {@code key}. */
  int firstSegmentAtOrAfter(byte[] key) {
    int lo = 0;
    int hi = segments.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (segments[mid].compareToLastKey(key) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The segments' {@link Segment#hotBytesInRange(byte[], byte[], boolean)} over [low, high]: the
   * hot bytes of the blocks that may hold keys of the range, or only of their boundary blocks.
   */
  long hotBytesInRange(byte[] low, byte[] high, boolean boundaryOnly) {
    long sum = 0;
    for (int i = firstSegmentAtOrAfter(low); i < segments.length; i++) {
      Segment s = segments[i];
      if (s.compareToFirstKey(high) < 0) {
        break;
      }
      sum += s.hotBytesInRange(low, high, boundaryOnly);
    }
    return sum;
  }
}
