package io.hotrap.jni;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The (key, value hash) pairs that a {@link DemotionFilter} drops: the versions a migration has
 * copied to the slow tier and now removes from the fast one without tombstones (DESIGN §7 step 4,
 * §8). The pairs live in native memory so that the filter, running on RocksDB's compaction threads,
 * reads them without calling into the JVM. A key may have several pairs; value hashes are {@link
 * ValueHash#of(byte[])}.
 *
 * <h2>Concurrency</h2>
 *
 * Thread-safe. Two locks, each against one race:
 *
 * <ul>
 *   <li>A native {@code pthread_rwlock} guards the pairs. The filter takes it shared once per record
 *       it sees; {@link #contains} and {@link #size} take it shared; {@link #add}, {@link #remove}
 *       and {@link #clear} take it exclusive. A decision is therefore made against the set as it is
 *       at the moment the compaction reaches the record: a pair removed before that is not dropped.
 *       The lock prefers writers, so a user write waiting in {@link #remove} is not starved by a
 *       stream of compaction lookups.
 *   <li>A Java read-write lock guards the native memory against {@link #close}: every method holds
 *       it shared for its native call and {@code close} holds it exclusive, so {@code close} never
 *       frees memory that a concurrent call is reading. After close, every method but {@code close}
 *       throws {@link IllegalStateException}.
 * </ul>
 *
 * <h2>The demotion protocol</h2>
 *
 * A mover adds a pair only after the version is durably in the slow tier, then compacts; a writer
 * calls {@link #remove} for its key <em>before</em> it writes the key. The race this prevents: a
 * writer stores the very bytes a pair was registered for (same key, same hash); without the
 * removal, the next compaction would drop the new write. With it, the set no longer holds the key
 * when the new version reaches any compaction. The set does not order a mover's {@code add} after
 * a concurrent write of the same key; the caller's protocol does (DESIGN §6: a mover skips keys in
 * its {@code updated} set), and a mover removes or clears its pairs when its compaction ends.
 *
 * <h2>Ownership</h2>
 *
 * This object owns the native set and frees it in {@link #close}. Each {@link DemotionFilter}
 * created from it holds a native reference of its own, so a filter that outlives its set stays
 * memory-safe: closing empties the set first, and such a filter keeps every record.
 */
public final class DemotionSet implements AutoCloseable {
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private long handle; // guarded by lifecycle; 0 once closed

  /**
   * Creates an empty set.
   *
   * @throws UnsupportedOperationException when {@link NativeHooks#available()} is false
   */
  public DemotionSet() {
    NativeHooks.requireAvailable();
    this.handle = NativeMethods.setCreate();
  }

  /**
   * Registers a pair.
   *
   * @return true if it was added, false if it was already present
   * @throws IllegalStateException after {@link #close}
   */
  public boolean add(byte[] key, long valueHash) {
    Objects.requireNonNull(key, "key");
    Lock lock = open();
    try {
      return NativeMethods.setAdd(handle, key, valueHash);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes every pair of the key. A writer calls this before it writes the key.
   *
   * @return how many pairs were removed
   * @throws IllegalStateException after {@link #close}
   */
  public int remove(byte[] key) {
    Objects.requireNonNull(key, "key");
    Lock lock = open();
    try {
      return NativeMethods.setRemove(handle, key);
    } finally {
      lock.unlock();
    }
  }

  /** @throws IllegalStateException after {@link #close} */
  public boolean contains(byte[] key, long valueHash) {
    Objects.requireNonNull(key, "key");
    Lock lock = open();
    try {
      return NativeMethods.setContains(handle, key, valueHash);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The number of pairs.
   *
   * @throws IllegalStateException after {@link #close}
   */
  public long size() {
    Lock lock = open();
    try {
      return NativeMethods.setSize(handle);
    } finally {
      lock.unlock();
    }
  }

  /** @throws IllegalStateException after {@link #close} */
  public void clear() {
    Lock lock = open();
    try {
      NativeMethods.setClear(handle);
    } finally {
      lock.unlock();
    }
  }

  /** Empties the set and frees it once no filter references it. Idempotent. */
  @Override
  public void close() {
    Lock lock = lifecycle.writeLock();
    lock.lock();
    try {
      if (handle != 0) {
        NativeMethods.setClose(handle);
        handle = 0;
      }
    } finally {
      lock.unlock();
    }
  }

  /** See {@link NativeMethods#filterCreate}; the filter takes its own reference on the set. */
  long createFilter(long[] stateOut) {
    Lock lock = open();
    try {
      return NativeMethods.filterCreate(handle, stateOut);
    } finally {
      lock.unlock();
    }
  }

  /** Takes the lifecycle lock shared; the caller unlocks it. */
  private Lock open() {
    Lock lock = lifecycle.readLock();
    lock.lock();
    if (handle == 0) {
      lock.unlock();
      throw new IllegalStateException("demotion set is closed");
    }
    return lock;
  }
}
