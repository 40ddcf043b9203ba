package io.hotrap.cache.flash;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The groups whose items the cache no longer accepts or serves: SAS-Cache's insertion control
 * (§IV-D), a FIFO of the {@code capacity} most recently invalidated groups, plus the groups whose
 * items are still being purged. A put into a group in either set is dropped; an item of such a
 * group found in either tier is a miss.
 *
 * <p><b>Why a short FIFO suffices.</b> In SAS-Cache a group is an SST file that compaction deleted:
 * nobody asks for its blocks again, and the only inserts into it are blocks already read before
 * the deletion that the block cache evicts later. Those arrive within one block-cache residence
 * time, so a group must stay in the FIFO at least that long; the paper keeps 10 file numbers
 * (80 bytes), which rejected about 24% of insertions and gained about 5% hit ratio. Here the FIFO
 * guards puts; correctness of reads after {@link FlashCache#invalidateGroup} comes from the purge
 * set: a group stays in it until the background purge has removed every item of the group from
 * both tiers. A group that left both sets is valid again.
 *
 * <h2>Concurrency</h2>
 * Changes are serialized by the object's monitor and publish an immutable snapshot array of both
 * sets; {@link #contains} reads the snapshot without a lock (a few longs, scanned linearly).
 *
 * <p><b>Inserts and purges.</b> Every insert into either tier (a put, a promotion, an admission to
 * flash, a reinsertion) checks its group between {@link #beginInsert} and {@link #endInsert}, and
 * inserts only if the group is valid. A purge marks the group, then calls
 * {@link #awaitEarlierInserts}, which returns once every insert that began before it has ended,
 * and only then walks the tiers. An insert that saw the group valid checked before the mark, so it
 * began before the wait and its item is in place when the walk starts; every later insert sees
 * the group invalid. Without the wait, an admission that checked the group, then waited seconds
 * for a clean region, could index its item after the walk and after the group left the FIFO, and
 * serve an item of an invalidated group. Inserts are counted in two slots by epoch (as in
 * epoch-based reclamation): the wait flips the epoch and waits for the old slot to drain.
 */
final class InvalidGroups {
  private static final long[] NONE = new long[0];

  private final int capacity;
  private final ArrayDeque<Long> recent = new ArrayDeque<>();
  private final Map<Long, Integer> purging = new HashMap<>();
  private volatile long[] snapshot = NONE;
  private final AtomicLong[] inserting = {new AtomicLong(), new AtomicLong()};
  private final Object epochLock = new Object();
  private volatile long epoch;

  InvalidGroups(int capacity) {
    this.capacity = capacity;
  }

  /** Whether items of {@code group} are rejected and not served. */
  boolean contains(long group) {
    return contains(snapshot, group);
  }

  /**
   * The invalid groups now, for a reader to check items against later: a get takes it before it
   * reads either tier, so that a purge finishing while it reads cannot make an item it already
   * found look valid.
   */
  long[] snapshot() {
    return snapshot;
  }

  /** Whether {@code group} is in a {@link #snapshot()}. */
  static boolean contains(long[] snapshot, long group) {
    for (long g : snapshot) {
      if (g == group) {
        return true;
      }
    }
    return false;
  }

  /** Starts an insert; returns the ticket to pass to {@link #endInsert}. */
  int beginInsert() {
    while (true) {
      long e = epoch;
      AtomicLong slot = inserting[(int) (e & 1)];
      slot.incrementAndGet();
      if (epoch == e) {
        return (int) (e & 1);
      }
      slot.decrementAndGet(); // the epoch flipped meanwhile: count this insert in the new one
    }
  }

  /** Ends the insert started with {@code ticket}. */
  void endInsert(int ticket) {
    inserting[ticket].decrementAndGet();
  }

  /** Returns once every insert begun before the call has ended; for the purge thread. */
  void awaitEarlierInserts() {
    synchronized (epochLock) {
      long e = epoch;
      epoch = e + 1;
      AtomicLong old = inserting[(int) (e & 1)];
      while (old.get() != 0) {
        LockSupport.parkNanos(20_000);
      }
    }
  }

  /** Marks {@code group} invalid and being purged; the caller must call {@link #purged} later. */
  synchronized void invalidate(long group) {
    recent.remove(group);
    recent.addLast(group);
    while (recent.size() > capacity) {
      recent.removeFirst();
    }
    purging.merge(group, 1, Integer::sum);
    publish();
  }

  /** The purge started by one {@link #invalidate} of {@code group} finished. */
  synchronized void purged(long group) {
    purging.computeIfPresent(group, (g, n) -> n == 1 ? null : n - 1);
    publish();
  }

  /** Puts {@code groups} back into the FIFO, oldest first (a checkpoint's); no purge pending. */
  synchronized void restore(long[] groups) {
    for (long g : groups) {
      recent.remove(g);
      recent.addLast(g);
      while (recent.size() > capacity) {
        recent.removeFirst();
      }
    }
    publish();
  }

  /** The FIFO's groups, oldest first. */
  synchronized long[] recent() {
    return recent.stream().mapToLong(Long::longValue).toArray();
  }

  /** Groups whose purge has not finished. */
  synchronized int purging() {
    return purging.size();
  }

  private void publish() {
    long[] s = new long[recent.size() + purging.size()];
    int i = 0;
    for (long g : recent) {
      s[i++] = g;
    }
    for (long g : purging.keySet()) {
      s[i++] = g;
    }
    snapshot = s.length == 0 ? NONE : Arrays.copyOf(s, i);
  }
}
