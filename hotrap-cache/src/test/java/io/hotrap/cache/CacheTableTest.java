package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CacheTableTest {

  private static byte[] key(int i) {
    return ("key" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyMarkedKeyMightBeHeldAndFewOthersSeemTo() {
    CacheTable t = new CacheTable(1 << 13);
    int marked = 1 << 10;
    for (int i = 0; i < marked; i++) {
      t.markPresent(CacheTable.hash(key(i)));
    }
    for (int i = 0; i < marked; i++) {
      assertTrue(t.mightHold(CacheTable.hash(key(i))), "marked key " + i + " reads as absent");
    }
    int falsePositives = 0;
    int probes = 100_000;
    for (int i = marked; i < marked + probes; i++) {
      if (t.mightHold(CacheTable.hash(key(i)))) {
        falsePositives++;
      }
    }
    // One bit per key at 8 bits per key: about 1 − e^(−1/8) ≈ 11.8% of slots are set.
    assertTrue(falsePositives < probes * 0.15, falsePositives + " false positives of " + probes);
  }

  @Test
  void aFreshTableHoldsNothing() {
    CacheTable t = new CacheTable(64);
    for (int i = 0; i < 1000; i++) {
      assertTrue(!t.mightHold(CacheTable.hash(key(i))));
    }
  }

  @Test
  void presenceBitsMustBeAPowerOfTwoOfAtLeast64() {
    assertThrows(IllegalArgumentException.class, () -> new CacheTable(32));
    assertThrows(IllegalArgumentException.class, () -> new CacheTable(100));
  }
}
