package io.hotrap.core;

import static io.hotrap.core.TestStores.BUDGET;
import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short scans run beside writers must not stop migration: the fast tier stays near its budget
 * while readers keep opening and closing iterators. {@code -Dscanbudget.multiple=N} writes N times
 * the budget (4 by default; 20 for the long form).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ScanBudgetTest {
  @TempDir Path dir;

  @Test
  void shortScansBesideWritersKeepTheFastTierWithinItsBudget() throws Exception {
    // Default options scaled from the budget: 1 MiB memtables make each migration round span many
    // scans, which is where pinned versions used to pile up.
    HotRapOptions o = HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow")).fastBudgetBytes(BUDGET).build();
    int keys = 60_000;
    int writesPerWriter = (int) (Integer.getInteger("scanbudget.multiple", 4) * BUDGET / 1024);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (HotRapDB db = HotRapDB.open(o)) {
      List<Future<?>> writers = new ArrayList<>();
      List<Future<?>> readers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int seed = w;
        writers.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int n = 0; n < writesPerWriter; n++) {
            int i = rnd.nextInt(keys);
            db.put(key(i), value(i, n, 1000));
          }
          return null;
        }));
      }
      for (int r = 0; r < 2; r++) {
        int seed = 100 + r;
        readers.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          long scans = 0;
          while (writing.get()) {
            int i = rnd.nextInt(keys);
            if (rnd.nextInt(100) < 15) {
              try (HotRapIterator it = db.newIterator(key(i), key(i + 32))) {
                int n = 0;
                for (it.seek(key(i)); it.isValid() && n < 32; it.next()) {
                  it.value();
                  n++;
                }
              }
              scans++;
            } else {
              db.get(key(i));
            }
          }
          return scans;
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
      writing.set(false);
      long scans = 0;
      for (Future<?> f : readers) {
        scans += (Long) f.get();
      }
      HotRapStats s = db.stats();
      assertTrue(scans > 100, "readers ran only " + scans + " scans");
      assertTrue(s.bytesDemoted() > 2 * BUDGET, s.toString());
      assertTrue(s.maxFastSstBytes() <= BUDGET * 5 / 4,
          "the fast tier grew to " + s.maxFastSstBytes() + " bytes, over 1.25x its budget of " + BUDGET + "; " + s);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anOpenPlainIteratorDoesNotKeepMigrationFromFreeingTheBudget() throws Exception {
    HotRapOptions o = small(dir).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      int records = (int) (BUDGET / 1024);
      for (int i = 0; i < records; i++) {
        db.put(key(i), value(i, 1, 1000));
      }
      try (HotRapIterator it = db.newIterator()) {
        it.seekToFirst();
        byte[] first = it.key();
        for (int i = 0; i < 4 * records; i++) {
          db.put(key(i % records), value(i % records, 2 + i / records, 1000));
        }
        db.awaitBackgroundWork();
        long fast = db.stats().fastSstBytes();
        assertTrue(fast <= o.highWatermarkBytes(), "an open iterator kept the fast tier at " + fast
            + " bytes, over the high watermark " + o.highWatermarkBytes() + "; " + db.stats());
        // The iterator still reads its own cut.
        assertArrayEquals(key(0), first);
        assertEquals(1, versionOf(it.value()));
      }
    }
  }

  @Test
  void anOpenSnapshotHoldsOnlyWhatItSeesAndReleasesItWhenClosed() throws Exception {
    HotRapOptions o = small(dir).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      int records = (int) (BUDGET / 1024);
      for (int i = 0; i < records; i++) {
        db.put(key(i), value(i, 1, 1000));
      }
      HotRapSnapshot snap = db.getSnapshot();
      for (int i = 0; i < 6 * records; i++) {
        db.put(key(i % records), value(i % records, 2 + i / records, 1000));
      }
      db.awaitBackgroundWork();
      HotRapStats held = db.stats();
      assertEquals(1, held.openSnapshots());
      // The snapshot sees about one budget of records; the tier may keep those and their newer
      // versions' tombstones, never an unbounded pile of what was written after it.
      assertTrue(held.maxFastSstBytes() <= 3 * BUDGET, "with one snapshot open the fast tier reached "
          + held.maxFastSstBytes() + " bytes; " + held);
      for (int i = 0; i < records; i += 101) {
        assertEquals(1, versionOf(db.get(snap, key(i))), "key " + i + " at the snapshot");
        assertEquals(7, versionOf(db.get(key(i))), "key " + i);
      }
      snap.close();
      db.awaitBackgroundWork();
      HotRapStats released = db.stats();
      assertEquals(0, released.openSnapshots());
      assertEquals(0, released.snapshotPinnedBytes(), released.toString());
      assertTrue(released.fastSstBytes() <= o.highWatermarkBytes(), "after the snapshot closed the fast tier holds "
          + released.fastSstBytes() + " bytes; " + released);
    }
  }
}
