package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.PromotionCache;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LevelMetaData;

/**
 * The statistics that say what the store's per-round and per-record structures cost: each ranking
 * of the migration picker is counted with the files it ranked and the heap it held, and the
 * promotion cache's charged bytes follow what it caches. Checks run one read at a time (each get
 * waits for the check it caused), and migration is driven by hand.
 */
class StoreCostStatsTest {
  static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  @Test
  void eachRankingOfThePickerIsCountedWithTheFilesItRankedAndTheHeapItHeld() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).build())) {
      for (int i = 0; i < 2000; i++) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.flush();
      HotRapStats before = db.stats();
      int fastFiles = 0;
      for (LevelMetaData level : db.rocks().getColumnFamilyMetaData(db.fastHandle()).levels()) {
        fastFiles += level.files().size();
      }
      assertTrue(fastFiles > 0);

      db.migrator().migrateNow(1, true);
      HotRapStats once = db.stats();
      assertEquals(before.migrationPicks() + 1, once.migrationPicks(), once::toString);
      assertTrue(once.migrationPickNanos() > before.migrationPickNanos());
      long ranked = once.migrationPickFastFiles() - before.migrationPickFastFiles();
      assertTrue(ranked >= 1 && ranked <= fastFiles, "ranked " + ranked + " of " + fastFiles);
      // At least a description of each ranked file with its two keys.
      long floor = ranked * (MigrationPicker.FILE_INFO_BYTES + MigrationPicker.PICK_BYTES
          + 2L * key(0).length);
      assertTrue(once.migrationPickBytes() >= floor, once.migrationPickBytes() + " < " + floor);
      assertTrue(once.migrationPickPeakBytes() >= once.migrationPickBytes());

      db.migrator().migrateNow(Long.MAX_VALUE, true);
      HotRapStats twice = db.stats();
      assertEquals(once.migrationPicks() + 1, twice.migrationPicks());
      assertTrue(twice.migrationPickSlowFiles() > once.migrationPickSlowFiles(),
          "the second ranking indexed the slow files the first demoted into");
    }
  }

  @Test
  void thePromotionCachesBytesFollowWhatItHolds() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20)
        .promoteByCompaction(false).promotionCacheBytes(1 << 20).build())) {
      for (int i = 0; i < 2000; i++) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.flush();
      TestStores.demoteAll(db, 10);
      assertEquals(0, db.stats().promotionCacheBytes());
      long charge = PromotionCache.charge(key(0).length, VALUE_BYTES);
      for (int i = 0; i < 10; i++) {
        read(db, i);
        read(db, i); // a key is cached on its second slow-tier read
      }
      HotRapStats s = db.stats();
      assertEquals(10 * charge, s.promotionCacheBytes(), s::toString);
      assertEquals(10 * charge, s.promotionCachePeakBytes(), s::toString);
      assertTrue(s.admissionFilterBytes() > 0, s::toString);
      db.put(key(3), value(3, 2, VALUE_BYTES));
      HotRapStats after = db.stats();
      assertEquals(9 * charge, after.promotionCacheBytes(), "a write drops its key's cached copy");
      assertEquals(10 * charge, after.promotionCachePeakBytes());
    }
  }

  private static void read(HotRapDB db, int i) {
    assertNotNull(db.get(key(i)));
    db.promoter().awaitIdle();
  }
}
