package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.CompactRangeOptions;

/**
 * Demoted records reach the slow tier as ingested files (TierMigrator#commit), and a file never
 * carries a key that a user wrote after the migration read it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "nativeMigration={0}")
@ValueSource(booleans = {true, false})
class DemotionIngestionTest {
  @Parameter boolean nativeMigration;
  @TempDir Path dir;

  /** Writes keys 0..n-1 at version 1, flushes, and migrates everything it can. */
  private static void loadAndMigrate(HotRapDB db, int n) throws Exception {
    for (int i = 0; i < n; i++) {
      db.put(key(i), value(i, 1, 100));
    }
    db.flush();
    db.migrator().migrateNow(Long.MAX_VALUE, true);
  }

  /** Hooks that run {@code action} before the first commit, and disarm {@code armed}. */
  private static MigrationHooks beforeFirstCommit(AtomicBoolean armed, Runnable action) {
    return new MigrationHooks() {
      @Override
      public void beforeCommit(int batchIndex) {
        if (armed.getAndSet(false)) {
          action.run();
        }
      }
    };
  }

  @Test
  void demotedRecordsReachTheSlowTierInIngestedFiles() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir, nativeMigration).fastBudgetBytes(256L << 20)
        .migrationBatchBytes(64 << 10).build())) {
      int n = 2000;
      loadAndMigrate(db, n);
      HotRapStats s = db.stats();
      assertTrue(s.recordsDemoted() > n / 2, s.toString());
      assertEquals(s.recordsDemoted(), s.recordsDemotedByIngestion(), s.toString());
      for (int i = 0; i < n; i++) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i);
      }
      // The slow tier received files, not writes: its memtable is empty.
      assertEquals(0, db.rocks().getLongProperty(db.slowHandle(), "rocksdb.num-entries-active-mem-table"));
      assertEquals(0, filesIn(dir.resolve("slow").resolve(TierMigrator.DEMOTE_DIR)),
          "no file is left on its way into the slow tier");
    }
  }

  @Test
  void aRoundFillsEachIngestedFileFromSeveralFastFiles() throws Exception {
    // Fast files of 64 KiB against files of 1 MiB for the slow tier: one ingestion per fast file
    // would add a small file to the slow tier, and hold the gate, for each of them.
    long batch = 1L << 20;
    try (HotRapDB db = HotRapDB.open(small(dir, nativeMigration).fastBudgetBytes(256L << 20)
        .fastTargetFileBytes(64 << 10).migrationBatchBytes(batch).build())) {
      int n = 20_000;
      for (int i = 0; i < n; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      int rounds = 0;
      while (rawGet(db, db.fastHandle(), key(n - 1)) != null || rawGet(db, db.fastHandle(), key(0)) != null) {
        assertTrue(db.migrator().migrateNow(Long.MAX_VALUE, true) > 0, "a round moved nothing");
        rounds++;
      }
      HotRapStats s = db.stats();
      assertTrue(s.migrations() >= 3 * rounds, "too few fast files per round to show anything: " + s);
      // Each round's last file may be part-filled.
      long files = (s.bytesDemoted() + batch - 1) / batch;
      assertTrue(s.demotionIngestions() <= files + rounds,
          s.demotionIngestions() + " ingestions for " + s.migrations() + " fast files and " + files
              + " files' worth of records: " + s);
      for (int i = 0; i < n; i++) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i);
      }
      assertNull(rawGet(db, db.fastHandle(), key(0)));
    }
  }

  @Test
  void keysWrittenAfterTheReadStayOutOfTheIngestedFile() throws Exception {
    // The first commit of the step runs after the writes below: its file, written from what the
    // step read, holds the old versions of those keys, and must not be ingested as it is.
    AtomicBoolean armed = new AtomicBoolean(true);
    HotRapDB[] holder = new HotRapDB[1];
    MigrationHooks hooks = beforeFirstCommit(armed, () -> {
      for (int i = 0; i < 60; i += 3) {
        holder[0].delete(key(i));
        holder[0].put(key(i + 1), value(i + 1, 2, 100));
      }
    });
    try (HotRapDB db = HotRapDB.open(small(dir, nativeMigration).fastBudgetBytes(256L << 20)
        .migrationBatchBytes(1 << 20).build(), StoreHooks.migration(hooks))) {
      holder[0] = db;
      int n = 2000;
      loadAndMigrate(db, n);
      HotRapStats s = db.stats();
      assertTrue(s.demotionsDroppedAsUpdated() >= 40, s.toString());
      assertTrue(s.recordsDemotedByIngestion() > n / 2, "the rest was still ingested: " + s);
      // Both tiers fully compacted: the fast tier's tombstones are gone, so a slow copy of a
      // deleted or overwritten key would now be what a get returns.
      try (CompactRangeOptions force = new CompactRangeOptions()
          .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
        db.flush();
        db.rocks().compactRange(db.fastHandle(), null, null, force);
        db.rocks().compactRange(db.slowHandle(), null, null, force);
      }
      for (int i = 0; i < 60; i += 3) {
        assertNull(db.get(key(i)), "deleted key " + i + " came back");
        assertNull(rawGet(db, db.slowHandle(), key(i)), "the slow tier holds deleted key " + i);
        byte[] v = db.get(key(i + 1));
        assertNotNull(v, "key " + (i + 1));
        assertEquals(2, versionOf(v), "key " + (i + 1) + " lost its newer version");
      }
      for (int i = 60; i < n; i++) {
        assertArrayEquals(value(i, 1, 100), db.get(key(i)), "key " + i);
      }
    }
  }

  @Test
  void aRoundStoppedWhileTheNextFileIsWrittenLeavesNoFileAndLosesNothing() throws Exception {
    // The next chunk's file is written while the first chunk commits; the store stops in between,
    // so that file is never ingested. Its records must stay readable in the fast tier, and the
    // file must not stay behind on the slow disk.
    AtomicBoolean armed = new AtomicBoolean(true);
    HotRapDB[] holder = new HotRapDB[1];
    MigrationHooks hooks = beforeFirstCommit(armed, () -> holder[0].migrator().stop());
    int n = 4000;
    HotRapOptions o = small(dir, nativeMigration).fastBudgetBytes(256L << 20)
        .migrationBatchBytes(32 << 10).build();
    try (HotRapDB db = HotRapDB.open(o, StoreHooks.migration(hooks))) {
      holder[0] = db;
      for (int i = 0; i < n; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertTrue(!armed.get(), "no chunk was committed");
      HotRapStats s = db.stats();
      assertTrue(s.recordsDemoted() > 0 && s.recordsDemoted() < n / 2,
          "one chunk of about 300 records, not the round: " + s);
      assertEquals(0, filesIn(dir.resolve("slow").resolve(TierMigrator.DEMOTE_DIR)),
          "the file of the chunk that was not committed is gone");
      for (int i = 0; i < n; i++) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i);
      }
    }
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < n; i++) {
        assertEquals(1, versionOf(db.get(key(i))), "key " + i + " after reopening");
      }
    }
  }

  @Test
  void aFileLeftByACrashIsDeletedAtOpen() throws Exception {
    HotRapOptions o = small(dir, nativeMigration).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      db.put(key(1), value(1, 1, 100));
    }
    Path leftover = dir.resolve("slow").resolve(TierMigrator.DEMOTE_DIR).resolve("demote-7.sst");
    Files.write(leftover, new byte[] {1, 2, 3});
    try (HotRapDB db = HotRapDB.open(o)) {
      assertEquals(1, versionOf(db.get(key(1))));
      assertEquals(0, filesIn(leftover.getParent()));
    }
  }

  private static long filesIn(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }
}
