/**
 * Native hooks for RocksJava: a compaction filter that removes demoted records from the fast tier
 * without tombstones (DESIGN §8), and a block-level secondary cache over a Java store (§14).
 *
 * <ul>
 *   <li>{@link io.hotrap.jni.NativeHooks}: whether the module's C library ({@code libhotrapjni.so},
 *       built from {@code src/main/c} when a C compiler is present) loaded, and why not.
 *   <li>{@link io.hotrap.jni.DemotionSet}: the (key, value hash) pairs to drop, in native memory.
 *   <li>{@link io.hotrap.jni.DemotionFilter}: the compaction filter reading that set, made through
 *       RocksDB's C API found in the already loaded rocksdbjni library, handed to RocksJava as an
 *       {@link org.rocksdb.AbstractCompactionFilter}.
 *   <li>{@link io.hotrap.jni.ValueHash}: the value hash, identical in Java and C.
 *   <li>{@link io.hotrap.jni.FlashSecondaryCache}: an LRU block cache over a C++ {@code
 *       rocksdb::SecondaryCache} ({@code libhotrapsc.so}, from {@code src/main/cpp} when a C++
 *       compiler is present) whose blocks live in a Java {@link
 *       io.hotrap.jni.SecondaryCacheBackend}; {@link io.hotrap.jni.SstFileGroups} maps SST files
 *       to the groups of their blocks, {@link io.hotrap.jni.SstGroupListener} reports new and
 *       dead groups from RocksDB's events, and {@code FlashSecondaryCache.available()} says whether
 *       the library loaded and why not.
 * </ul>
 *
 * <p>Where the library is unavailable (another platform, a build without a C compiler), {@code
 * NativeHooks.available()} is false with a reason, and callers take the pure-Java tombstone path.
 */
package io.hotrap.jni;
