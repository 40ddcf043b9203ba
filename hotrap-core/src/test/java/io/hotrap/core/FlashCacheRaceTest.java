package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flash cache in front of the slow tier under many threads: writers (puts and deletes), readers
 * that fill the cache from the slow tier, and a thread that keeps forcing flushes, migration to the
 * slow tier and promotion's background work, all on a small key set so that every kind of race
 * happens often. Whatever the interleaving, the cache never holds anything but a key's newest
 * version, and every read after the writers stop returns it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FlashCacheRaceTest {
  static final int KEYS = 300;
  static final int WRITERS = 2;
  static final int READERS = 3;
  static final int WRITES_PER_WRITER = 6_000;
  static final int VALUE_BYTES = 200;

  @TempDir Path dir;

  @Test
  void theCacheHoldsOnlyNewestVersionsWhileWritesMigrationAndPromotionRace() throws Exception {
    HotRapOptions options = small(dir).blockCacheBytes(0)
        .flashCache(FlashCacheOptions.builder().flashBytes(16L << 20).dramBytes(32 << 10).build())
        .build();
    // Newest version of each key; each key has one writer, which sets it after its write returns.
    AtomicReferenceArray<byte[]> model = new AtomicReferenceArray<>(KEYS);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (HotRapDB db = HotRapDB.open(options)) {
      for (int i = 0; i < KEYS; i++) {
        byte[] v = value(i, 0, VALUE_BYTES);
        db.put(key(i), v);
        model.set(i, v);
      }
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      db.flush();
      List<Thread> threads = new ArrayList<>();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int owner = w;
        Thread t = new Thread(() -> {
          SplittableRandom r = new SplittableRandom(owner);
          for (int n = 1; n <= WRITES_PER_WRITER && failure.get() == null; n++) {
            int i = r.nextInt(KEYS / WRITERS) * WRITERS + owner;
            if (r.nextInt(8) == 0) {
              db.delete(key(i));
              model.set(i, null);
            } else {
              byte[] v = value(i, n, VALUE_BYTES);
              db.put(key(i), v);
              model.set(i, v);
            }
          }
        }, "writer-" + w);
        writers.add(t);
        threads.add(t);
      }
      for (int rd = 0; rd < READERS; rd++) {
        int seed = 100 + rd;
        threads.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(seed);
          while (writing.get() && failure.get() == null) {
            db.get(key(r.nextInt(KEYS)));
          }
        }, "reader-" + rd));
      }
      threads.add(new Thread(() -> {
        while (writing.get() && failure.get() == null) {
          try {
            db.flush();
            db.migrator().migrateNow(Long.MAX_VALUE, true);
            db.flush(); // moved records leave the slow memtable, so reads reach the cache
            db.promoter().awaitIdle();
          } catch (Exception e) {
            failure.compareAndSet(null, e);
          }
        }
      }, "mover"));
      for (Thread t : threads) {
        t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
        t.start();
      }
      for (Thread t : writers) {
        t.join();
      }
      writing.set(false);
      for (Thread t : threads) {
        t.join();
      }
      if (failure.get() != null) {
        fail("a thread failed", failure.get());
      }
      db.flashCache().awaitQuiescence();
      int cached = 0;
      for (int i = 0; i < KEYS; i++) {
        byte[] inCache = db.flashCache().peek(key(i));
        if (inCache != null) {
          cached++;
          if (!Arrays.equals(inCache, model.get(i))) {
            fail("the flash cache holds an old version of key " + i);
          }
        }
      }
      HotRapStats during = db.stats();
      System.out.printf("flash race: %d gets served by the flash cache, %d inserts aborted by"
          + " rule P2, %d keys cached at the end%n", during.getsServedFlash(),
          during.flashInsertsAborted(), cached);
      assertTrue(during.getsServedFlash() > 0, "the readers were served by the cache");
      // Move everything down and read twice: the second read of each key comes from the cache.
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      db.flush();
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < KEYS; i++) {
          byte[] got = db.get(key(i));
          assertArrayEquals(model.get(i), got, "key " + i + " in round " + round);
        }
      }
      assertTrue(db.stats().getsServedFlash() > 0);
    }
  }
}
