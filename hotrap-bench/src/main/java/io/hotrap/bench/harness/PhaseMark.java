package io.hotrap.bench.harness;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The furthest phase of a workload that any client has reached. Each second of a run is labelled
 * with it, so a phase's seconds begin when the first client starts its operations — the moment the
 * system under test begins to see the new access pattern — not when one particular client, which
 * may lag the others by seconds on a slow disk, gets there. Clients report only when their own
 * phase changes; the mark never moves back. Thread-safe.
 */
final class PhaseMark {
  private final List<String> phases;
  private final AtomicInteger furthest = new AtomicInteger();

  /** @param phases the workload's phases in order; the mark starts at the first */
  PhaseMark(List<String> phases) {
    if (phases.isEmpty()) {
      throw new IllegalArgumentException("a workload has at least one phase");
    }
    this.phases = List.copyOf(phases);
  }

  /** A client has begun an operation of {@code phase}; names not among the phases are ignored. */
  void reached(String phase) {
    int i = phases.indexOf(phase);
    if (i > 0) {
      furthest.accumulateAndGet(i, Math::max);
    }
  }

  /** The furthest phase reached so far. */
  String current() {
    return phases.get(furthest.get());
  }
}
