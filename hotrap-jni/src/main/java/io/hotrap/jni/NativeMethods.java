package io.hotrap.jni;

/**
 * The JNI entry points of {@code libhotrapjni.so} ({@code src/main/c/hotrapjni.c}). Callable only
 * once {@link NativeHooks#available()} is true. Handles are native addresses; 0 stands for none.
 * Every method checks its arguments natively as well and reports failure as a Java exception.
 */
final class NativeMethods {
  private NativeMethods() {}

  /** Finds RocksDB's C API in the loaded rocksdbjni library; null on success, else why not. */
  static native String resolve();

  /** XXH64 with seed 0 of {@code value[offset, offset + length)}, computed in C. */
  static native long valueHash(byte[] value, int offset, int length);

  /** Demotion sets not yet freed in this process. */
  static native long liveSets();

  /** Filter states not yet freed in this process: filters created and not yet destroyed. */
  static native long liveFilters();

  static native long setCreate();

  /** Empties the set and drops the Java owner's reference; the handle is invalid afterwards. */
  static native void setClose(long set);

  static native boolean setAdd(long set, byte[] key, long valueHash);

  static native int setRemove(long set, byte[] key);

  static native boolean setContains(long set, byte[] key, long valueHash);

  static native long setSize(long set);

  static native void setClear(long set);

  /**
   * Creates a compaction filter that reads {@code set} (and holds a reference on it); returns its
   * {@code rocksdb::CompactionFilter*} and stores the address of its counters in {@code stateOut[0]}.
   */
  static native long filterCreate(long set, long[] stateOut);

  /** {@code rocksdb_compactionfilter_destroy}: frees the filter, its counters and its set reference. */
  static native void filterDestroy(long filter);

  static native long filterSeen(long state);

  static native long filterDropped(long state);
}
