package io.hotrap.core;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Turns RocksDB's flush and compaction events into fresh tier sizes and migration checks. Callbacks
 * run on RocksDB's background threads: they read the tier sizes (a property read, which RocksDB
 * allows there), so that stalled writers see a flush at once rather than after the migrator's
 * current step, and ask the migrator for a check; they never call anything that waits for
 * background work, which would deadlock there. The migrator is attached after
 * RocksDB opened; events before that are dropped, and the first periodic check covers them.
 */
final class TierEventListener extends AbstractEventListener {
  private static final Logger LOG = Logger.getLogger(TierEventListener.class.getName());

  private volatile TierMigrator migrator;
  private volatile MigrationScheduler scheduler;
  /** The memory tier, told of flushes (its watermark) and compactions (a trim pass); or null. */
  private volatile MemoryTier memory;
  /**
   * Callbacks in flight. {@link #detach()} refuses new ones and waits for those running, so none
   * reads a column family the store is about to close.
   */
  private final LifecycleGuard callbacks = new LifecycleGuard();

  /**
   * Flush and compaction events only. Background errors are not subscribed to: RocksJava 11.8.1's
   * {@code BackgroundErrorReason} knows reasons 0–3, and RocksDB reports more (4 a MANIFEST write,
   * 5 a flush without WAL, as on a full disk), for which RocksJava's private proxy throws on
   * RocksDB's thread before any listener code runs, printing an exception to stderr. A background
   * error reaches callers as the failure of their next write, with RocksDB's status in it.
   */
  TierEventListener() {
    super(EnabledEventCallback.ON_FLUSH_COMPLETED, EnabledEventCallback.ON_COMPACTION_COMPLETED);
  }

  void attach(TierMigrator migrator, MigrationScheduler scheduler) {
    this.scheduler = scheduler;
    this.migrator = migrator;
  }

  void attachMemory(MemoryTier memory) {
    this.memory = memory;
  }

  /** Stops forwarding events and waits until no callback is using the store. */
  void detach() {
    callbacks.beginClose();
    callbacks.drain();
    this.migrator = null;
    this.scheduler = null;
    this.memory = null;
  }

  @Override
  public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
    MemoryTier mem = memory;
    if (mem != null && callbacks.tryEnter()) {
      try {
        mem.flushCompleted(info.getColumnFamilyName(), info.getLargestSeqno());
      } finally {
        callbacks.exit();
      }
    }
    request();
  }

  @Override
  public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
    TierMigrator m = migrator;
    if (m != null) {
      m.compactionEnded();
    }
    MemoryTier mem = memory;
    if (mem != null) {
      mem.requestTrim();
    }
    request();
  }

  private void request() {
    if (!callbacks.tryEnter()) {
      return;
    }
    try {
      TierMigrator m = migrator;
      MigrationScheduler s = scheduler;
      if (m != null && s != null) {
        try {
          m.refreshSizes();
        } catch (RocksDBException | RuntimeException e) {
          LOG.log(Level.FINE, "cannot read the tier sizes", e);
        }
        s.requestCheck();
      }
    } finally {
      callbacks.exit();
    }
  }
}
