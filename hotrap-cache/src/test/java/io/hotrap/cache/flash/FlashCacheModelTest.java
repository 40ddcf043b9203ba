package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random operations checked against a map of the last value put per key: a hit must return
 * exactly that value, unless the key or its group was invalidated since (then it must miss).
 * Misses are always allowed. Tiers are tiny, so DRAM evictions, region evictions, reinsertions,
 * purges and warm restarts all happen many times.
 */
@Timeout(60)
class FlashCacheModelTest {
  private static final int KEYS = 3000;
  private static final int OPS = 40_000;
  private static final int GROUPS = 20;

  @TempDir Path dir;

  /** What the oracle knows of a key: its last value and group, or nothing if invalidated. */
  private record Put(byte[] value, long group) {}

  @ParameterizedTest(name = "seed {0}, {1}, dram {2}, {3}")
  @CsvSource({"1, LRU, 32768, ON_HEAP", "2, FIFO, 32768, ON_HEAP", "3, LRU, 0, ON_HEAP",
      "4, FIFO, 200000, ON_HEAP", "5, LRU, 32768, OFF_HEAP", "6, FIFO, 0, OFF_HEAP"})
  void everyHitIsTheLastValuePut(long seed, RegionEvictionPolicy policy, long dramBytes,
      FlashIndexKind kind) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    Map<Integer, Put> oracle = new HashMap<>();
    long version = 0;
    long hits = 0;
    FlashCache cache = open(policy, dramBytes, kind);
    try {
      for (int op = 0; op < OPS; op++) {
        int k = (int) Math.min(KEYS - 1, Math.abs(r.nextGaussian()) * KEYS / 3);
        int dice = r.nextInt(1000);
        if (dice < 550) {
          byte[] got = cache.get(Items.key(k));
          Put expected = oracle.get(k);
          if (got != null) {
            hits++;
            String why = "op " + op + " key " + k;
            assertTrue(expected != null, why + ": hit after invalidation");
            assertArrayEquals(expected.value(), got, why);
          }
        } else if (dice < 900) {
          long group = r.nextInt(GROUPS);
          byte[] value = Items.value(k, ++version, 10 + r.nextInt(r.nextInt(10) == 0 ? 3000 : 400));
          cache.put(Items.key(k), value, group);
          oracle.put(k, new Put(value, group));
        } else if (dice < 970) {
          cache.invalidate(Items.key(k));
          oracle.remove(k);
        } else if (dice < 973) {
          long group = r.nextInt(GROUPS);
          cache.invalidateGroup(group);
          oracle.values().removeIf(p -> p.group() == group);
        } else if (dice < 998) {
          cache.awaitQuiescence();
        } else {
          cache.close();
          cache = open(policy, dramBytes, kind);
        }
      }
      cache.awaitQuiescence();
      FlashCacheStats s = cache.stats();
      assertTrue(hits > OPS / 10, "hits " + hits + " " + s);
      for (int k = 0; k < KEYS; k++) {
        byte[] got = cache.get(Items.key(k));
        if (got != null) {
          Put expected = oracle.get(k);
          assertTrue(expected != null, "key " + k + ": hit after invalidation");
          assertArrayEquals(expected.value(), got, "key " + k);
        }
      }
      assertNull(cache.get(Items.key(KEYS + 1)));
    } finally {
      cache.close();
    }
  }

  private FlashCache open(RegionEvictionPolicy policy, long dramBytes, FlashIndexKind kind) {
    FlashCache cache = Items.small(dir, 12, dramBytes).evictionPolicy(policy)
        .invalidGroupsRemembered(3).indexKind(kind).build();
    assertEquals(kind, cache.indexKind());
    return cache;
  }
}
