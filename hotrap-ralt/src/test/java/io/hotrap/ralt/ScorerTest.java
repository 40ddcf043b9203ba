package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Score math of HotRAP §3.2 (exponential smoothing) and of the §4.7 alternatives LRU and CLOCK. */
class ScorerTest {

  private static final double ALPHA = RaltOptions.DEFAULT_ALPHA;
  private static final double LOG_ALPHA = Math.log(ALPHA);
  /** Scores are stored as floats: compare with float precision, relative. */
  private static final double REL_TOLERANCE = 1e-6;

  private static final Scorer ES = Scorer.EXPONENTIAL_SMOOTHING;

  @Test
  void exponentialSmoothingMergeEqualsTheClosedForm() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      float s1 = (float) (r.nextDouble() * 1000);
      float s2 = (float) (r.nextDouble() * 1000);
      long t1 = r.nextLong(1_000_000);
      long t2 = t1 + r.nextLong(5_000);

      double expected = Math.pow(ALPHA, t2 - t1) * s1 + s2;

      assertClose(expected, ES.merge(s1, t1, s2, t2, LOG_ALPHA),
          "merge(" + s1 + " @" + t1 + ", " + s2 + " @" + t2 + ")");
    }
  }

  @Test
  void exponentialSmoothingMergeAtTheSameTickAddsScores() {
    assertClose(5.0, ES.merge(2f, 42, 3f, 42, LOG_ALPHA), "same-tick merge");
  }

  @Test
  void exponentialSmoothingOfSingleAccessesIsTheirDecayedCount() {
    long[] ticks = {0, 3, 3, 10, 250, 251, 1000, 4000};
    float score = ES.initialScore();
    long tick = ticks[0];
    for (int i = 1; i < ticks.length; i++) {
      score = ES.merge(score, tick, ES.initialScore(), ticks[i], LOG_ALPHA);
      tick = ticks[i];
    }

    double expected = 0;
    for (long t : ticks) {
      expected += Math.pow(ALPHA, tick - t);
    }
    assertClose(expected, score, "score after " + ticks.length + " accesses");
  }

  @Test
  void exponentialSmoothingRealScoreDecaysByAlphaPerTick() {
    float s = 7.5f;
    long tick = 1_000;
    assertClose(s, ES.realScore(s, tick, tick, LOG_ALPHA), "no decay at the record's own tick");
    for (long age : new long[] {1, 2, 10, 693, 10_000, 100_000}) {
      assertClose(Math.pow(ALPHA, age) * s, ES.realScore(s, tick, tick + age, LOG_ALPHA),
          "real score after " + age + " ticks");
    }
  }

  @Test
  void exponentialSmoothingLazyDecayAgreesWithMerging() {
    // Reading a record late and merging it late must see the same decay.
    float s1 = 4f;
    long t1 = 100;
    long t2 = 180;
    double decayedThenAdded = ES.realScore(s1, t1, t2, LOG_ALPHA) + 1;
    assertClose(decayedThenAdded, ES.merge(s1, t1, 1f, t2, LOG_ALPHA), "merge vs decay + 1");
  }

  @Test
  void exponentialSmoothingNormalizedRankOrdersLikeRealScoresAtEveryLaterInstant() {
    assertRankOrderMatchesRealScoreOrder(ES, 1000, 0.5f, 50f, false);
  }

  @Test
  void lruScoreIsTheTickOfTheLastAccess() {
    Scorer lru = Scorer.LRU;
    // The newer record's score wins whatever the older one held.
    assertEquals(77f, lru.merge(1000f, 5, 77f, 77, LOG_ALPHA));
    assertEquals(77.0, lru.realScore(77f, 77, 10_000, LOG_ALPHA));
    assertTrue(lru.normalizedRank(0f, 300, LOG_ALPHA) > lru.normalizedRank(0f, 299, LOG_ALPHA),
        "a later access ranks above an earlier one");
  }

  @Test
  void lruNormalizedRankOrdersLikeRealScores() {
    assertRankOrderMatchesRealScoreOrder(Scorer.LRU, 1000, 0f, 0f, false);
  }

  @Test
  void clockCountsAccessesUpToItsCeiling() {
    Scorer clock = Scorer.CLOCK;
    float score = clock.initialScore();
    for (int i = 1; i < 10; i++) {
      score = clock.merge(score, 50, clock.initialScore(), 50, LOG_ALPHA);
      assertEquals(Math.min(i + 1, Scorer.CLOCK_MAX), score, "after " + (i + 1) + " accesses");
    }
  }

  @Test
  void clockCounterLosesOnePerTickAndStopsAtZero() {
    Scorer clock = Scorer.CLOCK;
    assertEquals(5.0, clock.realScore(5f, 10, 10, LOG_ALPHA));
    assertEquals(3.0, clock.realScore(5f, 10, 12, LOG_ALPHA));
    assertEquals(0.0, clock.realScore(5f, 10, 15, LOG_ALPHA));
    assertEquals(0.0, clock.realScore(2f, 10, 1_000, LOG_ALPHA));
    // The older counter is swept first, then the new access counts.
    assertEquals(3f, clock.merge(5f, 0, 1f, 3, LOG_ALPHA));
    assertEquals(1f, clock.merge(2f, 0, 1f, 9, LOG_ALPHA));
  }

  @Test
  void clockNormalizedRankOrdersLikeRealScoresWhileCountersAreAboveZero() {
    // Exact only before a counter reaches zero: compare at instants no record has swept to zero.
    assertRankOrderMatchesRealScoreOrder(Scorer.CLOCK, 50, 1f, Scorer.CLOCK_MAX, true);
  }

  /**
   * For random pairs of records, at several common instants at or after both records' ticks,
   * the normalized ranks compare as the real scores do (pairs whose real scores tie within float
   * precision are skipped).
   */
  private static void assertRankOrderMatchesRealScoreOrder(
      Scorer scorer, long maxTick, float minScore, float maxScore, boolean integerScores) {
    SplittableRandom r = new SplittableRandom(7);
    int compared = 0;
    for (int i = 0; i < 20_000; i++) {
      float sa = randomScore(r, minScore, maxScore, integerScores);
      float sb = randomScore(r, minScore, maxScore, integerScores);
      long ta = r.nextLong(maxTick + 1);
      long tb = r.nextLong(maxTick + 1);
      double rankA = scorer.normalizedRank(sa, ta, LOG_ALPHA);
      double rankB = scorer.normalizedRank(sb, tb, LOG_ALPHA);
      long latest = Math.max(ta, tb);
      long[] instants = scorer == Scorer.CLOCK
          ? new long[] {latest, Math.min(ta + (long) sa, tb + (long) sb) - 1}
          : new long[] {latest, latest + 1, latest + 100, latest + 5_000, latest + 200_000};
      for (long now : instants) {
        if (now < latest) {
          continue;
        }
        double realA = scorer.realScore(sa, ta, now, LOG_ALPHA);
        double realB = scorer.realScore(sb, tb, now, LOG_ALPHA);
        if (Math.abs(realA - realB) <= REL_TOLERANCE * Math.max(Math.abs(realA), Math.abs(realB))) {
          continue;
        }
        compared++;
        assertEquals(Double.compare(realA, realB) > 0, rankA > rankB,
            () -> scorer + ": record (" + sa + " @" + ta + ") vs (" + sb + " @" + tb + ") at tick "
                + now + ": real " + realA + " vs " + realB + ", rank " + rankA + " vs " + rankB);
      }
    }
    assertTrue(compared > 10_000, "too few distinguishable pairs: " + compared);
  }

  private static float randomScore(
      SplittableRandom r, float min, float max, boolean integerScores) {
    if (integerScores) {
      return min + r.nextInt((int) (max - min) + 1);
    }
    return (float) (min + r.nextDouble() * (max - min));
  }

  private static void assertClose(double expected, double actual, String what) {
    double tolerance = REL_TOLERANCE * Math.max(1.0, Math.abs(expected));
    assertEquals(expected, actual, tolerance, what);
  }
}
