package io.hotrap.core;

import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * A consistent cut of both tiers: one RocksDB snapshot covers the fast and the slow column family,
 * so a record a migration moves between them is seen exactly once, at its version as of the cut.
 * Pass it to {@link HotRapDB#get(HotRapSnapshot, byte[])} and {@link HotRapDB#newIterator(HotRapSnapshot)}.
 *
 * <p>Close it when done: an open snapshot keeps old versions, and so fast-tier bytes that migration
 * would free, alive. Closing is idempotent; closing the store closes its open snapshots. Thread-safe.
 */
public final class HotRapSnapshot implements AutoCloseable {
  private final HotRapDB owner;
  private final RocksDB db;
  private final Snapshot snapshot;
  private final ReadOptions readOptions;
  private boolean closed;

  HotRapSnapshot(HotRapDB owner, RocksDB db) {
    this.owner = owner;
    this.db = db;
    this.snapshot = db.getSnapshot();
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
  }

  HotRapDB owner() {
    return owner;
  }

  /** Read options bound to this snapshot. @throws IllegalStateException if closed */
  synchronized ReadOptions readOptions() {
    if (closed) {
      throw new IllegalStateException("the snapshot is closed");
    }
    return readOptions;
  }

  Snapshot snapshot() {
    return snapshot;
  }

  /** The RocksDB sequence number of the cut. */
  public long sequenceNumber() {
    return snapshot.getSequenceNumber();
  }

  /** Releases the snapshot. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      db.releaseSnapshot(snapshot);
      readOptions.close();
    }
    owner.forget(this);
  }
}
