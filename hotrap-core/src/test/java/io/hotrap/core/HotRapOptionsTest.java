package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HotRapOptionsTest {
  private final Path dir = Path.of("/tmp/hotrap-options-test");

  @Test
  void defaultsScaleWithTheBudget() {
    HotRapOptions o = HotRapOptions.builder().fastPath(dir.resolve("f")).slowPath(dir.resolve("s"))
        .fastBudgetBytes(20L << 20).build();
    // 1/160 of the budget, floored at 64 KiB: a 20 MiB store behaves like the paper's at 1/500.
    assertEquals(128L << 10, o.fastTargetFileBytes());
    assertEquals(128L << 10, o.writeBufferBytes());
    assertEquals(4 * o.fastTargetFileBytes(), o.slowTargetFileBytes());
    assertEquals(8L << 20, o.blockCacheBytes());
    assertEquals(dir.resolve("f").resolve("ralt").toAbsolutePath(), o.raltOptions().directory());
    assertEquals(20L << 20, o.raltOptions().fastDiskBytes());
    assertTrue(o.writeStallBytes() > o.highWatermarkBytes());
    assertTrue(o.highWatermarkBytes() > o.lowWatermarkBytes());

    HotRapOptions big = HotRapOptions.builder().fastPath(dir.resolve("f")).slowPath(dir.resolve("s"))
        .fastBudgetBytes(10L << 30).build();
    assertEquals(64L << 20, big.fastTargetFileBytes());
    assertEquals(256L << 20, big.blockCacheBytes());
    assertFalse(o.nativeMigration(), "demotion writes tombstones unless asked for the native path");
    assertTrue(o.dropDemotedFiles(), "wholly demoted files leave whole unless asked not to");
  }

  @Test
  void requiredSettingsAreNamed() {
    assertMessage(IllegalStateException.class, "fastPath was not set",
        () -> HotRapOptions.builder().slowPath(dir).fastBudgetBytes(1 << 24).build());
    assertMessage(IllegalStateException.class, "slowPath was not set",
        () -> HotRapOptions.builder().fastPath(dir).fastBudgetBytes(1 << 24).build());
    assertMessage(IllegalStateException.class, "fastBudgetBytes was not set",
        () -> HotRapOptions.builder().fastPath(dir.resolve("a")).slowPath(dir.resolve("b")).build());
  }

  @Test
  void badValuesAreRejectedWithTheValue() {
    HotRapOptions.Builder b = HotRapOptions.builder();
    assertMessage(IllegalArgumentException.class, "fastBudgetBytes must be positive but was -5",
        () -> b.fastBudgetBytes(-5));
    assertMessage(IllegalArgumentException.class, "highWatermark must be in (0, 1] but was 1.5",
        () -> b.highWatermark(1.5));
    assertMessage(IllegalArgumentException.class, "writeBufferBytes must be at least 65536 but was 100",
        () -> b.writeBufferBytes(100));
    assertMessage(IllegalArgumentException.class, "lockStripes must be a power of two",
        () -> b.lockStripes(1000));
    assertMessage(IllegalArgumentException.class, "fastBlockSize must be in [512, 4194304] but was 10",
        () -> b.fastBlockSize(10));
    assertThrows(NullPointerException.class, () -> b.fastPath(null));
  }

  @Test
  void conflictingSettingsAreRejectedAtBuild() {
    assertMessage(IllegalStateException.class, "must not overlap",
        () -> HotRapOptions.builder().fastPath(dir).slowPath(dir.resolve("slow"))
            .fastBudgetBytes(1 << 24).build());
    assertMessage(IllegalStateException.class, "lowWatermark (0.9) must not exceed highWatermark (0.8)",
        () -> HotRapOptions.builder().fastPath(dir.resolve("a")).slowPath(dir.resolve("b"))
            .fastBudgetBytes(1 << 24).highWatermark(0.8).lowWatermark(0.9).build());
    assertMessage(IllegalStateException.class, "leaves no room for 3 write buffers",
        () -> HotRapOptions.builder().fastPath(dir.resolve("a")).slowPath(dir.resolve("b"))
            .fastBudgetBytes(1 << 20).writeBufferBytes(1 << 20).build());
  }

  private static void assertMessage(Class<? extends Throwable> type, String fragment,
      org.junit.jupiter.api.function.Executable action) {
    Throwable t = assertThrows(type, action);
    assertTrue(t.getMessage().contains(fragment), () -> "message was: " + t.getMessage());
  }
}
