package io.hotrap.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The thread that runs {@link MemoryTier#moveIfNeeded(boolean)}: when a writer or {@link
 * HotRapDB#flush()} asks, and every {@link HotRapOptions#migrationCheckInterval()} without being
 * asked. It runs beside tier migration, not on its thread, so that a slow migration to the slow
 * disk does not hold writers back on a full memory tier; why that is safe is at
 * {@link MemoryTier} (ingested keys are marked in the {@link CommitGate} like user writes).
 *
 * <p>Requests are numbered as in {@link MigrationScheduler}: {@link #request(boolean)} returns a
 * ticket and never blocks for long; {@link #await(long)} returns once a pass that started after
 * the ticket finished. A forced request moves the memory tier's data whatever its size. A failed
 * pass is logged and counted in {@code migrationFailures}, and retried at the next request or
 * period. Thread-safe.
 */
final class MemoryMover implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MemoryMover.class.getName());

  private final MemoryTier tier;
  private final StoreCounters counters;
  private final long intervalNanos;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final Condition done = lock.newCondition();
  // Guarded by lock.
  private long requested;
  private long completed;
  private boolean force;
  private boolean closing;
  private volatile boolean lastPassMoved;

  MemoryMover(MemoryTier tier, StoreCounters counters, HotRapOptions options) {
    this.tier = tier;
    this.counters = counters;
    this.intervalNanos = options.migrationCheckInterval().toNanos();
    this.thread = new Thread(this::runLoop, "hotrap-memory-mover-" + options.fastPath().getFileName());
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Asks for a pass ({@code forced}: move whatever the tier holds); returns a ticket. */
  long request(boolean forced) {
    lock.lock();
    try {
      force |= forced;
      long ticket = ++requested;
      wake.signal();
      return ticket;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until a pass that started after {@code ticket} was issued has finished, or close. */
  void await(long ticket) {
    boolean interrupted = false;
    lock.lock();
    try {
      while (completed < ticket && !closing) {
        try {
          done.await();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether the last finished pass moved a generation. */
  boolean lastPassMoved() {
    return lastPassMoved;
  }

  private void runLoop() {
    while (true) {
      long target;
      boolean forced;
      lock.lock();
      try {
        if (requested == completed && !closing) {
          try {
            wake.awaitNanos(intervalNanos);
          } catch (InterruptedException e) {
            // only close() ends the loop
          }
        }
        if (closing) {
          completed = requested;
          done.signalAll();
          return;
        }
        target = requested;
        forced = force;
        force = false;
      } finally {
        lock.unlock();
      }
      boolean moved = false;
      try {
        moved = tier.moveIfNeeded(forced);
      } catch (Throwable t) {
        if (t instanceof VirtualMachineError) {
          throw (VirtualMachineError) t;
        }
        counters.migrationFailures.increment();
        LOG.log(Level.WARNING, "moving the memory tier failed; it will be retried", t);
      }
      lock.lock();
      try {
        lastPassMoved = moved;
        completed = Math.max(completed, target);
        done.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Stops the thread after the pass in progress. */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      wake.signalAll();
      done.signalAll();
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
