package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threads race gets, puts, invalidations and group invalidations while tiny tiers keep DRAM and
 * flash evicting, with either kind of flash index. Every key has one owner thread that writes it
 * with increasing versions; any thread reads any key. A value read must be well formed, belong to
 * the key, be no newer than the newest put started, and be no older than what was put or
 * invalidated before the get began: a completed invalidation (of the key or of the group of its
 * last put) forbids every version up to the invalidated one.
 */
@Timeout(60)
class FlashCacheConcurrencyTest {
  private static final int THREADS = 4;
  private static final int KEYS_PER_THREAD = 300;
  private static final int OPS_PER_THREAD = 60_000;
  private static final int KEYS = THREADS * KEYS_PER_THREAD;
  private static final int MIN_CHURN = 8_000;
  private static final int MAX_CHURN = 200_000;
  private static final long ENOUGH_REINSERTIONS = 40;

  @TempDir Path dir;

  /** 2v: version v was put and returned; 2v + 1: invalidated after version v. */
  private final AtomicLongArray floor = new AtomicLongArray(KEYS);
  /** The newest version whose put began. */
  private final AtomicLongArray started = new AtomicLongArray(KEYS);
  private final Queue<String> failures = new ConcurrentLinkedQueue<>();
  /** Whether the churner of the reinsertion race still puts; its readers read until it stops. */
  private volatile boolean churning = true;

  @ParameterizedTest
  @CsvSource({"ON_HEAP, 65536", "OFF_HEAP, 65536"})
  void noGetReturnsAnInvalidatedOverwrittenOrForeignValue(FlashIndexKind kind, long dramBytes)
      throws Exception {
    try (FlashCache cache = Items.small(dir, 16, dramBytes).invalidGroupsRemembered(4)
        .indexKind(kind).build()) {
      assertEquals(kind, cache.indexKind());
      CyclicBarrier start = new CyclicBarrier(THREADS);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int owner = t;
        Thread th = new Thread(() -> run(cache, owner, start), "racer-" + t);
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      cache.awaitQuiescence();
      for (int k = 0; k < KEYS; k++) {
        check(k, floor.get(k), cache.get(Items.key(k)));
      }
      FlashCacheStats s = cache.stats();
      assertTrue(failures.isEmpty(), failures.size() + " failures, first: "
          + failures.stream().limit(5).toList() + " " + s);
      assertTrue(s.flashHits() > 1000, "too few flash hits to mean anything: " + s);
      assertTrue(s.regionEvictions() > 20, "too few region evictions to mean anything: " + s);
      assertTrue(s.purgedItems() > 0, s.toString());
    }
  }

  /**
   * Readers hammer a hot set while a writer overwrites and invalidates hot keys and a churner
   * pushes cold items through flash, so that the hot keys' regions are evicted again and again
   * and their items, read since written, reinserted while they are read, overwritten and
   * invalidated. No DRAM to speak of: a hot item a read copied into DRAM stays there only until
   * DRAM's next eviction, and is not reinserted meanwhile, so how many are depends on timing.
   */
  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void reinsertionRacesWithReadsOverwritesAndInvalidations(FlashIndexKind kind)
      throws Exception {
    int hot = 100;
    try (FlashCache cache = Items.small(dir, 16, 0).evictionPolicy(RegionEvictionPolicy.FIFO)
        .reinsertionBudget(10).indexKind(kind).build()) {
      assertEquals(kind, cache.indexKind());
      for (int k = 0; k < hot; k++) {
        started.set(k, 1);
        cache.put(Items.key(k), Items.value(k, 1, 400));
        floor.set(k, 2);
      }
      CyclicBarrier start = new CyclicBarrier(4);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        long seed = t;
        threads.add(new Thread(() -> read(cache, hot, seed, start), "reader-" + t));
      }
      threads.add(new Thread(() -> overwrite(cache, hot, start), "writer"));
      threads.add(new Thread(() -> churn(cache, start), "churner"));
      threads.forEach(Thread::start);
      for (Thread th : threads) {
        th.join();
      }
      cache.awaitQuiescence();
      for (int k = 0; k < hot; k++) {
        check(k, floor.get(k), cache.get(Items.key(k)));
      }
      FlashCacheStats s = cache.stats();
      assertTrue(failures.isEmpty(), failures.size() + " failures, first: "
          + failures.stream().limit(5).toList() + " " + s);
      assertTrue(s.regionEvictions() > 20, "too few region evictions to mean anything: " + s);
      assertTrue(s.reinsertions() > 20, "too few reinsertions to mean anything: " + s);
      assertTrue(s.flashHits() > 1_000, "too few flash hits to mean anything: " + s);
    }
  }

  private void read(FlashCache cache, int hot, long seed, CyclicBarrier start) {
    SplittableRandom r = new SplittableRandom(seed);
    try {
      start.await();
      // Reads go on while the churner runs: an item is reinserted only if read since written.
      for (int op = 0; (op < 20_000 || churning) && failures.size() < 10; op++) {
        int k = r.nextInt(hot);
        long f = floor.get(k);
        check(k, f, cache.get(Items.key(k)));
      }
    } catch (Exception e) {
      failures.add(Thread.currentThread().getName() + ": " + e);
    }
  }

  private void overwrite(FlashCache cache, int hot, CyclicBarrier start) {
    SplittableRandom r = new SplittableRandom(99);
    long[] version = new long[hot];
    java.util.Arrays.fill(version, 1);
    try {
      start.await();
      for (int op = 0; op < 1_000 && failures.size() < 10; op++) {
        int k = r.nextInt(hot);
        if (r.nextInt(4) == 0) {
          cache.invalidate(Items.key(k));
          floor.set(k, 2 * version[k] + 1);
        } else {
          long v = ++version[k];
          started.set(k, v);
          cache.put(Items.key(k), Items.value(k, v, 400));
          floor.set(k, 2 * v);
        }
      }
    } catch (Exception e) {
      failures.add(Thread.currentThread().getName() + ": " + e);
    }
  }

  /**
   * Cold items, never read, under keys no other thread uses: at least {@value #MIN_CHURN} of them,
   * and more until the cache has reinserted {@value #ENOUGH_REINSERTIONS} items or
   * {@value #MAX_CHURN} went in. How many reinsertions a number of puts brings depends on how the
   * threads interleave (a loaded machine saw 13 in 8,000 puts, a quiet one 93 to 223), so the race
   * is run until it happened often enough, not for a fixed count; if reinsertion stopped working,
   * the churner runs out and the test's count fails.
   */
  private void churn(FlashCache cache, CyclicBarrier start) {
    try {
      start.await();
      for (int i = 0; i < MAX_CHURN && failures.size() < 10; i++) {
        if (i >= MIN_CHURN && i % 500 == 0 && cache.stats().reinsertions() >= ENOUGH_REINSERTIONS) {
          break;
        }
        int k = KEYS + i;
        cache.put(Items.key(k), Items.value(k, 1, 400));
      }
    } catch (Exception e) {
      failures.add(Thread.currentThread().getName() + ": " + e);
    } finally {
      churning = false;
    }
  }

  private void run(FlashCache cache, int owner, CyclicBarrier start) {
    SplittableRandom r = new SplittableRandom(owner * 7919L + 1);
    int first = owner * KEYS_PER_THREAD;
    long[] lastVersion = new long[KEYS_PER_THREAD];
    long[] lastGroup = new long[KEYS_PER_THREAD];
    long epoch = 0;
    try {
      start.await();
      for (int op = 0; op < OPS_PER_THREAD && failures.size() < 10; op++) {
        int dice = r.nextInt(1000);
        if (dice < 600) {
          int k = r.nextInt(KEYS);
          long f = floor.get(k);
          check(k, f, cache.get(Items.key(k)));
          continue;
        }
        int i = r.nextInt(KEYS_PER_THREAD);
        int k = first + i;
        long group = owner * 1_000_000L + epoch;
        if (dice < 900) {
          long v = ++lastVersion[i];
          started.set(k, v);
          cache.put(Items.key(k), Items.value(k, v, 50 + r.nextInt(1500)), group);
          lastGroup[i] = group;
          floor.set(k, 2 * v);
        } else if (dice < 995) {
          cache.invalidate(Items.key(k));
          floor.set(k, 2 * lastVersion[i] + 1);
        } else {
          cache.invalidateGroup(group);
          for (int j = 0; j < KEYS_PER_THREAD; j++) {
            if (lastGroup[j] == group && lastVersion[j] > 0) {
              floor.set(first + j, 2 * lastVersion[j] + 1);
            }
          }
          epoch++; // a put into an invalidated group would be dropped
        }
      }
    } catch (Exception e) {
      failures.add(Thread.currentThread().getName() + ": " + e);
    }
  }

  private void check(int k, long floorBeforeGet, byte[] got) {
    if (got == null) {
      return;
    }
    if (!Items.wellFormed(got) || Items.keyOf(got) != k) {
      failures.add("key " + k + ": foreign or damaged value of key " + Items.keyOf(got));
      return;
    }
    long w = Items.versionOf(got);
    if (2 * w < floorBeforeGet) {
      failures.add("key " + k + ": version " + w + " after floor " + floorBeforeGet);
    }
    if (w > started.get(k)) {
      failures.add("key " + k + ": version " + w + " never put");
    }
  }
}
