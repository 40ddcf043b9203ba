package io.hotrap.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Decides whether a concurrent history of one key is linearizable as a register: is there a total
 * order of the operations, consistent with real time (an operation that returned before another
 * was invoked comes first), in which every read returns the value of the latest write before it?
 *
 * <p>Wing and Gong's search: repeatedly pick, among the operations not yet placed, one that no
 * other unplaced operation precedes in real time, and place it if the register allows; backtrack
 * otherwise. Visited (placed set, register value) states are remembered, which keeps the search
 * small for the histories of a dozen operations it is meant for.
 */
final class RegisterHistoryChecker {

  /** One completed operation: a write of {@code value}, or a read that returned {@code value}. */
  record Op(boolean write, String value, long invokedNanos, long returnedNanos) {}

  private RegisterHistoryChecker() {}

  /** Whether {@code ops}, starting from {@code initial} (null: absent), is linearizable. */
  static boolean linearizable(List<Op> ops, String initial) {
    if (ops.size() > 62) {
      throw new IllegalArgumentException("histories of up to 62 operations, not " + ops.size());
    }
    return search(new ArrayList<>(ops), 0L, initial, new HashSet<>());
  }

  private static boolean search(List<Op> ops, long placed, String value, Set<String> seen) {
    if (Long.bitCount(placed) == ops.size()) {
      return true;
    }
    if (!seen.add(placed + "/" + value)) {
      return false;
    }
    long earliestReturn = Long.MAX_VALUE;
    for (int i = 0; i < ops.size(); i++) {
      if ((placed & (1L << i)) == 0) {
        earliestReturn = Math.min(earliestReturn, ops.get(i).returnedNanos());
      }
    }
    for (int i = 0; i < ops.size(); i++) {
      if ((placed & (1L << i)) != 0) {
        continue;
      }
      Op op = ops.get(i);
      if (op.invokedNanos() > earliestReturn) {
        continue; // another unplaced operation returned before this one began
      }
      if (op.write()) {
        if (search(ops, placed | (1L << i), op.value(), seen)) {
          return true;
        }
      } else if (Objects.equals(op.value(), value)
          && search(ops, placed | (1L << i), value, seen)) {
        return true;
      }
    }
    return false;
  }
}
