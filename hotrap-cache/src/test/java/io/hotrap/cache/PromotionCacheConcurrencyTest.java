package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.PromotionCache.Entry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads against one cache, synchronised by latches and barriers only. The scenarios follow
 * the guarantees in {@link PromotionCache}'s javadoc.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PromotionCacheConcurrencyTest {

  private static byte[] key(int k) {
    return new byte[] {(byte) (k >>> 8), (byte) k, (byte) 0x80};
  }

  /** Runs the tasks on their own threads from a common start and rethrows the first failure. */
  private static void runTogether(List<Runnable> tasks) throws InterruptedException {
    CyclicBarrier start = new CyclicBarrier(tasks.size());
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (Runnable task : tasks) {
      Thread t = new Thread(() -> {
        try {
          start.await();
          task.run();
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      AssertionError error = new AssertionError("a thread failed", failures.peek());
      failures.stream().skip(1).forEach(error::addSuppressed);
      throw error;
    }
  }

  private static long sumOfCharges(Iterable<Entry> entries) {
    long sum = 0;
    for (Entry e : entries) {
      sum += e.bytes();
    }
    return sum;
  }

  private static int count(Iterable<Entry> entries) {
    int n = 0;
    for (Entry ignored : entries) {
      n++;
    }
    return n;
  }

  private static void assertMutableAccountingExact(PromotionCache cache) {
    byte[] top = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0};
    List<Entry> all = cache.range(new byte[0], top);
    assertEquals(sumOfCharges(all), cache.mutableBytes());
    assertEquals(all.size(), cache.mutableSize());
  }

  /**
   * Readers insert and get, writers invalidate, a migrator takes and removes ranges, and a checker
   * freezes, puts back and releases, all on a few keys. Every insert is stamped from a global clock
   * after it returns, every invalidation before it starts; a get that begins after an invalidation
   * of its key returned must not see a value whose insert returned before that invalidation began.
   */
  @Test
  void noGetReturnsAValueInsertedBeforeAnInvalidationThatCompletedBeforeTheGet() throws Exception {
    int keys = 32;
    int inserters = 3;
    int insertsPerThread = 60_000;
    int invalidators = 3;
    int invalidationsPerThread = 60_000;
    int getters = 2;
    int getsPerThread = 120_000;
    // The last quarter of the keys is never invalidated and seldom inserted, so that put-backs of
    // those keys find the fresh mutable table without them and restore entries; under
    // invalidations of every key at this rate nearly every frozen entry is marked updated before
    // the checker reaches it, and frequent inserts leave nothing to restore.
    int invalidatedKeys = keys - keys / 4;
    PromotionCache cache =
        PromotionCache.builder().targetBytes(16 * PromotionCache.charge(3, 8)).build();
    AtomicLong clock = new AtomicLong();
    AtomicLongArray[] insertDone = new AtomicLongArray[inserters];
    for (int t = 0; t < inserters; t++) {
      insertDone[t] = new AtomicLongArray(insertsPerThread);
    }
    AtomicLongArray invalidationDoneStartedAt = new AtomicLongArray(keys);
    CountDownLatch workersDone = new CountDownLatch(inserters + invalidators + getters);
    AtomicLong staleReads = new AtomicLong();
    AtomicLong freezes = new AtomicLong();
    AtomicLong putBacks = new AtomicLong();
    AtomicLong hits = new AtomicLong();

    List<Runnable> tasks = new ArrayList<>();
    for (int t = 0; t < inserters; t++) {
      int thread = t;
      tasks.add(() -> {
        SplittableRandom rnd = new SplittableRandom(100 + thread);
        for (int i = 0; i < insertsPerThread; i++) {
          byte[] value = ByteBuffer.allocate(8).putInt(thread).putInt(i).array();
          int k = rnd.nextInt(16) == 0
              ? invalidatedKeys + rnd.nextInt(keys - invalidatedKeys) : rnd.nextInt(invalidatedKeys);
          cache.insert(key(k), value);
          insertDone[thread].set(i, clock.incrementAndGet());
        }
        workersDone.countDown();
      });
    }
    for (int t = 0; t < invalidators; t++) {
      int thread = t;
      tasks.add(() -> {
        SplittableRandom rnd = new SplittableRandom(200 + thread);
        for (int i = 0; i < invalidationsPerThread; i++) {
          int k = rnd.nextInt(invalidatedKeys);
          long startedAt = clock.incrementAndGet();
          cache.invalidate(key(k));
          invalidationDoneStartedAt.accumulateAndGet(k, startedAt, Math::max);
        }
        workersDone.countDown();
      });
    }
    for (int t = 0; t < getters; t++) {
      int thread = t;
      tasks.add(() -> {
        SplittableRandom rnd = new SplittableRandom(300 + thread);
        for (int i = 0; i < getsPerThread; i++) {
          int k = rnd.nextInt(keys);
          long invalidatedAt = invalidationDoneStartedAt.get(k);
          byte[] v = cache.get(key(k));
          if (v != null) {
            hits.incrementAndGet();
            ByteBuffer buf = ByteBuffer.wrap(v);
            long insertedAt = insertDone[buf.getInt()].get(buf.getInt());
            if (insertedAt != 0 && insertedAt < invalidatedAt) {
              staleReads.incrementAndGet();
            }
          }
        }
        workersDone.countDown();
      });
    }
    tasks.add(() -> { // migrator: promotion by compaction
      SplittableRandom rnd = new SplittableRandom(400);
      while (workersDone.getCount() > 0) {
        int a = rnd.nextInt(keys);
        int b = Math.min(keys - 1, a + rnd.nextInt(4));
        cache.removeIfUnchanged(cache.range(key(a), key(b)));
      }
    });
    tasks.add(() -> { // checker: promotion by flush
      SplittableRandom rnd = new SplittableRandom(500);
      List<ImmutablePromotionCache> held = new ArrayList<>();
      while (workersDone.getCount() > 0) {
        ImmutablePromotionCache imm = cache.freeze();
        freezes.incrementAndGet();
        long bytes = imm.bytes();
        assertEquals(sumOfCharges(imm), bytes, "a frozen table's bytes are exact");
        assertEquals(count(imm), imm.size());
        List<Entry> back = new ArrayList<>();
        for (Entry e : imm) {
          if (!imm.isUpdated(e.key()) && rnd.nextBoolean()) {
            back.add(e);
          }
        }
        putBacks.addAndGet(cache.putBack(imm, back));
        assertEquals(bytes, sumOfCharges(imm), "a frozen table never changes");
        held.add(imm);
        if (held.size() > 2) {
          cache.release(held.remove(0));
        }
      }
      held.forEach(cache::release);
    });

    runTogether(tasks);

    assertEquals(0, staleReads.get(), "stale reads");
    assertTrue(freezes.get() > 0 && hits.get() > 0 && putBacks.get() > 0,
        "the scenario exercised freezes (" + freezes + "), hits (" + hits + ") and put-backs ("
            + putBacks + ")");
    assertMutableAccountingExact(cache);
    assertEquals(0, cache.immutableBytes());
  }

  /**
   * Every key is cached, then invalidated exactly once by one of several writers while a checker
   * freezes repeatedly. Afterwards no key may be cached unmarked anywhere: each immutable table
   * either lost the key before it was frozen or marks it updated.
   */
  @Test
  void freezeNeverLosesAnInvalidation() throws Exception {
    int keys = 4_000;
    int writers = 4;
    for (int round = 0; round < 15; round++) {
      PromotionCache cache = PromotionCache.builder().targetBytes(1 << 30).build();
      for (int k = 0; k < keys; k++) {
        cache.insert(key(k), new byte[] {(byte) k});
      }
      CountDownLatch writersDone = new CountDownLatch(writers);
      List<ImmutablePromotionCache> frozen = new ArrayList<>();
      List<Runnable> tasks = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        tasks.add(() -> {
          for (int k = writer; k < keys; k += writers) {
            cache.invalidate(key(k));
          }
          writersDone.countDown();
        });
      }
      tasks.add(() -> {
        do {
          frozen.add(cache.freeze());
        } while (writersDone.getCount() > 0 && frozen.size() < 50);
      });

      runTogether(tasks);

      assertEquals(0, cache.mutableSize());
      assertEquals(0, cache.mutableBytes());
      long heldBytes = 0;
      for (ImmutablePromotionCache imm : frozen) {
        for (Entry e : imm) {
          assertTrue(imm.isUpdated(e.key()), "round " + round + ": key cached unmarked");
        }
        assertEquals(sumOfCharges(imm), imm.bytes());
        heldBytes += imm.bytes();
      }
      assertEquals(heldBytes, cache.immutableBytes());
    }
  }

  /**
   * A checker puts every entry of an immutable table back while writers invalidate every key: no
   * put-back may survive the invalidation of its key.
   */
  @Test
  void putBackNeverResurrectsAnInvalidatedKey() throws Exception {
    int keys = 4_000;
    int writers = 3;
    for (int round = 0; round < 15; round++) {
      PromotionCache cache = PromotionCache.builder().targetBytes(1 << 30).build();
      for (int k = 0; k < keys; k++) {
        cache.insert(key(k), new byte[] {(byte) k});
      }
      ImmutablePromotionCache imm = cache.freeze();
      AtomicLong restored = new AtomicLong();
      List<Runnable> tasks = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        tasks.add(() -> {
          // Writers walk the keys in the opposite direction to the checker, so they cross.
          for (int k = keys - 1 - writer; k >= 0; k -= writers) {
            cache.invalidate(key(k));
          }
        });
      }
      tasks.add(() -> restored.addAndGet(cache.putBack(imm, imm)));

      runTogether(tasks);

      for (int k = 0; k < keys; k++) {
        assertNull(cache.get(key(k)), "round " + round + ": key " + k + " resurrected");
        assertTrue(imm.isUpdated(key(k)));
      }
      assertEquals(0, cache.mutableSize(), "round " + round + " (" + restored + " restored)");
      assertEquals(0, cache.mutableBytes());
      assertTrue(cache.range(new byte[0], key(keys)).isEmpty());
    }
  }

  /**
   * Inserters store distinct keys while a checker freezes repeatedly: every insert lands in exactly
   * one table, and each frozen table keeps the contents and bytes it had when freeze returned.
   */
  @Test
  void everyInsertLandsInExactlyOneTableAndFrozenTablesNeverChange() throws Exception {
    int inserters = 4;
    int perThread = 25_000;
    PromotionCache cache = PromotionCache.builder().targetBytes(1 << 30).build();
    CountDownLatch insertersDone = new CountDownLatch(inserters);
    List<ImmutablePromotionCache> frozen = new ArrayList<>();
    List<long[]> atFreeze = new ArrayList<>();
    List<Runnable> tasks = new ArrayList<>();
    for (int t = 0; t < inserters; t++) {
      int thread = t;
      tasks.add(() -> {
        for (int i = 0; i < perThread; i++) {
          byte[] k = ByteBuffer.allocate(5).put((byte) (0x80 | thread)).putInt(i).array();
          cache.insert(k, new byte[thread + 1]);
        }
        insertersDone.countDown();
      });
    }
    tasks.add(() -> {
      while (insertersDone.getCount() > 0) {
        ImmutablePromotionCache imm = cache.freeze();
        frozen.add(imm);
        atFreeze.add(new long[] {imm.size(), sumOfCharges(imm)});
      }
    });

    runTogether(tasks);

    long total = cache.mutableSize();
    long bytes = cache.mutableBytes();
    for (int i = 0; i < frozen.size(); i++) {
      ImmutablePromotionCache imm = frozen.get(i);
      assertEquals(atFreeze.get(i)[0], count(imm), "frozen table " + i + " changed size");
      assertEquals(atFreeze.get(i)[1], sumOfCharges(imm), "frozen table " + i + " changed bytes");
      assertEquals(atFreeze.get(i)[1], imm.bytes());
      total += imm.size();
      bytes += imm.bytes();
    }
    assertEquals((long) inserters * perThread, total, "inserts lost or duplicated");
    long expectedBytes = 0;
    for (int t = 0; t < inserters; t++) {
      expectedBytes += perThread * PromotionCache.charge(5, t + 1);
    }
    assertEquals(expectedBytes, bytes);
    assertMutableAccountingExact(cache);
  }
}
