package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paper's ablations: each switch does what its name says. */
class PromotionAblationTest {
  static final int RECORDS = 200;
  static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  private static HotRapOptions.Builder store(Path dir) {
    // A budget too large for background migration; tests move records down with migrateNow.
    return small(dir).fastBudgetBytes(256L << 20).promotionCacheBytes(4 << 10);
  }

  private static void loadIntoSlow(HotRapDB db) throws Exception {
    for (int i = 0; i < RECORDS; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
    }
    db.flush();
    db.migrator().migrateNow(Long.MAX_VALUE, true);
  }

  private static void readAll(HotRapDB db, int times) {
    for (int t = 0; t < times; t++) {
      for (int i = 0; i < RECORDS; i++) {
        assertNotNull(db.get(key(i)));
      }
      db.awaitBackgroundWork();
    }
  }

  private static int onFast(HotRapDB db) throws Exception {
    int n = 0;
    for (int i = 0; i < RECORDS; i++) {
      if (rawGet(db, db.fastHandle(), key(i)) != null) {
        n++;
      }
    }
    return n;
  }

  @Test
  void withoutPromotionSlowRecordsStayInTheSlowTier() throws Exception {
    try (HotRapDB db = HotRapDB.open(store(dir).promotion(false).hotnessCheck(false).build())) {
      loadIntoSlow(db);
      readAll(db, 3);
      HotRapStats s = db.stats();
      assertNull(db.promoter());
      assertEquals(3L * RECORDS, s.getsServedSlow(), s.toString());
      assertEquals(0, s.promotionCacheHits());
      assertEquals(0, s.bytesPromotedByFlush() + s.bytesPromotedByCompaction());
      assertEquals(0, onFast(db));
    }
  }

  @Test
  void withoutHotnessCheckEveryRecordReadFromTheSlowTierIsPromoted() throws Exception {
    try (HotRapDB db = HotRapDB.open(store(dir.resolve("off")).hotnessCheck(false).build())) {
      loadIntoSlow(db);
      readAll(db, 1);
      HotRapStats s = db.stats();
      assertTrue(s.bytesPromotedByFlush() > RECORDS * VALUE_BYTES / 2, s.toString());
      assertTrue(onFast(db) > RECORDS / 2, s.toString());
    }
    try (HotRapDB db = HotRapDB.open(store(dir.resolve("on")).build())) {
      loadIntoSlow(db);
      readAll(db, 1);
      HotRapStats s = db.stats();
      assertEquals(0, s.bytesPromotedByFlush(), "records read once are not hot: " + s);
      assertEquals(0, onFast(db));
    }
  }

  @Test
  void withoutPromotionByCompactionMigrationLeavesTheCacheAlone() throws Exception {
    try (HotRapDB db = HotRapDB.open(store(dir).hotnessCheck(false).promoteByCompaction(false)
        .promotionCacheBytes(1 << 20).build())) {
      loadIntoSlow(db);
      for (int i = 1; i < RECORDS - 1; i++) {
        assertNotNull(db.get(key(i)));
      }
      db.put(key(0), value(0, 2, VALUE_BYTES));
      db.put(key(RECORDS - 1), value(RECORDS - 1, 2, VALUE_BYTES));
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      HotRapStats s = db.stats();
      assertEquals(0, s.bytesPromotedByCompaction(), s.toString());
      assertEquals(RECORDS - 2, db.promoter().cache().mutableSize());
      assertEquals(0, onFast(db));
    }
  }

  @Test
  void withoutRetentionHotRecordsAreDemotedAgainAndPromotedAgain() throws Exception {
    HotRapOptions o = store(dir).retainHotRecords(false).hotnessCheck(false).build();
    assertFalse(o.retainHotRecords());
    try (HotRapDB db = HotRapDB.open(o)) {
      loadIntoSlow(db);
      readAll(db, 3);
      long firstPromotion = db.stats().bytesPromotedByFlush();
      assertTrue(firstPromotion > 0);
      assertTrue(onFast(db) > RECORDS / 2);
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, false);
      assertEquals(0, onFast(db), "hot records were retained");
      readAll(db, 1);
      HotRapStats s = db.stats();
      assertEquals(0, s.recordsRetained(), s.toString());
      assertTrue(s.bytesPromotedByFlush() > firstPromotion, "promoted again: " + s);
      assertTrue(onFast(db) > RECORDS / 2, s.toString());
    }
  }
}
