package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HotKeyFilterTest {

  private static long hashOf(String s) {
    return KeyHash.hash(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void containsEveryKeyItWasBuiltFrom() {
    int n = 100_000;
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = hashOf("key-" + i);
    }
    HotKeyFilter f = HotKeyFilter.build(hashes, n, 20);
    for (int i = 0; i < n; i++) {
      assertTrue(f.mightContain(hashes[i]), "false negative for key-" + i);
    }
  }

  @Test
  void falsePositiveRateAtTwentyBitsPerKeyIsBelowHalfAPercent() {
    int n = 100_000;
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = hashOf("member-" + i);
    }
    HotKeyFilter f = HotKeyFilter.build(hashes, n, 20);
    int probes = 200_000;
    int positives = 0;
    for (int i = 0; i < probes; i++) {
      if (f.mightContain(hashOf("stranger-" + i))) {
        positives++;
      }
    }
    // A plain filter at 20 bits per key gives ~0.0007%; cache blocking costs some of that.
    assertTrue(positives < probes * 0.005, "false positives: " + positives + " of " + probes);
  }

  @Test
  void emptyFilterContainsNothingAndHoldsNoBits() {
    HotKeyFilter f = HotKeyFilter.build(new long[0], 0, 20);
    assertFalse(f.mightContain(hashOf("anything")));
    assertEquals(16, f.memoryBytes());
  }

  @Test
  void memoryFollowsBitsPerKey() {
    int n = 10_000;
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = hashOf("k" + i);
    }
    long bytes = HotKeyFilter.build(hashes, n, 20).memoryBytes();
    // 20 bits per key, rounded up to whole 64-byte blocks.
    assertTrue(bytes >= n * 20 / 8 && bytes <= n * 20 / 8 + 64 + 16, "bytes " + bytes);
  }
}
