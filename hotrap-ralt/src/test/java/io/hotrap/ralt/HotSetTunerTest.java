package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HotSetTunerTest {
  private static final RaltOptions OPTIONS =
      RaltOptions.builder().directory(Path.of("unused")).fastDiskBytes(100L << 20).build();

  private static RunMerger.EvictionTotals kept(long stable, long hot, long records) {
    RunMerger.EvictionTotals t = new RunMerger.EvictionTotals();
    t.stableHotBytes = stable;
    t.keptHotBytes = hot;
    t.keptRecordBytes = records;
    return t;
  }

  /** The limit after an eviction that kept {@code stable} bytes, grown by {@code growth}. */
  private static long limit(RaltOptions options, long stable, long growth) {
    return HotSetTuner.retune(options, kept(stable, 1, 1), growth).hotSetLimit();
  }

  @Test
  void theHotSetLimitIsTheStableBytesPlusRoomWithinItsBounds() {
    // 100 MiB fast disk: L_hs 5 MiB, R_hs 70 MiB, D_hs 7 MiB, room 0.15 of the stable bytes.
    assertEquals(5L << 20, OPTIONS.minHotSetLimit());
    assertEquals(70L << 20, OPTIONS.maxHotSetLimit());
    assertEquals(7L << 20, OPTIONS.maxUnstableHotBytes());
    long small = 10L << 20;
    assertEquals(small + (long) (0.15 * small), limit(OPTIONS, small, 0),
        "a small stable set: room in proportion, the limit within a quarter of it");
    long large = 65L << 20;
    assertEquals(70L << 20, limit(OPTIONS, large, 0), "a large one: D_hs, capped at R_hs");
    long medium = 40L << 20;
    assertEquals(medium + (6L << 20), limit(OPTIONS, medium, 0));
    assertEquals(5L << 20, limit(OPTIONS, 0, 0), "no stable records: L_hs");
    assertEquals(OPTIONS.maxHotSetLimit(), limit(OPTIONS, Long.MAX_VALUE / 8, 0));
  }

  @Test
  void aGrowingStableSetGetsTwiceItsGrowthAsRoomBeyondDHsUpToRHs() {
    long small = 10L << 20;
    assertEquals(small + (3L << 20), limit(OPTIONS, small, 3L << 19),
        "grew 1.5 MiB over the last period: 3 MiB of room, more than 0.15 of 10 MiB");
    assertEquals(small + (10L << 20), limit(OPTIONS, small, 5L << 20),
        "grew 5 MiB: 10 MiB of room, beyond D_hs (7 MiB), which caps only the share");
    assertEquals(70L << 20, limit(OPTIONS, small, 40L << 20), "grew 40 MiB: R_hs");
    assertEquals(70L << 20, limit(OPTIONS, small, Long.MAX_VALUE / 2), "no overflow: R_hs");
    assertEquals(small + (long) (0.15 * small), limit(OPTIONS, small, -(4L << 20)),
        "shrinking: the share");
    long large = 60L << 20;
    assertEquals(large + (7L << 20), limit(OPTIONS, large, 1L << 20),
        "grew 1 MiB: the share, capped at D_hs, is the larger");
  }

  @Test
  void theGrowthIsTheLastPeriodsOrTheCurrentPeriodsPaceOnceHalfOfItHasPassed() {
    long period = 100L << 20;
    long mib = 1L << 20;
    assertEquals(8 * mib, HotSetTuner.growthPerPeriod(8 * mib, 30 * mib, period / 2 - 1, period),
        "under half a period: the last period's growth, however fast the current one");
    assertEquals(60 * mib, HotSetTuner.growthPerPeriod(8 * mib, 30 * mib, period / 2, period),
        "half a period in, 30 MiB grown: 60 MiB per period");
    assertEquals(40 * mib, HotSetTuner.growthPerPeriod(0, 32 * mib, period * 4 / 5, period),
        "the first eviction, before any full period: its pace");
    assertEquals(8 * mib, HotSetTuner.growthPerPeriod(8 * mib, 2 * mib, period * 3 / 4, period),
        "slower than the last period: the last period's");
    assertEquals(-3 * mib, HotSetTuner.growthPerPeriod(8 * mib, -3 * mib, period, period),
        "a period has ended: what it grew, even if it shrank");
    assertEquals(5 * mib, HotSetTuner.growthPerPeriod(8 * mib, 5 * mib, 3 * period, period),
        "a long period (no eviction for a while): its growth, not scaled");
    assertEquals(0, HotSetTuner.growthPerPeriod(0, 0, 0, 0), "a zero period: no pace");
  }

  @Test
  void anInfiniteShareGivesThePapersFixedRoom() {
    RaltOptions paper = OPTIONS.toBuilder().unstableShareOfStable(Double.POSITIVE_INFINITY).build();
    assertEquals(7L << 20, limit(paper, 0, 0));
    assertEquals((10L << 20) + (7L << 20), limit(paper, 10L << 20, 0));
  }

  @Test
  void thePhysicalLimitHoldsTwiceAHotSetAtTheMeasuredRecordsPerHotByte() {
    long stable = OPTIONS.minHotSetLimit();
    HotSetTuner.Limits l = HotSetTuner.retune(OPTIONS, kept(stable, 1000, 100), 0);
    assertEquals(Math.max(OPTIONS.segmentBytes(), (long) (l.hotSetLimit() * HotSetTuner.CANDIDATE_FACTOR * 0.1)),
        l.physicalLimit());
    HotSetTuner.Limits none = HotSetTuner.retune(OPTIONS, kept(stable, 0, 0), 0);
    assertEquals(Math.max(OPTIONS.segmentBytes(),
        (long) (none.hotSetLimit() * HotSetTuner.CANDIDATE_FACTOR * OPTIONS.physicalToHotRatio())),
        none.physicalLimit());
  }
}
