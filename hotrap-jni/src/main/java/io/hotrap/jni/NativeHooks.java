package io.hotrap.jni;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.RocksDB;

/**
 * Whether this module's native library ({@code libhotrapjni.so}) is usable in this JVM, and why
 * not. The {@link DemotionSet} and {@link DemotionFilter} need it; callers check {@link #available()}
 * first and otherwise take the pure-Java path (tombstones, DESIGN §8).
 *
 * <p>Loading, once per JVM at first use: RocksJava's library is loaded first ({@link
 * RocksDB#loadLibrary()}, a no-op when already loaded), because ours finds RocksDB's C API in it.
 * Then ours is loaded from, in order:
 *
 * <ol>
 *   <li>the file named by the system property {@value #LIBRARY_PATH_PROPERTY}, if set;
 *   <li>{@code target/classes/native/linux-x86_64/} when running from the build;
 *   <li>the jar, through a copy extracted once per library build under {@code java.io.tmpdir}
 *       ({@link LibraryCache}).
 * </ol>
 *
 * <p>Any failure (another platform, a build without a C compiler, a missing file, no rocksdbjni
 * library exporting the C API) leaves {@link #available()} false with a reason, logged once at
 * {@code INFO}; nothing here throws.
 *
 * <p>On JDK 24 and later, run with {@code --enable-native-access=ALL-UNNAMED} (as RocksJava needs
 * too), or the JDK warns that {@code System.load} was called.
 */
public final class NativeHooks {
  /** System property: the path of a {@code libhotrapjni.so} to load instead of the bundled one. */
  public static final String LIBRARY_PATH_PROPERTY = "hotrap.jni.library";

  static final String LIBRARY_FILE = "libhotrapjni.so";
  static final String RESOURCE = NativeLibraryLoader.RESOURCE_DIR + LIBRARY_FILE;

  private static final Logger LOG = Logger.getLogger(NativeHooks.class.getName());
  private static final String UNAVAILABLE_REASON = load();

  private NativeHooks() {}

  /** True when the native library is loaded and RocksDB's C API functions it needs are resolved. */
  public static boolean available() {
    return UNAVAILABLE_REASON == null;
  }

  /** Why {@link #available()} is false; null when it is true. */
  public static String unavailableReason() {
    return UNAVAILABLE_REASON;
  }

  /** @throws UnsupportedOperationException naming the reason, when the library is unavailable */
  static void requireAvailable() {
    if (UNAVAILABLE_REASON != null) {
      throw new UnsupportedOperationException(
          "native compaction hooks unavailable: " + UNAVAILABLE_REASON);
    }
  }

  private static String load() {
    String reason = NativeLibraryLoader.load(LIBRARY_FILE, LIBRARY_PATH_PROPERTY);
    if (reason == null) {
      try {
        String missing = NativeMethods.resolve();
        reason = missing == null ? null : "RocksDB's C API not found: " + missing;
      } catch (LinkageError e) {
        reason = "loading " + LIBRARY_FILE + " failed: " + e;
      }
    }
    if (reason != null) {
      LOG.log(Level.INFO, "native compaction hooks unavailable: {0}", reason);
    }
    return reason;
  }
}
