package io.hotrap.core;

import static io.hotrap.core.TestStores.BUDGET;
import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A concurrent history checked read by read: writers give each key increasing versions; every
 * value a get or a scan returns must lie in its window — no older than the newest version
 * acknowledged before the read began, no newer than the newest version begun before it ended —
 * while migration and promotion move records both ways underneath. The fast tier stays within
 * 1.25 times its budget throughout.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HistoryWindowTest {
  static final int KEYS = 4000;
  static final int WRITERS = 2;
  static final int READERS = 2;

  @TempDir Path dir;

  @Test
  void everyReadFallsInItsWindowWhileRecordsMoveBothWays() throws Exception {
    HotRapOptions o = small(dir).promotionCacheBytes(16 << 10).hotnessCheck(false)
        .maxWriteStall(Duration.ofSeconds(30)).build();
    int writesPerWriter = Integer.getInteger("historywindow.writes", 12_000);
    AtomicIntegerArray acked = new AtomicIntegerArray(KEYS);
    AtomicIntegerArray begun = new AtomicIntegerArray(KEYS);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (HotRapDB db = HotRapDB.open(o)) {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(writer);
          for (int n = 0; n < writesPerWriter; n++) {
            int k = rnd.nextInt(KEYS / WRITERS) * WRITERS + writer;
            int v = begun.get(k) + 1;
            begun.set(k, v);
            db.put(key(k), value(k, v, 900));
            acked.set(k, v);
          }
          return null;
        }));
      }
      List<Future<Long>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        int reader = r;
        readers.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(100 + reader);
          long reads = 0;
          while (writing.get()) {
            // A hot tenth gets most reads, so promotion has something to promote.
            int k = rnd.nextInt(4) > 0 ? rnd.nextInt(KEYS / 10) : rnd.nextInt(KEYS);
            if (rnd.nextInt(5) == 0) {
              int n = 1 + rnd.nextInt(32);
              int[] low = new int[n];
              for (int i = 0; i < n && k + i < KEYS; i++) {
                low[i] = acked.get(k + i);
              }
              List<byte[][]> seen = new ArrayList<>();
              try (HotRapIterator it = db.newIterator(key(k), key(k + n))) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                  seen.add(new byte[][] {it.key(), it.value()});
                }
              }
              int expectedIndex = 0;
              for (byte[][] kv : seen) {
                int i = Integer.parseInt(new String(kv[0], StandardCharsets.UTF_8).substring(3));
                for (; expectedIndex < i - k; expectedIndex++) {
                  check(low[expectedIndex] == 0, k + expectedIndex, "missing from a scan", 0, low[expectedIndex], 0);
                }
                expectedIndex = i - k + 1;
                int v = versionOf(kv[1]);
                check(v >= low[i - k] && v <= begun.get(i), i, "scan", v, low[i - k], begun.get(i));
              }
              for (; expectedIndex < n && k + expectedIndex < KEYS; expectedIndex++) {
                check(low[expectedIndex] == 0, k + expectedIndex, "missing from a scan", 0, low[expectedIndex], 0);
              }
            } else {
              int low = acked.get(k);
              byte[] got = db.get(key(k));
              int high = begun.get(k);
              int v = got == null ? 0 : versionOf(got);
              check(v >= low && v <= high, k, "get", v, low, high);
            }
            reads++;
          }
          return reads;
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
      writing.set(false);
      long reads = 0;
      for (Future<Long> f : readers) {
        reads += f.get();
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(reads > 1000, "only " + reads + " reads");
      assertTrue(s.bytesDemoted() > 0, "nothing was demoted: " + s);
      assertTrue(s.bytesPromotedByFlush() + s.bytesPromotedByCompaction() > 0, "nothing was promoted: " + s);
      assertTrue(s.maxFastSstBytes() <= BUDGET * 5 / 4, "the fast tier reached " + s.maxFastSstBytes()
          + " bytes, over 1.25x its budget of " + BUDGET + ": " + s);
      for (int k = 0; k < KEYS; k++) {
        byte[] got = db.get(key(k));
        int v = got == null ? 0 : versionOf(got);
        check(v == acked.get(k), k, "final get", v, acked.get(k), acked.get(k));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void check(boolean ok, int key, String what, int version, int low, int high) {
    if (!ok) {
      throw new AssertionError(what + " of key " + key + " returned version " + version
          + ", outside its window [" + low + ", " + high + "]");
    }
  }
}
