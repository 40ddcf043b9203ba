package io.hotrap.jni;

/**
 * Where a {@link FlashSecondaryCache} keeps the blocks its LRU block cache evicts: a byte store
 * keyed by RocksDB's 16-byte block cache keys, typically a flash cache.
 *
 * <p>Called by RocksDB's threads (readers, and RocksDB's own background threads, attached to the
 * JVM for the purpose), concurrently: implementations must be thread-safe. A method that throws
 * costs only that call: the exception is counted and dropped ({@link
 * FlashSecondaryCache.Stats#insertErrors()}, {@link FlashSecondaryCache.Stats#lookupErrors()}),
 * never seen by RocksDB, and the read goes on to the SST file.
 *
 * <p>Correctness rests on one rule: {@link #lookup} returns exactly the bytes last inserted under
 * the key, or null. A store that may lose or corrupt data (a flash device) must detect it
 * (checksums) and miss.
 */
public interface SecondaryCacheBackend {
  /**
   * The bytes last {@linkplain #insert inserted} under {@code key}, or null when absent. The array
   * is only read, never kept.
   */
  byte[] lookup(byte[] key);

  /**
   * Offers a block to the store, which may drop it. {@code key} and {@code value} are fresh arrays
   * the store may keep. {@code group} is the block's SST file ({@link SstFileGroups}): the first
   * eight bytes of the key, little-endian; 0 only for keys shorter than eight bytes.
   */
  void insert(byte[] key, byte[] value, long group);

  /** Advice that RocksDB no longer needs {@code key}; the default keeps it. */
  default void erase(byte[] key) {}
}
