package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.raw;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompactRangeOptions.BottommostLevelCompaction;

/** DESIGN.md §5: I1–I3 and I5 checked by looking into both column families. */
@ParameterizedClass(name = "{0}")
@EnumSource(TestStores.Mode.class)
class InvariantsTest {
  /** The store variant (TestStores.Mode): every test runs on each. */
  @Parameter TestStores.Mode mode;
  @TempDir Path dir;

  /** A large budget keeps background migration away; the tests migrate explicitly. */
  private HotRapDB openQuiet() {
    return HotRapDB.open(small(dir, mode).fastBudgetBytes(256L << 20).build());
  }

  private static void demoteEverything(HotRapDB db) throws Exception {
    db.flush();
    while (db.migrator().migrateNow(Long.MAX_VALUE, true) > 0
        && !raw(db, db.fastHandle()).isEmpty()) {
      // each round moves what the fast tier's files held
    }
  }

  @Test
  void i1FastVersionHidesEverySlowVersion() throws Exception {
    try (HotRapDB db = openQuiet()) {
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      demoteEverything(db);
      assertTrue(raw(db, db.fastHandle()).isEmpty(), "everything was demoted");
      assertEquals(100, raw(db, db.slowHandle()).size());

      db.put(key(7), value(7, 2, 100));
      // A stale copy in the slow tier, as a crash between copy and removal could leave it.
      db.rocks().put(db.slowHandle(), key(8), value(8, 0, 100));
      db.put(key(8), value(8, 3, 100));
      assertEquals(2, versionOf(db.get(key(7))));
      assertEquals(3, versionOf(db.get(key(8))));
      assertEquals(1, versionOf(rawGet(db, db.slowHandle(), key(7))), "slow still holds the old one");
      int seen7 = 0;
      try (HotRapIterator it = db.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          if (Arrays.equals(it.key(), key(7))) {
            seen7++;
            assertEquals(2, versionOf(it.value()));
          }
          if (Arrays.equals(it.key(), key(8))) {
            assertEquals(3, versionOf(it.value()));
          }
        }
      }
      assertEquals(1, seen7, "a key in both tiers is scanned once");
    }
  }

  @Test
  void i2EveryFastVersionIsTheNewest() throws Exception {
    try (HotRapDB db = openQuiet()) {
      Random rnd = new Random(2);
      int[] version = new int[300];
      for (int round = 0; round < 6; round++) {
        for (int n = 0; n < 400; n++) {
          int i = rnd.nextInt(version.length);
          db.put(key(i), value(i, ++version[i], 200));
        }
        db.flush();
        db.migrator().migrateNow(64 << 10, round % 2 == 0);
      }
      // With write-hot separation the fast tier is fast-hot over fast (TestStores.fastTier).
      List<byte[][]> fast = TestStores.fastTier(db);
      for (byte[][] kv : fast) {
        int i = Integer.parseInt(new String(kv[0]).substring(3));
        assertEquals(version[i], versionOf(kv[1]), "fast holds an old version of key " + i);
      }
      for (byte[][] kv : raw(db, db.slowHandle())) {
        int i = Integer.parseInt(new String(kv[0]).substring(3));
        if (!TestStores.contains(fast, kv[0])) {
          assertEquals(version[i], versionOf(kv[1]), "a slow-only key must hold its newest version");
        } else {
          assertTrue(versionOf(kv[1]) < version[i], "slow is older than fast for key " + i);
        }
      }
      assertFalse(raw(db, db.slowHandle()).isEmpty());
    }
  }

  @Test
  void i3DeleteFollowedByCompactionsOfBothTiersNeverResurrects() throws Exception {
    try (HotRapDB db = openQuiet();
        CompactRangeOptions force = new CompactRangeOptions()
            .setBottommostLevelCompaction(BottommostLevelCompaction.kForce)) {
      for (int i = 0; i < 50; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      demoteEverything(db);
      for (int i = 0; i < 50; i += 2) {
        db.put(key(i), value(i, 2, 100)); // newer version on fast, old one on slow
      }
      for (int i = 0; i < 50; i += 5) {
        db.delete(key(i));
      }
      db.flush();
      // Compact the fast tier alone first: its bottommost compaction drops its tombstones.
      db.rocks().compactRange(db.fastHandle(), null, null, force);
      for (int i = 0; i < 50; i += 5) {
        assertNull(rawGet(db, db.fastHandle(), key(i)));
        assertNull(db.get(key(i)), "key " + i + " came back after the fast tier's compaction");
      }
      db.rocks().compactRange(db.slowHandle(), null, null, force);
      db.rocks().compactRange(db.fastHandle(), null, null, force);
      for (int i = 0; i < 50; i++) {
        byte[] v = db.get(key(i));
        if (i % 5 == 0) {
          assertNull(v, "key " + i + " came back");
        } else {
          assertNotNull(v);
          assertEquals(i % 2 == 0 ? 2 : 1, versionOf(v));
        }
      }
      try (HotRapIterator it = db.newIterator()) {
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          n++;
        }
        assertEquals(40, n);
      }
    }
  }

  @Test
  void i3DeleteIsVisibleInBothTiersAtOnce() throws Exception {
    try (HotRapDB db = openQuiet()) {
      db.put(key(1), value(1, 1, 10));
      demoteEverything(db);
      db.put(key(1), value(1, 2, 10));
      try (HotRapSnapshot before = db.getSnapshot()) {
        db.delete(key(1));
        assertNull(rawGet(db, db.fastHandle(), key(1)));
        assertNull(rawGet(db, db.slowHandle(), key(1)));
        assertEquals(2, versionOf(db.get(before, key(1))));
      }
    }
  }

  @Test
  void i5DemotionMovesRecordsInOneAtomicBatch() throws Exception {
    // Every snapshot taken between the migrator's batches sees each record exactly once.
    java.util.List<HotRapSnapshot> cuts = new java.util.concurrent.CopyOnWriteArrayList<>();
    HotRapDB[] holder = new HotRapDB[1];
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterCommit(int batchIndex) {
        cuts.add(holder[0].getSnapshot());
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir, mode).fastBudgetBytes(256L << 20)
        .migrationBatchBytes(4 << 10).build(), StoreHooks.migration(hooks))) {
      holder[0] = db;
      for (int i = 0; i < 500; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertTrue(cuts.size() > 3, "several batches: " + cuts.size());
      for (HotRapSnapshot cut : cuts) {
        try (HotRapIterator it = db.newIterator(cut)) {
          int n = 0;
          for (it.seekToFirst(); it.isValid(); it.next()) {
            assertArrayEquals(key(n), it.key());
            assertEquals(1, versionOf(it.value()));
            n++;
          }
          assertEquals(500, n);
        }
        cut.close();
      }
    }
  }
}
