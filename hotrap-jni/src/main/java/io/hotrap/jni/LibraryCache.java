package io.hotrap.jni;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One extracted copy of a native library per library build, shared by every JVM of the user, so
 * that loading from a jar leaves no new file per process.
 *
 * <p>Layout: {@code <root>/<first 32 hex digits of the SHA-256 of the library>/<file name>}, with
 * {@code root} = {@code <java.io.tmpdir>/hotrap-jni-<user.name>} by default. A copy is written to a
 * temporary file in the same directory and renamed into place, so a JVM never loads a half-written
 * library; JVMs extracting at the same time write identical bytes and the last rename wins. An
 * existing copy is reused only if its bytes hash to the same digest (a truncated or altered copy is
 * replaced). Directories are created owner-only where the file system supports POSIX permissions.
 * Thread-safe: holds no state.
 */
final class LibraryCache {
  private static final int DIGEST_HEX_DIGITS = 32;

  private LibraryCache() {}

  static Path defaultRoot() {
    String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
    return Path.of(System.getProperty("java.io.tmpdir"), "hotrap-jni-" + user);
  }

  /**
   * Returns the path of a copy of {@code library} named {@code fileName} under {@code root}, written
   * if no intact copy is there.
   */
  static Path extract(byte[] library, String fileName, Path root) throws IOException {
    String digest = digest(library);
    Path dir = root.resolve(digest);
    createPrivateDirectories(dir);
    Path target = dir.resolve(fileName);
    if (Files.isRegularFile(target) && digest.equals(digest(Files.readAllBytes(target)))) {
      return target;
    }
    Path temp = Files.createTempFile(dir, fileName, ".tmp");
    boolean moved = false;
    try {
      Files.write(temp, library);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
    return target;
  }

  static String digest(byte[] bytes) {
    try {
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(bytes);
      return HexFormat.of().formatHex(sha).substring(0, DIGEST_HEX_DIGITS);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK provides SHA-256", e);
    }
  }

  private static void createPrivateDirectories(Path dir) throws IOException {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }
}
