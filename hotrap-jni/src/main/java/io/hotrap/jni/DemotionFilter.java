package io.hotrap.jni;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.AbstractCompactionFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.Slice;

/**
 * A native compaction filter that drops a record iff its (key, {@link ValueHash} of its value) is
 * in a {@link DemotionSet} at the moment the compaction sees it, and keeps everything else. Register
 * it with {@link ColumnFamilyOptions#setCompactionFilter}; it then runs on RocksDB's compaction
 * threads without calling into the JVM. A dropped record becomes a deletion, so older versions of
 * its key below the compaction stay hidden; at the bottommost level it vanishes. Only plain values
 * are considered: merge operands and wide-column entities are kept.
 *
 * <p>RocksDB applies compaction filters even to versions that open snapshots can still see
 * (DESIGN §6): do not compact with a non-empty set while a user snapshot is open.
 *
 * <h2>The handle</h2>
 *
 * The filter is made by RocksDB's own C API, {@code rocksdb_compactionfilter_create}, resolved at
 * run time in the loaded rocksdbjni library. That function returns a {@code
 * rocksdb_compactionfilter_t*}, a struct that derives from {@code rocksdb::CompactionFilter} as its
 * only base (RocksDB's {@code db/c.cc}), so the same address is the {@code CompactionFilter*} that
 * RocksJava's handle must be ({@code ColumnFamilyOptions.setCompactionFilterHandle} casts it so).
 * {@code DemotionFilterTest} proves the round trip: RocksDB logs the filter's name, calls its
 * decision and, on {@link #close}, its destructor.
 *
 * <h2>Ownership and lifetime</h2>
 *
 * This object owns the native filter; {@link #close} frees it with {@code
 * rocksdb_compactionfilter_destroy} (RocksJava's own {@code disposeInternal(long)}, which is final
 * and would {@code delete} the {@code CompactionFilter*} through its virtual destructor, is not
 * used). As with every RocksJava compaction filter, close it only after every database and option
 * object using it is closed. The filter holds its own reference on the set's native memory; the
 * set may be closed first, and the filter then keeps every record. Counters are readable until
 * {@code close}; afterwards they throw {@link IllegalStateException}. Thread-safe.
 */
public final class DemotionFilter extends AbstractCompactionFilter<Slice> {
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private final long state;

  /**
   * Creates a filter reading {@code set}.
   *
   * @throws UnsupportedOperationException when {@link NativeHooks#available()} is false
   * @throws IllegalStateException when the set is closed
   */
  public DemotionFilter(DemotionSet set) {
    this(newHandles(set));
  }

  private DemotionFilter(long[] handles) {
    super(handles[0]);
    this.state = handles[1];
  }

  private static long[] newHandles(DemotionSet set) {
    Objects.requireNonNull(set, "set");
    NativeHooks.requireAvailable();
    long[] state = new long[1];
    long filter = set.createFilter(state);
    return new long[] {filter, state[0]};
  }

  /** Records this filter has been asked about, by all compactions so far. */
  public long recordsSeen() {
    Lock lock = open();
    try {
      return NativeMethods.filterSeen(state);
    } finally {
      lock.unlock();
    }
  }

  /** Records this filter has dropped, by all compactions so far. */
  public long recordsDropped() {
    Lock lock = open();
    try {
      return NativeMethods.filterDropped(state);
    } finally {
      lock.unlock();
    }
  }

  /** Frees the native filter; idempotent. Only after the databases using it are closed. */
  @Override
  public void close() {
    Lock lock = lifecycle.writeLock();
    lock.lock();
    try {
      super.close();
    } finally {
      lock.unlock();
    }
  }

  @Override
  protected void disposeInternal() {
    NativeMethods.filterDestroy(nativeHandle_);
  }

  private Lock open() {
    Lock lock = lifecycle.readLock();
    lock.lock();
    if (!isOwningHandle()) {
      lock.unlock();
      throw new IllegalStateException("demotion filter is closed");
    }
    return lock;
  }
}
