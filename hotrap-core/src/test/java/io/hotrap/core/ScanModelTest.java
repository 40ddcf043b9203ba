package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scans and snapshots across tiers equal a sorted in-memory model. */
class ScanModelTest {
  @TempDir Path dir;

  private static NavigableMap<byte[], byte[]> newModel() {
    return new TreeMap<>(Arrays::compareUnsigned);
  }

  private static void assertScanEquals(NavigableMap<byte[], byte[]> expected, HotRapIterator it,
      String what) {
    it.seekToFirst();
    Iterator<Map.Entry<byte[], byte[]>> e = expected.entrySet().iterator();
    int n = 0;
    while (e.hasNext()) {
      Map.Entry<byte[], byte[]> x = e.next();
      assertTrue(it.isValid(), what + ": scan ended after " + n + " of " + expected.size());
      assertArrayEquals(x.getKey(), it.key(), what + ": key #" + n);
      assertArrayEquals(x.getValue(), it.value(), what + ": value #" + n);
      it.next();
      n++;
    }
    assertFalse(it.isValid(), what + ": scan has extra records");
  }

  @Test
  void scansAndSnapshotsEqualTheModelAfterRandomPutsDeletesAndMigrations() throws Exception {
    List<HotRapSnapshot> midMigration = new ArrayList<>();
    HotRapDB[] holder = new HotRapDB[1];
    Thread testThread = Thread.currentThread();
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterCommit(int batchIndex) {
        // Only the rounds this thread runs: background rounds race the test's writes.
        if (Thread.currentThread() == testThread && batchIndex == 1 && midMigration.size() < 4) {
          midMigration.add(holder[0].getSnapshot());
        }
      }
    };
    HotRapOptions o = small(dir).fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10)
        .fastTargetFileBytes(64 << 10).migrationBatchBytes(8 << 10).build();
    Random rnd = new Random(3);
    NavigableMap<byte[], byte[]> model = newModel();
    List<NavigableMap<byte[], byte[]>> cuts = new ArrayList<>();
    List<HotRapSnapshot> snapshots = new ArrayList<>();
    try (HotRapDB db = HotRapDB.open(o, StoreHooks.migration(hooks))) {
      holder[0] = db;
      for (int round = 0; round < 8; round++) {
        for (int n = 0; n < 1500; n++) {
          int i = rnd.nextInt(4000);
          if (rnd.nextInt(8) == 0) {
            db.delete(key(i));
            model.remove(key(i));
          } else {
            byte[] v = value(i, round * 10000 + n, 50 + rnd.nextInt(300));
            db.put(key(i), v);
            model.put(key(i), v);
          }
        }
        if (round % 2 == 0) {
          snapshots.add(db.getSnapshot());
          cuts.add(newModel());
          cuts.get(cuts.size() - 1).putAll(model);
        }
        // Explicit rounds, taken with no user write in flight, so the snapshots the hook takes
        // between two batches see the model as it is now.
        db.flush();
        int before = midMigration.size();
        db.migrator().migrateNow(256 << 10, round % 3 == 0);
        for (int s = before; s < midMigration.size(); s++) {
          try (HotRapIterator it = db.newIterator(midMigration.get(s))) {
            assertScanEquals(model, it, "snapshot taken between two migration batches");
          }
        }
        try (HotRapIterator it = db.newIterator()) {
          assertScanEquals(model, it, "round " + round);
        }
      }
      db.awaitBackgroundWork();
      assertTrue(db.stats().recordsDemoted() > 0);
      assertTrue(db.stats().slowSstBytes() > 0);
      for (int s = 0; s < snapshots.size(); s++) {
        try (HotRapIterator it = db.newIterator(snapshots.get(s))) {
          assertScanEquals(cuts.get(s), it, "snapshot " + s);
        }
        for (Map.Entry<byte[], byte[]> e : cuts.get(s).entrySet()) {
          if (rnd.nextInt(20) == 0) {
            assertArrayEquals(e.getValue(), db.get(snapshots.get(s), e.getKey()));
          }
        }
        snapshots.get(s).close();
      }
      assertFalse(midMigration.isEmpty(), "some snapshot was taken between migration batches");
      midMigration.forEach(HotRapSnapshot::close);
      // Bounded scans.
      byte[] low = key(1000);
      byte[] high = key(2000);
      try (HotRapIterator it = db.newIterator(low, high)) {
        assertScanEquals(model.subMap(low, true, high, false), it, "bounded scan");
      }
      try (HotRapIterator it = db.newIterator()) {
        it.seek(key(3500));
        Map.Entry<byte[], byte[]> first = model.ceilingEntry(key(3500));
        assertArrayEquals(first.getKey(), it.key());
      }
      for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), db.get(e.getKey()));
      }
      assertEquals(model.size(), count(db));
    }
  }

  private static int count(HotRapDB db) {
    try (HotRapIterator it = db.newIterator()) {
      int n = 0;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
      return n;
    }
  }
}
