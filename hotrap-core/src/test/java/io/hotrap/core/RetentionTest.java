package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention (HotRAP §3.5): with skewed reads recorded in RALT, migrations leave the hot records on
 * the fast tier. Checked in the column families themselves. Promotion is off in both stores: it
 * brings demoted hot records back, so with it on the store without retention ends with a share of
 * hot records on the fast tier that depends on how many promotion checks ran before the end, not on
 * retention.
 */
class RetentionTest {
  static final int RECORDS = 10_000;
  static final int VALUE_BYTES = 1000;
  static final int HOT_EVERY = 40; // 2.5% of the keys, about 250 KiB: well within RALT's hot-set limit

  @TempDir Path dir;

  @Test
  void hotRecordsStayOnTheFastTierThroughMigrations() throws Exception {
    StringBuilder stats = new StringBuilder();
    double withRetention = hotShareOnFast(dir.resolve("retain"), true, stats);
    double withoutRetention = hotShareOnFast(dir.resolve("no-retain"), false, new StringBuilder());
    assertTrue(withRetention >= 0.9,
        "hot records on the fast tier with retention: " + withRetention + "; " + stats);
    assertTrue(withoutRetention < 0.5,
        "without retention the same load demotes most hot records: " + withoutRetention);
  }

  /**
   * Writes and reads the hot keys, then loads 2.5× the budget while reading them; returns the share
   * of hot keys left on fast.
   */
  private static double hotShareOnFast(Path root, boolean retain, StringBuilder stats)
      throws Exception {
    HotRapOptions o = small(root).retainHotRecords(retain).promotion(false).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      Random rnd = new Random(7);
      int hotKeys = RECORDS / HOT_EVERY;
      // The hot records are written and read first, while the fast tier is far under its budget:
      // without promotion, a record demoted before anyone read it would stay demoted, and when
      // that happens would depend on thread timing rather than on retention.
      for (int h = 0; h < hotKeys; h++) {
        db.put(key(h * HOT_EVERY), value(h * HOT_EVERY, 1, VALUE_BYTES));
      }
      for (int n = 0; n < 3000; n++) {
        assertNotNull(db.get(key(rnd.nextInt(hotKeys) * HOT_EVERY)));
      }
      db.awaitBackgroundWork();
      int written = 0;
      while (written < RECORDS) {
        for (int n = 0; n < 1000; n++, written++) {
          if (written % HOT_EVERY != 0) {
            db.put(key(written), value(written, 1, VALUE_BYTES));
          }
        }
        for (int n = 0; n < 3000; n++) {
          assertNotNull(db.get(key(rnd.nextInt(hotKeys) * HOT_EVERY)));
        }
        db.awaitBackgroundWork();
      }
      db.flush();
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      stats.append(s);
      assertTrue(s.raltAvailable(), "retention needs RALT: " + db.tracker().unavailableReason());
      assertTrue(s.bytesDemoted() > RECORDS * (long) VALUE_BYTES / 2, s.toString());
      assertTrue(s.fastSstBytes() <= o.highWatermarkBytes(), s.toString());
      int hot = 0;
      int onFast = 0;
      for (int i = 0; i < RECORDS; i += HOT_EVERY) {
        hot++;
        if (rawGet(db, db.fastHandle(), key(i)) != null) {
          onFast++;
        }
      }
      if (retain) {
        assertTrue(s.bytesRetained() > 0, s.toString());
      }
      return (double) onFast / hot;
    }
  }
}
