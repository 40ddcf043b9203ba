package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayHitRatesTest {

  @Test
  void bothRatesOfTheTextbookString() {
    ReplayHitRates r = ReplayHitRates.of(Sequences.parse(BeladyMinTest.TEXTBOOK, 1.0), 3);

    assertEquals(0.6, r.belady(), 1e-12);
    assertEquals(0.4, r.lru(), 1e-12);
    assertNull(r.unavailableReason());
  }

  @Test
  void withRoomForEveryRecordBothMissOnlyTheFirstAccesses() {
    SplittableRandom random = new SplittableRandom(3);
    for (int trial = 0; trial < 20; trial++) {
      AccessSequence seq = Sequences.randomSequence(random, 5_000, 2_000, 0.25, 0.1);
      long compulsory = 0;
      boolean[] seen = new boolean[seq.records()];
      for (int i = 0; i < seq.size(); i++) {
        if (seq.counts(i) && !seen[seq.record(i)]) {
          compulsory++;
        }
        seen[seq.record(i)] = true;
      }
      double expected = 1 - (double) compulsory / seq.countedGets();

      ReplayHitRates r = ReplayHitRates.of(seq, seq.records() + trial);

      assertEquals(expected, r.belady(), 1e-12);
      assertEquals(expected, r.lru(), 1e-12);
    }
  }

  @Test
  void onlyTheFinalTenthOfTheGetsCounts() {
    // 90 gets of record 0 hit while warming up; the final 10 read new records and all miss.
    StringBuilder hitsThenMisses = new StringBuilder();
    StringBuilder missesThenHits = new StringBuilder();
    for (int i = 0; i < 90; i++) {
      hitsThenMisses.append("0 ");
      missesThenHits.append(i).append(' ');
    }
    for (int i = 1; i <= 10; i++) {
      hitsThenMisses.append(i).append(' ');
      missesThenHits.append("0 ");
    }

    ReplayHitRates cold = ReplayHitRates.of(Sequences.parse(hitsThenMisses.toString(), 0.1), 1);
    // 90 distinct records then ten gets of the first: LRU lost it and misses once; MIN kept it.
    ReplayHitRates warm = ReplayHitRates.of(Sequences.parse(missesThenHits.toString(), 0.1), 1);

    assertEquals(0.0, cold.belady());
    assertEquals(0.0, cold.lru());
    assertEquals(1.0, warm.belady());
    assertEquals(0.9, warm.lru(), 1e-12);
  }

  @Test
  void aRunWithoutGetsHasNoRates() {
    ReplayHitRates r = ReplayHitRates.of(Sequences.parse("w1 w2", 0.1), 10);

    assertTrue(Double.isNaN(r.belady()));
    assertTrue(Double.isNaN(r.lru()));
    assertEquals("the run issued no get", r.unavailableReason());
  }
}
