package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads race gets, puts, invalidations and group invalidations while tiny tiers keep DRAM and
 * flash evicting. Every key has one owner thread that writes it with increasing versions; any
 * thread reads any key. A value read must be well formed, belong to the key, be no newer than the
 * newest put started, and be no older than what was put or invalidated before the get began: a
 * completed invalidation (of the key or of the group of its last put) forbids every version up to
 * the invalidated one.
 */
@Timeout(60)
class FlashCacheConcurrencyTest {
  private static final int THREADS = 4;
  private static final int KEYS_PER_THREAD = 300;
  private static final int OPS_PER_THREAD = 60_000;
  private static final int KEYS = THREADS * KEYS_PER_THREAD;

  @TempDir Path dir;

  /** 2v: version v was put and returned; 2v + 1: invalidated after version v. */
  private final AtomicLongArray floor = new AtomicLongArray(KEYS);
  /** The newest version whose put began. */
  private final AtomicLongArray started = new AtomicLongArray(KEYS);
  private final Queue<String> failures = new ConcurrentLinkedQueue<>();

  @Test
  void noGetReturnsAnInvalidatedOverwrittenOrForeignValue() throws Exception {
    try (FlashCache cache = Items.small(dir, 16, 64 << 10).invalidGroupsRemembered(4).build()) {
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
