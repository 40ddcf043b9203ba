package io.hotrap.cache;

import io.hotrap.cache.PromotionCache.Entry;
import java.util.Collections;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A frozen table of a {@link PromotionCache}, handed to the background checker of promotion by
 * flush (DESIGN.md §9, HotRAP §3.4). Obtained from {@link PromotionCache#freeze()}; its entries never
 * change afterwards. Until {@linkplain PromotionCache#release released}, it collects an
 * <em>updated</em> mark for each of its keys that a user writes ({@link PromotionCache#invalidate}):
 * those entries are stale and must not be promoted or put back.
 *
 * <p>Thread-safe. Iteration, {@link #bytes()} and {@link #size()} are stable. Marks are added
 * concurrently by writers, so {@link #isUpdated} may turn from false to true at any time (never
 * back); the read that decides a promotion must be made while writers are excluded — in the store,
 * inside the commit gate.
 */
public final class ImmutablePromotionCache implements Iterable<Entry> {
  private final PromotionCache owner;
  private final CacheTable table;
  private final ConcurrentSkipListSet<byte[]> updated =
      new ConcurrentSkipListSet<>(PromotionCache.KEY_ORDER);
  /** Set once no operation can change {@link #table} any more. */
  private volatile boolean sealed;
  private volatile boolean released;
  private volatile long bytes;
  private volatile int size;

  ImmutablePromotionCache(PromotionCache owner, CacheTable table) {
    this.owner = owner;
    this.table = table;
  }

  PromotionCache owner() {
    return owner;
  }

  void seal() {
    bytes = table.bytes();
    size = table.entries();
    sealed = true;
  }

  void markReleased() {
    released = true;
  }

  /**
   * Marks {@code key} updated. Until the table is sealed, operations may still add the key, so it
   * is marked whether present or not; afterwards only keys the table holds are marked, which keeps
   * the set to the size of the table's overlap with the writes.
   */
  void markUpdated(byte[] key, int hash) {
    if (!sealed || (table.mightHold(hash) && table.map.containsKey(key))) {
      updated.add(key);
    }
  }

  /** The entry of {@code key}, whose {@link CacheTable#hash} is {@code hash}, or null. */
  Entry entry(byte[] key, int hash) {
    return table.mightHold(hash) ? table.map.get(key) : null;
  }

  boolean holds(Entry e) {
    return table.map.get(e.key) == e;
  }

  /** Charged bytes of the entries (see {@link PromotionCache#ENTRY_OVERHEAD_BYTES}). */
  public long bytes() {
    return bytes;
  }

  /** Number of entries. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The cached value of {@code key} in this table, updated or not, or {@code null}. */
  public byte[] get(byte[] key) {
    Objects.requireNonNull(key, "key");
    Entry e = entry(key, CacheTable.hash(key));
    return e == null ? null : e.value;
  }

  /**
   * Whether {@code key} was written since this table was frozen (or while it was being frozen).
   * Marks are kept until {@linkplain PromotionCache#release release}; after it, no more are added.
   */
  public boolean isUpdated(byte[] key) {
    Objects.requireNonNull(key, "key");
    return updated.contains(key);
  }

  /** Number of keys marked updated so far. */
  public int updatedCount() {
    return updated.size();
  }

  /** Whether {@link PromotionCache#release} was called for this table. */
  public boolean isReleased() {
    return released;
  }

  /** The entries in unsigned key order; read-only. Pair with {@link #isUpdated} for the marks. */
  @Override
  public Iterator<Entry> iterator() {
    return Collections.unmodifiableCollection(table.map.values()).iterator();
  }

  @Override
  public String toString() {
    return "ImmutablePromotionCache[" + size + " entries, " + bytes + " bytes, "
        + updated.size() + " updated" + (released ? ", released]" : "]");
  }
}
