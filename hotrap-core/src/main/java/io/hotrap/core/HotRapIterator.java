package io.hotrap.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * An ascending scan of both tiers at one consistent cut (DESIGN.md §4): a merge of a fast-tier
 * iterator and a slow-tier iterator in unsigned byte order, the fast tier winning on equal keys
 * (I1). Deleted keys are absent from both. Each record whose value is read is logged as an access in
 * RALT.
 *
 * <p><b>What an open iterator pins.</b> Without a {@link HotRapSnapshot} the two RocksDB iterators
 * are created together ({@code RocksDB.newIterators}), which reads both column families at one
 * sequence number without registering a snapshot: the iterator pins the memtables and SST files it
 * reads (their disk space stays until it closes, visible as {@code pinnedFastBytes}), but never
 * the versions compaction may drop, so migration frees the fast tier's budget while scans run.
 * An iterator over a user snapshot sees that snapshot's versions; the snapshot, not the iterator,
 * keeps them alive, and it stays alive while the iterator is open even if the snapshot is closed
 * first.
 *
 * <p>The iterator starts unpositioned; call {@link #seekToFirst()} or {@link #seek(byte[])}.
 * Not thread-safe: one thread at a time. Close it when done; closing the store closes it.
 */
public final class HotRapIterator implements AutoCloseable {
  private final HotRapDB owner;
  private final ReadOptions readOptions;
  /** The user snapshot read, or null; retained until this iterator closes. */
  private final HotRapSnapshot snapshot;
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
    this.snapshot = snapshot;
    this.readOptions = new ReadOptions();
    this.lower = lowInclusive == null ? null : new Slice(lowInclusive);
    this.upper = highExclusive == null ? null : new Slice(highExclusive);
    if (lower != null) {
      readOptions.setIterateLowerBound(lower);
    }
    if (upper != null) {
      readOptions.setIterateUpperBound(upper);
    }
    if (snapshot != null) {
      try {
        snapshot.retain(readOptions);
      } catch (RuntimeException e) {
        freeOptions();
        throw e;
      }
    }
    boolean success = false;
    try {
      List<RocksIterator> its;
      try {
        its = owner.rocks().newIterators(List.of(owner.fastHandle(), owner.slowHandle()), readOptions);
      } catch (RocksDBException e) {
        throw new HotRapException("cannot create an iterator", e);
      }
      this.fast = its.get(0);
      this.slow = its.get(1);
      success = true;
    } finally {
      if (!success) {
        freeOptions();
        if (snapshot != null) {
          snapshot.release();
        }
      }
    }
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

  /** Releases the RocksDB iterators and this iterator's hold on its snapshot. Idempotent. */
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
      freeOptions();
      if (snapshot != null) {
        snapshot.release();
      }
    }
    owner.forget(this);
  }

  private void freeOptions() {
    readOptions.close();
    if (lower != null) {
      lower.close();
    }
    if (upper != null) {
      upper.close();
    }
  }
}
