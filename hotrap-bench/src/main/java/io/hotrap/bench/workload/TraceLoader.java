package io.hotrap.bench.workload;

/**
 * One thread's part of a trace's load phase: inserts of the keys {@code [from, to)} of the trace's
 * keys that need loading (those first mentioned by a read), each with the value size of that read.
 *
 * <p>Not thread-safe.
 */
final class TraceLoader implements OperationGenerator {

  private final Trace trace;
  private final int to;
  private final String phase;
  private int j;

  TraceLoader(Trace trace, int from, int to, String phase) {
    this.trace = trace;
    this.j = from;
    this.to = to;
    this.phase = phase;
  }

  @Override
  public boolean next(Operation op) {
    if (j >= to) {
      return false;
    }
    trace.fillLoad(j++, op, phase);
    return true;
  }
}
