package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReinsertionPolicyTest {

  @Test
  void itemsQualifyByReadsSinceWritten() {
    ReinsertionPolicy p = new ReinsertionPolicy(2, 0.1);
    assertFalse(p.qualifies(0));
    assertFalse(p.qualifies(1));
    assertTrue(p.qualifies(2));
  }

  @Test
  void zeroHitsOrZeroBudgetTurnsReinsertionOff() {
    assertFalse(new ReinsertionPolicy(0, 0.1).qualifies(100));
    assertFalse(new ReinsertionPolicy(1, 0).qualifies(100));
  }

  @Test
  void theAllowanceIsTheBudgetShareOfAdmittedBytesMinusWhatWasReinserted() {
    ReinsertionPolicy p = new ReinsertionPolicy(1, 0.08);
    assertEquals(800, p.allowance(10_000));
    p.reinserted(500);
    assertEquals(300, p.allowance(10_000));
    assertEquals(1100, p.allowance(20_000));
  }

  @Test
  void fifoRanksByAgeAndLruByLastHit() {
    assertEquals(5, RegionEvictionPolicy.FIFO.rank(5, 9));
    assertEquals(9, RegionEvictionPolicy.LRU.rank(5, 9));
    assertEquals(5, RegionEvictionPolicy.LRU.rank(5, 0), "never hit: as old as its fill");
  }
}
