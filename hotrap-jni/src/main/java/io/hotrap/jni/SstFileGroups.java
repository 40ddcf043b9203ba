package io.hotrap.jni;

import java.nio.file.Path;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;

/**
 * The group of an SST file: the number that every block cache key of the file starts with, so that
 * a secondary cache can drop all blocks of a deleted file at once (SAS-Cache's compaction-aware
 * invalidation, DESIGN §14).
 *
 * <p>RocksDB 11.8.1 keys a block by 16 bytes: a per-file base (the first eight bytes, a
 * native-endian, i.e. little-endian on x86-64, uint64) and a second word xored with the block's
 * offset (cache/cache_key.h, {@code OffsetableCacheKey}). The base is derived from three table
 * properties, the DB id, the DB session id that wrote the file and its original file number
 * ({@code BlockBasedTable::SetupBaseCacheKey}). RocksJava's {@code TableProperties} exposes none
 * of them, so {@link #ofFile(Path)} opens the file with RocksJava's {@link SstFileReader} and, in
 * native code, reads the properties with RocksDB's C API and computes the base with RocksDB's own
 * {@code OffsetableCacheKey} constructor: the same code RocksDB uses, not a copy of it.
 *
 * <p>Group 0 means "none": files without a session id or original file number (written before
 * RocksDB 6.x) get cache keys from the reading session instead, which the file does not record.
 */
public final class SstFileGroups {
  /** No group: a key shorter than eight bytes, or a file without a stable cache key. */
  public static final long NONE = 0L;

  private static final int GROUP_BYTES = 8;

  private SstFileGroups() {}

  /** The group of a block cache key: its first eight bytes, little-endian. */
  public static long ofKey(byte[] cacheKey) {
    if (cacheKey.length < GROUP_BYTES) {
      return NONE;
    }
    long group = 0;
    for (int i = GROUP_BYTES - 1; i >= 0; i--) {
      group = (group << 8) | (cacheKey[i] & 0xFFL);
    }
    return group;
  }

  /**
   * The group of the blocks of the SST file at {@code file}, or {@link #NONE}.
   *
   * @throws RocksDBException when RocksDB cannot open the file
   * @throws UnsupportedOperationException when {@link FlashSecondaryCache#available()} is false
   */
  public static long ofFile(Path file) throws RocksDBException {
    SecondaryCacheNative.requireAvailable();
    try (Options options = new Options();
        SstFileReader reader = new SstFileReader(options)) {
      reader.open(file.toString());
      return SecondaryCacheNative.fileGroup(reader.getNativeHandle());
    }
  }
}
