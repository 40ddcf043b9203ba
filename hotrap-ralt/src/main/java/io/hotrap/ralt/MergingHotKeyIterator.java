package io.hotrap.ralt;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * {@link HotKeyIterator} over one pinned {@link Version}: a merge of one cursor per run that reports
 * each key once, with the hot size of its newest hot record (of its newest record when none is
 * hot). With {@code hotOnly} it skips records not marked hot; without, it reports every tracked key
 * and whether any of its records is hot.
 * I/O errors while reading surface as {@link java.io.UncheckedIOException}. Not thread-safe.
 */
final class MergingHotKeyIterator implements HotKeyIterator {
  private final Version version;
  private final byte[] high;
  private final boolean hotOnly;
  private final PriorityQueue<RunCursor> heap;
  private byte[] key;
  private long hotSize;
  private boolean hot;
  private boolean valid;
  private boolean closed;

  MergingHotKeyIterator(Version version, byte[] low, byte[] high, boolean hotOnly) {
    this.version = version;
    this.high = high;
    this.hotOnly = hotOnly;
    this.heap = new PriorityQueue<>(Math.max(1, version.runs.length),
        (a, b) -> a.current.compareKey(b.current));
    boolean ok = false;
    try {
      if (Arrays.compareUnsigned(low, high) <= 0) {
        for (Run r : version.runs) {
          RunCursor c = new RunCursor(r);
          c.seek(low);
          requeue(c);
        }
      }
      step();
      ok = true;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  /**
   * Moves {@code c} to its next record within the range (hot record with {@code hotOnly}) and puts
   * it back in the heap.
   */
  private void requeue(RunCursor c) {
    while (hotOnly && c.isValid() && !c.current.hot) {
      if (beyondHigh(c.current)) {
        return;
      }
      c.next();
    }
    if (c.isValid() && !beyondHigh(c.current)) {
      heap.add(c);
    }
  }

  private boolean beyondHigh(AccessRecord r) {
    return AccessRecord.compareKeys(r.keyBuf, r.keyOff, r.keyLen, high, 0, high.length) > 0;
  }

  private void step() {
    RunCursor c = heap.poll();
    if (c == null) {
      valid = false;
      key = null;
      return;
    }
    key = c.current.keyCopy();
    long newest = c.current.time;
    hotSize = c.current.hotSize();
    hot = c.current.hot;
    c.next();
    requeue(c);
    while (!heap.isEmpty()) {
      AccessRecord r = heap.peek().current;
      if (AccessRecord.compareKeys(r.keyBuf, r.keyOff, r.keyLen, key, 0, key.length) != 0) {
        break;
      }
      RunCursor d = heap.poll();
      // The newest hot record's size; a hot record beats a newer cold one.
      boolean better = d.current.hot == hot ? d.current.time > newest : d.current.hot;
      if (better) {
        newest = d.current.time;
        hotSize = d.current.hotSize();
        hot = d.current.hot;
      }
      d.next();
      requeue(d);
    }
    valid = true;
  }

  @Override
  public boolean isValid() {
    return valid && !closed;
  }

  @Override
  public void next() {
    checkValid();
    step();
  }

  @Override
  public byte[] key() {
    checkValid();
    return key.clone();
  }

  @Override
  public int compareKey(byte[] other) {
    checkValid();
    return Arrays.compareUnsigned(key, other);
  }

  @Override
  public boolean hot() {
    checkValid();
    return hot;
  }

  @Override
  public long hotSize() {
    checkValid();
    return hotSize;
  }

  private void checkValid() {
    if (closed) {
      throw new IllegalStateException("iterator is closed");
    }
    if (!valid) {
      throw new IllegalStateException("iterator is not positioned on a key");
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      valid = false;
      heap.clear();
      version.release();
    }
  }
}
