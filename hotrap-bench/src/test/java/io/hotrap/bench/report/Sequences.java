package io.hotrap.bench.report;

import java.util.SplittableRandom;

/** Access sequences for the replay tests. */
final class Sequences {

  private Sequences() {}

  /**
   * {@code "7 0 w1"}: a get of record 7, a get of 0, a write of 1; the final {@code finalShare} of
   * the gets count.
   */
  static AccessSequence parse(String text, double finalShare) {
    String[] tokens = text.strip().isEmpty() ? new String[0] : text.strip().split("\\s+");
    int[] ops = new int[tokens.length];
    for (int i = 0; i < tokens.length; i++) {
      String t = tokens[i];
      ops[i] = t.startsWith("w") ? AccessSequence.write(Integer.parseInt(t.substring(1)))
          : AccessSequence.get(Integer.parseInt(t));
    }
    return AccessSequence.of(ops, ops.length, finalShare);
  }

  /**
   * {@code length} operations on ids below {@code records}, skewed towards low ids (the square of
   * a uniform draw) so that some records come back often; each a write with {@code writeShare}.
   */
  static int[] random(SplittableRandom random, int length, int records, double writeShare) {
    int[] ops = new int[length];
    for (int i = 0; i < length; i++) {
      double u = random.nextDouble();
      int id = (int) (u * u * records);
      ops[i] = random.nextDouble() < writeShare ? AccessSequence.write(id) : AccessSequence.get(id);
    }
    return ops;
  }

  /** {@link #random} as a sequence. */
  static AccessSequence randomSequence(SplittableRandom random, int length, int records,
      double writeShare, double finalShare) {
    int[] ops = random(random, length, records, writeShare);
    return AccessSequence.of(ops, length, finalShare);
  }
}
