package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hotspot shifts to keys disjoint from the old ones (the fifth stage of the paper's dynamic
 * workload). The old hotspot stays stable while its counters drain, so for a while more records
 * are stable than the hot set holds; the hot set must then keep the records still being read.
 */
class HotspotShiftTest {
  private static final int KEYS = 40_000;
  private static final int HOT = KEYS / 20;
  private static final int VALUE_BYTES = 1000;

  @TempDir Path dir;

  @Test
  void theShiftedHotspotTakesTheHotSetBeforeTheOldCountersRunOut() {
    // R_hs = 0.7·FD holds one hotspot (2,000 records of 1 KiB) but not two. An eviction cuts the
    // hot set by the paper's β here: the default cut (RaltOptions.DEFAULT_HOT_SET_BETA, 0.025)
    // lets the old records leave a few at a time, and at the check 690 of them were still hot
    // beside 1,295 new ones, which this test's bound does not accept.
    RaltOptions options = RaltOptions.builder().directory(dir).fastDiskBytes(3L << 20)
        .hotSetBeta(RaltOptions.DEFAULT_BETA).build();
    byte[][] keys = AccessStreams.keys(KEYS);
    SplittableRandom random = new SplittableRandom(11);
    try (Ralt ralt = Ralt.open(options)) {
      access(ralt, keys, random, 0, 300_000); // the first hotspot, long enough to stretch R
      long counterBytes = (long) (options.cMax() * options.counterDecayPeriodBytes());
      // Fewer accesses than the old counters last even at the base R (c_max·R₀ of missed accesses).
      long shifted = counterBytes * 3 / 4 / (AccessStreams.KEY_BYTES + VALUE_BYTES);
      access(ralt, keys, random, HOT, shifted);
      ralt.awaitQuiescence();
      int newHot = 0;
      int oldHot = 0;
      for (int i = 0; i < HOT; i++) {
        newHot += ralt.isHot(keys[HOT + i]) ? 1 : 0;
        oldHot += ralt.isHot(keys[i]) ? 1 : 0;
      }
      // Ranked by score the old hotspot held the hot set: 1 of 2,000 new keys hot, 1,936 old ones.
      // With the cut at β: 1,300 new and 520 old.
      String state = "new hotspot hot: " + newHot + " of " + HOT + " after " + shifted
          + " accesses; old still hot: " + oldHot + "; " + ralt.stats();
      assertTrue(newHot >= 0.5 * HOT, state);
      assertTrue(oldHot < newHot / 2, state);
    }
  }

  /**
   * {@code count} accesses, 95% to the hotspot of ids [first, first + HOT), the rest uniform; each
   * reported missed when RALT did not have its key hot, as the store reports fast-tier misses.
   * Every 2,000 accesses the buffer is flushed and RALT's background work awaited, so that its
   * evictions happen at the same points of the stream in every run: left to the thread's timing,
   * the old hotspot's share after the shift varied from 537 to 761 records with the default cut.
   */
  private static void access(Ralt ralt, byte[][] keys, SplittableRandom random, int first,
      long count) {
    for (long i = 0; i < count; i++) {
      int id = random.nextDouble() < 0.95 ? first + random.nextInt(HOT) : random.nextInt(KEYS);
      byte[] key = keys[id];
      ralt.record(key, VALUE_BYTES, !ralt.isHot(key));
      if (i % 2_000 == 1_999) {
        ralt.flushIfBuffered(0.5);
        ralt.awaitQuiescence();
      }
    }
  }
}
