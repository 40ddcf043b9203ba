package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The options builder fails fast on every bad or conflicting setting, naming it. */
class RaltOptionsTest {

  private static final Path DIR = Path.of("ralt-options-test");

  @ParameterizedTest(name = "{0}({1})")
  @MethodSource("badValues")
  void aBadValueIsRejectedWithAMessageNamingTheSetting(
      String setting, Object value, Consumer<RaltOptions.Builder> set) {
    RaltOptions.Builder b = RaltOptions.builder();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.accept(b));
    assertTrue(e.getMessage() != null && e.getMessage().contains(setting),
        "message should name " + setting + " but was: " + e.getMessage());
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        bad("fastDiskBytes", 0L, b -> b.fastDiskBytes(0)),
        bad("fastDiskBytes", -1L, b -> b.fastDiskBytes(-1)),
        bad("alpha", 0.0, b -> b.alpha(0)),
        bad("alpha", 1.5, b -> b.alpha(1.5)),
        bad("alpha", Double.NaN, b -> b.alpha(Double.NaN)),
        bad("tickPeriodBytes", 0L, b -> b.tickPeriodBytes(0)),
        bad("beta", 0.0, b -> b.beta(0)),
        bad("beta", 1.0, b -> b.beta(1)),
        bad("beta", Double.NaN, b -> b.beta(Double.NaN)),
        bad("hotSetBeta", 0.0, b -> b.hotSetBeta(0)),
        bad("hotSetBeta", 1.0, b -> b.hotSetBeta(1)),
        bad("hotSetBeta", Double.NaN, b -> b.hotSetBeta(Double.NaN)),
        bad("bloomBitsPerKey", 0, b -> b.bloomBitsPerKey(0)),
        bad("bloomBitsPerKey", 65, b -> b.bloomBitsPerKey(65)),
        bad("blockBytes", 255, b -> b.blockBytes(255)),
        bad("blockBytes", (1 << 20) + 1, b -> b.blockBytes((1 << 20) + 1)),
        bad("bufferBytes", 64 * 1024 - 1L, b -> b.bufferBytes(64 * 1024 - 1)),
        bad("bufferBytes", 1L << 31, b -> b.bufferBytes(1L << 31)),
        bad("segmentBytes", 4095L, b -> b.segmentBytes(4095)),
        bad("initialHotSetLimit", 0L, b -> b.initialHotSetLimit(0)),
        bad("initialPhysicalLimit", -5L, b -> b.initialPhysicalLimit(-5)),
        bad("deltaC", 0.0, b -> b.deltaC(0)),
        bad("deltaC", Double.POSITIVE_INFINITY, b -> b.deltaC(Double.POSITIVE_INFINITY)),
        bad("deltaC", Double.NaN, b -> b.deltaC(Double.NaN)),
        bad("cMax", -1.0, b -> b.cMax(-1)),
        bad("cMax", Double.POSITIVE_INFINITY, b -> b.cMax(Double.POSITIVE_INFINITY)),
        bad("minHotSetLimit", 0L, b -> b.minHotSetLimit(0)),
        bad("maxHotSetLimit", 0L, b -> b.maxHotSetLimit(0)),
        bad("maxUnstableHotBytes", -1L, b -> b.maxUnstableHotBytes(-1)),
        bad("unstableShareOfStable", -0.5, b -> b.unstableShareOfStable(-0.5)),
        bad("unstableShareOfStable", Double.NaN, b -> b.unstableShareOfStable(Double.NaN)),
        bad("counterDecayPeriodBytes", 0L, b -> b.counterDecayPeriodBytes(0)),
        bad("levelSizeRatio", 1, b -> b.levelSizeRatio(1)),
        bad("level0RunLimit", 0, b -> b.level0RunLimit(0)),
        bad("evictionSampleBlocks", 0, b -> b.evictionSampleBlocks(0)));
  }

  private static Arguments bad(String setting, Object value, Consumer<RaltOptions.Builder> set) {
    return Arguments.of(setting, value, set);
  }

  @Test
  void aNullDirectoryOrScorerIsRejectedWithAMessageNamingIt() {
    NullPointerException dir =
        assertThrows(NullPointerException.class, () -> RaltOptions.builder().directory(null));
    assertEquals("directory", dir.getMessage());
    NullPointerException scorer =
        assertThrows(NullPointerException.class, () -> RaltOptions.builder().scorer(null));
    assertEquals("scorer", scorer.getMessage());
  }

  @Test
  void buildWithoutADirectoryThrowsIllegalStateException() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> RaltOptions.builder().fastDiskBytes(1L << 30).build());
    assertTrue(e.getMessage().contains("directory"), e.getMessage());
  }

  @Test
  void buildWithoutAFastDiskSizeThrowsIllegalStateException() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> RaltOptions.builder().directory(DIR).build());
    assertTrue(e.getMessage().contains("fastDiskBytes"), e.getMessage());
  }

  @Test
  void conflictingLimitsAreRejectedNamingBoth() {
    IllegalStateException minAboveMax = assertThrows(IllegalStateException.class,
        () -> RaltOptions.builder().directory(DIR).fastDiskBytes(1L << 30)
            .minHotSetLimit(2L << 20).maxHotSetLimit(1L << 20).build());
    assertTrue(minAboveMax.getMessage().contains("minHotSetLimit")
        && minAboveMax.getMessage().contains("maxHotSetLimit"), minAboveMax.getMessage());

    IllegalStateException cMaxBelowDeltaC = assertThrows(IllegalStateException.class,
        () -> RaltOptions.builder().directory(DIR).fastDiskBytes(1L << 30)
            .deltaC(3).cMax(2).build());
    assertTrue(cMaxBelowDeltaC.getMessage().contains("cMax")
        && cMaxBelowDeltaC.getMessage().contains("deltaC"), cMaxBelowDeltaC.getMessage());
  }

  @Test
  void defaultsAreThePapersFractionsOfTheFastDisk() {
    long fd = 10L << 30;
    RaltOptions o = RaltOptions.builder().directory(DIR).fastDiskBytes(fd).build();
    assertEquals(0.999, o.alpha());
    assertEquals(0.1, o.beta());
    assertEquals(0.025, o.hotSetBeta());
    assertEquals((long) (0.1 * fd), o.tickPeriodBytes());
    assertEquals((long) (0.5 * fd), o.initialHotSetLimit());
    assertEquals((long) (0.15 * fd), o.initialPhysicalLimit());
    assertEquals((long) (0.05 * fd), o.minHotSetLimit());
    assertEquals((long) (0.7 * fd), o.maxHotSetLimit());
    assertEquals((long) (0.1 * o.maxHotSetLimit()), o.maxUnstableHotBytes());
    assertEquals(0.15, o.unstableShareOfStable());
    assertEquals(o.maxHotSetLimit(), o.counterDecayPeriodBytes());
    assertEquals(2.6, o.deltaC());
    assertEquals(5.0, o.cMax());
    assertEquals(Scorer.EXPONENTIAL_SMOOTHING, o.scorer());
    assertTrue(o.autoTuning());
  }
}
