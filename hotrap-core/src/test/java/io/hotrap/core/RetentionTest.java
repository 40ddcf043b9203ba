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
 * the fast tier. Checked in the column families themselves.
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

  /** Loads 2.5× the budget while reading the hot keys; returns the share of hot keys left on fast. */
  private static double hotShareOnFast(Path root, boolean retain, StringBuilder stats)
      throws Exception {
    HotRapOptions o = small(root).retainHotRecords(retain).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      Random rnd = new Random(7);
      int written = 0;
      while (written < RECORDS) {
        for (int n = 0; n < 1000; n++, written++) {
          db.put(key(written), value(written, 1, VALUE_BYTES));
        }
        int hotWritten = (written + HOT_EVERY - 1) / HOT_EVERY;
        for (int n = 0; n < 3000; n++) {
          int i = rnd.nextInt(hotWritten) * HOT_EVERY;
          assertNotNull(db.get(key(i)));
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
