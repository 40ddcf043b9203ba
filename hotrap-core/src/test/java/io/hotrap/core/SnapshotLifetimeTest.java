package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A snapshot closed while other threads read through it: every read sees the cut or an {@link IllegalStateException}. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SnapshotLifetimeTest {
  @TempDir Path dir;

  @Test
  void closingASnapshotUnderConcurrentReadsFailsThemCleanly() throws Exception {
    int readers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      int[] version = new int[100];
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, version[i] = 1, 100));
      }
      for (int round = 0; round < 200; round++) {
        HotRapSnapshot snap = db.getSnapshot();
        int[] atSnapshot = version.clone();
        int k = round % 100;
        db.put(key(k), value(k, ++version[k], 100));
        CountDownLatch started = new CountDownLatch(readers);
        List<Future<Long>> reads = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
          int offset = r;
          reads.add(pool.submit(() -> {
            long n = 0;
            started.countDown();
            try {
              while (true) {
                int i = (int) (n++ * 7 + offset) % 100;
                byte[] v = db.get(snap, key(i));
                assertEquals(atSnapshot[i], versionOf(v), "key " + i + " read at the snapshot");
              }
            } catch (IllegalStateException closed) {
              return n;
            }
          }));
        }
        started.await();
        snap.close();
        for (Future<Long> f : reads) {
          assertTrue(f.get() > 0);
        }
        assertFalse(snap.isOpen());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anIteratorOutlivesItsClosedSnapshotAndNewOnesAreRefused() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      for (int i = 0; i < 10; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      HotRapSnapshot snap = db.getSnapshot();
      long seq = snap.sequenceNumber();
      try (HotRapIterator it = db.newIterator(snap)) {
        for (int i = 0; i < 10; i++) {
          db.put(key(i), value(i, 2, 100));
        }
        snap.close();
        assertThrows(IllegalStateException.class, () -> db.get(snap, key(0)));
        assertThrows(IllegalStateException.class, () -> db.newIterator(snap));
        assertEquals(seq, snap.sequenceNumber());
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertEquals(1, versionOf(it.value()));
          n++;
        }
        assertEquals(10, n);
      }
      assertEquals(0, db.stats().openSnapshots());
    }
  }
}
