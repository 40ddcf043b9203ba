package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hot set's stable part is told apart from the recent records Algorithm 1 lets in. */
class StableHotTest {
  @TempDir Path dir;

  private static byte[] key(String prefix, int i) {
    return String.format("%s%08d", prefix, i).getBytes();
  }

  @Test
  void keysSeenOnceAreHotWhileThereIsRoomButNotStableHot() {
    RaltOptions options = RaltOptions.builder().directory(dir).fastDiskBytes(64L << 20)
        .bufferBytes(64 * 1024).counterDecayPeriodBytes(100_000).build();
    try (Ralt ralt = Ralt.open(options)) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 1000; i++) {
          ralt.record(key("twice", i), 100);
        }
      }
      // One decay period has passed: the eviction that follows finds room for every record, so
      // from now on records seen once are hot too.
      ralt.awaitQuiescence();
      for (int i = 0; i < 1000; i++) {
        ralt.record(key("once", i), 100);
      }
      ralt.awaitQuiescence();
      int onceHot = 0;
      int onceStableHot = 0;
      int twiceStableHot = 0;
      for (int i = 0; i < 1000; i++) {
        onceHot += ralt.isHot(key("once", i)) ? 1 : 0;
        onceStableHot += ralt.isStableHot(key("once", i)) ? 1 : 0;
        twiceStableHot += ralt.isStableHot(key("twice", i)) && ralt.isHot(key("twice", i)) ? 1 : 0;
      }
      assertEquals(1000, onceHot, "seen once, within the hot-set limit: hot; " + ralt.stats());
      assertEquals(0, onceStableHot, "seen once: not stable");
      assertEquals(1000, twiceStableHot, "seen twice: stable and hot");
    }
  }
}
