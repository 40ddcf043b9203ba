package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RecentKeyFilterTest {

  private static byte[] key(int i) {
    return ByteBuffer.allocate(24).putInt(0x6b657900).putInt(i).array();
  }

  @Test
  void remembersEveryKeyAddedWithinTheWindow() {
    RecentKeyFilter f = new RecentKeyFilter(1000, 1000);
    for (int i = 0; i < 1000; i++) {
      f.add(key(i));
    }
    for (int i = 0; i < 1000; i++) {
      assertTrue(f.mightContain(key(i)), "key " + i);
    }
  }

  @Test
  void keepsTheLastGenerationAndForgetsTheOneBefore() {
    RecentKeyFilter f = new RecentKeyFilter(1000, 1000);
    for (int i = 0; i < 3000; i++) {
      f.add(key(i));
    }
    // Generations: [0, 1000) forgotten, [1000, 2000) previous, [2000, 3000) current (full).
    for (int i = 1000; i < 3000; i++) {
      assertTrue(f.mightContain(key(i)), "key " + i);
    }
    int forgottenButReported = 0;
    for (int i = 0; i < 1000; i++) {
      if (f.mightContain(key(i))) {
        forgottenButReported++;
      }
    }
    assertTrue(forgottenButReported < 40, forgottenButReported + " of 1000 forgotten keys reported");
  }

  @Test
  void falsePositivesStayNearOnePercent() {
    RecentKeyFilter f = new RecentKeyFilter(10_000, 10_000);
    for (int i = 0; i < 10_000; i++) {
      f.add(key(i));
    }
    int fp = 0;
    for (int i = 1_000_000; i < 1_100_000; i++) {
      if (f.mightContain(key(i))) {
        fp++;
      }
    }
    // Two generations are probed; the previous one is empty here. 10 bits and 7 probes per key
    // give 0.8% at capacity; the bits are rounded up to a power of two, which only lowers it.
    assertTrue(fp < 1_500, fp + " false positives in 100000");
  }

  @Test
  void aNewWindowTakesEffectWithTheNextGeneration() {
    RecentKeyFilter f = new RecentKeyFilter(100, 10_000);
    f.setWindow(5_000);
    assertEquals(100, f.window());
    for (int i = 0; i < 101; i++) {
      f.add(key(i));
    }
    assertEquals(5_000, f.window());
    for (int i = 101; i < 5_100; i++) {
      f.add(key(i));
    }
    for (int i = 0; i < 5_100; i++) {
      assertTrue(f.mightContain(key(i)), "key " + i);
    }
  }

  @Test
  void windowIsClampedAndMemoryBoundedByTheMaximum() {
    RecentKeyFilter f = new RecentKeyFilter(64, 4096);
    f.setWindow(1L << 40);
    for (int i = 0; i < 65; i++) {
      f.add(key(i));
    }
    assertEquals(4096, f.window());
    f.setWindow(1);
    for (int i = 0; i < 4097; i++) {
      f.add(key(i));
    }
    assertEquals(RecentKeyFilter.MIN_WINDOW, f.window());
    assertTrue(f.memoryBytes() <= 2L * 4096 * RecentKeyFilter.BITS_PER_KEY / 8 * 2, "" + f.memoryBytes());
  }

  @Test
  void badArgumentsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new RecentKeyFilter(10, 1000));
    assertThrows(IllegalArgumentException.class, () -> new RecentKeyFilter(2000, 1000));
    assertThrows(IllegalArgumentException.class, () -> new RecentKeyFilter(64, 63));
    RecentKeyFilter f = new RecentKeyFilter(64, 64);
    assertThrows(NullPointerException.class, () -> f.add(null));
    assertThrows(NullPointerException.class, () -> f.mightContain(null));
    assertFalse(f.mightContain(new byte[0]));
    f.add(new byte[0]);
    assertTrue(f.mightContain(new byte[0]));
  }
}
