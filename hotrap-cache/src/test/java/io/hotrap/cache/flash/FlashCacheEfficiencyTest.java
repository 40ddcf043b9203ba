package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write amplification and hit ratio on a cache-aside trace: each request gets a key drawn from a
 * Zipf(0.99) distribution and puts it on a miss; a few requests update their key instead.
 */
@Tag("statistical")
@Timeout(60)
class FlashCacheEfficiencyTest {
  private static final int KEYS = 200_000;
  private static final double ZIPF_S = 0.99;
  private static final long DRAM_BYTES = 1 << 20;
  private static final long FLASH_BYTES = 16 << 20;
  private static final int REGION_BYTES = 256 << 10;

  @TempDir Path dir;

  /** Ranks 0..n-1 with P(rank k) proportional to 1 / (k + 1)^s, by inverse CDF. */
  static final class Zipf {
    private final double[] cdf;

    Zipf(int n, double s) {
      cdf = new double[n];
      double sum = 0;
      for (int k = 0; k < n; k++) {
        sum += 1 / Math.pow(k + 1, s);
        cdf[k] = sum;
      }
      for (int k = 0; k < n; k++) {
        cdf[k] /= sum;
      }
    }

    int next(SplittableRandom r) {
      int i = Arrays.binarySearch(cdf, r.nextDouble());
      return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
    }
  }

  /** A fixed value size per key, 100 to 1100 bytes, so that both caches see the same items. */
  private static int valueLength(int key) {
    return 100 + Math.floorMod(ItemKey.hash(Items.key(key)), 1001);
  }

  private static int[] trace(int requests, long seed) {
    Zipf zipf = new Zipf(KEYS, ZIPF_S);
    SplittableRandom r = new SplittableRandom(seed);
    int[] keys = new int[requests];
    for (int i = 0; i < requests; i++) {
      keys[i] = zipf.next(r);
    }
    return keys;
  }

  /** Runs the trace cache-aside; 2% of requests are updates. Returns the cache's stats. */
  private static FlashCacheStats replay(FlashCache cache, int[] trace) throws Exception {
    SplittableRandom r = new SplittableRandom(99);
    for (int i = 0; i < trace.length; i++) {
      int k = trace[i];
      byte[] key = Items.key(k);
      if (r.nextInt(100) < 2) {
        cache.put(key, Items.value(k, i, valueLength(k)));
      } else if (cache.get(key) == null) {
        cache.put(key, Items.value(k, i, valueLength(k)));
      }
    }
    cache.awaitQuiescence();
    return cache.stats();
  }

  /** Hit ratio of an exact LRU holding {@code capacity} bytes of keys and values, gets only. */
  private static double lruHitRatio(int[] trace, long capacity) {
    LinkedHashMap<Integer, Integer> lru = new LinkedHashMap<>(1 << 16, 0.75f, true);
    SplittableRandom r = new SplittableRandom(99);
    long bytes = 0;
    long gets = 0;
    long hits = 0;
    for (int k : trace) {
      boolean update = r.nextInt(100) < 2;
      int size = Items.key(k).length + valueLength(k);
      if (!update) {
        gets++;
        if (lru.get(k) != null) {
          hits++;
          continue;
        }
      }
      Integer old = lru.put(k, size);
      bytes += size - (old == null ? 0 : old);
      while (bytes > capacity) {
        Map.Entry<Integer, Integer> eldest = lru.entrySet().iterator().next();
        bytes -= eldest.getValue();
        lru.remove(eldest.getKey());
      }
    }
    return (double) hits / gets;
  }

  @Test
  void flashWritesStayWithinTenPercentOfTheBytesAdmitted() throws Exception {
    int[] trace = trace(450_000, 1);
    try (FlashCache cache = FlashCache.builder().directory(dir).regionBytes(REGION_BYTES)
        .flashBytes(FLASH_BYTES).dramBytes(DRAM_BYTES).build()) {
      FlashCacheStats s = replay(cache, trace);
      System.out.printf("write amplification %.4f (device %.4f): written %d, admitted %d, "
          + "reinserted %d bytes; %d region evictions of %d regions; %s%n",
          s.writeAmplification(), s.deviceWriteAmplification(), s.flashBytesWritten(),
          s.flashBytesAdmitted(), s.reinsertedBytes(), s.regionEvictions(),
          FLASH_BYTES / REGION_BYTES, s);
      assertTrue(s.regionEvictions() > 3 * FLASH_BYTES / REGION_BYTES, s.toString());
      assertTrue(s.writeAmplification() <= 1.1, "write amplification " + s.writeAmplification());
      assertTrue(s.deviceWriteAmplification() <= 1.1, s.toString());
    }
  }

  @Test
  void zipfHitRatioIsAtLeast95PercentOfAnExactLruOfTheSameBytes() throws Exception {
    int[] trace = trace(450_000, 2);
    double lru = lruHitRatio(trace, DRAM_BYTES + FLASH_BYTES);
    try (FlashCache cache = FlashCache.builder().directory(dir).regionBytes(REGION_BYTES)
        .flashBytes(FLASH_BYTES).dramBytes(DRAM_BYTES).build()) {
      FlashCacheStats s = replay(cache, trace);
      double ratio = s.hitRatio();
      System.out.printf("Zipf %.2f hit ratio: flash cache %.4f, exact LRU %.4f, ratio %.4f; %s%n",
          ZIPF_S, ratio, lru, ratio / lru, s);
      assertTrue(ratio >= 0.95 * lru, "hit ratio " + ratio + " vs LRU " + lru);
    }
  }
}
