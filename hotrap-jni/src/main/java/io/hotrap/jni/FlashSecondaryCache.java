package io.hotrap.jni;

import java.util.Objects;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;

/**
 * A RocksDB LRU block cache with a secondary cache under it whose blocks live in a Java {@link
 * SecondaryCacheBackend} (a flash cache): what the LRU evicts is offered to the backend, and a
 * block missing from the LRU is looked up there before RocksDB reads the SST file. Use it as any
 * block cache, through {@link BlockBasedTableConfig#setBlockCache(Cache)} (DESIGN §14, the block
 * level under RocksDB).
 *
 * <p>The secondary cache is C++ ({@code src/main/cpp}, library {@code libhotrapsc.so}), a {@code
 * rocksdb::SecondaryCache} written against the project's own declarations of RocksDB 11.8.1's
 * types. It is usable only when {@link #available()}: the library loaded, RocksDB's functions were
 * found in rocksdbjni, and a probe through RocksDB's own compiled code confirmed the virtual-table
 * layout. Otherwise {@link #unavailableReason()} says why, and callers take the record-level path.
 *
 * <p>Which blocks the secondary cache sees: RocksDB offers only blocks it can save and rebuild
 * (data, index and filter blocks of block-based tables) and only while {@code
 * DBOptions.lowest_used_cache_tier} is RocksDB's default, {@code kNonVolatileBlockTier}. A block
 * served from the backend is promoted into the LRU as "kept in the secondary cache", so it is not
 * offered again when evicted.
 *
 * <p>Ownership: this object owns one reference to the block cache and one to the secondary cache;
 * {@link #close()} drops both. A database or table config that took the cache keeps its own
 * reference, and with it the backend, until it is closed. The backend is referenced (a JNI global
 * reference) until the secondary cache is destroyed. {@link #stats()} and {@link #capacity()} must
 * not race with {@link #close()}.
 */
public final class FlashSecondaryCache extends Cache {
  private final long adapter;

  private FlashSecondaryCache(long[] handles) {
    super(handles[0]);
    this.adapter = handles[1];
  }

  /** True when the native secondary cache can be built in this JVM. */
  public static boolean available() {
    return SecondaryCacheNative.available();
  }

  /** Why {@link #available()} is false; null when it is true. */
  public static String unavailableReason() {
    return SecondaryCacheNative.unavailableReason();
  }

  /** Starts a cache over {@code backend}; {@link Builder#capacity} is required. */
  public static Builder builder(SecondaryCacheBackend backend) {
    return new Builder(Objects.requireNonNull(backend, "backend"));
  }

  /** The LRU cache's capacity in bytes, as RocksDB reports it. */
  public long capacity() {
    requireOpen();
    return SecondaryCacheNative.capacity(nativeHandle_);
  }

  /** The secondary cache's counters since it was built. */
  public Stats stats() {
    requireOpen();
    long[] c = new long[SecondaryCacheNative.COUNTERS];
    SecondaryCacheNative.counters(adapter, c);
    return new Stats(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
  }

  /** Secondary caches not yet destroyed in this process (tests check for leaks with it). */
  static long liveAdapters() {
    return SecondaryCacheNative.liveAdapters();
  }

  private void requireOpen() {
    if (!isOwningHandle()) {
      throw new IllegalStateException("the cache is closed");
    }
  }

  @Override
  protected void disposeInternal(long handle) {
    SecondaryCacheNative.disposeCache(handle);
    SecondaryCacheNative.disposeAdapter(adapter);
  }

  /**
   * Counters of the secondary cache.
   *
   * @param inserts blocks handed to {@link SecondaryCacheBackend#insert}
   * @param insertedBytes their bytes
   * @param insertErrors blocks dropped because saving failed, the backend threw, or the thread
   *     could not be attached to the JVM
   * @param lookups lookups of blocks RocksDB can rebuild
   * @param hits lookups served from the backend
   * @param lookupErrors lookups turned into misses by a failure (the backend threw, RocksDB
   *     refused the bytes)
   * @param erases {@link SecondaryCacheBackend#erase} calls
   */
  public record Stats(
      long inserts,
      long insertedBytes,
      long insertErrors,
      long lookups,
      long hits,
      long lookupErrors,
      long erases) {
    /** Lookups not served from the backend, failures included. */
    public long misses() {
      return lookups - hits;
    }
  }

  /** Builds a {@link FlashSecondaryCache}; settings are checked as they are made. */
  public static final class Builder {
    /** RocksDB's limit on shard bits in an LRU cache. */
    static final int MAX_SHARD_BITS = 19;

    private final SecondaryCacheBackend backend;
    private long capacity = -1;
    private int numShardBits = -1;
    private boolean strictCapacityLimit;
    private double highPriorityPoolRatio = 0.5;

    private Builder(SecondaryCacheBackend backend) {
      this.backend = backend;
    }

    /** The LRU cache's size in bytes (RocksDB's block cache capacity). Required, positive. */
    public Builder capacity(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("capacity must be positive, was " + bytes);
      }
      this.capacity = bytes;
      return this;
    }

    /**
     * The LRU cache has {@code 2^bits} shards; -1 (the default) lets RocksDB choose from the
     * capacity.
     */
    public Builder numShardBits(int bits) {
      if (bits < -1 || bits > MAX_SHARD_BITS) {
        throw new IllegalArgumentException(
            "numShardBits must be -1 or in [0, " + MAX_SHARD_BITS + "], was " + bits);
      }
      this.numShardBits = bits;
      return this;
    }

    /** Whether an insert beyond capacity fails instead of overcommitting; RocksDB's default false. */
    public Builder strictCapacityLimit(boolean strict) {
      this.strictCapacityLimit = strict;
      return this;
    }

    /** The share of capacity reserved for high-priority blocks, in [0, 1]; RocksDB's default 0.5. */
    public Builder highPriorityPoolRatio(double ratio) {
      if (!(ratio >= 0.0 && ratio <= 1.0)) {
        throw new IllegalArgumentException(
            "highPriorityPoolRatio must be in [0, 1], was " + ratio);
      }
      this.highPriorityPoolRatio = ratio;
      return this;
    }

    /**
     * @throws IllegalStateException when no capacity was set
     * @throws UnsupportedOperationException naming the reason, when not {@link #available()}
     */
    public FlashSecondaryCache build() {
      if (capacity < 0) {
        throw new IllegalStateException("capacity was not set");
      }
      SecondaryCacheNative.requireAvailable();
      return new FlashSecondaryCache(
          SecondaryCacheNative.create(
              backend, capacity, numShardBits, strictCapacityLimit, highPriorityPoolRatio));
    }
  }
}
