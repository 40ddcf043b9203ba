package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slow tier's own compaction: demoted records are rewritten a few times on the slow disk, not
 * once per level of a leveled tree below the fast tier's ({@link TierConfig#slow}).
 */
class SlowTierCompactionTest {
  static final int VALUE_BYTES = 400;
  static final int RECORDS = 80_000;

  @TempDir Path dir;

  /**
   * A load of about eight times the budget in random key order, so that the demoted files overlap
   * everything the slow tier holds. Leveled, the slow tier wrote 3.6 bytes per byte demoted here;
   * universal 1.0.
   */
  @Test
  void aRandomLoadIsRewrittenFewTimesOnTheSlowTier() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        order.add(i);
      }
      Collections.shuffle(order, new Random(3));
      for (int i : order) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.bytesDemoted() > 16L << 20, "demoted too little to judge: " + s);
      double perDemoted = (double) s.slowBytesWritten() / s.bytesDemoted();
      assertTrue(perDemoted < 2.5, "slow tier wrote " + perDemoted + " bytes per byte demoted: " + s);
      for (int i = 0; i < RECORDS; i += 97) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i);
      }
    }
  }
}
