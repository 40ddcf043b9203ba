package io.hotrap.jni;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
  static final String RESOURCE = "/native/linux-x86_64/" + LIBRARY_FILE;

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
    String reason;
    try {
      reason = tryLoad();
    } catch (IOException | RuntimeException | LinkageError e) {
      reason = "loading " + LIBRARY_FILE + " failed: " + e;
    }
    if (reason != null) {
      LOG.log(Level.INFO, "native compaction hooks unavailable: {0}", reason);
    }
    return reason;
  }

  private static String tryLoad() throws IOException {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")
        || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      return "no native library for " + os + "/" + arch + " (built for Linux x86-64 only)";
    }
    RocksDB.loadLibrary();

    Path library;
    String override = System.getProperty(LIBRARY_PATH_PROPERTY);
    if (override != null) {
      library = Path.of(override).toAbsolutePath();
      if (!Files.isRegularFile(library)) {
        return LIBRARY_PATH_PROPERTY + " names no file: " + library;
      }
    } else {
      URL url = NativeHooks.class.getResource(RESOURCE);
      if (url == null) {
        return "no " + RESOURCE + " on the class path (the build skipped the native library;"
            + " was a C compiler or the JDK's JNI headers missing?)";
      }
      library = "file".equals(url.getProtocol()) ? fileOf(url) : extract(url);
    }
    System.load(library.toString());
    String missing = NativeMethods.resolve();
    return missing == null ? null : "RocksDB's C API not found: " + missing;
  }

  private static Path fileOf(URL url) {
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("unusable library URL " + url, e);
    }
  }

  private static Path extract(URL url) throws IOException {
    byte[] bytes;
    try (InputStream in = url.openStream()) {
      bytes = in.readAllBytes();
    }
    return LibraryCache.extract(bytes, LIBRARY_FILE, LibraryCache.defaultRoot());
  }
}
