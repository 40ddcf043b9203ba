package io.hotrap.jni;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.TableFileCreationInfo;
import org.rocksdb.TableFileDeletionInfo;

/**
 * Tells a block-level secondary cache which groups (SST files, {@link SstFileGroups}) appear and
 * which die, from RocksDB's events: SAS-Cache's compaction-aware invalidation and the hook for
 * its prefetch of new files (DESIGN §14). Register it on the database's options ({@code
 * setListeners}); for a database reopened with files already on disk, also call {@link
 * #track(RocksDB)} once after opening.
 *
 * <ul>
 *   <li>A table file created by a flush or a compaction: its group is computed (from the file, on
 *       RocksDB's thread) and remembered, and {@code created} is called with it.
 *   <li>A compaction completed: the groups of the input files it consumed are forgotten and
 *       {@code invalidated} is called with each; a file it moved to another level without
 *       rewriting it (a trivial move, listed as input and output) keeps its group. From then on
 *       only readers of an older version (an iterator or snapshot opened before) read the
 *       consumed files, so their blocks are no longer worth flash space; a block such a reader
 *       brings back is a wasted insert, not a wrong value, since a file's blocks never change.
 *   <li>A table file deleted (after compaction, or otherwise): its group, if still remembered, is
 *       forgotten and {@code invalidated}.
 * </ul>
 *
 * <p>Files whose group cannot be computed (an error opening them, or no stable cache key, {@link
 * SstFileGroups#NONE}) are counted in {@link #untrackedFiles()} and never invalidated: their blocks
 * leave the cache by its own eviction. The callbacks run on RocksDB's threads; exceptions they
 * throw are logged and dropped, never passed to RocksDB. One listener serves one database.
 * Thread-safe.
 */
public final class SstGroupListener extends AbstractEventListener {
  private static final Logger LOG = Logger.getLogger(SstGroupListener.class.getName());

  private final LongConsumer created;
  private final LongConsumer invalidated;
  private final Map<Path, Long> groups = new ConcurrentHashMap<>();
  private final AtomicLong untracked = new AtomicLong();

  /**
   * @param created called with the group of each new file (may do nothing)
   * @param invalidated called with the group of each file compaction consumed or RocksDB deleted
   * @throws UnsupportedOperationException when {@link FlashSecondaryCache#available()} is false
   */
  public SstGroupListener(LongConsumer created, LongConsumer invalidated) {
    super(events());
    this.created = created;
    this.invalidated = invalidated;
  }

  /** Checked before the native listener is created, so that a refusal leaks nothing. */
  private static EnabledEventCallback[] events() {
    SecondaryCacheNative.requireAvailable();
    return new EnabledEventCallback[] {
      EnabledEventCallback.ON_TABLE_FILE_CREATED,
      EnabledEventCallback.ON_COMPACTION_COMPLETED,
      EnabledEventCallback.ON_TABLE_FILE_DELETED
    };
  }

  /** Remembers the groups of the database's live files; returns how many were added. */
  public int track(RocksDB db) {
    int added = 0;
    for (LiveFileMetaData file : db.getLiveFilesMetaData()) {
      if (remember(Path.of(file.path(), file.fileName()))) {
        added++;
      }
    }
    return added;
  }

  /** The groups of the live files known to this listener. */
  public Set<Long> groups() {
    return Set.copyOf(groups.values());
  }

  /** Files whose group could not be computed. */
  public long untrackedFiles() {
    return untracked.get();
  }

  @Override
  public void onTableFileCreated(TableFileCreationInfo info) {
    try {
      if (ok(info.getStatus())) {
        Path file = Path.of(info.getFilePath());
        if (remember(file)) {
          created.accept(groups.get(file));
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "handling a created table file failed", e);
    }
  }

  @Override
  public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
    try {
      if (ok(info.status())) {
        forget(consumedFiles(info.inputFiles(), info.outputFiles()));
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "handling a completed compaction failed", e);
    }
  }

  @Override
  public void onTableFileDeleted(TableFileDeletionInfo info) {
    try {
      forget(List.of(info.getFilePath()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "handling a deleted table file failed", e);
    }
  }

  /**
   * The input files a compaction consumed: those not among its outputs (paths as RocksDB's
   * {@code CompactionJobInfo} gives them). A trivial move (a file pushed down a level without
   * being rewritten, RocksDB's {@code Compaction::IsTrivialMove}) lists the file as both input and
   * output; it lives on, and so do its blocks. Needs no native library.
   */
  public static List<String> consumedFiles(List<String> inputs, List<String> outputs) {
    if (outputs.isEmpty()) {
      return inputs;
    }
    Set<Path> kept = new HashSet<>();
    for (String name : outputs) {
      kept.add(Path.of(name).normalize());
    }
    List<String> consumed = new ArrayList<>(inputs.size());
    for (String name : inputs) {
      if (!kept.contains(Path.of(name).normalize())) {
        consumed.add(name);
      }
    }
    return consumed;
  }

  private boolean remember(Path file) {
    file = file.normalize();
    if (groups.containsKey(file)) {
      return false;
    }
    long group;
    try {
      group = SstFileGroups.ofFile(file);
    } catch (RocksDBException | RuntimeException e) {
      LOG.log(Level.WARNING, "no group for " + file + "; its blocks will not be invalidated", e);
      group = SstFileGroups.NONE;
    }
    if (group == SstFileGroups.NONE) {
      untracked.incrementAndGet();
      return false;
    }
    return groups.putIfAbsent(file, group) == null;
  }

  private void forget(List<String> files) {
    for (String name : files) {
      Long group = groups.remove(Path.of(name).normalize());
      if (group != null) {
        invalidated.accept(group);
      }
    }
  }

  private static boolean ok(Status status) {
    return status == null || status.getCode() == Status.Code.Ok;
  }
}
