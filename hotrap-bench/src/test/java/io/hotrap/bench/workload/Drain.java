package io.hotrap.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs generators to their end, for tests. */
final class Drain {

  private Drain() {}

  /** Every operation of {@code g}, each in its own instance. */
  static List<Operation> all(OperationGenerator g) {
    List<Operation> ops = new ArrayList<>();
    while (true) {
      Operation op = new Operation();
      if (!g.next(op)) {
        return ops;
      }
      ops.add(op);
    }
  }

  /** Reads per key id in {@code [0, keySpace)}, over every operation of {@code g}. */
  static int[] readCounts(OperationGenerator g, int keySpace) {
    int[] counts = new int[keySpace];
    Operation op = new Operation();
    while (g.next(op)) {
      if (op.type == Operation.Type.READ) {
        counts[(int) op.keyId]++;
      }
    }
    return counts;
  }

  /** The share of all counted reads that go to the {@code top} most read ids. */
  static double topShare(int[] counts, int top) {
    int[] sorted = counts.clone();
    Arrays.sort(sorted);
    long total = 0;
    long best = 0;
    for (int i = 0; i < sorted.length; i++) {
      total += sorted[i];
      if (i >= sorted.length - top) {
        best += sorted[i];
      }
    }
    return (double) best / total;
  }
}
