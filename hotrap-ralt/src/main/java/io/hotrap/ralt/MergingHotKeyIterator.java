package io.hotrap.ralt;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * {@link HotKeyIterator} over one pinned {@link Version}: a merge of one cursor per run that skips
 * records not marked hot and reports each key once, with the hot size of its newest hot record.
 * I/O errors while reading surface as {@link java.io.UncheckedIOException}. Not thread-safe.
 */
final class MergingHotKeyIterator implements HotKeyIterator {
  private final Version version;
  private final byte[] high;
  private final PriorityQueue<RunCursor> heap;
  private byte[] key;
  private long hotSize;
  private boolean valid;
  private boolean closed;

  MergingHotKeyIterator(Version version, byte[] low, byte[] high) {
    this.version = version;
    this.high = high;
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

  /** Moves {@code c} to its next hot record within the range and puts it back in the heap. */
  private void requeue(RunCursor c) {
    while (c.isValid() && !c.current.hot) {
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
    c.next();
    requeue(c);
    while (!heap.isEmpty()) {
      AccessRecord r = heap.peek().current;
      if (AccessRecord.compareKeys(r.keyBuf, r.keyOff, r.keyLen, key, 0, key.length) != 0) {
        break;
      }
      RunCursor d = heap.poll();
      if (d.current.time > newest) {
        newest = d.current.time;
        hotSize = d.current.hotSize();
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
