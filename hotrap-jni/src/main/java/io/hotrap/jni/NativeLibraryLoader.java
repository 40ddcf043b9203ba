package io.hotrap.jni;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.rocksdb.RocksDB;

/**
 * Loads one of this module's native libraries into the JVM. RocksJava's library is loaded first
 * ({@link RocksDB#loadLibrary()}, a no-op when already loaded), because ours find RocksDB's
 * functions in it. Then the library is loaded from, in order:
 *
 * <ol>
 *   <li>the file named by the given system property, if set;
 *   <li>{@code target/classes/native/linux-x86_64/} when running from the build;
 *   <li>the jar, through a copy extracted once per library build under {@code java.io.tmpdir}
 *       ({@link LibraryCache}).
 * </ol>
 *
 * <p>Stateless; the callers ({@link NativeHooks}, {@link SecondaryCacheNative}) load once per JVM.
 */
final class NativeLibraryLoader {
  static final String RESOURCE_DIR = "/native/linux-x86_64/";

  private NativeLibraryLoader() {}

  /**
   * Loads {@code fileName}; returns null on success, else why not. Throws nothing: an I/O error or
   * a {@link LinkageError} from {@code System.load} becomes the reason.
   */
  static String load(String fileName, String overrideProperty) {
    try {
      return tryLoad(fileName, overrideProperty);
    } catch (IOException | RuntimeException | LinkageError e) {
      return "loading " + fileName + " failed: " + e;
    }
  }

  private static String tryLoad(String fileName, String overrideProperty) throws IOException {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")
        || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      return "no native library for " + os + "/" + arch + " (built for Linux x86-64 only)";
    }
    RocksDB.loadLibrary();

    Path library;
    String override = System.getProperty(overrideProperty);
    if (override != null) {
      library = Path.of(override).toAbsolutePath();
      if (!Files.isRegularFile(library)) {
        return overrideProperty + " names no file: " + library;
      }
    } else {
      String resource = RESOURCE_DIR + fileName;
      URL url = NativeLibraryLoader.class.getResource(resource);
      if (url == null) {
        return "no " + resource + " on the class path (the build skipped the native library;"
            + " was a compiler or the JDK's JNI headers missing?)";
      }
      library = "file".equals(url.getProtocol()) ? fileOf(url) : extract(url, fileName);
    }
    System.load(library.toString());
    return null;
  }

  private static Path fileOf(URL url) {
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("unusable library URL " + url, e);
    }
  }

  private static Path extract(URL url, String fileName) throws IOException {
    byte[] bytes;
    try (InputStream in = url.openStream()) {
      bytes = in.readAllBytes();
    }
    return LibraryCache.extract(bytes, fileName, LibraryCache.defaultRoot());
  }
}
