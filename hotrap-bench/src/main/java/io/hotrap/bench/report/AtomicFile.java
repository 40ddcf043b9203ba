package io.hotrap.bench.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a report file so that a reader sees either the old content or the new, never a half
 * written file: the bytes go to a temporary sibling that is then renamed over the target. The
 * temporary file is deleted when writing fails. Not fsynced: report files are reproducible.
 */
final class AtomicFile {

  /** Produces a file's content. */
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFile() {}

  /** Replaces {@code file} with {@code text} in UTF-8, creating missing parent directories. */
  static void writeString(Path file, String text) throws IOException {
    write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** Replaces {@code file} with what {@code content} writes, creating missing directories. */
  static void write(Path file, Content content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    // Not Files.createTempFile: its owner-only permissions would stay with the renamed file.
    Path tmp = dir.resolve("." + file.getFileName() + "." + Long.toUnsignedString(
        ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
    boolean success = false;
    try {
      try (OutputStream out = new BufferedOutputStream(
          Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
        content.writeTo(out);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      success = true;
    } finally {
      if (!success) {
        Files.deleteIfExists(tmp);
      }
    }
  }
}
