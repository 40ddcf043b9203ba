package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.raw;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.CompactionOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.SstFileMetaData;

/**
 * Wholly demoted fast files leave the fast tier as files, with no tombstone (TierMigrator, "Files
 * that leave whole"), and only when that is safe: no user snapshot could still need them, a user
 * write since the migration read them still wins, and no other file goes with them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FileDropTest {
  private static final int KEYS = 4000;
  @TempDir Path dir;

  /** A store whose budget leaves migration to {@code migrateNow}. */
  private HotRapOptions.Builder options() {
    return small(dir).nativeMigration(false).fastBudgetBytes(256L << 20);
  }

  /** Keys 0..KEYS-1 at version 1, flushed and compacted into the fast tier's deepest level. */
  private static void load(HotRapDB db) throws Exception {
    for (int i = 0; i < KEYS; i++) {
      db.put(key(i), value(i, 1, 100));
    }
    db.flush();
    db.rocks().compactRange(db.fastHandle());
  }

  private static void assertVersions(HotRapDB db, int version) {
    for (int i = 0; i < KEYS; i++) {
      byte[] v = db.get(key(i));
      assertNotNull(v, "key " + i + " was lost");
      assertEquals(version, versionOf(v), "key " + i);
    }
  }

  @Test
  void coldFilesLeaveWholeWithoutTombstones() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().build())) {
      load(db);
      assertTrue(db.migrator().migrateNow(Long.MAX_VALUE, true) > 0);
      HotRapStats s = db.stats();
      assertTrue(s.demotionFilesDropped() > 0, s.toString());
      assertEquals(KEYS, s.recordsDemoted(), s.toString());
      assertEquals(0, s.demotionTombstones(), s.toString());
      assertEquals(0, raw(db, db.fastHandle()).size(), "the fast tier kept records");
      assertVersions(db, 1);
    }
  }

  @Test
  void withDropsOffEveryDemotedRecordGetsATombstone() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().dropDemotedFiles(false).build())) {
      load(db);
      assertTrue(db.migrator().migrateNow(Long.MAX_VALUE, true) > 0);
      HotRapStats s = db.stats();
      assertEquals(0, s.demotionFilesDropped(), s.toString());
      assertEquals(s.recordsDemoted(), s.demotionTombstones(), s.toString());
      assertVersions(db, 1);
    }
  }

  @Test
  void anOpenSnapshotKeepsTheFilesItReads() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().build())) {
      load(db);
      try (HotRapSnapshot snapshot = db.getSnapshot()) {
        for (int i = 0; i < KEYS; i += 2) {
          db.put(key(i), value(i, 2, 100));
        }
        db.migrator().migrateNow(Long.MAX_VALUE, true);
        HotRapStats s = db.stats();
        assertEquals(0, s.demotionFilesDropped(), s.toString());
        assertTrue(s.demotionTombstones() > 0, s.toString());
        for (int i = 0; i < KEYS; i++) {
          byte[] v = db.get(snapshot, key(i));
          assertNotNull(v, "the snapshot lost key " + i);
          assertEquals(1, versionOf(v), "the snapshot's version of key " + i);
          assertEquals(i % 2 == 0 ? 2 : 1, versionOf(db.get(key(i))), "key " + i);
        }
      }
    }
  }

  @Test
  void aSnapshotTakenAsTheDropBeginsStopsIt() throws Exception {
    AtomicReference<HotRapDB> store = new AtomicReference<>();
    List<HotRapSnapshot> taken = new ArrayList<>();
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void beforeFileDrop() {
        if (taken.isEmpty()) {
          taken.add(store.get().getSnapshot());
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(options().build(), StoreHooks.migration(hooks))) {
      store.set(db);
      load(db);
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertEquals(1, taken.size(), "the drop never began");
      try (HotRapSnapshot snapshot = taken.get(0)) {
        assertEquals(0, db.stats().demotionFilesDropped(), db.stats().toString());
        for (int i = 0; i < KEYS; i++) {
          byte[] v = db.get(snapshot, key(i));
          assertNotNull(v, "the snapshot lost key " + i);
          assertEquals(1, versionOf(v), "key " + i);
        }
      }
      assertVersions(db, 1);
    }
  }

  @Test
  void writesAndDeletesAfterTheScanWinOverTheDrop() throws Exception {
    AtomicReference<HotRapDB> store = new AtomicReference<>();
    List<Integer> touched = new ArrayList<>();
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void beforeFileDrop() {
        if (!touched.isEmpty()) {
          return;
        }
        // Every record is copied to the slow tier by now; the fast files are still there.
        for (int i = 0; i < KEYS; i += 7) {
          touched.add(i);
          if (i % 2 == 0) {
            store.get().delete(key(i));
          } else {
            store.get().put(key(i), value(i, 2, 100));
          }
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(options().build(), StoreHooks.migration(hooks))) {
      store.set(db);
      load(db);
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertTrue(db.stats().demotionFilesDropped() > 0, db.stats().toString());
      assertTrue(touched.size() > 100);
      for (int i = 0; i < KEYS; i++) {
        byte[] v = db.get(key(i));
        if (i % 7 == 0 && i % 2 == 0) {
          assertNull(v, "deleted key " + i + " came back");
        } else {
          assertNotNull(v, "key " + i + " was lost");
          assertEquals(i % 7 == 0 ? 2 : 1, versionOf(v), "key " + i);
        }
      }
    }
  }

  /**
   * A file of an upper level inside a deepest-level file's range would be deleted with it, newer
   * versions and all: such a file stays, and the one beside it without one may go.
   */
  @Test
  void aFileWithAnUpperLevelFileInsideItsRangeStays() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().build())) {
      load(db);
      List<LevelMetaData> levels = db.rocks().getColumnFamilyMetaData(db.fastHandle()).levels();
      LevelMetaData deepest = deepest(levels);
      assertTrue(deepest.files().size() >= 2, "need two files in the deepest level");
      SstFileMetaData first = deepest.files().get(0);
      SstFileMetaData second = deepest.files().get(1);
      // Overwrite two keys inside the first file's range and push them one level above it.
      byte[] low = inside(first, 1);
      byte[] high = inside(first, 2);
      db.put(low, value(0, 9, 100));
      db.put(high, value(0, 9, 100));
      db.flush();
      List<String> level0 = new ArrayList<>();
      for (LevelMetaData level : db.rocks().getColumnFamilyMetaData(db.fastHandle()).levels()) {
        if (level.level() == 0) {
          level.files().forEach(f -> level0.add(f.fileName()));
        }
      }
      assertEquals(1, level0.size());
      try (CompactionOptions co = new CompactionOptions()) {
        db.rocks().compactFiles(co, db.fastHandle(), level0, deepest.level() - 1, -1, null);
      }
      levels = db.rocks().getColumnFamilyMetaData(db.fastHandle()).levels();
      assertEquals(TierMigrator.DropCheck.NO, TierMigrator.mayDropAlone(info(first, deepest.level()), levels));
      assertEquals(TierMigrator.DropCheck.YES, TierMigrator.mayDropAlone(info(second, deepest.level()), levels));

      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertTrue(db.stats().demotionFilesDropped() > 0, db.stats().toString());
      assertEquals(9, versionOf(db.get(low)));
      assertEquals(9, versionOf(db.get(high)));
      for (int i = 0; i < KEYS; i++) {
        byte[] k = key(i);
        if (!Arrays.equals(k, low) && !Arrays.equals(k, high)) {
          assertEquals(1, versionOf(db.get(k)), "key " + i);
        }
      }
    }
  }

  /** The rule refuses files that are not in the deepest level, and files no longer there. */
  @Test
  void onlyFilesOfTheDeepestLevelThatStillExistMayGo() throws Exception {
    try (HotRapDB db = HotRapDB.open(options().build())) {
      load(db);
      List<LevelMetaData> levels = db.rocks().getColumnFamilyMetaData(db.fastHandle()).levels();
      LevelMetaData deepest = deepest(levels);
      SstFileMetaData f = deepest.files().get(0);
      assertEquals(TierMigrator.DropCheck.YES, TierMigrator.mayDropAlone(info(f, deepest.level()), levels));
      assertEquals(TierMigrator.DropCheck.NO, TierMigrator.mayDropAlone(info(f, deepest.level() - 1), levels));
      MigrationPicker.FileInfo gone = new MigrationPicker.FileInfo("/nowhere/999999.sst", 999_999,
          f.size(), f.smallestKey(), f.largestKey(), deepest.level());
      assertEquals(TierMigrator.DropCheck.NO, TierMigrator.mayDropAlone(gone, levels));
    }
  }

  private static LevelMetaData deepest(List<LevelMetaData> levels) {
    LevelMetaData deepest = null;
    for (LevelMetaData level : levels) {
      if (!level.files().isEmpty()) {
        deepest = level;
      }
    }
    assertNotNull(deepest);
    assertTrue(deepest.level() >= 2, "the load reached level " + deepest.level());
    return deepest;
  }

  /** The {@code n}-th loaded key inside {@code f}'s range (after its smallest key). */
  private static byte[] inside(SstFileMetaData f, int n) {
    int seen = 0;
    for (int i = 0; i < KEYS; i++) {
      byte[] k = key(i);
      if (Arrays.compareUnsigned(k, f.smallestKey()) > 0 && Arrays.compareUnsigned(k, f.largestKey()) < 0
          && ++seen == n) {
        return k;
      }
    }
    throw new AssertionError("no key " + n + " inside the file");
  }

  private static MigrationPicker.FileInfo info(SstFileMetaData f, int level) {
    return new MigrationPicker.FileInfo(f.path() + f.fileName(), MigrationPicker.fileNumber(f.fileName()),
        f.size(), f.smallestKey(), f.largestKey(), level);
  }
}

