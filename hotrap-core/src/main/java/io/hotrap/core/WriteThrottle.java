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
    counters.writeStalls.increment();
    counters.writersStalled.incrementAndGet();
    try {
      if (!waitForRoom(start + maxStallNanos)) {
        counters.writeStallTimeouts.increment();
      }
    } finally {
      counters.writersStalled.decrementAndGet();
      counters.writeStallNanos.add(System.nanoTime() - start);
    }
  }

  /**
   * What a promotion check runs before it writes: like a user write, it waits while the fast tier
   * is at the threshold. Promotion must: with every slow read promoted (no hotness check) and the
   * gets using up the slow disk's IOPS, promotions had filled the tier past its budget faster than
   * migration emptied it (128 MB in, 59 MB out in 80 s at a 16 MiB budget). It waits rather than
   * giving records up, so the records it promotes are the same, only later; it is not a writer,
   * so it is not counted in {@code writersStalled}, which promotion policy reads.
   */
  void awaitRoomForPromotion(Runnable requestMigration) {
    if (!full() || closed) {
      return;
    }
    requestMigration.run();
    long start = System.nanoTime();
    counters.promotionWaitsForRoom.increment();
    try {
      if (!waitForRoom(start + maxStallNanos)) {
        counters.promotionWaitTimeouts.increment();
      }
    } finally {
      counters.promotionWaitNanos.add(System.nanoTime() - start);
    }
  }

  /** Waits while the tier is full and the store open; false if {@code deadline} passed first. */
  private boolean waitForRoom(long deadline) {
    boolean interrupted = false;
    lock.lock();
    try {
      while (full() && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          room.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return true;
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Whether the fast tier is at the threshold where user writes wait: {@code stallBytes} raised by
   * what open snapshots pin.
   */
  private boolean full() {
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
