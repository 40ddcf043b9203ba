package io.hotrap.wal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The single daemon thread that runs a log's background work (compression, deletion, trim), one
 * pass at a time (§4 of the paper: one thread does all of it).
 *
 * <p>{@link #request()} asks for a pass; requests that arrive during a pass are served by one more
 * pass afterwards, so the work never misses a change and never runs twice at once. {@link
 * #awaitIdle()} returns once every request made before it has been served, which is how tests and
 * callers wait without sleeping.
 *
 * <p>Thread-safe. A pass that throws is recorded and reported by the next {@link #awaitIdle()};
 * the thread keeps serving requests.
 */
final class BackgroundWorker implements AutoCloseable {

  /** One pass of work; should return soon after {@code stopping} turns true. */
  interface Pass {
    void run(BooleanSupplier stopping) throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Thread thread;
  private final Pass pass;
  private long requested;
  private long served;
  private volatile boolean stopping;
  private boolean terminated;
  private Throwable failure;

  BackgroundWorker(String name, Pass pass) {
    this.pass = pass;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Asks for a pass. */
  void request() {
    lock.lock();
    try {
      requested++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every request made before this call has been served (or the worker stopped).
   *
   * @throws IOException the first failure of a pass since the last call, which it clears
   */
  void awaitIdle() throws IOException {
    lock.lock();
    try {
      long target = requested;
      while (served < target && !terminated) {
        changed.await();
      }
      if (failure != null) {
        Throwable f = failure;
        failure = null;
        throw new IOException("background work of the tier log failed", f);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for background work");
    } finally {
      lock.unlock();
    }
  }

  private void loop() {
    while (true) {
      long target;
      lock.lock();
      try {
        while (!stopping && served == requested) {
          changed.awaitUninterruptibly();
        }
        if (stopping) {
          terminated = true;
          changed.signalAll();
          return;
        }
        target = requested;
      } finally {
        lock.unlock();
      }
      Throwable error = null;
      try {
        pass.run(() -> stopping);
      } catch (Throwable t) {
        error = t;
      }
      lock.lock();
      try {
        if (error != null && failure == null) {
          failure = error;
        }
        served = target;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Stops the thread after its current pass and waits for it; idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      stopping = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
