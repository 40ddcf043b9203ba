package io.hotrap.core;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps native handles alive while operations use them: every public operation of the store runs
 * between {@link #enter()} and {@link #exit()}; {@link #beginClose()} refuses new operations and
 * {@link #drain()} then waits until the ones in flight have left, so RocksDB is never closed under a
 * running call.
 *
 * <p>The in-flight count is a {@link LongAdder}, so concurrent readers do not contend on one cache
 * line. An entrant increments, then reads the closed flag; the closer sets the flag, then reads the
 * count. Both are volatile accesses, so at least one side sees the other: either the entrant
 * backs out or the closer waits for it.
 */
final class LifecycleGuard {
  private final LongAdder inFlight = new LongAdder();
  private volatile boolean closed;

  /** Enters an operation. @throws IllegalStateException if the store is closed */
  void enter() {
    inFlight.increment();
    if (closed) {
      inFlight.decrement();
      throw new IllegalStateException("the store is closed");
    }
  }

  /** Enters an operation unless closed; returns whether it entered (then call {@link #exit()}). */
  boolean tryEnter() {
    inFlight.increment();
    if (closed) {
      inFlight.decrement();
      return false;
    }
    return true;
  }

  void exit() {
    inFlight.decrement();
  }

  boolean isClosed() {
    return closed;
  }

  /** Refuses new operations; returns false if it was already closed. */
  boolean beginClose() {
    synchronized (this) {
      if (closed) {
        return false;
      }
      closed = true;
      return true;
    }
  }

  /** Waits until no operation is in flight; call after {@link #beginClose()}. */
  void drain() {
    while (inFlight.sum() > 0) {
      LockSupport.parkNanos(100_000);
    }
  }
}
