package io.hotrap.core;

import java.util.ArrayList;
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
 * <p>With write-hot separation ({@link WriteHotSeparator}) a third disk source, {@code fast-hot},
 * ranks above the fast tier: a key it holds is a member whose newest version it has (S2), and a
 * deleted member is absent from all three.
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
  /**
   * Sources, highest priority first: (with write-hot separation) fast-hot, then fast, then slow.
   */
  private final RocksIterator[] sources;
  /** Bit i set: source i is positioned on the current key; 0: not positioned. */
  private long current;
  /** The source whose version is the current record. */
  private int winner;
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
    List<RocksIterator> opened = new ArrayList<>();
    try {
      opened.addAll(diskIterators());
      this.sources = opened.toArray(new RocksIterator[0]);
      success = true;
    } finally {
      if (!success) {
        for (RocksIterator it : opened) {
          it.close();
        }
        freeOptions();
        if (snapshot != null) {
          snapshot.release();
        }
      }
    }
  }

  private List<RocksIterator> diskIterators() {
    try {
      List<org.rocksdb.ColumnFamilyHandle> cfs = owner.separator() != null
          ? List.of(owner.hotHandle(), owner.fastHandle(), owner.slowHandle())
          : List.of(owner.fastHandle(), owner.slowHandle());
      return owner.rocks().newIterators(cfs, readOptions);
    } catch (RocksDBException e) {
      throw new HotRapException("cannot create an iterator", e);
    }
  }

  public void seekToFirst() {
    enter();
    try {
      for (RocksIterator it : sources) {
        it.seekToFirst();
      }
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
      for (RocksIterator it : sources) {
        it.seek(target);
      }
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
      advanceCurrent();
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
      return sources[winner].key();
    } finally {
      owner.guard().exit();
    }
  }

  /** The current value; the caller owns the array. @throws IllegalStateException if not valid */
  public byte[] value() {
    enter();
    try {
      requireValid();
      RocksIterator source = sources[winner];
      byte[] value = source.value();
      if (!recorded) {
        recorded = true;
        if (owner.readsTracked()) {
          owner.tracker().record(source.key(), value.length, winner == sources.length - 1);
        }
      }
      return value;
    } finally {
      owner.guard().exit();
    }
  }

  private void advanceCurrent() {
    for (int i = 0; i < sources.length; i++) {
      if ((current & (1L << i)) != 0) {
        sources[i].next();
      }
    }
  }

  /** Positions on the smallest key of any source. */
  private void settle() {
    recorded = false;
    byte[] min = null;
    long mask = 0;
    int first = -1;
    for (int i = 0; i < sources.length; i++) {
      if (!sources[i].isValid()) {
        continue;
      }
      byte[] k = sources[i].key();
      int c = min == null ? -1 : Arrays.compareUnsigned(k, min);
      if (c < 0) {
        min = k;
        mask = 1L << i;
        first = i;
      } else if (c == 0) {
        mask |= 1L << i;
      }
    }
    if (min == null) {
      checkStatus();
      current = 0;
      return;
    }
    current = mask;
    winner = first;
  }

  private void checkStatus() {
    try {
      for (RocksIterator it : sources) {
        it.status();
      }
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
      for (RocksIterator it : sources) {
        it.close();
      }
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
