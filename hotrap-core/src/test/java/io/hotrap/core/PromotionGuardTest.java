package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guards of DESIGN.md §6 as they apply to promotion, each forced by a test hook: a user write
 * placed exactly where the guard matters must win.
 */
class PromotionGuardTest {
  static final int RECORDS = 200;
  static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  /** Everything written so far is moved to the slow tier; the budget is too large for background migration. */
  private static void loadIntoSlow(HotRapDB db) throws Exception {
    for (int i = 0; i < RECORDS; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
    }
    db.flush();
    db.migrator().migrateNow(Long.MAX_VALUE, true);
    assertNull(rawGet(db, db.fastHandle(), key(RECORDS / 2)));
  }

  /** Rule P2: a write between the reader's fast miss and its cache insert aborts the insert. */
  @Test
  void writeBetweenTheSlowReadAndTheCacheInsertAbortsTheInsert() throws Exception {
    byte[] target = key(7);
    HotRapDB[] ref = new HotRapDB[1];
    PromotionHooks hooks = new PromotionHooks() {
      boolean done;

      @Override
      public void afterSlowRead(byte[] key) {
        if (!done && Arrays.equals(key, target)) {
          done = true;
          ref[0].put(target, value(7, 2, VALUE_BYTES));
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).hotnessCheck(false)
        .build(), StoreHooks.promotion(hooks))) {
      ref[0] = db;
      loadIntoSlow(db);
      assertEquals(1, versionOf(db.get(target)), "the read began before the write");
      assertNull(db.promoter().cache().get(target), "the stale slow version was cached");
      assertEquals(1, db.stats().promotionInsertsAborted());
      // Move the newer version down too: a stale cached copy would now shadow it.
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertEquals(2, versionOf(db.get(target)));
    }
  }

  /**
   * Promotion by flush: a key deleted while its immutable cache is being checked is not promoted
   * (the updated marks are read under the exclusive commit gate).
   */
  @Test
  void recordWrittenWhileItsImmutableCacheIsCheckedIsNotPromotedByFlush() throws Exception {
    AtomicReference<byte[]> victim = new AtomicReference<>();
    HotRapDB[] ref = new HotRapDB[1];
    PromotionHooks hooks = new PromotionHooks() {
      @Override
      public void beforeFlushCommit(ImmutablePromotionCache imm) {
        if (victim.get() == null) {
          byte[] k = imm.iterator().next().key();
          victim.set(k);
          ref[0].delete(k);
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).hotnessCheck(false)
        .promoteByCompaction(false).promotionCacheBytes(4 << 10).build(),
        StoreHooks.promotion(hooks))) {
      ref[0] = db;
      loadIntoSlow(db);
      for (int i = 0; i < RECORDS; i++) {
        assertNotNull(db.get(key(i)));
      }
      db.awaitBackgroundWork();
      assertNotNull(victim.get(), "no promotion by flush ran");
      assertNull(db.get(victim.get()), "a deleted key was promoted back");
      HotRapStats s = db.stats();
      assertTrue(s.bytesPromotedByFlush() > 0, s.toString());
      assertTrue(s.promotionsSkippedUpdated() >= 1, s.toString());
    }
  }

  /**
   * Promotion by compaction: a key deleted after the migration read the cache's range is not
   * promoted. The migration's updated set was registered before its snapshot, so before the read;
   * a set registered later would miss this delete.
   */
  @Test
  void recordWrittenAfterTheMigrationReadTheCacheIsNotPromotedByCompaction() throws Exception {
    AtomicReference<byte[]> victim = new AtomicReference<>();
    HotRapDB[] ref = new HotRapDB[1];
    PromotionHooks hooks = new PromotionHooks() {
      @Override
      public void beforeCompactionCommit(List<PromotionCache.Entry> taken) {
        if (victim.get() == null && !taken.isEmpty()) {
          byte[] k = taken.get(taken.size() / 2).key();
          victim.set(k);
          ref[0].delete(k);
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).hotnessCheck(false)
        .build(), StoreHooks.promotion(hooks))) {
      ref[0] = db;
      loadIntoSlow(db);
      for (int i = 1; i < RECORDS - 1; i++) {
        assertNotNull(db.get(key(i)));
      }
      // A fast-tier file spanning every cached key, for the next migration to take.
      db.put(key(0), value(0, 2, VALUE_BYTES));
      db.put(key(RECORDS - 1), value(RECORDS - 1, 2, VALUE_BYTES));
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertNotNull(victim.get(), "no promotion by compaction ran");
      assertNull(db.get(victim.get()), "a deleted key was promoted back");
      HotRapStats s = db.stats();
      assertTrue(s.bytesPromotedByCompaction() > 0, s.toString());
      assertTrue(s.promotionsSkippedUpdated() >= 1, s.toString());
      assertNotNull(rawGet(db, db.fastHandle(), key(RECORDS / 4)), "cached records were promoted");
    }
  }
}
