package io.hotrap.ralt;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads the records of one {@link Run} in key order, one block at a time. The current record's key
 * bytes are borrowed from a block array that is never modified, so they stay valid after the cursor
 * moves on. Not thread-safe.
 */
final class RunCursor {
  final Run run;
  final AccessRecord current = new AccessRecord();
  private int segment;
  private int block;
  private byte[] data;
  private int pos;
  private int end;
  private boolean valid;

  RunCursor(Run run) {
    this.run = run;
  }

  void seekToFirst() {
    segment = 0;
    block = 0;
    loadAndSettle();
  }

  /** Positions on the first record whose key is at least {@code key}. */
  void seek(byte[] key) {
    segment = run.firstSegmentAtOrAfter(key);
    if (segment >= run.segments.length) {
      valid = false;
      return;
    }
    block = run.segments[segment].floorBlock(key);
    loadAndSettle();
    while (valid && AccessRecord.compareKeys(current.keyBuf, current.keyOff, current.keyLen, key, 0,
        key.length) < 0) {
      next();
    }
  }

  boolean isValid() {
    return valid;
  }

  /** Index of the segment the cursor is in. */
  int segmentIndex() {
    return segment;
  }

  void next() {
    pos += current.encodedSize();
    if (pos < end) {
      current.decode(data, pos);
      return;
    }
    block++;
    loadAndSettle();
  }

  private void loadAndSettle() {
    while (segment < run.segments.length) {
      Segment s = run.segments[segment];
      if (block < s.blockCount()) {
        try {
          data = s.readBlock(block);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        pos = 8;
        end = 8 + Segment.getInt(data, 0);
        if (pos < end) {
          current.decode(data, pos);
          valid = true;
          return;
        }
        block++;
        continue;
      }
      segment++;
      block = 0;
    }
    valid = false;
  }
}
