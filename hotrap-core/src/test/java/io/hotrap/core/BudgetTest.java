package io.hotrap.core;

import static io.hotrap.core.TestStores.BUDGET;
import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BudgetTest {
  @TempDir Path dir;

  @Test
  void writingTwentyTimesTheBudgetLeavesTheFastTierUnderTheHighWatermark() throws Exception {
    HotRapOptions o = small(dir).build();
    int valueBytes = 1000;
    int records = (int) (20 * BUDGET / (valueBytes + 11));
    try (HotRapDB db = HotRapDB.open(o)) {
      Random rnd = new Random(1);
      int[] version = new int[records];
      for (int n = 0; n < records; n++) {
        // Mostly new keys, some overwrites: a write-heavy load.
        int i = n < records / 2 || rnd.nextInt(4) != 0 ? n : rnd.nextInt(n);
        db.put(key(i), value(i, ++version[i], valueBytes));
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      long fastSst = db.rocks().getLongProperty(db.fastHandle(), "rocksdb.live-sst-files-size");
      assertTrue(fastSst <= o.highWatermarkBytes(),
          "fast tier holds " + fastSst + " bytes, above the high watermark " + o.highWatermarkBytes() + "; " + s);
      assertTrue(s.maxFastSstBytes() <= BUDGET,
          "the fast tier exceeded its budget at some point: " + s.maxFastSstBytes() + "; " + s);
      assertTrue(s.migrations() > 0 && s.bytesDemoted() > 10 * BUDGET, s.toString());
      assertTrue(s.slowSstBytes() > 10 * BUDGET, s.toString());
      // Nothing was lost on the way down.
      for (int i = 0; i < records; i += 97) {
        if (version[i] > 0) {
          byte[] v = db.get(key(i));
          assertNotNull(v, "key " + i);
          assertEquals(version[i], versionOf(v), "key " + i);
        }
      }
    }
  }
}
