package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BeladyMinTest {

  /** The reference string of the operating-systems textbooks (Silberschatz et al., §10.4). */
  static final String TEXTBOOK = "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1";

  @Test
  void theTextbookStringInThreeFramesMissesEightTimesNotNine() {
    // Demand-paged MIN misses 9 times: at the get of 4 it evicts 0 (next used furthest, at the
    // 11th access) and misses 0 again. Free to leave 4 out, which is never read again, MIN keeps
    // 0 and misses only on 7, 0, 1, 2 (cold), 3 (evicting 1), 4 (left out), 1 (evicting 3, not
    // read again) and 7 (left out).
    AccessSequence seq = Sequences.parse(TEXTBOOK, 1.0);

    assertEquals(12, BeladyMin.hits(seq, 3));
    assertEquals(0.6, seq.hitRate(BeladyMin.hits(seq, 3)), 1e-12);
  }

  @Test
  void aWarmUpHitIsNotTradedForACountedOne() {
    // Only the final get (of 1) counts. Keeping 0 for its uncounted second get would lose it.
    AccessSequence seq = Sequences.parse("0 1 0 2 1", 0.2);

    assertEquals(1, seq.countedGets());
    assertEquals(1, BeladyMin.hits(seq, 1));
  }

  @Test
  void aWriteMakesItsRecordResident() {
    assertEquals(1, BeladyMin.hits(Sequences.parse("w5 5", 1.0), 1));
    assertEquals(0, BeladyMin.hits(Sequences.parse("5 5", 1.0), 0), "no room, no hit");
  }

  @Test
  void aWriteDisplacesARecordEvenWhereMinWouldRatherKeepIt() {
    // 2 is never read, yet its write lands and takes the only slot from 1.
    assertEquals(0, BeladyMin.hits(Sequences.parse("1 w2 1", 1.0), 1));
    assertEquals(1, BeladyMin.hits(Sequences.parse("1 2 1", 1.0), 1), "a get may stay out");
  }

  @Test
  void withRoomForEveryRecordOnlyFirstAccessesMiss() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 50; trial++) {
      AccessSequence seq = Sequences.randomSequence(random, 2_000, 300, 0.2, 0.1);
      long expected = 0;
      boolean[] seen = new boolean[seq.records()];
      for (int i = 0; i < seq.size(); i++) {
        if (seq.counts(i) && seen[seq.record(i)]) {
          expected++;
        }
        seen[seq.record(i)] = true;
      }

      assertEquals(expected, BeladyMin.hits(seq, seq.records()));
      assertEquals(expected, BeladyMin.hits(seq, Long.MAX_VALUE));
    }
  }

  @Test
  void scoresTheOptimumOfAnExhaustiveSearchOnSmallSequences() {
    SplittableRandom random = new SplittableRandom(5);
    double[] shares = {0.1, 0.3, 0.5, 1.0};
    for (int trial = 0; trial < 3_000; trial++) {
      int records = 1 + random.nextInt(6);
      int length = 1 + random.nextInt(24);
      double writeShare = random.nextInt(3) * 0.25;
      double share = shares[random.nextInt(shares.length)];
      int[] ops = Sequences.random(random, length, records, writeShare);
      String text = Arrays.toString(ops) + " share " + share;
      AccessSequence seq = AccessSequence.of(ops, length, share);
      for (int capacity = 1; capacity <= 4; capacity++) {
        assertEquals(optimum(seq, capacity), BeladyMin.hits(seq, capacity),
            text + " capacity " + capacity);
      }
    }
  }

  @Test
  void scoresAtLeastAsMuchAsLruOnRandomSequences() {
    SplittableRandom random = new SplittableRandom(17);
    for (int trial = 0; trial < 200; trial++) {
      AccessSequence seq = Sequences.randomSequence(random, 3_000, 1 + random.nextInt(500),
          random.nextDouble() * 0.5, 0.1);
      long capacity = 1 + random.nextInt(60);

      long min = BeladyMin.hits(seq, capacity);
      long lru = ExactLru.hits(seq, capacity);

      assertEquals(true, min >= lru, "MIN " + min + " < LRU " + lru + " at capacity " + capacity);
    }
  }

  @Test
  void aNegativeCapacityIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> BeladyMin.hits(Sequences.parse("1", 1.0), -1));
  }

  /**
   * The most counted hits over every choice, at every operation, of admitting the record or not
   * (a write must) and of the record it displaces: a search over (operation, fast set) pairs.
   */
  static long optimum(AccessSequence seq, int capacity) {
    long[][] memo = new long[seq.size()][1 << seq.records()];
    for (long[] row : memo) {
      Arrays.fill(row, -1);
    }
    return optimum(seq, capacity, 0, 0, memo);
  }

  private static long optimum(AccessSequence seq, int capacity, int i, int set, long[][] memo) {
    if (i == seq.size()) {
      return 0;
    }
    if (memo[i][set] >= 0) {
      return memo[i][set];
    }
    int bit = 1 << seq.record(i);
    long best;
    if ((set & bit) != 0) {
      best = (seq.counts(i) ? 1 : 0) + optimum(seq, capacity, i + 1, set, memo);
    } else {
      best = seq.isWrite(i) ? Long.MIN_VALUE : optimum(seq, capacity, i + 1, set, memo);
      if (Integer.bitCount(set) < capacity) {
        best = Math.max(best, optimum(seq, capacity, i + 1, set | bit, memo));
      } else {
        for (int rest = set; rest != 0; rest &= rest - 1) {
          int evicted = Integer.lowestOneBit(rest);
          best = Math.max(best, optimum(seq, capacity, i + 1, (set & ~evicted) | bit, memo));
        }
      }
    }
    memo[i][set] = best;
    return best;
  }
}
