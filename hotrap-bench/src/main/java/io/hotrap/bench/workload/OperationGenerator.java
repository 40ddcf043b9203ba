package io.hotrap.bench.workload;

/**
 * A finite, per-thread sequence of operations. Not thread-safe: each thread asks
 * {@link Workload#loader} or {@link Workload#runner} for its own.
 */
public interface OperationGenerator {

  /**
   * Fills {@code op} with the next operation.
   *
   * <p>Callers execute an operation before asking for the next one: for the {@code latest}
   * distribution the call also acknowledges that the previous insert has been written, which makes
   * the key readable for every thread.
   *
   * @return false, leaving {@code op} untouched, when the workload is exhausted (trace end or
   *     operation budget reached); every later call returns false too
   */
  boolean next(Operation op);
}
