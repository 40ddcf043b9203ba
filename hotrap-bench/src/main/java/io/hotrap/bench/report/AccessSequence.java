package io.hotrap.bench.report;

import java.util.Arrays;

/**
 * The operations of a run in the order they were issued, each a get or a write of one record, with
 * the window over which a replayed placement's hits count: the final {@code finalShare} of the
 * gets.
 *
 * <p>An operation is one {@code int}: the record's id for a get, its complement {@code ~id} (a
 * negative number) for a write ({@link #get}, {@link #write}), so that a run of millions of
 * operations takes four bytes each and no object. {@link #of} renumbers the ids densely, {@code 0}
 * to {@link #records()}{@code  - 1}, so that the replays index arrays by record instead of hashing.
 *
 * <p>The window holds the last {@code max(1, round(finalShare × gets))} gets (none without gets);
 * writes inside it are replayed but never counted, and everything before it only warms the
 * placement. Not thread-safe; immutable once built.
 */
public final class AccessSequence {

  private final int[] ops;
  private final int length;
  private final int records;
  private final int windowStart;
  private final long countedGets;

  private AccessSequence(int[] ops, int length, int records, int windowStart, long countedGets) {
    this.ops = ops;
    this.length = length;
    this.records = records;
    this.windowStart = windowStart;
    this.countedGets = countedGets;
  }

  /** The encoding of a get of record {@code id}. */
  public static int get(int id) {
    requireId(id);
    return id;
  }

  /** The encoding of a write (insert or update) of record {@code id}. */
  public static int write(int id) {
    requireId(id);
    return ~id;
  }

  /**
   * The sequence of the first {@code length} operations of {@code encoded}, which it takes over:
   * it renumbers them in place, so the caller must not use the array afterwards. Sorting the
   * distinct ids for the renumbering makes this O(n log n) time and 4n bytes besides the array.
   *
   * @param finalShare the share of the gets that count, in (0, 1]
   * @throws IllegalArgumentException on a length outside the array or a share outside (0, 1]
   */
  public static AccessSequence of(int[] encoded, int length, double finalShare) {
    if (length < 0 || length > encoded.length) {
      throw new IllegalArgumentException(
          "length must be in [0, " + encoded.length + "] but was " + length);
    }
    if (!(finalShare > 0 && finalShare <= 1)) {
      throw new IllegalArgumentException("finalShare must be in (0, 1] but was " + finalShare);
    }
    int[] ids = new int[length];
    long gets = 0;
    for (int i = 0; i < length; i++) {
      int op = encoded[i];
      ids[i] = op >= 0 ? op : ~op;
      if (op >= 0) {
        gets++;
      }
    }
    Arrays.sort(ids);
    int distinct = 0;
    for (int i = 0; i < length; i++) {
      if (i == 0 || ids[i] != ids[i - 1]) {
        ids[distinct++] = ids[i];
      }
    }
    for (int i = 0; i < length; i++) {
      int op = encoded[i];
      int dense = Arrays.binarySearch(ids, 0, distinct, op >= 0 ? op : ~op);
      encoded[i] = op >= 0 ? dense : ~dense;
    }
    long counted = gets == 0 ? 0 : Math.max(1, Math.round(finalShare * gets));
    // The window opens at the first counted get: the (gets - counted)-th get, counting from 0.
    int windowStart = length;
    long skip = gets - counted;
    for (int i = 0; i < length && counted > 0; i++) {
      if (encoded[i] >= 0 && skip-- == 0) {
        windowStart = i;
        break;
      }
    }
    return new AccessSequence(encoded, length, distinct, windowStart, counted);
  }

  /** The number of operations. */
  public int size() {
    return length;
  }

  /** The number of distinct records; records are numbered {@code 0 .. records() - 1}. */
  public int records() {
    return records;
  }

  /** The record of operation {@code i}. */
  public int record(int i) {
    int op = ops[i];
    return op >= 0 ? op : ~op;
  }

  /** Whether operation {@code i} is a write. */
  public boolean isWrite(int i) {
    return ops[i] < 0;
  }

  /** Whether operation {@code i} is a get whose hit or miss counts. */
  public boolean counts(int i) {
    return i >= windowStart && ops[i] >= 0;
  }

  /** The index of the first counted get; {@link #size()} when no get counts. */
  public int windowStart() {
    return windowStart;
  }

  /** The number of gets whose hit or miss counts. */
  public long countedGets() {
    return countedGets;
  }

  /** {@code hits} over the counted gets; NaN when no get counts. */
  public double hitRate(long hits) {
    return countedGets == 0 ? Double.NaN : (double) hits / countedGets;
  }

  private static void requireId(int id) {
    if (id < 0) {
      throw new IllegalArgumentException("a record id must be >= 0 but was " + id);
    }
  }
}
