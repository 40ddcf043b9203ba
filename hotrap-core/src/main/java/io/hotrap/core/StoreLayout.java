package io.hotrap.core;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;
import java.util.UUID;

/**
 * Where a store keeps its files, and the marker files that tie its two directories together.
 *
 * <pre>
 * &lt;fastPath&gt;/HOTRAP_STORE   marker (below)
 * &lt;fastPath&gt;/db/            the RocksDB directory: MANIFEST, WAL, OPTIONS, LOG, default CF
 * &lt;fastPath&gt;/data/          SST files of column family "fast"
 * &lt;fastPath&gt;/hot/           SST files of column family "fast-hot" (write-hot separation)
 * &lt;fastPath&gt;/ralt/          RALT, the access tracker
 * &lt;fastPath&gt;/tierlog/       with a memory tier: its log ({@link MemoryTier}); L0 of "fast" is in
 *                            the memory directory
 * &lt;fastPath&gt;/MEMORY_TIER    marker: created with a memory tier ({@link MemoryTier#checkLayout})
 * &lt;slowPath&gt;/HOTRAP_STORE   marker (below)
 * &lt;slowPath&gt;/data/          SST files of column family "slow"
 * &lt;slowPath&gt;/demote/        demoted records on their way into "slow" ({@link TierMigrator})
 * </pre>
 *
 * <p>A marker is a {@link Properties} text file in UTF-8 with the keys {@code format} (the layout
 * version, {@value #FORMAT_VERSION}), {@code store.id} (a random UUID shared by both markers),
 * {@code role} ({@code fast} or {@code slow}), {@code fast.path} and {@code slow.path} (the absolute
 * directories the store was created with). Markers are written to a temporary file, synced and
 * renamed, slow first, both before RocksDB creates anything. A crash between the two leaves a slow
 * marker naming these directories over an empty slow tier; the next open finishes the creation with
 * its id. Opening checks that both markers exist, carry the same id and name the
 * directories given: a store opened with a slow directory other than its own fails before RocksDB
 * could mistake missing SST files for corruption.
 */
final class StoreLayout {
  static final int FORMAT_VERSION = 1;
  static final String MARKER = "HOTRAP_STORE";
  static final String DB_DIR = "db";
  static final String DATA_DIR = "data";
  static final String RALT_DIR = "ralt";
  static final String HOT_DIR = "hot";

  private final Path fastPath;
  private final Path slowPath;

  StoreLayout(Path fastPath, Path slowPath) {
    this.fastPath = fastPath;
    this.slowPath = slowPath;
  }

  Path dbDir() { return fastPath.resolve(DB_DIR); }

  Path fastDataDir() { return fastPath.resolve(DATA_DIR); }

  Path hotDataDir() { return fastPath.resolve(HOT_DIR); }

  Path slowDataDir() { return slowPath.resolve(DATA_DIR); }

  Path raltDir() { return fastPath.resolve(RALT_DIR); }

  /** Whether RocksDB has created its store in {@link #dbDir()} (its CURRENT file exists). */
  boolean dbExists() {
    return Files.exists(dbDir().resolve("CURRENT"));
  }

  /**
   * Creates the markers and directories of a new store, or checks those of an existing one.
   *
   * @return the store id
   * @throws IllegalArgumentException if the directories belong to different stores or were created
   *     with other paths
   * @throws UncheckedIOException if a directory or marker cannot be read or written
   */
  String createOrVerify() {
    try {
      Path fastMarker = fastPath.resolve(MARKER);
      Path slowMarker = slowPath.resolve(MARKER);
      boolean dbExists = dbExists();
      if (!Files.exists(fastMarker)) {
        if (dbExists) {
          throw new IllegalArgumentException("fastPath " + fastPath
              + " holds a RocksDB directory but no " + MARKER + " marker: not a HotRAP store");
        }
        String id = null;
        if (Files.exists(slowMarker)) {
          Properties p = read(slowMarker);
          if (!interruptedCreation(p)) {
            throw new IllegalArgumentException("slowPath " + slowPath
                + " belongs to the store created with fastPath " + p.getProperty("fast.path")
                + ", not to a new store at " + fastPath);
          }
          // A creation that stopped between the two markers: finish it with the slow marker's id.
          id = p.getProperty("store.id");
        }
        if (id == null) {
          id = UUID.randomUUID().toString();
        }
        Files.createDirectories(fastPath);
        Files.createDirectories(slowPath);
        if (!Files.exists(slowMarker)) {
          write(slowMarker, marker(id, "slow"));
        }
        write(fastMarker, marker(id, "fast"));
        createDirs();
        return id;
      }
      Properties fast = read(fastMarker);
      checkFormat(fastMarker, fast);
      String created = fast.getProperty("slow.path");
      if (!slowPath.toString().equals(created)) {
        throw new IllegalArgumentException("the store at fastPath " + fastPath
            + " was created with slowPath " + created + " but was opened with slowPath " + slowPath);
      }
      if (!fastPath.toString().equals(fast.getProperty("fast.path"))) {
        throw new IllegalArgumentException("the store was created with fastPath "
            + fast.getProperty("fast.path") + " but was opened with fastPath " + fastPath);
      }
      if (!Files.exists(slowMarker)) {
        throw new IllegalArgumentException("slowPath " + slowPath + " has no " + MARKER
            + " marker: it is not the slow directory of the store at " + fastPath);
      }
      Properties slow = read(slowMarker);
      checkFormat(slowMarker, slow);
      String id = fast.getProperty("store.id");
      if (id == null || !id.equals(slow.getProperty("store.id"))) {
        throw new IllegalArgumentException("slowPath " + slowPath + " belongs to store "
            + slow.getProperty("store.id") + ", fastPath " + fastPath + " to store " + id);
      }
      createDirs();
      return id;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the store directories " + fastPath
          + " and " + slowPath, e);
    }
  }

  /**
   * Whether a slow marker without a fast one is what a crash during creation leaves: it names this
   * store's directories, and the slow tier holds no data yet (creation writes the slow marker, then
   * the fast one, before RocksDB writes anything). Slow data without a fast marker is a store whose
   * fast disk was lost or wiped; that is refused, never adopted as a new store.
   */
  private boolean interruptedCreation(Properties slow) throws IOException {
    if (!fastPath.toString().equals(slow.getProperty("fast.path"))
        || !slowPath.toString().equals(slow.getProperty("slow.path"))
        || !Integer.toString(FORMAT_VERSION).equals(slow.getProperty("format"))
        || slow.getProperty("store.id") == null) {
      return false;
    }
    Path data = slowDataDir();
    if (!Files.isDirectory(data)) {
      return true;
    }
    try (java.util.stream.Stream<Path> files = Files.list(data)) {
      return files.findAny().isEmpty();
    }
  }

  private void createDirs() throws IOException {
    Files.createDirectories(dbDir());
    Files.createDirectories(fastDataDir());
    Files.createDirectories(hotDataDir());
    Files.createDirectories(slowDataDir());
    // RALT's directory is created by the tracker: a failure there degrades tracking, not the store.
  }

  private Properties marker(String id, String role) {
    Properties p = new Properties();
    p.setProperty("format", Integer.toString(FORMAT_VERSION));
    p.setProperty("store.id", id);
    p.setProperty("role", role);
    p.setProperty("fast.path", fastPath.toString());
    p.setProperty("slow.path", slowPath.toString());
    return p;
  }

  private static void checkFormat(Path marker, Properties p) {
    String format = p.getProperty("format");
    if (!Integer.toString(FORMAT_VERSION).equals(format)) {
      throw new IllegalArgumentException(marker + " has format " + format + "; this version reads "
          + FORMAT_VERSION);
    }
  }

  private static Properties read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    return p;
  }

  private static void write(Path file, Properties p) throws IOException {
    StringWriter w = new StringWriter();
    p.store(w, "HotRAP store marker; do not edit");
    writeDurably(file, w.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes {@code content} to {@code file} so that a crash leaves the old file or the new one, and
   * the new one survives a power loss once this returns: a synced temporary file, renamed over
   * {@code file}, then the directory synced.
   */
  static void writeDurably(Path file, byte[] content) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, content);
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException ignored) {
      // Some file systems cannot sync a directory; the rename is still atomic there.
    }
  }

  /** Deletes {@code dir} and everything below it; nothing if it does not exist. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
