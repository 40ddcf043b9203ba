package io.hotrap.core;

import java.util.Arrays;
import java.util.Objects;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * An ascending scan of both tiers at one snapshot (DESIGN.md §4): a merge of a fast-tier iterator
 * and a slow-tier iterator in unsigned byte order, the fast tier winning on equal keys (I1). Deleted
 * keys are absent from both. Each record whose value is read is logged as an access in RALT.
 *
 * <p>The iterator starts unpositioned; call {@link #seekToFirst()} or {@link #seek(byte[])}.
 * Not thread-safe. Close it when done (it pins the snapshot and the files it reads); closing the
 * store closes it.
 */
public final class HotRapIterator implements AutoCloseable {
  private final HotRapDB owner;
  private final ReadOptions readOptions;
  private final Snapshot ownedSnapshot;
  private final Slice lower;
  private final Slice upper;
  private final RocksIterator fast;
  private final RocksIterator slow;
  /** Source of the current record: 1 fast, 2 slow, 3 both (fast wins), 0 none. */
  private int current;
  private boolean recorded;
  private boolean closed;

  HotRapIterator(HotRapDB owner, HotRapSnapshot snapshot, byte[] lowInclusive, byte[] highExclusive) {
    this.owner = owner;
    this.ownedSnapshot = snapshot == null ? owner.rocks().getSnapshot() : null;
    this.readOptions = new ReadOptions()
        .setSnapshot(snapshot == null ? ownedSnapshot : snapshot.snapshot());
    this.lower = lowInclusive == null ? null : new Slice(lowInclusive);
    this.upper = highExclusive == null ? null : new Slice(highExclusive);
    if (lower != null) {
      readOptions.setIterateLowerBound(lower);
    }
    if (upper != null) {
      readOptions.setIterateUpperBound(upper);
    }
    this.fast = owner.rocks().newIterator(owner.fastHandle(), readOptions);
    this.slow = owner.rocks().newIterator(owner.slowHandle(), readOptions);
  }

  public void seekToFirst() {
    enter();
    try {
      fast.seekToFirst();
      slow.seekToFirst();
      settle();
    } finally {
      owner.guard().exit();
    }
  }

  /** Positions at the first key {@code >= target} (within the iterator's bounds). */
  public void seek(byte[] target) {
    Objects.requireNonNull(target, "target");
    enter();
    try {
      fast.seek(target);
      slow.seek(target);
      settle();
    } finally {
      owner.guard().exit();
    }
  }

  public boolean isValid() {
    checkOpen();
    return current != 0;
  }

  public void next() {
    enter();
    try {
      requireValid();
      if ((current & 1) != 0) {
        fast.next();
      }
      if ((current & 2) != 0) {
        slow.next();
      }
      settle();
    } finally {
      owner.guard().exit();
    }
  }

  /** The current key; the caller owns the array. @throws IllegalStateException if not valid */
  public byte[] key() {
    enter();
    try {
      requireValid();
      return (current & 1) != 0 ? fast.key() : slow.key();
    } finally {
      owner.guard().exit();
    }
  }

  /** The current value; the caller owns the array. @throws IllegalStateException if not valid */
  public byte[] value() {
    enter();
    try {
      requireValid();
      RocksIterator source = (current & 1) != 0 ? fast : slow;
      byte[] value = source.value();
      if (!recorded) {
        recorded = true;
        owner.tracker().record(source.key(), value.length);
      }
      return value;
    } finally {
      owner.guard().exit();
    }
  }

  private void settle() {
    recorded = false;
    boolean f = fast.isValid();
    boolean s = slow.isValid();
    if (!f || !s) {
      checkStatus();
      current = f ? 1 : s ? 2 : 0;
    } else {
      int c = Arrays.compareUnsigned(fast.key(), slow.key());
      current = c < 0 ? 1 : c > 0 ? 2 : 3;
    }
  }

  private void checkStatus() {
    try {
      fast.status();
      slow.status();
    } catch (RocksDBException e) {
      throw new HotRapException("iteration failed", e);
    }
  }

  private void requireValid() {
    if (current == 0) {
      throw new IllegalStateException("the iterator is not positioned on a record");
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the iterator is closed");
    }
  }

  private void enter() {
    owner.guard().enter();
    if (closed) {
      owner.guard().exit();
      throw new IllegalStateException("the iterator is closed");
    }
  }

  /** Releases the iterators and the snapshot. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      current = 0;
      fast.close();
      slow.close();
      readOptions.close();
      if (lower != null) {
        lower.close();
      }
      if (upper != null) {
        upper.close();
      }
      if (ownedSnapshot != null) {
        owner.rocks().releaseSnapshot(ownedSnapshot);
      }
    }
    owner.forget(this);
  }
}
