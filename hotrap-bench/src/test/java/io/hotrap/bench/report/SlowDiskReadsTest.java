package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SlowDiskReadsTest {

  @Test
  void countsAreTheDifferencesOfTheReadingsAtTheStartAndTheEnd() {
    SlowDiskReads r = SlowDiskReads.between(1_000, 1_230, 500, 700);

    assertEquals(230, r.reads());
    assertEquals(200, r.slowGets());
    assertTrue(r.measured());
    assertEquals(1.15, r.perSlowGet(), 1e-12);
  }

  @Test
  void readsPerSlowGetAreNaNWhenNoGetReadTheSlowTier() {
    SlowDiskReads r = SlowDiskReads.between(10, 14, 300, 300);

    assertEquals(4, r.reads(), "the reads are still reported");
    assertEquals(0, r.slowGets());
    assertTrue(Double.isNaN(r.perSlowGet()));
  }

  @Test
  void aReadingNotTakenMakesItsCountUnknown() {
    SlowDiskReads noDisk = SlowDiskReads.between(SlowDiskReads.UNKNOWN, SlowDiskReads.UNKNOWN, 0,
        50);
    SlowDiskReads lostAtTheEnd = SlowDiskReads.between(10, SlowDiskReads.UNKNOWN, 0, 50);

    for (SlowDiskReads r : new SlowDiskReads[] {noDisk, lostAtTheEnd}) {
      assertFalse(r.measured());
      assertEquals(SlowDiskReads.UNKNOWN, r.reads());
      assertEquals(50, r.slowGets(), "the gets are known without the disk");
      assertTrue(Double.isNaN(r.perSlowGet()));
    }
  }

  @Test
  void aCounterThatWentBackwardsIsUnknownRatherThanNegative() {
    // blkio.reset_stats, or the cgroup made anew, during the run.
    SlowDiskReads r = SlowDiskReads.between(5_000, 20, 0, 10);

    assertFalse(r.measured());
    assertTrue(Double.isNaN(r.perSlowGet()));
  }

  @Test
  void unmeasuredHasNeitherCountNorRatio() {
    assertFalse(SlowDiskReads.UNMEASURED.measured());
    assertEquals(SlowDiskReads.UNKNOWN, SlowDiskReads.UNMEASURED.slowGets());
    assertTrue(Double.isNaN(SlowDiskReads.UNMEASURED.perSlowGet()));
    assertTrue(Double.isNaN(new SlowDiskReads(10, SlowDiskReads.UNKNOWN).perSlowGet()));
  }

  @Test
  void rejectsANegativeCountThatIsNotUnknown() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SlowDiskReads(-2, 5));

    assertEquals("reads must be >= 0 or -1 (unknown) but was -2", e.getMessage());
  }
}
