package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InvalidGroupsTest {

  @Test
  void theFifoRemembersTheLastGroupsInvalidated() {
    InvalidGroups g = new InvalidGroups(2);
    for (long group = 1; group <= 3; group++) {
      g.invalidate(group);
      g.purged(group);
    }
    assertFalse(g.contains(1));
    assertTrue(g.contains(2));
    assertTrue(g.contains(3));
    assertArrayEquals(new long[] {2, 3}, g.recent());
  }

  @Test
  void aGroupStaysInvalidUntilItsPurgeEndsEvenPastTheFifo() {
    InvalidGroups g = new InvalidGroups(1);
    g.invalidate(1);
    g.invalidate(2);
    assertTrue(g.contains(1), "purge of 1 pending");
    g.purged(1);
    assertFalse(g.contains(1));
    assertTrue(g.contains(2));
  }

  @Test
  void twoInvalidationsOfAGroupNeedTwoPurges() {
    InvalidGroups g = new InvalidGroups(0);
    g.invalidate(4);
    g.invalidate(4);
    g.purged(4);
    assertTrue(g.contains(4));
    g.purged(4);
    assertFalse(g.contains(4));
  }

  @Test
  void restoreRefillsTheFifoOldestFirst() {
    InvalidGroups g = new InvalidGroups(2);
    g.restore(new long[] {7, 8, 9});
    assertArrayEquals(new long[] {8, 9}, g.recent());
    assertFalse(g.contains(7));
  }
}
