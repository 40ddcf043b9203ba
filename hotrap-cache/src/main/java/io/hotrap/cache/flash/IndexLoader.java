package io.hotrap.cache.flash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the flash tier's index: settles which {@link FlashIndexKind} the cache gets, and either
 * restores what the last clean close saved ({@link Checkpoint}) or starts cold. It decides; the
 * flash tier then restores the regions it returns into its store.
 *
 * <p><b>Which kind.</b> The kind asked for, unless it is {@link FlashIndexKind#OFF_HEAP} and
 * Chronicle Map cannot run in this JVM ({@link ChronicleSupport}) or cannot create the map file in
 * this directory: then {@link FlashIndexKind#ON_HEAP}, with a warning.
 *
 * <p><b>Warm or cold.</b> Warm only from a valid checkpoint, and with the items in the map file,
 * only if that file has exactly the length and CRC32C the checkpoint recorded (checked before
 * Chronicle Map opens it), Chronicle opens and walks it without failing, and its entry count is
 * the checkpoint's. Each entry must then pass the checkpoint's {@link Checkpoint.RegionTable} rule
 * and find room in the bypass filter, or it is removed. Anything else is a cold start with a
 * fresh, empty index: a checkpoint refused counts in {@link FlashCacheStats#rejectedCheckpoints()}
 * and is logged, a map file without a checkpoint (after a crash) is deleted unread. A checkpoint
 * whose items are in a map file cannot warm an on-heap index, which cannot read the file; one
 * whose items are in the checkpoint warms either kind.
 *
 * <p>Not thread-safe; runs once, before the tier serves. Never throws for what it finds on disk,
 * only for I/O errors of the directory itself.
 */
final class IndexLoader {
  private static final System.Logger LOG = System.getLogger(IndexLoader.class.getName());

  /**
   * An opened index, which the caller now owns and must close.
   *
   * @param saved the checkpoint restored, or {@code null} for a cold start
   * @param keysByRegion for a warm start, the restored keys of each region, by region id
   * @param restored items restored
   * @param rejected whether a checkpoint was found and not used
   */
  record Loaded(FlashIndex index, FlashIndexKind kind, Checkpoint.Contents saved,
      List<List<ItemKey>> keysByRegion, long restored, boolean rejected) {}

  private final Path dir;
  private final int regionCount;
  private final long expectedItems;
  private final long filterCapacity;

  /**
   * @param expectedItems items the off-heap map is sized for
   * @param filterCapacity keys the bypass filter is sized for, or 0 for no filter
   */
  IndexLoader(Path dir, int regionCount, long expectedItems, long filterCapacity) {
    this.dir = dir;
    this.regionCount = regionCount;
    this.expectedItems = expectedItems;
    this.filterCapacity = filterCapacity;
  }

  /**
   * Opens the index of a cache of this geometry, reading and deleting any checkpoint first if
   * {@code warmRestart}, else deleting it unread.
   */
  Loaded load(int regionBytes, boolean warmRestart, FlashIndexKind requested) throws IOException {
    Checkpoint.Read read = warmRestart
        ? Checkpoint.readAndDelete(dir, regionBytes, regionCount)
        : deleteCheckpoint();
    Checkpoint.Contents saved = read.contents();
    boolean rejected = read.found() && saved == null;
    if (requested == FlashIndexKind.OFF_HEAP && ChronicleSupport.probe().available()) {
      Loaded loaded = loadOffHeap(saved, rejected);
      if (loaded != null) {
        return loaded;
      }
    }
    // A map file left by an off-heap index is never valid again: its checkpoint is gone.
    if (Files.deleteIfExists(dir.resolve(ChronicleIndex.FILE_NAME))) {
      Checkpoint.syncDirectory(dir);
    }
    if (saved != null && saved.map() != null) {
      LOG.log(System.Logger.Level.WARNING, "flash cache in " + dir + ": the checkpoint's items "
          + "are in the off-heap index's map file, which the on-heap index cannot read; "
          + "starting cold");
      saved = null;
      rejected = true;
    }
    HeapIndex index = new HeapIndex(filter(), saved == null ? 16 : saved.keys().size());
    return restoreFromCheckpoint(index, FlashIndexKind.ON_HEAP, saved, rejected);
  }

  private Checkpoint.Read deleteCheckpoint() throws IOException {
    Checkpoint.delete(dir);
    return new Checkpoint.Read(null, false);
  }

  /** The off-heap index, warm or cold; {@code null} if Chronicle cannot even create the map. */
  private Loaded loadOffHeap(Checkpoint.Contents saved, boolean rejected) throws IOException {
    if (saved != null && saved.map() != null) {
      Loaded loaded = restoreFromMap(saved);
      if (loaded != null) {
        return loaded;
      }
      saved = null;
      rejected = true;
    }
    ChronicleIndex index;
    try {
      index = ChronicleIndex.create(dir, expectedItems, filter());
    } catch (Exception | LinkageError | AssertionError e) {
      LOG.log(System.Logger.Level.WARNING, "flash cache in " + dir + ": cannot create the "
          + "off-heap index's map file, using the on-heap index: " + e, e);
      return null;
    }
    try {
      return restoreFromCheckpoint(index, FlashIndexKind.OFF_HEAP, saved, rejected);
    } catch (RuntimeException | Error e) {
      index.close();
      throw e;
    }
  }

  /** A warm start from the map file, or {@code null} (logged) if the file cannot be trusted. */
  private Loaded restoreFromMap(Checkpoint.Contents saved) {
    Path file = dir.resolve(ChronicleIndex.FILE_NAME);
    String why;
    ChronicleIndex index = null;
    try {
      if (!Files.isRegularFile(file) || !Checkpoint.matches(file, saved.map())) {
        why = "the map file is missing or does not match its checkpoint";
      } else {
        index = ChronicleIndex.open(dir, expectedItems, filter());
        Checkpoint.RegionTable table = new Checkpoint.RegionTable(regionCount, saved.regions());
        List<List<ItemKey>> keys = emptyKeyLists();
        long[] kept = {0};
        long removed = index.restore((key, loc) -> table.holds(loc, key.bytes.length),
            (key, loc) -> {
              keys.get(loc.region).add(key);
              kept[0]++;
            });
        if (kept[0] + removed == saved.map().entries()) {
          if (removed > 0) {
            LOG.log(System.Logger.Level.INFO, "flash cache in " + dir + ": dropped " + removed
                + " index entries that the regions or the bypass filter could not hold");
          }
          return new Loaded(index, FlashIndexKind.OFF_HEAP, saved, keys, kept[0], false);
        }
        why = "the map holds " + (kept[0] + removed) + " entries, its checkpoint "
            + saved.map().entries();
      }
    } catch (Exception | LinkageError | AssertionError e) {
      why = "Chronicle Map failed on it: " + e;
    }
    if (index != null) {
      try {
        index.close();
      } catch (RuntimeException e) {
        why += "; closing it failed too: " + e;
      }
    }
    LOG.log(System.Logger.Level.WARNING, "flash cache in " + dir + ": ignoring the saved off-heap "
        + "index, starting cold: " + why);
    return null;
  }

  /** Fills {@code index} with the checkpoint's own items, if any. */
  private Loaded restoreFromCheckpoint(FlashIndex index, FlashIndexKind kind,
      Checkpoint.Contents saved, boolean rejected) {
    if (saved == null) {
      return new Loaded(index, kind, null, List.of(), 0, rejected);
    }
    List<List<ItemKey>> keys = emptyKeyLists();
    long restored = 0;
    for (int i = 0; i < saved.keys().size(); i++) {
      ItemKey key = saved.keys().get(i);
      Location loc = saved.locations().get(i);
      if (index.put(key, loc)) {
        keys.get(loc.region).add(key);
        restored++;
      }
    }
    return new Loaded(index, kind, saved, keys, restored, rejected);
  }

  private List<List<ItemKey>> emptyKeyLists() {
    List<List<ItemKey>> keys = new ArrayList<>(regionCount);
    for (int i = 0; i < regionCount; i++) {
      keys.add(new ArrayList<>());
    }
    return keys;
  }

  private CuckooFilter filter() {
    return filterCapacity > 0 ? new CuckooFilter(filterCapacity) : null;
  }
}
