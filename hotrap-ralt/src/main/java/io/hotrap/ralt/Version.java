package io.hotrap.ralt;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The set of runs the tracker answers from at one moment. Immutable; the background thread publishes
 * a new version after every flush and after every finished output file of a merge.
 *
 * <p>Reference counted: the tracker's "current" pointer holds one reference and every open
 * {@link HotKeyIterator} one more; each version holds one reference on each of its segments, so a
 * file disappears only when no version that lists it is in use. Runs are ordered by level, and on
 * level 0 newest first.
 */
final class Version {
  final Run[] runs;
  final long fileBytes;
  final long recordBytes;
  final long shadowedBytes;
  final long hotBytes;
  final long hotCount;
  final long recordCount;
  private final AtomicInteger refs = new AtomicInteger(1);

  Version(List<Run> runs) {
    this.runs = runs.toArray(new Run[0]);
    long f = 0;
    long rb = 0;
    long sb = 0;
    long h = 0;
    long hc = 0;
    long rc = 0;
    for (Run r : this.runs) {
      f += r.fileBytes;
      rb += r.recordBytes;
      sb += r.shadowedBytes;
      h += r.hotBytes;
      hc += r.hotCount;
      rc += r.recordCount;
      for (Segment s : r.segments) {
        s.retain();
      }
    }
    fileBytes = f;
    recordBytes = rb;
    shadowedBytes = sb;
    hotBytes = h;
    hotCount = hc;
    recordCount = rc;
  }

  void retain() {
    if (refs.getAndIncrement() <= 0) {
      throw new IllegalStateException("version already released");
    }
  }

  void release() {
    if (refs.decrementAndGet() == 0) {
      for (Run r : runs) {
        for (Segment s : r.segments) {
          s.release();
        }
      }
    }
  }

  int maxLevel() {
    int m = -1;
    for (Run r : runs) {
      m = Math.max(m, r.level);
    }
    return m;
  }

  long levelBytes(int level) {
    long sum = 0;
    for (Run r : runs) {
      if (r.level == level) {
        sum += r.fileBytes;
      }
    }
    return sum;
  }

  int runsOnLevel(int level) {
    int n = 0;
    for (Run r : runs) {
      if (r.level == level) {
        n++;
      }
    }
    return n;
  }

  long memoryBytes() {
    long m = 0;
    for (Run r : runs) {
      for (Segment s : r.segments) {
        m += s.memoryBytes();
      }
    }
    return m;
  }
}
