package io.hotrap.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Names of the files in a log directory, and the two file-system steps every durable change
 * relies on.
 *
 * <ul>
 *   <li>{@code <base>.log}: a raw segment ({@link RawSegmentWriter}), the one being appended to or
 *       one sealed but not yet packed;
 *   <li>{@code <base>.seg}: a packed segment ({@link PackedSegmentWriter}), compressed or trimmed;
 *   <li>{@code *.tmp}: a file being written; it is renamed into place once forced, so any left at
 *       open are debris of a crash and deleted;
 *   <li>{@code liveness}: the saved bitmaps ({@link LivenessFile});
 *   <li>{@code LOCK}: held while a log is open, so two logs never share a directory.
 * </ul>
 *
 * <p>{@code <base>} is the segment's first sequence number in 20 decimal digits, so names sort like
 * numbers. Stateless.
 */
final class SegmentFiles {

  static final String RAW_SUFFIX = ".log";
  static final String PACKED_SUFFIX = ".seg";
  static final String TEMP_SUFFIX = ".tmp";
  static final String LIVENESS = "liveness";
  static final String LOCK = "LOCK";
  private static final int DIGITS = 20;

  private SegmentFiles() {}

  static Path raw(Path dir, long base) {
    return dir.resolve(name(base) + RAW_SUFFIX);
  }

  static Path packed(Path dir, long base) {
    return dir.resolve(name(base) + PACKED_SUFFIX);
  }

  static Path temp(Path target) {
    return target.resolveSibling(target.getFileName() + TEMP_SUFFIX);
  }

  private static String name(long base) {
    return String.format(Locale.ROOT, "%0" + DIGITS + "d", base);
  }

  /** The base a file named {@code <base><suffix>} stands for, or -1 if the name is another. */
  static long baseOf(String fileName, String suffix) {
    if (fileName.length() != DIGITS + suffix.length() || !fileName.endsWith(suffix)) {
      return -1;
    }
    for (int i = 0; i < DIGITS; i++) {
      char c = fileName.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
    }
    try {
      return Long.parseLong(fileName, 0, DIGITS, 10);
    } catch (NumberFormatException e) {
      return -1; // more than Long.MAX_VALUE
    }
  }

  /** Makes the directory's entries (created, renamed, deleted files) durable. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Renames {@code source} over {@code target} in one step and makes the rename durable: a crash
   * leaves either the old target or the new one, never a mix.
   */
  static void moveDurably(Path source, Path target) throws IOException {
    try {
      Files.move(source, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system cannot rename " + source + " atomically", e);
    }
    syncDirectory(target.getParent());
  }
}
