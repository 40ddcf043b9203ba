package io.hotrap.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system chores of the benchmarks: fresh directories and their removal. */
public final class Directories {
  private Directories() {}

  /**
   * Deletes {@code dir} with everything in it if it exists, then creates it empty.
   *
   * @throws Args.UsageException if {@code dir} cannot be created, saying why in one line
   */
  public static Path fresh(Path dir) {
    deleteRecursively(dir);
    return create(dir);
  }

  /**
   * Creates {@code dir} and its missing parents, or keeps it if it exists.
   *
   * @throws Args.UsageException if it cannot be created (a directory named on the command line
   *     that cannot exist is a usage error): {@code <dir>: cannot create the directory (<why>)}
   */
  public static Path create(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new Args.UsageException(dir + ": cannot create the directory (" + reason(dir, e) + ")");
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

  /**
   * Why creating {@code dir} failed with {@code e}, in a few words: the operating system's
   * reason, naming the path it concerns when that is one of {@code dir}'s parents.
   */
  static String reason(Path dir, IOException e) {
    if (!(e instanceof FileSystemException fse)) {
      return String.valueOf(e.getMessage());
    }
    Path file = fse.getFile() == null ? dir : Path.of(fse.getFile());
    String why;
    if (e instanceof FileAlreadyExistsException) {
      why = "a file that is not a directory is in the way";
    } else if (e instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof NoSuchFileException) {
      // A parent that exists but takes no new entries (procfs, sysfs) answers "no such file" too.
      Path parent = file.getParent();
      return parent != null && Files.isDirectory(parent)
          ? parent + " takes no new directories" : "no such file or directory";
    } else {
      why = fse.getReason() != null ? fse.getReason() : String.valueOf(e.getMessage());
    }
    return file.equals(dir) ? why : why + ": " + file;
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
