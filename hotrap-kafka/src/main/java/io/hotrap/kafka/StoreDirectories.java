package io.hotrap.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStoreContext;

/**
 * The two directories of one task's store, and the rule that keeps them a pair.
 *
 * <pre>
 * &lt;state.dir&gt;/&lt;app&gt;/&lt;task&gt;/&lt;name&gt;/          fast tier: HotRapDB's fast path
 * &lt;state.dir&gt;/&lt;app&gt;/&lt;task&gt;/&lt;name&gt;.position  the store's Position ({@link PositionCheckpoint})
 * &lt;slowBase&gt;/&lt;app&gt;/&lt;task&gt;/&lt;name&gt;/           slow tier: HotRapDB's slow path
 * &lt;slowBase&gt;/&lt;app&gt;/&lt;task&gt;/&lt;name&gt;/{@value #OWNER_FILE}
 * </pre>
 * {@code <app>/<task>} is the task directory's path under {@code state.dir}, so the slow tree
 * mirrors the fast one. The owner file holds, in UTF-8, the absolute fast path the slow directory
 * was created for.
 *
 * <p>Kafka Streams deletes a task's state directory when the state is corrupt (an unclean shutdown
 * under exactly-once), on {@code KafkaStreams.cleanUp()} and when it cleans up tasks it no longer
 * runs, and then restores the store from its changelog. It knows nothing of the slow directory,
 * which outlives the fast one: a slow tier without its fast tier (which holds RocksDB's MANIFEST)
 * is garbage. So when the fast directory holds nothing, a slow directory whose owner file names this
 * fast path is deleted before the store is created anew. One that names another fast path belongs
 * to another Kafka Streams instance sharing the slow base directory; it is left alone and the store
 * fails to open with a message saying so.
 */
final class StoreDirectories {
  static final String OWNER_FILE = "hotrap-kafka.owner";
  private static final Logger LOG = Logger.getLogger(StoreDirectories.class.getName());

  private final Path fast;
  private final Path slow;

  StoreDirectories(Path fast, Path slow) {
    this.fast = fast;
    this.slow = slow;
  }

  /** The directories of store {@code name} of the task {@code context} belongs to. */
  static StoreDirectories of(StateStoreContext context, String name, Path slowBaseDir) {
    Path taskDir = context.stateDir().toPath().toAbsolutePath().normalize();
    Path relative = null;
    Object stateDirConfig = context.appConfigs().get(StreamsConfig.STATE_DIR_CONFIG);
    if (stateDirConfig != null) {
      Path root = Path.of(stateDirConfig.toString()).toAbsolutePath().normalize();
      if (taskDir.startsWith(root) && !taskDir.equals(root)) {
        relative = root.relativize(taskDir);
      }
    }
    if (relative == null) {
      relative = Path.of(context.applicationId(), context.taskId().toString());
    }
    Path slow = slowBaseDir.toAbsolutePath().normalize().resolve(relative).resolve(name);
    return new StoreDirectories(taskDir.resolve(name), slow);
  }

  Path fast() {
    return fast;
  }

  Path slow() {
    return slow;
  }

  /**
   * Makes the pair ready for HotRapDB to open: deletes an orphaned slow directory (see the class
   * comment), creates both directories and records the owner.
   *
   * @throws ProcessorStateException if the slow directory belongs to another fast directory, or
   *     the fast tier exists without its slow directory
   */
  void prepare() {
    try {
      boolean fastEmpty = isEmptyOrMissing(fast);
      if (Files.exists(slow)) {
        String owner = readOwner();
        if (owner == null && !isEmptyOrMissing(slow)) {
          throw new ProcessorStateException("the slow directory " + slow + " holds files but no "
              + OWNER_FILE + ": it was not created by a HotRAP store of " + fast);
        }
        if (owner != null && !owner.equals(fast.toString())) {
          throw new ProcessorStateException("the slow directory " + slow + " belongs to the store at "
              + owner + ", not to " + fast + ": give each Kafka Streams instance its own slow base"
              + " directory, as it has its own state.dir");
        }
        if (fastEmpty && !isEmptyOrMissing(slow)) {
          LOG.warning("deleting " + slow + ", the slow tier of a store whose fast tier " + fast
              + " was deleted; the store is restored from its changelog");
          deleteRecursively(slow);
        }
      } else if (!fastEmpty) {
        throw new ProcessorStateException("the store at " + fast + " has lost its slow directory "
            + slow + "; delete the task's state directory to restore the store from its changelog");
      }
      Files.createDirectories(fast);
      Files.createDirectories(slow);
      Path ownerFile = slow.resolve(OWNER_FILE);
      if (!Files.exists(ownerFile)) {
        Files.write(ownerFile, fast.toString().getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new ProcessorStateException("cannot prepare the store directories " + fast + " and "
          + slow, e);
    }
  }

  private String readOwner() throws IOException {
    try {
      return new String(Files.readAllBytes(slow.resolve(OWNER_FILE)), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static boolean isEmptyOrMissing(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return !Files.exists(dir);
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }

  static void deleteRecursively(Path dir) {
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          if (e != null) {
            throw e;
          }
          Files.delete(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (NoSuchFileException e) {
      // already gone
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
