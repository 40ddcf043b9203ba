package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessSequenceTest {

  @Test
  void idsAreRenumberedDenselyInIdOrderAndWritesStayWrites() {
    AccessSequence seq = Sequences.parse("900 w5 5 2000000000 w900", 1.0);

    assertEquals(5, seq.size());
    assertEquals(3, seq.records());
    assertEquals(List.of(1, 0, 0, 2, 1), records(seq));
    assertEquals(List.of(false, true, false, false, true), writes(seq));
  }

  @Test
  void theWindowHoldsTheFinalTenthOfTheGetsAndCountsNoWrite() {
    StringBuilder text = new StringBuilder();
    for (int k = 0; k < 20; k++) {
      text.append(k).append(" w").append(k).append(' ');
    }
    AccessSequence seq = Sequences.parse(text.toString(), 0.1);

    assertEquals(2, seq.countedGets());
    assertEquals(36, seq.windowStart(), "the 19th get of 20");
    assertFalse(seq.counts(34));
    assertTrue(seq.counts(36));
    assertFalse(seq.counts(37), "a write in the window");
    assertTrue(seq.counts(38));
    assertEquals(0.5, seq.hitRate(1));
  }

  @Test
  void theCountedGetsAreTheShareRoundedAndAtLeastOne() {
    assertEquals(2, Sequences.parse(gets(15), 0.1).countedGets());
    assertEquals(3, Sequences.parse(gets(30), 0.1).countedGets(),
        "30 × 0.1 is 3.0000000000000004, whose ceiling would be 4");
    assertEquals(1, Sequences.parse(gets(4), 0.1).countedGets());
    assertEquals(7, Sequences.parse(gets(7), 1.0).countedGets());
    assertEquals(0, Sequences.parse(gets(7), 1.0).windowStart());
  }

  @Test
  void aSequenceWithoutGetsCountsNothing() {
    AccessSequence seq = Sequences.parse("w1 w2 w1", 0.1);

    assertEquals(0, seq.countedGets());
    assertEquals(3, seq.windowStart());
    assertTrue(Double.isNaN(seq.hitRate(0)));
    assertTrue(Double.isNaN(Sequences.parse("", 0.1).hitRate(0)));
  }

  @Test
  void onlyTheFirstLengthOperationsBelongToTheSequence() {
    int[] ops = {AccessSequence.get(4), AccessSequence.write(9), AccessSequence.get(7)};

    AccessSequence seq = AccessSequence.of(ops, 2, 1.0);

    assertEquals(2, seq.size());
    assertEquals(2, seq.records());
    assertEquals(1, seq.countedGets());
  }

  @Test
  void badArgumentsAreRejectedWithTheValue() {
    assertEquals("a record id must be >= 0 but was -3",
        assertThrows(IllegalArgumentException.class, () -> AccessSequence.get(-3)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> AccessSequence.write(-1));
    assertEquals("finalShare must be in (0, 1] but was 0.0",
        assertThrows(IllegalArgumentException.class,
            () -> AccessSequence.of(new int[1], 1, 0)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> AccessSequence.of(new int[1], 1, 1.5));
    assertThrows(IllegalArgumentException.class, () -> AccessSequence.of(new int[1], 2, 1));
  }

  private static String gets(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i).append(' ');
    }
    return b.toString();
  }

  private static List<Integer> records(AccessSequence seq) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < seq.size(); i++) {
      out.add(seq.record(i));
    }
    return out;
  }

  private static List<Boolean> writes(AccessSequence seq) {
    List<Boolean> out = new ArrayList<>();
    for (int i = 0; i < seq.size(); i++) {
      out.add(seq.isWrite(i));
    }
    return out;
  }
}
