package io.hotrap.core;

import io.hotrap.jni.DemotionFilter;
import io.hotrap.jni.DemotionSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The native demotion path (DESIGN.md §7 step 4, §8): demoted versions leave the fast tier through
 * a compaction filter instead of tombstones. The fast tier's column family carries a {@link
 * DemotionFilter} over one {@link DemotionSet}; a migration step registers the (key, value hash)
 * of every record it has copied to the slow tier, compacts the file it read, where the filter
 * drops those versions, and releases its pairs.
 *
 * <h2>Protocol</h2>
 *
 * Three rules, each enforced where noted:
 * <ol>
 *   <li><b>Copy before drop.</b> {@link TierMigrator} copies a step's records into the slow tier
 *       in its commits, syncs the WAL, and only then registers them; a crash or power loss at any
 *       point leaves each record in the slow tier, in the fast tier, or in both with the same
 *       value (I5).
 *   <li><b>A write wins.</b> A writer calls {@link #beforeWrite} inside its shared hold of the
 *       {@link CommitGate}, before it writes; a step arms ({@link #arm}) and registers inside one
 *       exclusive hold, skipping the keys in its {@link UpdatedKeys}. So a write either comes
 *       before the registration (its key is marked and not registered) or after it (the writer
 *       sees the path armed and removes the key's pairs, so no compaction drops the new version,
 *       even one with the same bytes).
 *   <li><b>Snapshots see what they saw.</b> RocksDB runs compaction filters on versions a live
 *       snapshot can see. A step registers only if no user snapshot is open at its registration,
 *       which follows its copies: a snapshot counted later was taken after the copies and reads
 *       them; otherwise the step writes tombstones for its records instead (the fallback, counted
 *       in {@code demotionTombstones}). {@link HotRapDB#getSnapshot} counts a snapshot before it
 *       takes RocksDB's.
 * </ol>
 * Plain iterators need no rule: each pins the files it reads, so a compaction that drops a version
 * does not change what an open iterator sees.
 *
 * <p>Thread-safe. Owns the set and the filter; close both after RocksDB is closed.
 */
final class NativeDemotion implements AutoCloseable {
  private final DemotionSet set;
  private final DemotionFilter filter;
  /** Steps between their first registration and their release; writers look up the set while > 0. */
  private final AtomicInteger armed = new AtomicInteger();

  private NativeDemotion(DemotionSet set, DemotionFilter filter) {
    this.set = set;
    this.filter = filter;
  }

  /**
   * Creates the set and its filter.
   *
   * @throws UnsupportedOperationException when the native hooks did not load
   */
  static NativeDemotion create() {
    DemotionSet set = new DemotionSet();
    try {
      return new NativeDemotion(set, new DemotionFilter(set));
    } catch (RuntimeException | Error e) {
      set.close();
      throw e;
    }
  }

  /** The filter to install on the fast tier's column family. */
  DemotionFilter filter() {
    return filter;
  }

  /** Writer side of rule 2: call for each key inside the gate's shared hold, before the write. */
  void beforeWrite(byte[] key) {
    if (armed.get() > 0) {
      set.remove(key);
    }
  }

  /** Marks one step as registering; call inside the gate's exclusive hold, before its first pair. */
  void arm() {
    armed.incrementAndGet();
  }

  /** Registers the version of {@code key} whose value hashes to {@code valueHash} ({@link ValueHash}); only while armed. */
  void register(byte[] key, long valueHash) {
    set.add(key, valueHash);
  }

  /** Ends a step: removes its keys' pairs and disarms it. */
  void release(List<byte[]> keys) {
    try {
      for (byte[] key : keys) {
        set.remove(key);
      }
    } finally {
      armed.decrementAndGet();
    }
  }

  /** Records the filter has dropped since the store opened. */
  long recordsDropped() {
    return filter.recordsDropped();
  }

  @Override
  public void close() {
    try {
      filter.close();
    } finally {
      set.close();
    }
  }
}
