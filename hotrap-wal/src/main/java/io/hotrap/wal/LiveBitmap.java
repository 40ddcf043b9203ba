package io.hotrap.wal;

import java.util.Arrays;

/**
 * Which records of one segment the memory tier still holds: WAL-assisted tiering's per-segment KV
 * status bitmap (§3.2.2).
 *
 * <p>A bitmap covers the sequence numbers {@code base .. base + span - 1}, one bit each; a set bit
 * means the record with that number is live (still only in the volatile tier, so the log must keep
 * it), a clear bit that it is dead or was never logged here. Callers' sequence numbers may have
 * gaps; those numbers are born dead. Like the paper's {@code SN^(s)} and {@code w}, base and span
 * stay fixed when the segment is trimmed, so a trimmed segment is still found by binary search on
 * its base.
 *
 * <p>So that gaps cannot inflate the memory, {@link #accepts} refuses a number that would stretch
 * the span beyond {@value #SPAN_SLACK} plus {@value #MAX_BITS_PER_RECORD} bits per record: the log
 * then starts a new segment. Memory stays at most that many bits per record, and exactly one bit per
 * record when numbers are dense.
 *
 * <p>Not thread-safe: the owning log guards every bitmap with its state lock.
 */
final class LiveBitmap {

  static final int SPAN_SLACK = 4096;
  static final int MAX_BITS_PER_RECORD = 64;

  private final long base;
  private long[] words;
  private int span;
  private int live;

  LiveBitmap(long base) {
    this.base = base;
    this.words = new long[1];
  }

  private LiveBitmap(long base, int span, long[] words) {
    this.base = base;
    this.span = span;
    this.words = words;
    for (long word : words) {
      live += Long.bitCount(word);
    }
  }

  /** A bitmap over {@code base .. base + span - 1} with the given words (copied). */
  static LiveBitmap of(long base, int span, long[] words) {
    long[] copy = Arrays.copyOf(words, Math.max(1, wordsFor(span)));
    int tail = span & 63;
    if (tail != 0) {
      copy[(span - 1) >>> 6] &= (1L << tail) - 1; // bits past the span are not records
    }
    return new LiveBitmap(base, span, copy);
  }

  /** First sequence number covered. */
  long base() {
    return base;
  }

  /** Number of sequence numbers covered. */
  int span() {
    return span;
  }

  /** Last sequence number covered, or {@code base - 1} when the span is empty. */
  long last() {
    return base + span - 1;
  }

  /** Number of live records. */
  int liveCount() {
    return live;
  }

  /**
   * True if a segment holding {@code records} records may take {@code seq} (greater than every
   * number it holds) without exceeding its bit budget.
   */
  boolean accepts(long seq, int records) {
    long needed = seq - base + 1;
    return seq >= base
        && needed <= SPAN_SLACK + (long) MAX_BITS_PER_RECORD * (records + 1L)
        && needed <= Integer.MAX_VALUE - 64;
  }

  /** Covers {@code seq} (beyond the current span) and marks it live. */
  void addLive(long seq) {
    if (seq <= last() || seq - base >= Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("seq " + seq + " is not after " + last()
          + " within reach of base " + base);
    }
    span = (int) (seq - base + 1);
    int word = (span - 1) >>> 6;
    if (word >= words.length) {
      words = Arrays.copyOf(words, Math.max(word + 1, words.length * 2));
    }
    words[word] |= 1L << ((span - 1) & 63);
    live++;
  }

  /** Extends the span to {@code seq} without marking anything live (a trimmed segment's end). */
  void extendTo(long seq) {
    if (seq > last()) {
      span = Math.toIntExact(seq - base + 1);
      int needed = wordsFor(span);
      if (needed > words.length) {
        words = Arrays.copyOf(words, needed);
      }
    }
  }

  boolean isLive(long seq) {
    if (seq < base || seq > last()) {
      return false;
    }
    int bit = (int) (seq - base);
    return (words[bit >>> 6] & (1L << (bit & 63))) != 0;
  }

  /**
   * Marks dead every covered number in {@code from .. to} (inclusive; the range may reach past
   * either end). Returns how many records went from live to dead.
   */
  int markDead(long from, long to) {
    long lo = Math.max(from, base);
    long hi = Math.min(to, last());
    if (lo > hi) {
      return 0;
    }
    int first = (int) (lo - base);
    int end = (int) (hi - base) + 1; // exclusive
    int cleared = 0;
    int firstWord = first >>> 6;
    int lastWord = (end - 1) >>> 6;
    for (int w = firstWord; w <= lastWord; w++) {
      long mask = -1L;
      if (w == firstWord) {
        mask &= -1L << (first & 63);
      }
      if (w == lastWord && (end & 63) != 0) {
        mask &= (1L << (end & 63)) - 1;
      }
      cleared += Long.bitCount(words[w] & mask);
      words[w] &= ~mask;
    }
    live -= cleared;
    return cleared;
  }

  /** Copies the words in use, for a snapshot or the liveness file. */
  long[] words() {
    return Arrays.copyOf(words, wordsFor(span));
  }

  /** An independent copy. */
  LiveBitmap copy() {
    return new LiveBitmap(base, span, Arrays.copyOf(words, Math.max(1, words.length)));
  }

  static int wordsFor(int span) {
    return (span + 63) >>> 6;
  }

  @Override
  public String toString() {
    return "LiveBitmap[base=" + base + ", span=" + span + ", live=" + live + "]";
  }
}
