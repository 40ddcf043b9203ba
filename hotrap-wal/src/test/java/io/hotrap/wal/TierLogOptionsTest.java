package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class TierLogOptionsTest {

  private static TierLogOptions.Builder valid() {
    return TierLogOptions.builder().directory(Path.of("log")).memoryTierBytes(1 << 20);
  }

  private static void assertRejected(Class<? extends Throwable> type, Executable call,
      String... parts) {
    Throwable e = assertThrows(type, call);
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), e.getMessage() + " should name " + part);
    }
  }

  @Test
  void defaultsAreThePapers() {
    TierLogOptions options = valid().build();
    assertEquals(64L << 20, options.segmentBytes());
    assertEquals(2.5, options.trimTriggerRatio());
    assertEquals(2.25, options.trimTargetRatio(), 1e-9);
    assertEquals(Codec.LZ4, options.codec());
    assertEquals(1 << 20, options.blockBytes());
  }

  @Test
  void theDefaultTargetFollowsTheTrigger() {
    assertEquals(3.6, valid().trimTriggerRatio(4).build().trimTargetRatio(), 1e-9);
    assertEquals(1.5, valid().trimTargetRatio(1.5).build().trimTargetRatio());
  }

  @Test
  void valuesOutOfRangeAreRejectedByName() {
    assertRejected(IllegalArgumentException.class, () -> valid().memoryTierBytes(0),
        "memoryTierBytes", "0");
    assertRejected(IllegalArgumentException.class, () -> valid().segmentBytes(1023),
        "segmentBytes", "1023");
    assertRejected(IllegalArgumentException.class, () -> valid().segmentBytes(2L << 30),
        "segmentBytes", String.valueOf(2L << 30));
    assertRejected(IllegalArgumentException.class, () -> valid().trimTriggerRatio(1.0),
        "trimTriggerRatio", "1.0");
    assertRejected(IllegalArgumentException.class, () -> valid().trimTriggerRatio(Double.NaN),
        "trimTriggerRatio", "NaN");
    assertRejected(IllegalArgumentException.class, () -> valid().trimTargetRatio(0),
        "trimTargetRatio", "0");
    assertRejected(IllegalArgumentException.class, () -> valid().blockBytes(100),
        "blockBytes", "100");
    assertRejected(IllegalArgumentException.class, () -> valid().maxBufferedBytes(-1),
        "maxBufferedBytes", "-1");
  }

  @Test
  void aTargetNotBelowTheTriggerIsRejected() {
    assertRejected(IllegalStateException.class,
        () -> valid().trimTriggerRatio(2).trimTargetRatio(2).build(),
        "trimTargetRatio 2.0", "trimTriggerRatio 2.0");
  }

  @Test
  void missingSettingsAreRejected() {
    assertRejected(IllegalStateException.class,
        () -> TierLogOptions.builder().memoryTierBytes(1).build(), "directory");
    assertRejected(IllegalStateException.class,
        () -> TierLogOptions.builder().directory(Path.of("x")).build(), "memoryTierBytes");
  }

  @Test
  void nullsAreRejectedByName() {
    assertRejected(NullPointerException.class, () -> valid().directory(null), "directory");
    assertRejected(NullPointerException.class, () -> valid().codec(null), "codec");
  }
}
