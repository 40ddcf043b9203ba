package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What promotion is for: with the fast budget at a tenth of the data and most records in the slow
 * tier, a hot spot read a few times is served without the slow tier; uniform reads promote next to
 * nothing unless the hotness check is off.
 */
class PromotionHitRateTest {
  static final long BUDGET = 2L << 20;
  static final int VALUE_BYTES = 1000;
  static final int RECORDS = (int) (10 * BUDGET / VALUE_BYTES);
  static final int HOT_EVERY = 20; // hotspot-5%
  /**
   * Reads of the hot set before the measured window, per hot key. RALT calls a key hot once it was
   * seen twice; with random reads, twice the hot set leaves a seventh of it read at most once.
   */
  static final int WARM_UP_READS_PER_HOT_KEY = 6;

  @TempDir Path dir;

  private static HotRapOptions.Builder store(Path root) {
    return small(root).fastBudgetBytes(BUDGET).writeBufferBytes(128 << 10).fastTargetFileBytes(128 << 10);
  }

  private static void load(HotRapDB db, int records) {
    for (int i = 0; i < records; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
      if (i % 2000 == 1999) {
        db.awaitBackgroundWork();
      }
    }
    db.flush();
    db.awaitBackgroundWork();
  }

  @Test
  void hotSpotIsServedWithoutTheSlowTierAfterAWarmUp() throws Exception {
    try (HotRapDB db = HotRapDB.open(store(dir).build())) {
      load(db, RECORDS);
      HotRapStats loaded = db.stats();
      assertTrue(loaded.slowSstBytes() > 4 * loaded.fastSstBytes(), "most data in slow: " + loaded);
      int hotKeys = RECORDS / HOT_EVERY;
      Random rnd = new Random(11);
      for (int n = 0; n < WARM_UP_READS_PER_HOT_KEY * hotKeys; n++) {
        assertNotNull(db.get(key(rnd.nextInt(hotKeys) * HOT_EVERY)));
        if (n % 500 == 499) {
          db.awaitBackgroundWork();
        }
      }
      db.awaitBackgroundWork();
      HotRapStats before = db.stats();
      for (int n = 0; n < 2 * hotKeys; n++) {
        assertNotNull(db.get(key(rnd.nextInt(hotKeys) * HOT_EVERY)));
      }
      HotRapStats after = db.stats();
      long fast = after.getsServedFast() - before.getsServedFast();
      long slow = after.getsServedSlow() - before.getsServedSlow();
      double hitRate = (double) fast / (fast + slow);
      System.out.printf("hotspot-5%% hit rate without the slow tier: %.4f; %s%n", hitRate, after);
      assertTrue(hitRate >= 0.9, "hit rate " + hitRate + "; " + after);
    }
  }

  @Test
  void uniformReadsPromoteUnderOnePercentOfWhatPromotingEverythingDoes() throws Exception {
    long checked = uniformPromotedBytes(dir.resolve("checked"), true);
    long unchecked = uniformPromotedBytes(dir.resolve("unchecked"), false);
    System.out.printf("uniform reads promoted %d bytes with the hotness check, %d without%n", checked, unchecked);
    assertTrue(unchecked > 0);
    assertTrue(checked < unchecked / 100, checked + " vs " + unchecked);
  }

  private static long uniformPromotedBytes(Path root, boolean hotnessCheck) {
    int records = RECORDS / 2;
    try (HotRapDB db = HotRapDB.open(store(root).hotnessCheck(hotnessCheck).build())) {
      load(db, records);
      Random rnd = new Random(5);
      for (int n = 0; n < records; n++) {
        assertNotNull(db.get(key(rnd.nextInt(records))));
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      return s.bytesPromotedByFlush() + s.bytesPromotedByCompaction();
    }
  }
}
