package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The flash cache with its index off the heap: the same behaviour as on the heap, and cold starts
 * — never wrong values — when the map file and its checkpoint disagree or the map file is damaged.
 * The warm restart and the crash cases both indexes share are in {@link FlashCacheRestartTest}.
 * The JVM runs with Chronicle Map's options (hotrap-cache's pom).
 */
@Timeout(60)
class FlashCacheOffHeapTest {
  @TempDir Path dir;

  @BeforeAll
  static void chronicleMapRuns() {
    ChronicleSupport.Probe probe = ChronicleSupport.probe();
    assertTrue(probe.available(), "the tests run with Chronicle Map's JVM options: "
        + probe.reason());
  }

  private static FlashCacheBuilder small(Path d, int regions, long dramBytes) {
    return Items.small(d, regions, dramBytes).indexKind(FlashIndexKind.OFF_HEAP);
  }

  private static FlashCache open(Path d) {
    return FlashCache.builder().directory(d).regionBytes(256 << 10).flashBytes(16 << 20)
        .dramBytes(1 << 20).indexKind(FlashIndexKind.OFF_HEAP).build();
  }

  @Test
  void putsGetsAndInvalidationsWorkAsOnTheHeap() throws Exception {
    try (FlashCache cache = small(dir, 32, 32 << 10).build()) {
      assertEquals(FlashIndexKind.OFF_HEAP, cache.indexKind());
      assertTrue(Files.exists(dir.resolve(ChronicleIndex.FILE_NAME)));
      for (int i = 0; i < 1000; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 200), i % 2 == 0 ? 7 : 8);
      }
      cache.awaitQuiescence();
      for (int i = 0; i < 1000; i++) {
        assertArrayEquals(Items.value(i, 1, 200), cache.get(Items.key(i)), "key " + i);
      }
      assertTrue(cache.stats().flashHits() > 800, cache.stats().toString());
      cache.put(Items.key(1), Items.value(1, 2, 300), 8);
      assertArrayEquals(Items.value(1, 2, 300), cache.get(Items.key(1)));
      cache.invalidate(Items.key(3));
      assertNull(cache.get(Items.key(3)));
      cache.invalidateGroup(7);
      for (int i = 0; i < 1000; i += 2) {
        assertNull(cache.get(Items.key(i)), "key " + i);
      }
      cache.awaitQuiescence();
      FlashCacheStats s = cache.stats();
      assertTrue(s.purgedItems() >= 400, s.toString());
      cache.put(Items.key(0), Items.value(0, 2, 200), 7);
      assertNull(cache.get(Items.key(0)), "a put into an invalidated group is dropped");
      for (int i = 5; i < 1000; i += 2) {
        assertArrayEquals(Items.value(i, 1, 200), cache.get(Items.key(i)), "key " + i);
      }
      assertEquals(s.flashItems(), cache.stats().flashItems());
    }
  }

  @Test
  void itemsReadSinceWrittenAreReinsertedWhenTheirRegionIsEvicted() throws Exception {
    try (FlashCache cache = small(dir, 8, 0).evictionPolicy(RegionEvictionPolicy.FIFO).build()) {
      for (int i = 0; i < 50; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500));
      }
      // As in FlashCacheTest: each round reads the first 50 once, then writes two regions' worth
      // of others, waiting for the worker after every put so that reinsertion always finds room.
      for (int round = 0; round < 10; round++) {
        for (int i = 0; i < 50; i++) {
          assertArrayEquals(Items.value(i, 1, 500), cache.get(Items.key(i)), "key " + i);
        }
        for (int i = 0; i < 250; i++) {
          int k = 1000 + round * 250 + i;
          cache.put(Items.key(k), Items.value(k, 1, 500));
          cache.awaitQuiescence();
        }
      }
      FlashCacheStats s = cache.stats();
      assertTrue(s.regionEvictions() > 10, s.toString());
      assertTrue(s.reinsertions() >= 50, s.toString());
      assertNull(cache.get(Items.key(1000)), "never read, evicted");
    }
  }

  /**
   * Items read before a clean close keep their hit counts, so that the first eviction of their
   * region after the restart reinserts them: the counts live in the regions and travel in the
   * checkpoint, whichever index the cache has.
   */
  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void hitCountsSurviveAWarmRestart(FlashIndexKind kind) throws Exception {
    int hot = 50;
    try (FlashCache cache = Items.small(dir, 8, 0).evictionPolicy(RegionEvictionPolicy.FIFO)
        .reinsertionBudget(10).indexKind(kind).build()) {
      for (int i = 0; i < hot; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500));
      }
      for (int i = 0; i < hot; i++) {
        assertNotNull(cache.get(Items.key(i)));
      }
    }
    try (FlashCache cache = Items.small(dir, 8, 0).evictionPolicy(RegionEvictionPolicy.FIFO)
        .reinsertionBudget(10).indexKind(kind).build()) {
      assertEquals(kind, cache.indexKind());
      assertEquals(hot, cache.stats().restoredItems());
      for (int k = 1000; cache.stats().regionEvictions() < 1; k++) {
        assertTrue(k < 3000, "no eviction: " + cache.stats());
        cache.put(Items.key(k), Items.value(k, 1, 500));
        cache.awaitQuiescence();
      }
      assertEquals(hot, cache.stats().reinsertions(), cache.stats().toString());
      for (int i = 0; i < hot; i++) {
        assertArrayEquals(Items.value(i, 1, 500), cache.get(Items.key(i)), "key " + i);
      }
    }
  }

  /**
   * A checkpoint vouches for the map file a clean close left, byte for byte: paired with the map
   * file of another close, whether older or newer, it is refused and the cache starts cold. (Each
   * item found would be checked against its key and fill on read; without the pairing, an entry
   * of a key put twice into one fill could point at the older value.)
   */
  @Test
  void aMapFileFromAnotherCloseIsRefused() throws Exception {
    Path live = dir.resolve("live");
    List<byte[]> first;
    try (FlashCache cache = open(live)) {
      first = Items.fill(cache, 2000, 4);
    }
    Path saved = dir.resolve("first");
    Items.copy(live, saved);
    List<byte[]> second = new ArrayList<>(first);
    try (FlashCache cache = open(live)) {
      for (int i = 0; i < 2000; i += 2) {
        byte[] v = Items.value(i, 2, 120);
        cache.put(Items.key(i), v, i % 50);
        second.set(i, v);
      }
    }
    Path oldMapNewCheckpoint = dir.resolve("old-map");
    Items.copy(live, oldMapNewCheckpoint);
    Files.copy(saved.resolve(ChronicleIndex.FILE_NAME),
        oldMapNewCheckpoint.resolve(ChronicleIndex.FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
    Path newMapOldCheckpoint = dir.resolve("old-checkpoint");
    Items.copy(live, newMapOldCheckpoint);
    Files.copy(saved.resolve(Checkpoint.FILE_NAME),
        newMapOldCheckpoint.resolve(Checkpoint.FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
    for (Path d : List.of(oldMapNewCheckpoint, newMapOldCheckpoint)) {
      try (FlashCache cache = open(d)) {
        FlashCacheStats s = cache.stats();
        assertEquals(1, s.rejectedCheckpoints(), d.toString());
        assertEquals(0, s.restoredItems(), d.toString());
        assertEquals(0, Items.hits(cache, second), d.toString());
      }
    }
    try (FlashCache cache = open(live)) {
      assertTrue(Items.hits(cache, second) > 1900, "the matching pair restarts warm");
    }
  }

  /**
   * Damages the map file one byte at a time, at its start, its end and many places between, and
   * also truncates and deletes it: each reopen starts cold and counts the refusal, without an
   * exception and without a hit, and the cache then works.
   */
  @Test
  void aDamagedMapFileMeansAColdStartNeverAWrongValue() throws Exception {
    Path pristine = dir.resolve("pristine");
    List<byte[]> values;
    try (FlashCache cache = small(pristine, 16, 16 << 10).build()) {
      values = Items.fill(cache, 600, 6);
    }
    Path map = pristine.resolve(ChronicleIndex.FILE_NAME);
    long size = Files.size(map);
    SplittableRandom r = new SplittableRandom(8);
    TreeSet<Long> offsets = new TreeSet<>();
    for (long off = 0; off < 64; off += 3) {
      offsets.add(off);
      offsets.add(size - 1 - off);
    }
    while (offsets.size() < 80) {
      offsets.add(r.nextLong(size));
    }
    int trial = 0;
    for (long off : offsets) {
      Path d = dir.resolve("t" + trial++);
      Items.copy(pristine, d);
      Path f = d.resolve(ChronicleIndex.FILE_NAME);
      byte[] bytes = Files.readAllBytes(f);
      bytes[(int) off] ^= (byte) (1 + r.nextInt(255));
      Files.write(f, bytes);
      expectColdStart(d, values, "byte " + off);
    }
    Path truncated = dir.resolve("truncated");
    Items.copy(pristine, truncated);
    byte[] bytes = Files.readAllBytes(truncated.resolve(ChronicleIndex.FILE_NAME));
    Files.write(truncated.resolve(ChronicleIndex.FILE_NAME),
        java.util.Arrays.copyOf(bytes, bytes.length / 2));
    expectColdStart(truncated, values, "truncated");
    Path missing = dir.resolve("missing");
    Items.copy(pristine, missing);
    Files.delete(missing.resolve(ChronicleIndex.FILE_NAME));
    expectColdStart(missing, values, "missing");
    try (FlashCache cache = small(pristine, 16, 16 << 10).build()) {
      assertTrue(Items.hits(cache, values) > 500, "the undamaged copy restarts warm");
    }
  }

  private static void expectColdStart(Path d, List<byte[]> values, String what)
      throws IOException {
    try (FlashCache cache = small(d, 16, 16 << 10).build()) {
      assertEquals(FlashIndexKind.OFF_HEAP, cache.indexKind(), what);
      FlashCacheStats s = cache.stats();
      assertEquals(1, s.rejectedCheckpoints(), what);
      assertEquals(0, s.flashItems(), what);
      assertEquals(0, Items.hits(cache, values), what);
      cache.put(Items.key(1), Items.value(1, 9, 100));
      assertArrayEquals(Items.value(1, 9, 100), cache.get(Items.key(1)), what);
    }
    Items.deleteTree(d);
  }

  @Test
  void anOnHeapIndexCannotReadAMapFileAndAnOffHeapOneReadsACheckpoint() throws Exception {
    List<byte[]> values;
    try (FlashCache cache = open(dir)) {
      values = Items.fill(cache, 2000, 9);
    }
    try (FlashCache cache = FlashCache.builder().directory(dir).regionBytes(256 << 10)
        .flashBytes(16 << 20).dramBytes(1 << 20).indexKind(FlashIndexKind.ON_HEAP).build()) {
      assertEquals(1, cache.stats().rejectedCheckpoints());
      assertTrue(Files.notExists(dir.resolve(ChronicleIndex.FILE_NAME)), "deleted unread");
      assertEquals(0, Items.hits(cache, values));
      values = Items.fill(cache, 2000, 10);
    }
    try (FlashCache cache = open(dir)) {
      assertEquals(0, cache.stats().rejectedCheckpoints());
      assertTrue(Items.hits(cache, values) > 1900, cache.stats().toString());
    }
  }
}
