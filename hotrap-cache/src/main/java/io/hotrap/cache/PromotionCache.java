package io.hotrap.cache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HotRAP's promotion cache (§3.3, §3.4; DESIGN.md §4, §6, §9): an in-memory store of records read
 * from the slow tier, from which hot records are promoted to the fast tier by flush or by compaction.
 *
 * <p>It holds one <em>mutable</em> table and a list of <em>immutable</em> ones
 * ({@link ImmutablePromotionCache}), each a map from key to value ordered by {@link #KEY_ORDER}
 * (unsigned bytes, as RocksDB's default comparator). The life of a record:
 * <ol>
 *   <li>a reader that found it in the slow tier {@linkplain #insert inserts} it into the mutable
 *       table, which {@linkplain #get serves} later reads;
 *   <li>a user write of the key {@linkplain #invalidate invalidates} it: the key leaves the mutable
 *       table and is marked <em>updated</em> in every immutable table still being checked;
 *   <li>a migration of a key range takes the mutable table's entries of that range
 *       ({@link #range}), promotes the hot ones and {@linkplain #removeIfUnchanged removes} the
 *       taken entries (promotion by compaction, DESIGN.md §7 step 3);
 *   <li>when the mutable table reaches its target size it is {@linkplain #freeze frozen} into an
 *       immutable one and a fresh mutable table takes its place; a background checker iterates the
 *       immutable entries with their updated marks, promotes the hot ones that were not updated, may
 *       {@linkplain #putBack put some back} into the mutable table when too few are hot, and
 *       {@linkplain #release releases} it (promotion by flush, DESIGN.md §9).
 * </ol>
 * {@link #get} reads the mutable table, then the immutable tables not yet released, newest first,
 * skipping keys marked updated there. The official HotRAP code does not read immutable tables
 * (DESIGN.md §4); but a check takes a while — it waits for RALT to write its buffer — and every
 * get of a key in the table being checked went to the slow tier meanwhile: with a hot set read at
 * full speed, a measured hit rate moved between 0.90 and 0.95 with the checker's timing. The cache
 * stores what it is given; deciding whether a record may be cached (the stripe write counter of
 * rule P2, DESIGN.md §6) is the caller's job.
 *
 * <p><b>Size.</b> Each entry is charged {@code key.length + value.length + }{@link
 * #ENTRY_OVERHEAD_BYTES}. {@link #isFull()} tells when the mutable table's charge has reached the
 * target; the cache never evicts and never freezes by itself. A record whose key and value together
 * exceed {@linkplain Builder#maxRecordBytes the record limit} is not cached.
 *
 * <p><b>Arrays.</b> The cache keeps the key and value arrays it is given, and hands out the same
 * arrays from {@link #get} and {@link Entry}: neither side may modify them afterwards.
 *
 * <h2>Concurrency</h2>
 * All methods are thread-safe; the cache is built for many threads calling {@link #get},
 * {@link #insert} and {@link #invalidate} while one background checker freezes, checks and releases.
 * None of them blocks except {@link #freeze}, which waits for operations already inside the table it
 * freezes (all non-blocking map operations; see {@link CacheTable}). What is atomic with respect to
 * what:
 * <ul>
 *   <li><b>Per key, in the mutable table.</b> {@code get}, {@code insert}, {@code invalidate},
 *       {@code removeIfUnchanged} and each entry of {@code putBack} are atomic map operations on the
 *       key (linearizable). An {@code insert} that takes effect after an {@code invalidate} of the
 *       same key stays cached: a concurrent insert of a stale value must be prevented by the caller
 *       (rule P2: insert under the key's stripe lock only if its write counter did not move).
 *   <li><b>Freeze.</b> Every {@code insert}, {@code invalidate}, {@code removeIfUnchanged} and
 *       {@code putBack} takes effect in exactly one table: either the one being frozen, and then
 *       before {@code freeze} returns, or the new mutable one. An immutable table therefore never
 *       changes after {@code freeze} returned it, and its {@link ImmutablePromotionCache#bytes()} is
 *       exact. A {@code get} reads whichever table was mutable when it started.
 *   <li><b>No lost invalidation (I4).</b> When {@code invalidate(k)} returns, no table that
 *       {@code get} can read holds an entry of {@code k} whose insert completed before the
 *       invalidation began; and every immutable table not yet released either does not hold
 *       {@code k} or has {@code k} marked updated. Freeze registers the new immutable table (so
 *       that invalidations start marking it) <em>before</em> it swaps the mutable reference, and an
 *       invalidation reads the list of immutable tables <em>after</em> the mutable reference, so an
 *       invalidation either removes {@code k} from the table before it is frozen or sees the new
 *       immutable table and marks {@code k} there (DESIGN.md §6).
 *   <li><b>Put-back vs invalidate.</b> A put-back entry is first stored invisible to {@code get} and
 *       {@code range}; then the updated mark of its key in the source table is read again, and the
 *       entry is published only if still unmarked, else removed. An invalidation marks the source
 *       table before it removes the key from the mutable table, so of the two orders one catches
 *       the other: a put-back never resurrects a value overwritten while it was being checked.
 *   <li><b>Range.</b> {@code range} is a weakly consistent view (it may or may not include
 *       concurrent changes); {@code removeIfUnchanged} removes an entry only if the key still maps
 *       to that very entry, so entries inserted or invalidated after {@code range} are not touched.
 *   <li><b>Updated marks</b> keep being added while a checker iterates an immutable table. The
 *       decisive read of {@link ImmutablePromotionCache#isUpdated} is the one made while writers
 *       are excluded (the store's commit gate), not the one made while iterating.
 * </ul>
 * Freezes and releases are serialized with each other by an internal lock.
 */
public final class PromotionCache {

  /**
   * Default largest record (key + value bytes) that is cached: 16 KiB, as the official HotRAP code,
   * which skips records of 16 KiB or more (one byte less than here).
   */
  public static final int DEFAULT_MAX_RECORD_BYTES = 16 * 1024;

  /**
   * Bytes charged per entry on top of its key and value lengths: an estimate of the heap an entry
   * costs on a 64-bit JVM with compressed references — the skip-list node (24) and its share of
   * index nodes (8), the {@link Entry} object (24) and the headers of the key and value arrays
   * (2 × 16).
   */
  public static final int ENTRY_OVERHEAD_BYTES = 88;

  /** The order of keys in every table: lexicographic over unsigned bytes. */
  public static final Comparator<byte[]> KEY_ORDER = Arrays::compareUnsigned;

  private static final ImmutablePromotionCache[] NONE = new ImmutablePromotionCache[0];
  /** Presence bits per entry a full table can hold at most (see {@link CacheTable}). */
  private static final int PRESENCE_BITS_PER_ENTRY = 8;
  private static final int MIN_PRESENCE_BITS = 1 << 10;
  /** 1 MiB of bits per table; a cache this large holds records far above the overhead anyway. */
  private static final int MAX_PRESENCE_BITS = 1 << 23;

  private final long targetBytes;
  private final int maxRecordBytes;
  private final int presenceBits;
  private final Object freezeLock = new Object();

  /**
   * Largest {@link #bytes()} seen at a sample. The charged bytes fall only when a table is
   * released, entries are removed or a key is invalidated or overwritten, and grow in between, so
   * sampling before each release and each removal catches every peak but what invalidations and
   * overwrites took off since the last sample (none under reads alone).
   */
  private final AtomicLong peakBytes = new AtomicLong();

  private volatile CacheTable mutable;
  /**
   * Immutable tables frozen and not yet released, oldest first; copy-on-write under
   * {@link #freezeLock}. Written before {@link #mutable} on freeze, read after it on invalidate.
   */
  private volatile ImmutablePromotionCache[] checking = NONE;

  private PromotionCache(Builder b) {
    this.targetBytes = b.targetBytes;
    this.maxRecordBytes = b.maxRecordBytes;
    // Every entry is charged at least the overhead, so a full table holds at most this many.
    long maxEntries = Math.max(1, targetBytes / ENTRY_OVERHEAD_BYTES);
    long bits = Long.highestOneBit(maxEntries * PRESENCE_BITS_PER_ENTRY - 1) << 1;
    this.presenceBits = (int) Math.max(MIN_PRESENCE_BITS, Math.min(MAX_PRESENCE_BITS, bits));
    this.mutable = new CacheTable(presenceBits);
  }

  /** A builder; {@link Builder#targetBytes(long)} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Bytes charged for a record of these lengths; see {@link #ENTRY_OVERHEAD_BYTES}. */
  public static long charge(int keyLength, int valueLength) {
    return (long) keyLength + valueLength + ENTRY_OVERHEAD_BYTES;
  }

  /** Charged bytes at which the mutable table is full and should be frozen. */
  public long targetBytes() {
    return targetBytes;
  }

  /** Largest key + value length that {@link #insert} caches. */
  public int maxRecordBytes() {
    return maxRecordBytes;
  }

  /**
   * The cached value of {@code key}, or {@code null}: from the mutable table, else from the newest
   * immutable table not yet released that holds the key, unless the key is marked updated there.
   * The returned array is shared: do not modify it.
   *
   * <p>Why an immutable entry is as fresh as a mutable one: a write of the key marks it updated in
   * every immutable table before it removes it from the mutable one, and the marks are kept until
   * release; so a get that begins after an invalidation returned finds the key marked in any
   * immutable table that holds it (and a newer version of the key, inserted after the write, sits
   * in a newer table, which is read first).
   */
  public byte[] get(byte[] key) {
    Objects.requireNonNull(key, "key");
    int hash = CacheTable.hash(key);
    CacheTable t = mutable;
    Entry e = t.mightHold(hash) ? t.map.get(key) : null;
    if (e == null) {
      e = fromImmutables(key, hash);
    }
    if (e == null || !e.visible) {
      return null;
    }
    if (!e.read) {
      e.read = true; // written once per entry, so hits on a hot entry do not bounce its cache line
    }
    return e.value;
  }

  /** The entry of {@code key} in the newest unreleased immutable table holding it, if not updated. */
  private Entry fromImmutables(byte[] key, int hash) {
    // Read after the mutable reference, as invalidate does: a table frozen since is in the list.
    ImmutablePromotionCache[] imms = checking;
    for (int i = imms.length - 1; i >= 0; i--) {
      Entry e = imms[i].entry(key, hash);
      if (e != null) {
        return imms[i].isUpdated(key) ? null : e;
      }
    }
    return null;
  }

  /**
   * Stores a record read from the slow tier in the mutable table, replacing any entry of the key.
   * The caller must have established that the value is the newest version (rule P2); the cache does
   * not check. The arrays are kept, not copied.
   *
   * @return {@code true} if cached; {@code false} if key and value together exceed
   *     {@link #maxRecordBytes()}
   */
  public boolean insert(byte[] key, byte[] value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if ((long) key.length + value.length > maxRecordBytes) {
      return false;
    }
    Entry e = new Entry(key, value, true, 0);
    int hash = CacheTable.hash(key);
    int stripe = CacheTable.stripeOfCurrentThread();
    CacheTable t = enterMutable(stripe);
    try {
      t.markPresent(hash);
      Entry prev = t.map.put(key, e);
      t.added(e);
      if (prev != null) {
        t.removed(prev);
      }
    } finally {
      t.exit(stripe);
    }
    return true;
  }

  /**
   * Records a user write of {@code key}: marks it updated in every immutable table not yet released
   * that holds it, then removes it from the mutable table. The store calls this after writing the
   * key, under the key's stripe lock (DESIGN.md §6, writer step 2).
   */
  public void invalidate(byte[] key) {
    Objects.requireNonNull(key, "key");
    int hash = CacheTable.hash(key);
    int stripe = CacheTable.stripeOfCurrentThread();
    CacheTable t = enterMutable(stripe);
    try {
      // The list is read after the mutable reference (inside enterMutable): see the class javadoc.
      for (ImmutablePromotionCache imm : checking) {
        imm.markUpdated(key, hash);
      }
      // Mark before remove: putBack relies on this order. A key whose bit is clear was not stored
      // by any operation that completed before this one began.
      Entry prev = t.mightHold(hash) ? t.map.remove(key) : null;
      if (prev != null) {
        t.removed(prev);
      }
    } finally {
      t.exit(stripe);
    }
  }

  /** Whether the mutable table's charged bytes reached {@link #targetBytes()}. */
  public boolean isFull() {
    return mutable.bytes() >= targetBytes;
  }

  /** Charged bytes of the mutable table; exact when no operation is in progress. */
  public long mutableBytes() {
    return mutable.bytes();
  }

  /** Entries of the mutable table; exact when no operation is in progress. */
  public int mutableSize() {
    return mutable.entries();
  }

  /** Charged bytes of the immutable tables not yet released. */
  public long immutableBytes() {
    long sum = 0;
    for (ImmutablePromotionCache imm : checking) {
      sum += imm.bytes();
    }
    return sum;
  }

  /**
   * Charged bytes of every table the cache holds: the mutable one and the immutable ones not yet
   * released.
   */
  public long bytes() {
    return mutableBytes() + immutableBytes();
  }

  /**
   * The largest {@link #bytes()} since the cache was built, sampled before each release and each
   * {@link #removeIfUnchanged}: exact but for the bytes invalidations and overwrites took off
   * since the last sample (none under reads alone).
   */
  public long peakBytes() {
    return samplePeak();
  }

  private long samplePeak() {
    long now = bytes();
    return peakBytes.accumulateAndGet(now, Math::max);
  }

  /** The immutable tables frozen and not yet released, oldest first. */
  public List<ImmutablePromotionCache> immutables() {
    return List.of(checking);
  }

  /**
   * Freezes the mutable table into an immutable one, registered for updated marks, and installs an
   * empty mutable table. Returns once no operation can change the frozen table any more.
   */
  public ImmutablePromotionCache freeze() {
    synchronized (freezeLock) {
      return freezeLocked();
    }
  }

  /** Like {@link #freeze()} if the mutable table {@linkplain #isFull() is full}; else {@code null}. */
  public ImmutablePromotionCache freezeIfFull() {
    synchronized (freezeLock) {
      return isFull() ? freezeLocked() : null;
    }
  }

  private ImmutablePromotionCache freezeLocked() {
    CacheTable old = mutable;
    ImmutablePromotionCache imm = new ImmutablePromotionCache(this, old);
    // Register before the swap (DESIGN.md §6): an invalidation that sees the new mutable table
    // also sees this immutable one and marks it.
    ImmutablePromotionCache[] next = Arrays.copyOf(checking, checking.length + 1);
    next[next.length - 1] = imm;
    checking = next;
    mutable = new CacheTable(presenceBits);
    old.awaitNoneInFlight();
    imm.seal();
    return imm;
  }

  /**
   * Unregisters an immutable table once checked: it is no longer marked and can no longer be put
   * back from. Releasing it again does nothing.
   *
   * @throws IllegalArgumentException if it was frozen by another cache
   */
  public void release(ImmutablePromotionCache immutable) {
    requireOwn(immutable);
    synchronized (freezeLock) {
      samplePeak();
      ImmutablePromotionCache[] cur = checking;
      for (int i = 0; i < cur.length; i++) {
        if (cur[i] == immutable) {
          ImmutablePromotionCache[] next = new ImmutablePromotionCache[cur.length - 1];
          System.arraycopy(cur, 0, next, 0, i);
          System.arraycopy(cur, i + 1, next, i, cur.length - i - 1);
          immutable.markReleased();
          checking = next;
          return;
        }
      }
    }
  }

  /**
   * The mutable table's entries with {@code lowInclusive <= key <= highInclusive}, in key order:
   * a weakly consistent snapshot for promotion by compaction. The entries stay cached until
   * {@link #removeIfUnchanged} removes them.
   *
   * @throws IllegalArgumentException if {@code lowInclusive} is after {@code highInclusive}
   */
  public List<Entry> range(byte[] lowInclusive, byte[] highInclusive) {
    Objects.requireNonNull(lowInclusive, "lowInclusive");
    Objects.requireNonNull(highInclusive, "highInclusive");
    if (KEY_ORDER.compare(lowInclusive, highInclusive) > 0) {
      throw new IllegalArgumentException(
          "lowInclusive " + hex(lowInclusive) + " is after highInclusive " + hex(highInclusive));
    }
    List<Entry> out = new ArrayList<>();
    for (Entry e : mutable.map.subMap(lowInclusive, true, highInclusive, true).values()) {
      if (e.visible) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Removes each of {@code taken} from the mutable table if its key still maps to that very entry
   * (not overwritten, invalidated or removed since {@link #range} returned it). Entries whose table
   * has been frozen since are left to that table's checker.
   *
   * @return the number of entries removed
   */
  public int removeIfUnchanged(Collection<Entry> taken) {
    Objects.requireNonNull(taken, "taken");
    samplePeak();
    int stripe = CacheTable.stripeOfCurrentThread();
    int removed = 0;
    CacheTable t = enterMutable(stripe);
    try {
      for (Entry e : taken) {
        if (t.map.remove(e.key, e)) {
          t.removed(e);
          removed++;
        }
      }
    } finally {
      t.exit(stripe);
    }
    return removed;
  }

  /**
   * Puts entries of an immutable table back into the mutable table (DESIGN.md §9: too few hot bytes
   * to promote). The new entries start {@linkplain Entry#wasRead() unread} and count
   * {@linkplain Entry#putBacksUnread() the put-backs} they waited through unread. An entry is
   * skipped if its key is marked updated in {@code from} or if the mutable table already holds the
   * key (that entry is at least as new). Call before releasing {@code from}.
   *
   * @param entries entries of {@code from}, as its iterator returned them
   * @return the number of entries put back
   * @throws IllegalStateException if {@code from} was released
   * @throws IllegalArgumentException if {@code from} was frozen by another cache, or an entry is not
   *     one of {@code from}'s
   */
  public int putBack(ImmutablePromotionCache from, Iterable<Entry> entries) {
    requireOwn(from);
    Objects.requireNonNull(entries, "entries");
    if (from.isReleased()) {
      throw new IllegalStateException("cannot put back from a released immutable cache");
    }
    int stripe = CacheTable.stripeOfCurrentThread();
    int restored = 0;
    for (Entry e : entries) {
      if (!from.holds(e)) {
        throw new IllegalArgumentException("entry " + hex(e.key) + " is not in the immutable cache");
      }
      if (from.isUpdated(e.key)) {
        continue;
      }
      Entry pending = new Entry(e.key, e.value, false, (e.read ? 0 : e.putBacksUnread) + 1);
      int hash = CacheTable.hash(e.key);
      CacheTable t = enterMutable(stripe);
      try {
        t.markPresent(hash);
        if (t.map.putIfAbsent(e.key, pending) != null) {
          continue;
        }
        t.added(pending);
        // Read the mark again after storing: an invalidation marks `from` before it removes from
        // the mutable table, so either it removes `pending` or we see its mark here.
        if (from.isUpdated(e.key)) {
          if (t.map.remove(e.key, pending)) {
            t.removed(pending);
          }
        } else {
          pending.visible = true;
          restored++;
        }
      } finally {
        t.exit(stripe);
      }
    }
    return restored;
  }

  /** Enters the current mutable table, retrying if a freeze swapped it meanwhile. */
  private CacheTable enterMutable(int stripe) {
    for (;;) {
      CacheTable t = mutable;
      t.enter(stripe);
      if (t == mutable) {
        return t;
      }
      t.exit(stripe);
    }
  }

  private void requireOwn(ImmutablePromotionCache imm) {
    Objects.requireNonNull(imm, "immutable");
    if (imm.owner() != this) {
      throw new IllegalArgumentException("immutable cache was frozen by another promotion cache");
    }
  }

  static String hex(byte[] key) {
    StringBuilder sb = new StringBuilder(2 + 2 * Math.min(key.length, 32)).append("0x");
    for (int i = 0; i < Math.min(key.length, 32); i++) {
      sb.append(Character.forDigit((key[i] >> 4) & 0xF, 16)).append(Character.forDigit(key[i] & 0xF, 16));
    }
    return key.length > 32 ? sb.append("…").toString() : sb.toString();
  }

  /**
   * A cached record. Identity matters: {@link #removeIfUnchanged} removes an entry only if its key
   * still maps to the same {@code Entry} object. The arrays are shared with the cache: do not
   * modify them.
   */
  public static final class Entry {
    final byte[] key;
    final byte[] value;
    /** False only while a put-back decides whether to keep the entry; hidden from readers then. */
    volatile boolean visible;
    /** Set by the first {@link PromotionCache#get} that returns this entry. */
    volatile boolean read;
    final int putBacksUnread;

    Entry(byte[] key, byte[] value, boolean visible, int putBacksUnread) {
      this.key = key;
      this.value = value;
      this.visible = visible;
      this.putBacksUnread = putBacksUnread;
    }

    public byte[] key() {
      return key;
    }

    public byte[] value() {
      return value;
    }

    /**
     * Whether {@link PromotionCache#get} has returned this entry since it was stored (by an insert
     * or a put-back). Monotonic; a get that races with the check of the entry may or may not be
     * seen.
     */
    public boolean wasRead() {
      return read;
    }

    /**
     * How many put-backs in a row stored this record with no get reading it in between: 0 for an
     * entry stored by {@link PromotionCache#insert}; one more than its source's count for a
     * {@linkplain PromotionCache#putBack put-back} of an unread entry, and 1 for one of an entry
     * that was read.
     */
    public int putBacksUnread() {
      return putBacksUnread;
    }

    /** Charged bytes: key and value lengths plus {@link #ENTRY_OVERHEAD_BYTES}. */
    public long bytes() {
      return charge(key.length, value.length);
    }

    @Override
    public String toString() {
      return "Entry[" + hex(key) + ", " + value.length + " value bytes]";
    }
  }

  /**
   * Settings of a {@link PromotionCache}. Every setter fails fast on a bad value with a message that
   * names it.
   */
  public static final class Builder {
    private long targetBytes = -1;
    private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

    private Builder() {}

    /**
     * Charged bytes at which the mutable table is full. Required. DESIGN.md §9: the fast tier's
     * target file size (the paper's 64 MiB for a 10 GB fast disk), scaled with the fast budget.
     */
    public Builder targetBytes(long targetBytes) {
      if (targetBytes <= 0) {
        throw new IllegalArgumentException("targetBytes must be positive but was " + targetBytes);
      }
      this.targetBytes = targetBytes;
      return this;
    }

    /**
     * Largest key + value length that is cached; default {@link #DEFAULT_MAX_RECORD_BYTES}.
     * Longer records are read from the slow tier every time.
     */
    public Builder maxRecordBytes(int maxRecordBytes) {
      if (maxRecordBytes < 0) {
        throw new IllegalArgumentException(
            "maxRecordBytes must not be negative but was " + maxRecordBytes);
      }
      this.maxRecordBytes = maxRecordBytes;
      return this;
    }

    /** @throws IllegalStateException if {@link #targetBytes(long)} was not set */
    public PromotionCache build() {
      if (targetBytes < 0) {
        throw new IllegalStateException("targetBytes was not set");
      }
      return new PromotionCache(this);
    }
  }
}
