package io.hotrap.bench.workload;

/**
 * One thread's part of a trace: the operations whose index (0-based, counting only operation
 * lines) is {@code thread} modulo {@code threads} and below {@code limit}, in trace order. Threads
 * run concurrently, so the trace order between threads is not kept.
 *
 * <p>Not thread-safe.
 */
final class TraceReplay implements OperationGenerator {

  private final Trace trace;
  private final int step;
  private final long limit;
  private final String phase;
  private long i;

  TraceReplay(Trace trace, int thread, int threads, long limit, String phase) {
    this.trace = trace;
    this.step = threads;
    this.limit = limit;
    this.phase = phase;
    this.i = thread;
  }

  @Override
  public boolean next(Operation op) {
    if (i >= limit) {
      return false;
    }
    trace.fill((int) i, op, phase);
    i += step;
    return true;
  }
}
