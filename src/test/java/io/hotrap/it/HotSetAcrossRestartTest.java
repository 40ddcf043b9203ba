package io.hotrap.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the public API, across the tracker, the promotion cache and the store: a hot
 * set that sank to the slow tier is promoted by reading it, stays on the fast tier across a close
 * and reopen, and is retained there when later writes push the fast tier over its budget again.
 */
@Tag("statistical")
class HotSetAcrossRestartTest {
  static final long BUDGET = 2L << 20;
  static final int VALUE_BYTES = 1000;
  static final int RECORDS = (int) (10 * BUDGET / VALUE_BYTES);
  /** Every twentieth key is hot: 5% of the keys. */
  static final int HOT_EVERY = 20;
  /**
   * The mutable promotion table's size. It lives in memory until it fills (DESIGN.md §9), so a
   * close forgets the hot records still waiting in it, which were served without the slow tier
   * before the close and come from it after. At the default size (the fast tier's 128 KiB target
   * file, about 12% of this hot set) that alone took the hit rate after reopening to 0.884-0.899 in
   * 7 of 72 runs, with and without demotion by ingestion: in each, the last pass before the close
   * minus the share the table had served in it. At 32 KiB the table holds about 3% of the hot set.
   */
  static final long PROMOTION_TABLE_BYTES = 32 << 10;

  @TempDir Path dir;

  private HotRapDB open() {
    return HotRapDB.open(HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(BUDGET).writeBufferBytes(128 << 10).fastTargetFileBytes(128 << 10)
        .promotionCacheBytes(PROMOTION_TABLE_BYTES)
        .build());
  }

  private static byte[] key(int i) {
    return String.format("user%010d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int version) {
    byte[] v = new byte[VALUE_BYTES];
    new Random(31L * i + version).nextBytes(v);
    return v;
  }

  private static void write(HotRapDB db, int from, int to, int version) {
    for (int i = from; i < to; i++) {
      db.put(key(i), value(i, version));
      if (i % 2000 == 1999) {
        db.awaitBackgroundWork();
      }
    }
    db.flush();
    db.awaitBackgroundWork();
  }

  /** Reads every hot key once, in a shuffled order, and checks each value. */
  private static void readHotSet(HotRapDB db, Random rnd) {
    List<Integer> hot = new ArrayList<>();
    for (int i = 0; i < RECORDS; i += HOT_EVERY) {
      hot.add(i);
    }
    Collections.shuffle(hot, rnd);
    int n = 0;
    for (int i : hot) {
      byte[] v = db.get(key(i));
      assertNotNull(v, "hot key " + i);
      assertArrayEquals(value(i, 1), v, "hot key " + i);
      if (++n % 500 == 0) {
        db.awaitBackgroundWork();
      }
    }
    db.awaitBackgroundWork();
  }

  /** Share of a pass over the hot set served without the slow tier. */
  private static double hotHitRate(HotRapDB db, Random rnd) {
    return hotHitRates(db, rnd)[0];
  }

  /**
   * One pass over the hot set: the share served without the slow tier, and the share of it served
   * by the fast tier itself rather than the promotion cache.
   */
  private static double[] hotHitRates(HotRapDB db, Random rnd) {
    HotRapStats before = db.stats();
    readHotSet(db, rnd);
    HotRapStats after = db.stats();
    long fast = after.getsServedFast() - before.getsServedFast();
    long slow = after.getsServedSlow() - before.getsServedSlow();
    long cached = after.promotionCacheHits() - before.promotionCacheHits();
    return new double[] {(double) fast / (fast + slow), (double) (fast - cached) / (fast + slow)};
  }

  @Test
  void aPromotedHotSetStaysOnTheFastTierAcrossARestartAndLaterWrites() {
    Random rnd = new Random(3);
    double onFastTierBeforeClose;
    try (HotRapDB db = open()) {
      write(db, 0, RECORDS, 1);
      HotRapStats loaded = db.stats();
      assertTrue(loaded.slowSstBytes() > 4 * loaded.fastSstBytes(), "most data in slow: " + loaded);
      double cold = hotHitRate(db, rnd);
      readHotSet(db, rnd);
      double[] warm = hotHitRates(db, rnd);
      onFastTierBeforeClose = warm[1];
      assertTrue(cold < 0.5, "the hot set started in the slow tier: " + cold);
      assertTrue(warm[0] >= 0.9, "hot set after two passes: " + warm[0] + "; " + db.stats());
    }
    try (HotRapDB db = open()) {
      double reopened = hotHitRate(db, rnd);
      // The hot records promoted before the close are still on the fast tier; the ones the
      // promotion table held are read from the slow tier again. The slack: a migration may run
      // after the open, when the replayed WAL is flushed, and RALT's hot set, at its limit here,
      // leaves out about 1% of these keys, which retention then need not keep.
      assertTrue(reopened >= onFastTierBeforeClose - 0.02,
          "hot set after reopening: " + reopened + " against " + onFastTierBeforeClose
              + " on the fast tier before the close; " + db.stats());
      assertTrue(reopened >= 0.9, "hot set after reopening: " + reopened + "; " + db.stats());
      // New records, three budgets of them, push the fast tier over its budget again and again.
      write(db, RECORDS, RECORDS + (int) (3 * BUDGET / VALUE_BYTES), 1);
      HotRapStats s = db.stats();
      assertTrue(s.recordsDemoted() > 0 && s.recordsRetained() > 0, s.toString());
      double retained = hotHitRate(db, rnd);
      assertTrue(retained >= 0.9, "hot set after later writes: " + retained + "; " + s);
    }
  }
}
