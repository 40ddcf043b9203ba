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
}
