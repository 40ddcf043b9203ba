package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlashCacheBuilderTest {
  @TempDir Path dir;

  @Test
  void requiredOptionsAreNamedWhenMissing() {
    assertEquals("directory was not set", assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().flashBytes(1 << 30).dramBytes(0).build()).getMessage());
    assertEquals("flashBytes was not set", assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().directory(dir).dramBytes(0).build()).getMessage());
    assertEquals("dramBytes was not set", assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().directory(dir).flashBytes(1 << 30).build()).getMessage());
  }

  @Test
  void anOptionSetTwiceNamesTheFirstValue() {
    assertEquals("flashBytes was already set to 100", assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().flashBytes(100).flashBytes(200)).getMessage());
    assertEquals("evictionPolicy was already set to FIFO", assertThrows(
        IllegalStateException.class, () -> FlashCache.builder()
            .evictionPolicy(RegionEvictionPolicy.FIFO).evictionPolicy(RegionEvictionPolicy.LRU))
        .getMessage());
    assertEquals("directory was already set to " + dir, assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().directory(dir).directory(dir)).getMessage());
  }

  @Test
  void badValuesAreRejectedWithTheValue() {
    assertEquals("flashBytes must be positive, was 0", assertThrows(
        IllegalArgumentException.class, () -> FlashCache.builder().flashBytes(0)).getMessage());
    assertEquals("dramBytes must not be negative, was -1", assertThrows(
        IllegalArgumentException.class, () -> FlashCache.builder().dramBytes(-1)).getMessage());
    assertEquals("regionBytes must be a multiple of 4096 in [65536, 67108864], was 70000",
        assertThrows(IllegalArgumentException.class,
            () -> FlashCache.builder().regionBytes(70_000)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> FlashCache.builder().reinsertionHits(256));
    assertThrows(IllegalArgumentException.class, () -> FlashCache.builder().inMemoryBuffers(1));
    assertThrows(IllegalArgumentException.class, () -> FlashCache.builder().averageItemBytes(8));
    assertThrows(IllegalArgumentException.class,
        () -> FlashCache.builder().invalidGroupsRemembered(-1));
    assertThrows(NullPointerException.class, () -> FlashCache.builder().directory(null));
  }

  @Test
  void tooFewRegionsAreRejectedWithTheArithmetic() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FlashCache.builder().directory(dir).flashBytes(4 << 20).dramBytes(0).build());
    assertEquals("flashBytes 4194304 holds 4 regions of 1048576 bytes; at least 8 are needed",
        e.getMessage());
    assertThrows(IllegalStateException.class, () -> Items.small(dir, 8, 0).inMemoryBuffers(8)
        .build());
  }
}
