package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.raw;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.CompactRangeOptions;

/**
 * The native demotion path's three rules ({@link NativeDemotion}), each with a deterministic test
 * that fails when its guard is removed, and what the stats say about the path that ran.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeDemotionTest {
  @TempDir Path dir;

  /** A large budget keeps background migration away; the tests migrate explicitly. */
  private HotRapDB open(MigrationHooks hooks) {
    return HotRapDB.open(small(dir, true).fastBudgetBytes(256L << 20).build(),
        StoreHooks.migration(hooks));
  }

  private static void loadAndFlush(HotRapDB db, int records) {
    for (int i = 0; i < records; i++) {
      db.put(key(i), value(i, 1, 200));
    }
    db.flush();
  }

  /** Compacts the whole fast tier, so every version there passes the filter once more. */
  private static void compactFast(HotRapDB db) throws Exception {
    try (CompactRangeOptions o = new CompactRangeOptions()
        .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
      db.rocks().compactRange(db.fastHandle(), null, null, o);
    }
  }

  @Test
  void demotionRemovesRecordsWithoutTombstones() throws Exception {
    try (HotRapDB db = open(MigrationHooks.NONE)) {
      loadAndFlush(db, 1000);
      while (db.migrator().migrateNow(Long.MAX_VALUE, true) > 0 && !raw(db, db.fastHandle()).isEmpty()) {
        // each round moves the files it picked
      }
      HotRapStats s = db.stats();
      assertEquals(0, s.demotionTombstones(), "no tombstone was written");
      assertEquals(1000, s.recordsDemoted());
      assertEquals(1000, s.recordsDemotedNatively());
      assertTrue(raw(db, db.fastHandle()).isEmpty(), "the filter dropped every demoted version");
      assertEquals(0, db.rocks().getLongProperty(db.fastHandle(), "rocksdb.estimate-num-keys"),
          "nothing, not even a deletion marker, is left in the fast tier");
      for (int i = 0; i < 1000; i++) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i);
      }
    }
  }

  /** Rule 2: a write of the very bytes a step registered, after its commit, is not dropped. */
  @Test
  void aWriteAfterTheCommitSurvivesTheStepsCompaction() throws Exception {
    HotRapDB[] store = new HotRapDB[1];
    byte[][] written = new byte[1][];
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void beforeNativeCompaction(byte[] smallest, byte[] largest) {
        if (written[0] == null) {
          written[0] = smallest;
          try {
            // The same bytes as the demoted version: only the removal of the pair keeps them.
            store[0].put(smallest, store[0].get(smallest));
            store[0].flush();
            compactFast(store[0]);
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        }
      }
    };
    try (HotRapDB db = open(hooks)) {
      store[0] = db;
      loadAndFlush(db, 500);
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertNotNull(written[0], "a native step ran");
      compactFast(db);
      byte[] inFast = rawGet(db, db.fastHandle(), written[0]);
      assertNotNull(inFast, "the user's write is still on the fast tier");
      assertArrayEquals(inFast, db.get(written[0]));
    }
  }

  /** Rule 2, earlier: a write between the step's copy and its registration is not registered. */
  @Test
  void aWriteBetweenCopyAndRegistrationIsNotDropped() throws Exception {
    HotRapDB[] store = new HotRapDB[1];
    byte[][] written = new byte[1][];
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterSnapshot(byte[] smallest, byte[] largest) {
        if (written[0] == null) {
          written[0] = smallest;
        }
      }

      @Override
      public void afterCommit(int batchIndex) {
        if (batchIndex == 0 && written[0] != null) {
          store[0].put(written[0], store[0].get(written[0]));
        }
      }
    };
    try (HotRapDB db = open(hooks)) {
      store[0] = db;
      loadAndFlush(db, 500);
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      db.flush();
      compactFast(db);
      assertNotNull(rawGet(db, db.fastHandle(), written[0]), "the user's write is still on the fast tier");
      assertTrue(db.stats().recordsDemotedNatively() > 0, "the step ran natively");
    }
  }

  /**
   * Rule 3: a snapshot open when a batch is committed makes that batch write tombstones, and the
   * snapshot keeps reading the versions it saw after every compaction.
   */
  @Test
  void anOpenSnapshotMakesDemotionFallBackToTombstones() throws Exception {
    try (HotRapDB db = open(MigrationHooks.NONE)) {
      loadAndFlush(db, 500);
      try (HotRapSnapshot snapshot = db.getSnapshot()) {
        for (int i = 0; i < 500; i += 2) {
          db.put(key(i), value(i, 2, 200));
        }
        db.flush();
        db.migrator().migrateNow(Long.MAX_VALUE, true);
        compactFast(db);
        for (int i = 0; i < 500; i++) {
          byte[] v = db.get(snapshot, key(i));
          assertNotNull(v, "key " + i + " vanished from the snapshot");
          assertEquals(1, versionOf(v), "key " + i + " in the snapshot");
          assertEquals(i % 2 == 0 ? 2 : 1, versionOf(db.get(key(i))), "key " + i + " now");
        }
        HotRapStats s = db.stats();
        assertTrue(s.recordsDemoted() > 0, "something was demoted");
        assertEquals(s.recordsDemoted(), s.demotionTombstones(), "every batch fell back");
        assertEquals(0, s.recordsDemotedNatively());
      }
      // With the snapshot closed, the next migration runs natively again.
      for (int i = 0; i < 500; i++) {
        db.put(key(i), value(i, 3, 200));
      }
      db.flush();
      long before = db.stats().demotionTombstones();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertTrue(db.stats().recordsDemotedNatively() > 0, "the native path ran");
      assertEquals(before, db.stats().demotionTombstones());
    }
  }

  /** Rule 1 from the other side: a crash-like stop between commit and compaction leaves duplicates only. */
  @Test
  void reopeningAfterAStepsCommitFindsEveryRecordOnce() throws Exception {
    try (HotRapDB db = open(MigrationHooks.NONE)) {
      loadAndFlush(db, 300);
    }
    MigrationHooks stop = new MigrationHooks() {
      @Override
      public void beforeNativeCompaction(byte[] smallest, byte[] largest) {
        throw new IllegalStateException("stopped before the compaction");
      }
    };
    try (HotRapDB db = open(stop)) {
      try {
        db.migrator().migrateNow(Long.MAX_VALUE, true);
      } catch (IllegalStateException expected) {
        // the step committed to the slow tier and never compacted
      }
      assertTrue(db.stats().recordsDemoted() > 0);
    }
    try (HotRapDB db = open(MigrationHooks.NONE)) {
      assertTrue(!raw(db, db.fastHandle()).isEmpty() && !raw(db, db.slowHandle()).isEmpty(),
          "copies in both tiers");
      int n = 0;
      try (HotRapIterator it = db.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertArrayEquals(key(n), it.key());
          assertEquals(1, versionOf(it.value()));
          n++;
        }
      }
      assertEquals(300, n);
      compactFast(db);
      for (int i = 0; i < 300; i++) {
        assertEquals(1, versionOf(db.get(key(i))));
      }
    }
  }
}
