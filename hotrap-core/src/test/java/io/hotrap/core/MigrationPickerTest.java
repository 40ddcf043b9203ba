package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigrationPickerTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static MigrationPicker.FileInfo file(String name, long number, long size, String lo, String hi) {
    return new MigrationPicker.FileInfo(name, number, size, b(lo), b(hi));
  }

  @Test
  void scoreIsFreedBytesPerRewrittenByte() {
    assertEquals(1.0, MigrationPicker.score(100, 0, 0));
    assertEquals(0.5, MigrationPicker.score(100, 0, 100));
    assertEquals(0.25, MigrationPicker.score(100, 50, 100));
    assertEquals(0.0, MigrationPicker.score(100, 100, 0));
  }

  @Test
  void picksTheFileThatFreesMostPerByteRewritten() {
    MigrationPicker.FileInfo hot = file("hot", 1, 100, "a", "c");
    MigrationPicker.FileInfo overlapping = file("overlap", 2, 100, "d", "f");
    MigrationPicker.FileInfo best = file("best", 3, 100, "g", "i");
    List<MigrationPicker.FileInfo> slow = List.of(file("s1", 9, 300, "e", "e"), file("s2", 10, 10, "h", "z"));
    Map<String, Long> hotBytes = Map.of("a", 90L, "d", 0L, "g", 10L);
    MigrationPicker.Pick pick = MigrationPicker.pick(List.of(hot, overlapping, best), slow,
        (lo, hi) -> hotBytes.get(new String(lo, StandardCharsets.UTF_8)));
    // hot: 10/100, overlap: 100/400, best: 90/110
    assertSame(best, pick.file);
    assertFalse(pick.byAge);
    assertEquals(10, pick.hotSize);
  }

  @Test
  void takesTheOldestFileWhenNothingHasABenefit() {
    MigrationPicker.FileInfo newer = file("/000020.sst", MigrationPicker.fileNumber("/000020.sst"), 100, "a", "b");
    MigrationPicker.FileInfo older = file("/000007.sst", MigrationPicker.fileNumber("/000007.sst"), 100, "c", "d");
    MigrationPicker.Pick pick = MigrationPicker.pick(List.of(newer, older), List.of(), (lo, hi) -> 100L);
    assertSame(older, pick.file);
    assertTrue(pick.byAge);
    assertNull(MigrationPicker.pick(List.of(), List.of(), (lo, hi) -> 0L));
    assertEquals(7, MigrationPicker.fileNumber("/000007.sst"));
  }
  @Test
  void slowIndexSumsTheSameOverlapAsAScanOfEveryFile() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
    for (int trial = 0; trial < 200; trial++) {
      // Level 0 overlaps freely; levels 1..3 are cut into disjoint files of a shuffled key space.
      List<List<MigrationPicker.FileInfo>> levels = new java.util.ArrayList<>();
      List<MigrationPicker.FileInfo> all = new java.util.ArrayList<>();
      for (int level = 0; level < 4; level++) {
        List<MigrationPicker.FileInfo> files = new java.util.ArrayList<>();
        int at = rnd.nextInt(5);
        int count = rnd.nextInt(level == 0 ? 4 : 12);
        for (int f = 0; f < count; f++) {
          int lo = level == 0 ? rnd.nextInt(1000) : at;
          int hi = lo + rnd.nextInt(level == 0 ? 300 : 60);
          at = hi + 1 + rnd.nextInt(20);
          MigrationPicker.FileInfo info = file("f" + level + "-" + f, f, 1 + rnd.nextInt(1000),
              String.format("%04d", lo), String.format("%04d", hi));
          files.add(info);
          all.add(info);
        }
        java.util.Collections.shuffle(files, new java.util.Random(trial));
        levels.add(files);
      }
      MigrationPicker.SlowIndex index = new MigrationPicker.SlowIndex(levels);
      for (int q = 0; q < 20; q++) {
        int lo = rnd.nextInt(1100);
        byte[] low = b(String.format("%04d", lo));
        byte[] high = b(String.format("%04d", lo + rnd.nextInt(200)));
        long expected = 0;
        for (MigrationPicker.FileInfo f : all) {
          if (f.overlaps(low, high)) {
            expected += f.size;
          }
        }
        assertEquals(expected, index.overlapBytes(low, high), "trial " + trial + " query " + q);
      }
    }
  }

  @Test
  void rankPutsPositiveScoresFirstBestFirstThenTheRestOldestFirst() {
    MigrationPicker.FileInfo cold = file("/000009.sst", 9, 100, "a", "b");
    MigrationPicker.FileInfo half = file("/000003.sst", 3, 100, "c", "d");
    MigrationPicker.FileInfo hotNew = file("/000008.sst", 8, 100, "e", "f");
    MigrationPicker.FileInfo hotOld = file("/000002.sst", 2, 100, "g", "h");
    Map<String, Long> hot = Map.of("c", 50L, "e", 100L, "g", 100L);
    List<MigrationPicker.Pick> ranked = MigrationPicker.rank(List.of(hotNew, half, hotOld, cold),
        MigrationPicker.SlowIndex.unsorted(List.of()),
        (lo, hi) -> hot.getOrDefault(new String(lo, StandardCharsets.UTF_8), 0L));
    assertEquals(List.of(cold, half, hotOld, hotNew), ranked.stream().map(p -> p.file).toList());
    assertFalse(ranked.get(1).byAge);
    assertTrue(ranked.get(2).byAge);
  }
}
