/**
 * Compaction hooks for RocksJava (DESIGN §8): a native compaction filter that removes demoted
 * records from the fast tier without tombstones.
 *
 * <ul>
 *   <li>{@link io.hotrap.jni.NativeHooks}: whether the module's C library ({@code libhotrapjni.so},
 *       built from {@code src/main/c} when a C compiler is present) loaded, and why not.
 *   <li>{@link io.hotrap.jni.DemotionSet}: the (key, value hash) pairs to drop, in native memory.
 *   <li>{@link io.hotrap.jni.DemotionFilter}: the compaction filter reading that set, made through
 *       RocksDB's C API found in the already loaded rocksdbjni library, handed to RocksJava as an
 *       {@link org.rocksdb.AbstractCompactionFilter}.
 *   <li>{@link io.hotrap.jni.ValueHash}: the value hash, identical in Java and C.
 * </ul>
 *
 * <p>Where the library is unavailable (another platform, a build without a C compiler), {@code
 * NativeHooks.available()} is false with a reason, and callers take the pure-Java tombstone path.
 */
package io.hotrap.jni;
