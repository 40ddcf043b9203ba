package io.hotrap.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The guard between user writes and background movers (DESIGN.md §6, after HotRAP §3.4).
 *
 * <p><b>The race.</b> A mover (a tier migration step, or promotion by compaction within it) reads a
 * record, decides, and writes it elsewhere later. (Promotion by flush follows the same protocol with
 * the immutable table's own marks in place of an {@link UpdatedKeys}; see {@link Promoter}.) If a user write of the same key lands in
 * between, writing the mover's stale copy would bring an old version back.
 *
 * <p><b>The protocol.</b>
 * <ol>
 *   <li>A mover calls {@link #registerMover()} <em>before</em> it reads anything (a migration before
 *       its snapshot).
 *   <li>A writer calls {@link #enterWriter()}, writes to RocksDB, calls {@link #markWritten(byte[])}
 *       for each key and {@link #exitWriter()}: the whole sequence holds the gate shared. Marking a
 *       key bumps its stripe's write counter, invalidates it in the promotion cache and adds it to
 *       every registered mover's {@link UpdatedKeys}, all under the key's stripe lock.
 *   <li>A mover commits one batch inside {@link #commit(Commit)}: the gate is held exclusive, the
 *       mover drops the keys in its {@link UpdatedKeys} and writes the rest.
 * </ol>
 * Because a writer's write and marking sit inside one shared hold, an exclusive commit sees each
 * concurrent write either completely (the key is marked and dropped) or not at all (the write
 * lands after the commit and is newer). The mover holds the gate for one batch only.
 *
 * <p><b>Where each mover's marks live.</b> There are two kinds of marks, one rule. A migration step
 * (and promotion by compaction, which runs inside it on the same range) registers an
 * {@link UpdatedKeys} for its file's key range before it takes its snapshot. Promotion by flush
 * uses the frozen promotion table itself: {@code PromotionCache.freeze()} registers the table for
 * marks before the mutable reference is swapped, and the invalidation a writer runs in
 * {@link #markWritten} marks it ({@code ImmutablePromotionCache.isUpdated}). Either way the marks
 * are registered before the mover reads, written inside the writer's shared hold, and read inside
 * the mover's exclusive one.
 *
 * <p>Thread-safe. The lock is non-fair, but a waiting mover blocks new shared holders, so movers do
 * not starve under a stream of writes.
 */
final class CommitGate {

  /** Hook that drops a written key from the mutable promotion cache; promotion plugs in here. */
  interface PromotionInvalidator {
    PromotionInvalidator NONE = key -> { };

    void invalidate(byte[] key);
  }

  /** One batch of a mover, run with the gate held exclusive. */
  interface Commit {
    void run() throws Exception;
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final LongAdder exclusiveHolds = new LongAdder();
  private final List<UpdatedKeys> movers = new CopyOnWriteArrayList<>();
  /** Per-stripe write counters and locks (rule P2 reads them; see {@link Promoter}). */
  private final StripedWriteCounters stripes;
  private volatile PromotionInvalidator invalidator = PromotionInvalidator.NONE;

  CommitGate(StripedWriteCounters stripes) {
    this.stripes = stripes;
  }

  StripedWriteCounters stripes() {
    return stripes;
  }

  void setPromotionInvalidator(PromotionInvalidator invalidator) {
    this.invalidator = invalidator;
  }

  /** Registers a mover of every key; call before the mover reads anything. */
  UpdatedKeys registerMover() {
    return registerMover(null, null);
  }

  /**
   * Registers a mover of the keys in {@code [lowInclusive, highInclusive]} (null bounds are open);
   * call before the mover reads anything. Writes outside the range are not recorded for it.
   */
  UpdatedKeys registerMover(byte[] lowInclusive, byte[] highInclusive) {
    UpdatedKeys keys = new UpdatedKeys(lowInclusive, highInclusive);
    movers.add(keys);
    return keys;
  }

  void unregisterMover(UpdatedKeys keys) {
    movers.remove(keys);
  }

  void enterWriter() {
    lock.readLock().lock();
  }

  void exitWriter() {
    lock.readLock().unlock();
  }

  /** Step 2 of the writer protocol for one key; call between RocksDB's write and {@link #exitWriter()}. */
  void markWritten(byte[] key) {
    int stripe = stripes.stripeOf(key);
    synchronized (stripes.lock(stripe)) {
      stripes.increment(stripe);
      invalidator.invalidate(key);
      for (UpdatedKeys u : movers) {
        u.add(key);
      }
    }
  }

  /**
   * A promotion wrote {@code key} into the fast tier: every registered migration step treats it as
   * updated, so it neither demotes the key (a tombstone would delete the promoted copy) nor
   * registers it with the native filter (which would drop the copy, same bytes as the demoted
   * version). Call inside {@link #commit}. Unlike {@link #markWritten} it leaves the write counters
   * and the promotion cache alone: the promoted version is the one the slow tier holds.
   */
  void markPromoted(byte[] key) {
    for (UpdatedKeys u : movers) {
      u.add(key);
    }
  }

  /** Whether a mover waits for the gate (for tests that force an interleaving). */
  boolean hasWaitingMover() {
    return lock.hasQueuedThreads() && !lock.isWriteLocked() && lock.getReadLockCount() > 0;
  }

  /** Exclusive holds taken since the gate was made (tests: who holds writers back, and how often). */
  long exclusiveHolds() {
    return exclusiveHolds.sum();
  }

  /** Runs one mover batch with the gate held exclusive. */
  void commit(Commit commit) throws Exception {
    exclusiveHolds.increment();
    lock.writeLock().lock();
    try {
      commit.run();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
