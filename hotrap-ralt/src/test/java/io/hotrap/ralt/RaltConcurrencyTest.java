package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code record} is thread-safe and readers see a consistent tracker while merges and evictions
 * run: four threads record while two others ask isHot, hotSizeInRange and iterate hotKeys ranges
 * to their end. A 64 KiB buffer and a 16 MiB fast disk keep the background thread flushing,
 * merging and evicting all the time.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RaltConcurrencyTest {

  private static final int KEYS = 100_000;
  private static final int VALUE_BYTES = 100;
  private static final long RECORD_BYTES = AccessStreams.KEY_BYTES + VALUE_BYTES;
  private static final int WRITERS = 4;
  private static final int READERS = 2;
  private static final int ACCESSES_PER_WRITER = 500_000;

  @Test
  void concurrentRecordsAreAllCountedAndReadersAlwaysSeeSortedHotKeys(@TempDir Path dir)
      throws Exception {
    RaltOptions options = RaltOptions.builder()
        .directory(dir)
        .fastDiskBytes(16L << 20)
        .bufferBytes(RaltOptions.MIN_BUFFER_BYTES)
        .build();
    byte[][] keys = AccessStreams.keys(KEYS);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (Ralt ralt = Ralt.open(options)) {
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        AccessStreams.Stream stream = w % 2 == 0
            ? AccessStreams.hotspot(KEYS, 0.05, 0.95, w)
            : AccessStreams.uniform(KEYS, w);
        boolean waitsNowAndThen = w == 0;
        writers.add(pool.submit(() -> {
          start.await();
          for (int i = 1; i <= ACCESSES_PER_WRITER; i++) {
            ralt.record(keys[stream.next()], VALUE_BYTES);
            if (waitsNowAndThen && i % 100_000 == 0) {
              ralt.awaitQuiescence();
            }
          }
          return null;
        }));
      }
      List<Future<Long>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        SplittableRandom random = new SplittableRandom(100 + r);
        readers.add(pool.submit(() -> {
          start.await();
          long rounds = 0;
          do {
            for (int i = 0; i < 1_000; i++) {
              ralt.isHot(keys[random.nextInt(KEYS)]);
            }
            int a = random.nextInt(KEYS);
            int b = Math.min(KEYS - 1, a + random.nextInt(KEYS / 4));
            ralt.hotSizeInRange(keys[a], keys[b]);
            HotKeySnapshot hot = HotKeySnapshot.of(ralt, keys[a], keys[b]);
            assertHotKeysWellFormed(hot, a, b);
            rounds++;
          } while (writing.get());
          return rounds;
        }));
      }

      start.countDown();
      try {
        for (Future<?> f : writers) {
          f.get(3, TimeUnit.MINUTES);
        }
      } finally {
        writing.set(false);
      }
      long rounds = 0;
      for (Future<Long> f : readers) {
        rounds += f.get(1, TimeUnit.MINUTES);
      }
      ralt.awaitQuiescence();

      RaltStats stats = ralt.stats();
      long total = (long) WRITERS * ACCESSES_PER_WRITER;
      assertEquals(total, stats.accesses(), "accesses; " + stats);
      assertEquals(total * RECORD_BYTES, stats.accessedBytes(), "accessed bytes; " + stats);
      assertTrue(stats.evictions() > 0, "the run never evicted, so it proved little; " + stats);
      assertTrue(rounds >= READERS, "readers ran " + rounds + " rounds");
      assertHotKeysWellFormed(HotKeySnapshot.all(ralt), 0, KEYS - 1);
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES), "threads did not stop");
    }
  }

  /** Strictly ascending (no duplicate), inside the asked range, with the recorded hot size. */
  private static void assertHotKeysWellFormed(HotKeySnapshot hot, int lowId, int highId) {
    int violation = hot.firstOrderViolation();
    assertEquals(-1, violation, () -> hot.describeViolation(violation));
    for (int i = 0; i < hot.size(); i++) {
      long id = AccessStreams.id(hot.keys.get(i));
      assertTrue(id >= lowId && id <= highId,
          "hot key id " + id + " outside [" + lowId + ", " + highId + "]");
      assertEquals(RECORD_BYTES, hot.hotSizes[i], "hot size of key id " + id);
    }
  }
}
