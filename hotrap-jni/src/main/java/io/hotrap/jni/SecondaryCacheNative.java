package io.hotrap.jni;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JNI entry points of {@code libhotrapsc.so} ({@code src/main/cpp}), and whether it loaded.
 * The library is separate from {@code libhotrapjni.so} so that a build without a C++ compiler
 * still has the compaction hooks. Callable only once {@link #available()} is true. Handles are
 * native addresses of heap {@code std::shared_ptr} objects; 0 stands for none.
 */
final class SecondaryCacheNative {
  /** System property: the path of a {@code libhotrapsc.so} to load instead of the bundled one. */
  static final String LIBRARY_PATH_PROPERTY = "hotrap.sc.library";

  static final String LIBRARY_FILE = "libhotrapsc.so";
  static final String RESOURCE = NativeLibraryLoader.RESOURCE_DIR + LIBRARY_FILE;

  /** Length of the array {@link #counters} fills. */
  static final int COUNTERS = 7;

  private static final Logger LOG = Logger.getLogger(SecondaryCacheNative.class.getName());
  private static final String UNAVAILABLE_REASON = load();

  private SecondaryCacheNative() {}

  static boolean available() {
    return UNAVAILABLE_REASON == null;
  }

  static String unavailableReason() {
    return UNAVAILABLE_REASON;
  }

  static void requireAvailable() {
    if (UNAVAILABLE_REASON != null) {
      throw new UnsupportedOperationException(
          "native secondary cache unavailable: " + UNAVAILABLE_REASON);
    }
  }

  private static String load() {
    String reason = NativeLibraryLoader.load(LIBRARY_FILE, LIBRARY_PATH_PROPERTY);
    if (reason == null) {
      try {
        String missing = resolve();
        if (missing != null) {
          reason = "RocksDB's C++ functions not found: " + missing;
        } else {
          String layout = probeLayout();
          reason = layout == null ? null : "RocksDB's SecondaryCache layout differs: " + layout;
          if (reason == null) {
            Runtime.getRuntime()
                .addShutdownHook(
                    new Thread(SecondaryCacheNative::vmExiting, "hotrap-secondary-cache-exit"));
          }
        }
      } catch (LinkageError e) {
        reason = "loading " + LIBRARY_FILE + " failed: " + e;
      }
    }
    if (reason != null) {
      LOG.log(Level.INFO, "native secondary cache unavailable: {0}", reason);
    }
    return reason;
  }

  /** Finds RocksDB's functions and the backend's methods; null on success, else why not. */
  static native String resolve();

  /**
   * Tells the library the JVM is shutting down: RocksDB threads it attached are no longer
   * detached when they exit (see flash_secondary_cache.cpp, "Threads and failures").
   */
  static native void vmExiting();

  /**
   * Calls RocksDB's compiled {@code SecondaryCacheWrapper} methods on a probe target; null when
   * every call reached the virtual function of the same name with its arguments, else what went
   * wrong. Also checks that {@code Customizable::GetId} reaches our {@code Name()}.
   */
  static native String probeLayout();

  /**
   * Builds the LRU cache over a secondary cache calling {@code backend}: returns {cache handle
   * (a {@code std::shared_ptr<Cache>*}), adapter handle (a {@code
   * std::shared_ptr<SecondaryCache>*})}. Throws IllegalArgumentException when RocksDB refuses the
   * options.
   */
  static native long[] create(
      SecondaryCacheBackend backend,
      long capacity,
      int numShardBits,
      boolean strictCapacityLimit,
      double highPriPoolRatio);

  static native void disposeCache(long cache);

  static native void disposeAdapter(long adapter);

  /** The cache's capacity, read by RocksDB's C API ({@code rocksdb_cache_get_capacity}). */
  static native long capacity(long cache);

  /** Adapters not yet destroyed in this process. */
  static native long liveAdapters();

  /** Fills {@code out} (length {@link #COUNTERS}) with the adapter's counters, in Stats order. */
  static native void counters(long adapter, long[] out);

  /**
   * The group (common cache key prefix) of the file open in a RocksJava {@code SstFileReader}
   * (its native handle); 0 when the file has no stable cache key.
   */
  static native long fileGroup(long sstFileReader);
}
