package io.hotrap.cache.flash;

/**
 * The flash tier's index, key → {@link Location}, kept in step with the bypass filter: the filter
 * holds one fingerprint for every key in the index. A key gains its fingerprint when the index
 * gains the key and loses it when the index loses the key; moving a key to a new location changes
 * nothing in the filter. Both changes happen inside the index's atomic per-key operation, so the
 * two never disagree about a key for longer than that operation (a concurrent lookup may still see
 * the filter a moment ahead or behind, which costs a miss, not a wrong value).
 *
 * <p>When the filter is full, or an index of bounded room has none left, a key that is not yet
 * indexed is not indexed: {@link #put} fails and the caller drops the item.
 *
 * <p>Two implementations: {@link HeapIndex}, a hash map on the heap that a clean close saves in
 * the {@link Checkpoint}, and {@link ChronicleIndex}, a Chronicle Map in a file of the cache
 * directory that is itself the saved index ({@link FlashIndexKind}).
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Every method but {@link #removeGroup} and {@link #close} is one atomic operation on
 * one key. The conditional forms ({@link #replace}, {@link #remove(ItemKey, Location)}) compare
 * locations by value, as {@link Location#equals} defines it (the same append), which is what makes
 * a reinsertion or a purge safe against a concurrent put: they act only on the location they read.
 * {@link #close} must not run concurrently with anything else.
 */
interface FlashIndex extends AutoCloseable {

  /** Whether the key may be on flash; without a filter always {@code true}. */
  boolean mightContain(ItemKey key);

  /** The key's location, or {@code null}. */
  Location get(ItemKey key);

  boolean containsKey(ItemKey key);

  /**
   * Maps {@code key} to {@code loc}, replacing any location.
   *
   * @return {@code false} if the key was not indexed and the filter or the index has no room
   */
  boolean put(ItemKey key, Location loc);

  /** Moves {@code key} from {@code expected} to {@code moved} if it still maps to {@code expected}. */
  boolean replace(ItemKey key, Location expected, Location moved);

  /** Removes {@code key}; returns whether it was indexed. */
  default boolean remove(ItemKey key) {
    return remove(key, null);
  }

  /**
   * Removes {@code key} if it still maps to {@code expected} (the same append), or whatever it
   * maps to if {@code expected} is null; returns whether it removed an entry.
   */
  boolean remove(ItemKey key, Location expected);

  /**
   * Removes every entry of {@code group}, each in one atomic step with its key; returns how many.
   * Weakly consistent: entries present throughout the walk are visited.
   */
  long removeGroup(long group);

  /** Entries now. */
  long size();

  /** Releases what the index holds; for the off-heap index, unmaps its file. */
  @Override
  void close();
}
