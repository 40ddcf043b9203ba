package io.hotrap.wal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Orders appends and lets concurrent appenders share writes and forces (group commit).
 *
 * <p>Appends are queued under one lock, which checks that sequence numbers increase, so the queue
 * order is the file order. A caller that needs its append written or synced waits; if no write is
 * in progress it becomes the leader: it takes the whole queue, releases the lock, hands the batch
 * to the {@link Writer} in one call (one write per segment touched, one force if any waiter asked
 * for {@link Durability#SYNCED}), then marks everything it took as written (and synced) and wakes
 * the waiters. Appenders that arrive meanwhile queue behind it, and the next leader takes them
 * all. Tickets (the count of appends queued so far) tell a waiter whether its append is covered:
 * since batches go out in queue order, reaching ticket t covers every append before it too.
 *
 * <p>Race prevented: two leaders writing at once would interleave records out of sequence order;
 * {@code leaderActive} admits one, and the others wait on the condition. A waiter whose append
 * was written without a force, because it asked for {@code SYNCED} after the leader took the
 * batch, loops and leads again with an empty batch that only forces.
 *
 * <p>After a failed write the file's tail is unknown, so every later call fails with that error
 * until the log is reopened (and recovery cuts the tail).
 *
 * <p>Thread-safe. Waiting is uninterruptible: the write a waiter depends on goes on regardless.
 */
final class GroupCommit {

  /** Writes a batch; called by one leader at a time. */
  interface Writer {
    void write(List<PendingAppend> batch, boolean sync) throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition progress = lock.newCondition();
  private final Writer writer;
  private final long maxBufferedBytes;

  private List<PendingAppend> queue = new ArrayList<>();
  private long queuedBytes;
  private long lastSeq;
  private long enqueued;
  private long written;
  private long synced;
  private long syncWanted;
  private boolean leaderActive;
  private boolean closed;
  private Throwable failure;

  /**
   * @param lastSeq highest sequence number already in the log, or -1
   * @param maxBufferedBytes queued bytes above which a {@code BUFFERED} append writes
   */
  GroupCommit(Writer writer, long lastSeq, long maxBufferedBytes) {
    this.writer = writer;
    this.lastSeq = lastSeq;
    this.maxBufferedBytes = maxBufferedBytes;
  }

  /**
   * Queues {@code append} and returns once it (and everything queued before it) has reached
   * {@code durability}.
   *
   * @throws IllegalArgumentException if its first sequence number is not above every queued one
   * @throws IllegalStateException once closed
   * @throws IOException if a write failed, now or earlier
   */
  void append(PendingAppend append, Durability durability) throws IOException {
    lock.lock();
    try {
      checkUsable();
      if (append.firstSeq() <= lastSeq) {
        throw new IllegalArgumentException("seq " + append.firstSeq()
            + " must be above the last appended " + lastSeq);
      }
      lastSeq = append.lastSeq();
      queue.add(append);
      queuedBytes += append.bytes().length;
      long ticket = ++enqueued;
      Durability wanted = durability == Durability.BUFFERED && queuedBytes > maxBufferedBytes
          ? Durability.WRITTEN
          : durability;
      awaitLocked(ticket, wanted);
    } finally {
      lock.unlock();
    }
  }

  /** Returns once everything queued before the call has reached {@code durability}. */
  void flush(Durability durability) throws IOException {
    lock.lock();
    try {
      checkUsable();
      awaitLocked(enqueued, durability);
    } finally {
      lock.unlock();
    }
  }

  /** Highest sequence number queued, or the one given at construction. */
  long lastSeq() {
    lock.lock();
    try {
      return lastSeq;
    } finally {
      lock.unlock();
    }
  }

  /** Appends queued and not yet taken by a leader. */
  int queued() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses further appends, then writes and syncs what is queued. Later calls return at once.
   *
   * @throws IOException if the final write fails or an earlier one did
   */
  void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      awaitLocked(enqueued, Durability.SYNCED);
    } finally {
      lock.unlock();
    }
  }

  private void checkUsable() throws IOException {
    if (closed) {
      throw new IllegalStateException("tier log is closed");
    }
    throwIfFailed();
  }

  private void throwIfFailed() throws IOException {
    if (failure != null) {
      throw new IOException("an earlier write to the tier log failed; reopen it to recover",
          failure);
    }
  }

  private void awaitLocked(long ticket, Durability durability) throws IOException {
    if (durability == Durability.BUFFERED) {
      return;
    }
    boolean sync = durability == Durability.SYNCED;
    if (sync) {
      syncWanted = Math.max(syncWanted, ticket);
    }
    while (written < ticket || (sync && synced < ticket)) {
      throwIfFailed();
      if (leaderActive) {
        progress.awaitUninterruptibly();
      } else {
        lead();
      }
    }
  }

  /** Called and returns with the lock held; releases it while writing. */
  private void lead() {
    leaderActive = true;
    List<PendingAppend> batch = queue;
    queue = new ArrayList<>();
    queuedBytes = 0;
    long target = enqueued;
    boolean sync = syncWanted > synced;
    Throwable error = null;
    lock.unlock();
    try {
      writer.write(batch, sync);
    } catch (Throwable t) {
      error = t;
    } finally {
      lock.lock();
    }
    if (error == null) {
      written = target;
      if (sync) {
        synced = target;
      }
    } else if (failure == null) {
      failure = error;
    }
    leaderActive = false;
    progress.signalAll();
  }
}
