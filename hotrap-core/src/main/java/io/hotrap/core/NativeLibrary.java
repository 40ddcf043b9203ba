package io.hotrap.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from one extracted copy per library build, shared by every JVM of
 * the machine, instead of RocksJava's own loader, which writes a new 17 MB copy into the temporary
 * directory for each process and deletes it only at a clean exit: every JVM killed or crashed
 * (crash tests, a killed application) would leave one behind.
 *
 * <p>The copy lives in {@code <java.io.tmpdir>/hotrap-native-<user>/<crc32c of the library>/}; it is
 * written to a temporary file and renamed into place, so a JVM never loads a half-written library,
 * and JVMs starting together either reuse the first complete copy or write an identical one. If
 * anything fails (no resource, a read-only temporary directory), RocksJava's own loader runs.
 * Thread-safe; loads at most once per JVM.
 */
final class NativeLibrary {
  private static final Logger LOG = Logger.getLogger(NativeLibrary.class.getName());
  private static boolean loaded;

  private NativeLibrary() {}

  static synchronized void load() {
    if (loaded) {
      return;
    }
    try {
      Path dir = extract();
      RocksDB.loadLibrary(List.of(dir.toString()));
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      LOG.log(Level.FINE, "loading RocksDB's library from a shared copy failed; RocksJava loads it", e);
      RocksDB.loadLibrary();
    }
    loaded = true;
  }

  /** The directory holding the shared copy of the library, written if missing. */
  static Path extract() throws IOException {
    // The jar holds lib<rocksdb>jni-<platform>; RocksDB.loadLibrary(paths) looks in each path for
    // the name built from "rocksdbjni" (with "jni" twice): the copy is stored under that name.
    String resource = Environment.getJniLibraryFileName("rocksdb");
    String name = Environment.getJniLibraryFileName("rocksdbjni");
    byte[] library;
    try (InputStream in = RocksDB.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IOException("no " + resource + " in RocksJava's jar");
      }
      library = in.readAllBytes();
    }
    CRC32C crc = new CRC32C();
    crc.update(library);
    Path dir = Path.of(System.getProperty("java.io.tmpdir"),
        "hotrap-native-" + System.getProperty("user.name", "user"),
        Long.toHexString(crc.getValue()) + "-" + library.length);
    Path target = dir.resolve(name);
    if (Files.isRegularFile(target) && Files.size(target) == library.length) {
      return dir;
    }
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, name, ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        out.write(library);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return dir;
  }
}
