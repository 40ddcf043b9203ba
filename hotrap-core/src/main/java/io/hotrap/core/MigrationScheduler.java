package io.hotrap.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The thread that runs {@link TierMigrator#checkOnce()}: when asked, and every
 * {@link HotRapOptions#migrationCheckInterval()} without being asked.
 *
 * <p>Requests are numbered. {@link #requestCheck()} returns a ticket and never blocks for long (it
 * is called from RocksDB's event callbacks and from writers); requests that arrive while a check
 * runs are served by the next one. {@link #awaitCheck(long)} returns once a check that started
 * after the ticket was issued has finished, which is what {@link HotRapDB#awaitBackgroundWork()}
 * needs. A failed check is logged, counted and retried at the next request or period. Thread-safe.
 */
final class MigrationScheduler implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MigrationScheduler.class.getName());

  private final TierMigrator migrator;
  private final StoreCounters counters;
  private final long intervalNanos;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final Condition done = lock.newCondition();
  private long requested;
  private long completed;
  private boolean closing;
  private volatile boolean lastCheckMigrated;

  MigrationScheduler(TierMigrator migrator, StoreCounters counters, HotRapOptions options) {
    this.migrator = migrator;
    this.counters = counters;
    this.intervalNanos = options.migrationCheckInterval().toNanos();
    this.thread = new Thread(this::runLoop, "hotrap-migrator-" + options.fastPath().getFileName());
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Asks for a check; returns a ticket for {@link #awaitCheck(long)}. */
  long requestCheck() {
    lock.lock();
    try {
      long ticket = ++requested;
      wake.signal();
      return ticket;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until a check that started after {@code ticket} was issued has finished, or close. */
  void awaitCheck(long ticket) {
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

  /** Whether the last finished check migrated any file. */
  boolean lastCheckMigrated() {
    return lastCheckMigrated;
  }

  private void runLoop() {
    while (true) {
      long target;
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
      } finally {
        lock.unlock();
      }
      boolean migrated = false;
      try {
        migrated = migrator.checkOnce();
      } catch (Throwable t) {
        if (t instanceof VirtualMachineError) {
          throw (VirtualMachineError) t;
        }
        if (!migrator.stopping()) {
          counters.migrationFailures.increment();
          LOG.log(Level.WARNING, "tier migration failed; it will be retried", t);
        }
      }
      lock.lock();
      try {
        lastCheckMigrated = migrated;
        completed = Math.max(completed, target);
        done.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Stops the thread after the check in progress (which stops after its current batch). */
  @Override
  public void close() {
    migrator.stop();
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
