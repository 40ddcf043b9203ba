package io.hotrap.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Holds user writes back while the fast tier is at its stall threshold, the way RocksDB stalls
 * writes when compaction falls behind: a write waits until migration brings the tier's SST bytes
 * under the threshold, the store closes, or {@link HotRapOptions#maxWriteStall()} passes. While
 * open user snapshots pin versions that migration demoted, the threshold is raised by the bytes
 * they pin ({@code snapshotPinnedBytes}): waiting cannot free those, but the tier may not grow
 * beyond them either.
 *
 * <p>Writers wait here before they take the {@link CommitGate}; a writer waiting inside the gate
 * would keep the migrator, which needs the gate exclusive, from ever making room. The migrator's own
 * writes never wait. Thread-safe.
 */
final class WriteThrottle {
  private final long stallBytes;
  private final long maxStallNanos;
  private final StoreCounters counters;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private volatile boolean closed;

  WriteThrottle(long stallBytes, long maxStallNanos, StoreCounters counters) {
    this.stallBytes = stallBytes;
    this.maxStallNanos = maxStallNanos;
    this.counters = counters;
  }

  /**
   * Returns at once while the fast tier is under the threshold; otherwise runs
   * {@code requestMigration} and waits for room.
   */
  void awaitRoom(Runnable requestMigration) {
    if (!full() || closed) {
      return;
    }
    requestMigration.run();
    long start = System.nanoTime();
    long deadline = start + maxStallNanos;
    counters.writeStalls.increment();
    counters.writersStalled.incrementAndGet();
    boolean interrupted = false;
    lock.lock();
    try {
      while (full() && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          counters.writeStallTimeouts.increment();
          break;
        }
        try {
          room.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      lock.unlock();
      counters.writersStalled.decrementAndGet();
      counters.writeStallNanos.add(System.nanoTime() - start);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private boolean full() {
    return full(counters, stallBytes);
  }

  /**
   * Whether the fast tier is at the threshold where user writes wait: {@code stallBytes} raised by
   * what open snapshots pin.
   */
  static boolean full(StoreCounters counters, long stallBytes) {
    return counters.fastSstBytes >= stallBytes + counters.snapshotPinnedBytes;
  }

  /** Wakes waiting writers; call after the tier sizes changed. */
  void sizesChanged() {
    lock.lock();
    try {
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void close() {
    closed = true;
    sizesChanged();
  }
}
