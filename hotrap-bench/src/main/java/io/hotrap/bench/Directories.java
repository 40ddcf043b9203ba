package io.hotrap.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system chores of the benchmarks: fresh directories and their removal. */
public final class Directories {
  private Directories() {}

  /** Deletes {@code dir} with everything in it if it exists, then creates it empty. */
  public static Path fresh(Path dir) {
    deleteRecursively(dir);
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new empty directory under the system's temporary directory. */
  public static Path temporary(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes {@code dir} and everything in it; nothing if it does not exist. */
  public static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Copies the tree under {@code from} to {@code to}, which must not exist: directories first, then
   * each file.
   */
  public static void copyRecursively(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Total size of the regular files under {@code dir}, bytes. */
  public static long size(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      long sum = 0;
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          sum += Files.size(p);
        }
      }
      return sum;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
