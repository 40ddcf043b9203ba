package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Warm restarts after a clean close, cold starts after a crash, and damaged files. The restart
 * cases run with both indexes; the off-heap index's own cases are in {@link FlashCacheOffHeapTest}.
 */
@Timeout(60)
class FlashCacheRestartTest {
  @TempDir Path dir;

  private static FlashCache open(Path d) {
    return open(d, FlashIndexKind.ON_HEAP);
  }

  static FlashCache open(Path d, FlashIndexKind kind) {
    return FlashCache.builder().directory(d).regionBytes(256 << 10).flashBytes(16 << 20)
        .dramBytes(1 << 20).indexKind(kind).build();
  }

  /**
   * With either index a clean close keeps the items for the next open. On the heap the checkpoint
   * carries them; off the heap the map file does, and the checkpoint holds only the regions and
   * their hit counts.
   */
  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void aCleanCloseKeepsAtLeast95PercentOfTheItems(FlashIndexKind kind) throws Exception {
    List<byte[]> values;
    int before;
    try (FlashCache cache = open(dir, kind)) {
      values = Items.fill(cache, 6000, 1); // about 6.3 MB into 1 MiB of DRAM and 16 MiB of flash
      cache.awaitQuiescence();
      before = Items.hits(cache, values);
    }
    assertTrue(Files.exists(dir.resolve(Checkpoint.FILE_NAME)));
    if (kind == FlashIndexKind.OFF_HEAP) {
      long checkpointBytes = Files.size(dir.resolve(Checkpoint.FILE_NAME));
      assertTrue(checkpointBytes < 6000 * 8, "checkpoint of " + checkpointBytes + " bytes");
    }
    try (FlashCache cache = open(dir, kind)) {
      assertTrue(Files.notExists(dir.resolve(Checkpoint.FILE_NAME)), "deleted on open");
      int after = Items.hits(cache, values);
      double share = (double) after / values.size();
      FlashCacheStats s = cache.stats();
      System.out.printf("warm restart (%s): %d of %d items before close, %d after (%.4f); %s%n",
          kind, before, values.size(), after, share, s);
      assertTrue(share >= 0.95, "restored share " + share);
      assertTrue(s.restoredItems() >= after, s.toString());
      assertEquals(0, s.rejectedCheckpoints());
    }
  }

  /**
   * The files as a crash leaves them, or a close without a checkpoint, mean a cold start with
   * either index: off the heap the map file is deleted unread and a fresh one begins.
   */
  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void aCrashStartsCold(FlashIndexKind kind) throws Exception {
    Path crashed = dir.resolve("crashed");
    List<byte[]> values;
    try (FlashCache cache = open(dir.resolve("live"), kind)) {
      values = Items.fill(cache, 3000, 2);
      cache.awaitQuiescence();
      Items.copy(dir.resolve("live"), crashed); // the files as a crash would leave them
    }
    if (kind == FlashIndexKind.OFF_HEAP) {
      assertTrue(Files.size(crashed.resolve(ChronicleIndex.FILE_NAME)) > 0);
    }
    try (FlashCache cache = open(crashed, kind)) {
      FlashCacheStats s = cache.stats();
      assertEquals(0, s.restoredItems());
      assertEquals(0, s.rejectedCheckpoints(), "no checkpoint was found to reject");
      assertEquals(0, s.flashItems(), "a fresh index");
      assertEquals(0, Items.hits(cache, values));
    }
    FlashCache cache = open(dir.resolve("again"), kind);
    Items.fill(cache, 3000, 2);
    cache.closeWithoutCheckpoint();
    try (FlashCache reopened = open(dir.resolve("again"), kind)) {
      assertEquals(0, reopened.stats().restoredItems());
      assertEquals(0, Items.hits(reopened, values));
    }
  }

  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void aCrashAfterAWarmRestartStartsCold(FlashIndexKind kind) throws Exception {
    Path crashed = dir.resolve("crashed");
    List<byte[]> values;
    try (FlashCache cache = open(dir.resolve("live"), kind)) {
      values = Items.fill(cache, 3000, 3);
    }
    try (FlashCache cache = open(dir.resolve("live"), kind)) {
      assertTrue(Items.hits(cache, values) > 0);
      for (int i = 0; i < 3000; i += 3) {
        cache.put(Items.key(i), Items.value(i, 2, 150)); // the index changes while open
      }
      Items.copy(dir.resolve("live"), crashed);
    }
    try (FlashCache cache = open(crashed, kind)) {
      assertEquals(0, Items.hits(cache, values));
    }
  }

  @Test
  void aCheckpointOfAnotherRegionSizeIsIgnored() throws Exception {
    List<byte[]> values;
    try (FlashCache cache = open(dir)) {
      values = Items.fill(cache, 2000, 4);
    }
    try (FlashCache cache = FlashCache.builder().directory(dir).regionBytes(128 << 10)
        .flashBytes(16 << 20).dramBytes(1 << 20).build()) {
      assertEquals(0, Items.hits(cache, values));
    }
  }

  @Test
  void aDiscardedCheckpointMakesTheNextOpenCold() throws Exception {
    List<byte[]> values;
    try (FlashCache cache = open(dir)) {
      values = Items.fill(cache, 1000, 7);
    }
    assertTrue(Files.exists(dir.resolve(Checkpoint.FILE_NAME)));
    FlashCache.discardCheckpoint(dir);
    assertTrue(Files.notExists(dir.resolve(Checkpoint.FILE_NAME)));
    FlashCache.discardCheckpoint(dir.resolve("missing")); // nothing to do
    try (FlashCache cache = open(dir)) {
      assertEquals(0, Items.hits(cache, values));
    }
  }

  @Test
  void withoutWarmRestartNothingIsSavedOrRestored() throws Exception {
    List<byte[]> values;
    try (FlashCache cache = FlashCache.builder().directory(dir).regionBytes(256 << 10)
        .flashBytes(16 << 20).dramBytes(1 << 20).warmRestart(false).build()) {
      values = Items.fill(cache, 1000, 5);
    }
    assertTrue(Files.notExists(dir.resolve(Checkpoint.FILE_NAME)));
    try (FlashCache cache = open(dir)) {
      assertEquals(0, Items.hits(cache, values));
    }
  }

  /**
   * Damages one byte at a time, at many offsets of every file the cache wrote, and reopens: every
   * get must return the right value or miss. Any damage to the checkpoint means a cold start
   * (CRC32C detects every single-byte error); damage to an item makes that item a miss.
   */
  @Test
  void damagingAnySingleByteGivesMissesNeverWrongValues() throws Exception {
    Path pristine = dir.resolve("pristine");
    List<byte[]> values = new ArrayList<>();
    try (FlashCache cache = Items.small(pristine, 8, 16 << 10).build()) {
      SplittableRandom r = new SplittableRandom(6);
      for (int i = 0; i < 700; i++) {
        byte[] v = Items.value(i, 1, 60 + r.nextInt(540));
        cache.put(Items.key(i), v);
        values.add(v);
      }
    }
    long regionsSize = Files.size(pristine.resolve(RegionStore.FILE_NAME));
    long checkpointSize = Files.size(pristine.resolve(Checkpoint.FILE_NAME));
    SplittableRandom r = new SplittableRandom(7);
    TreeSet<Long> regionOffsets = new TreeSet<>();
    for (long off = 0; off < 2048; off += 11) {
      regionOffsets.add(off); // the first items' headers, keys and values
    }
    while (regionOffsets.size() < 300) {
      regionOffsets.add(r.nextLong(regionsSize));
    }
    TreeSet<Long> checkpointOffsets = new TreeSet<>();
    for (long off = 0; off < Math.min(checkpointSize, 128); off++) {
      checkpointOffsets.add(off); // header, region table, first items
    }
    for (long off = Math.max(0, checkpointSize - 16); off < checkpointSize; off++) {
      checkpointOffsets.add(off); // end tag, count, checksum
    }
    while (checkpointOffsets.size() < 220) {
      checkpointOffsets.add(r.nextLong(checkpointSize));
    }
    long corruptMisses = 0;
    int trial = 0;
    for (long off : regionOffsets) {
      Path d = damaged(pristine, dir.resolve("t" + trial++), RegionStore.FILE_NAME, off, r);
      FlashCache cache = Items.small(d, 8, 16 << 10).build();
      Items.hits(cache, values);
      corruptMisses += cache.stats().corruptMisses();
      cache.closeWithoutCheckpoint();
      Items.deleteTree(d);
    }
    assertTrue(corruptMisses > 50, "damage was noticed: " + corruptMisses);
    for (long off : checkpointOffsets) {
      Path d = damaged(pristine, dir.resolve("t" + trial++), Checkpoint.FILE_NAME, off, r);
      FlashCache cache = Items.small(d, 8, 16 << 10).build();
      assertEquals(0, cache.stats().restoredItems(), "checkpoint damaged at " + off);
      assertEquals(0, Items.hits(cache, values));
      cache.closeWithoutCheckpoint();
      Items.deleteTree(d);
    }
    try (FlashCache cache = Items.small(pristine, 8, 16 << 10).build()) {
      assertTrue(Items.hits(cache, values) > 600, "the undamaged copy restarts warm");
    }
  }

  private static Path damaged(Path from, Path to, String file, long offset, SplittableRandom r)
      throws IOException {
    Items.copy(from, to);
    Path f = to.resolve(file);
    byte[] bytes = Files.readAllBytes(f);
    bytes[(int) offset] ^= (byte) (1 + r.nextInt(255));
    Files.write(f, bytes);
    return to;
  }

  @Test
  void nothingIsReadFromAnEmptyDirectory() {
    try (FlashCache cache = open(dir)) {
      assertNull(cache.get(Items.key(1)));
      assertEquals(0, cache.stats().restoredItems());
    }
  }
}
