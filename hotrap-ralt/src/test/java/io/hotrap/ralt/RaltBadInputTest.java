package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What {@link Ralt} does with arguments it cannot take and with calls after {@code close()}. */
class RaltBadInputTest {

  /** Longest key a record can hold: its length is stored in two bytes. */
  private static final int MAX_KEY_BYTES = 65_535;

  @TempDir Path dir;

  private Ralt open() {
    return Ralt.open(RaltOptions.builder().directory(dir).fastDiskBytes(64L << 20).build());
  }

  @Test
  void recordOfANullKeyThrowsNullPointerExceptionNamingTheKey() {
    try (Ralt ralt = open()) {
      NullPointerException e = assertThrows(NullPointerException.class, () -> ralt.record(null, 1));
      assertMessageNames(e, "key");
    }
  }

  @Test
  void isHotOfANullKeyThrowsNullPointerExceptionNamingTheKey() {
    try (Ralt ralt = open()) {
      NullPointerException e = assertThrows(NullPointerException.class, () -> ralt.isHot(null));
      assertMessageNames(e, "key");
    }
  }

  @Test
  void recordWithANegativeValueLengthThrowsIllegalArgumentException() {
    try (Ralt ralt = open()) {
      assertThrows(IllegalArgumentException.class, () -> ralt.record(AccessStreams.key(1), -1));
      assertThrows(IllegalArgumentException.class,
          () -> ralt.record(AccessStreams.key(1), Integer.MIN_VALUE));
    }
  }

  @Test
  void recordOfAKeyLongerThan65535BytesThrowsIllegalArgumentException() {
    try (Ralt ralt = open()) {
      assertThrows(IllegalArgumentException.class,
          () -> ralt.record(new byte[MAX_KEY_BYTES + 1], 10));
      assertDoesNotThrow(() -> ralt.record(new byte[MAX_KEY_BYTES], 10), "the longest key");
      assertDoesNotThrow(() -> ralt.record(new byte[0], 10), "the empty key");
      assertDoesNotThrow(() -> ralt.record(AccessStreams.key(2), 0), "an empty value");
      ralt.awaitQuiescence();
    }
  }

  @Test
  void hotKeysOfARangeWhoseLowIsAboveItsHighIsEmpty() {
    try (Ralt ralt = open()) {
      for (int i = 0; i < 10_000; i++) {
        ralt.record(AccessStreams.key(i % 100), 100);
      }
      ralt.awaitQuiescence();
      try (HotKeyIterator it = ralt.hotKeys(AccessStreams.key(60), AccessStreams.key(40))) {
        assertFalse(it.isValid());
      }
      try (HotKeyIterator it =
          ralt.hotKeys(AccessStreams.highestKey(), AccessStreams.lowestKey())) {
        assertFalse(it.isValid());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void everyCallAfterCloseThrowsIllegalStateException(String call, RaltCall action) {
    Ralt ralt = open();
    ralt.close();
    assertThrows(IllegalStateException.class, () -> action.on(ralt), call + " after close");
  }

  static Stream<Arguments> calls() {
    byte[] k = AccessStreams.key(1);
    return Stream.of(
        Arguments.of("record", (RaltCall) r -> r.record(k, 10)),
        Arguments.of("isHot", (RaltCall) r -> r.isHot(k)),
        Arguments.of("hotSizeInRange", (RaltCall) r -> r.hotSizeInRange(k, k)),
        Arguments.of("hotKeys", (RaltCall) r -> r.hotKeys(k, k).close()),
        Arguments.of("stats", (RaltCall) Ralt::stats),
        Arguments.of("hotSetLimit", (RaltCall) Ralt::hotSetLimit),
        Arguments.of("hotSetBytes", (RaltCall) Ralt::hotSetBytes),
        Arguments.of("awaitQuiescence", (RaltCall) Ralt::awaitQuiescence));
  }

  @Test
  void closeIsIdempotent() {
    Ralt ralt = open();
    ralt.record(AccessStreams.key(1), 10);
    ralt.close();
    assertDoesNotThrow(ralt::close);
    assertDoesNotThrow(ralt::close);
  }

  /** One call on a tracker, for the table of calls after close. */
  @FunctionalInterface
  interface RaltCall {
    void on(Ralt ralt);
  }

  private static void assertMessageNames(Exception e, String name) {
    assertTrue(e.getMessage() != null && e.getMessage().contains(name),
        "message should name \"" + name + "\" but was: " + e.getMessage());
  }
}
