package io.hotrap.core;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * A consistent cut of both tiers: one RocksDB snapshot covers the fast and the slow column family,
 * so a record a migration moves between them is seen exactly once, at its version as of the cut.
 * Pass it to {@link HotRapDB#get(HotRapSnapshot, byte[])} and {@link HotRapDB#newIterator(HotRapSnapshot)}.
 *
 * <p>Close it when done: an open snapshot keeps the versions it sees alive, and with them fast-tier
 * bytes that migration would free ({@code HotRapStats.openSnapshots()} counts them; writers are
 * held back while the fast tier is over its budget by more than the snapshots pin). Closing is
 * idempotent; closing the store closes its open snapshots.
 *
 * <p><b>Thread-safety and lifetime.</b> Any thread may read through the snapshot and close it at
 * the same time. Reads run under a read lock and {@link #close()} takes the write lock, so the
 * native snapshot is never released under a running read; a read after close throws
 * {@link IllegalStateException}. An iterator created on the snapshot retains it: the native snapshot
 * is released when the snapshot is closed <em>and</em> its last iterator is closed, so an iterator
 * outliving {@code close()} still reads what it was created to read.
 */
public final class HotRapSnapshot implements AutoCloseable {
  private final HotRapDB owner;
  private final RocksDB db;
  private final Snapshot snapshot;
  private final long sequenceNumber;
  private final ReadOptions readOptions;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** Guarded by the write lock, or read under the read lock. */
  private boolean closed;
  /** Open iterators on this snapshot; guarded by the write lock. */
  private int iterators;
  private boolean released;

  HotRapSnapshot(HotRapDB owner, RocksDB db) {
    this.owner = owner;
    this.db = db;
    this.snapshot = db.getSnapshot();
    this.sequenceNumber = snapshot.getSequenceNumber();
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
  }

  HotRapDB owner() {
    return owner;
  }

  /**
   * Runs {@code read} with read options bound to this snapshot, which stays alive until it returns.
   *
   * @throws IllegalStateException if the snapshot is closed
   */
  <T> T read(Function<ReadOptions, T> read) {
    lock.readLock().lock();
    try {
      checkOpen();
      return read.apply(readOptions);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Binds {@code options} to this snapshot for an iterator and keeps the native snapshot alive
   * until {@link #release()}.
   *
   * @throws IllegalStateException if the snapshot is closed
   */
  void retain(ReadOptions options) {
    lock.writeLock().lock();
    try {
      checkOpen();
      options.setSnapshot(snapshot);
      iterators++;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Ends one {@link #retain(ReadOptions)}; frees the native snapshot if it was the last hold of a closed one. */
  void release() {
    lock.writeLock().lock();
    try {
      iterators--;
      freeIfUnused();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Whether the snapshot is open: not closed by its user. */
  public boolean isOpen() {
    lock.readLock().lock();
    try {
      return !closed;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The RocksDB sequence number of the cut; valid after close too. */
  public long sequenceNumber() {
    return sequenceNumber;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the snapshot is closed");
    }
  }

  private void freeIfUnused() {
    if (closed && iterators == 0 && !released) {
      released = true;
      db.releaseSnapshot(snapshot);
      readOptions.close();
    }
  }

  /** Closes the snapshot; its versions are released once no iterator on it is open. Idempotent. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      freeIfUnused();
    } finally {
      lock.writeLock().unlock();
    }
    owner.forget(this);
  }
}
