package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CuckooFilterTest {

  private static long hash(int i) {
    return ItemKey.hash(Items.key(i));
  }

  @Test
  void everyAddedKeyIsFoundAtTheTargetLoad() {
    CuckooFilter f = new CuckooFilter(100_000);
    long n = (long) (f.slots() * CuckooFilter.TARGET_LOAD);
    for (int i = 0; i < n; i++) {
      assertTrue(f.add(hash(i)), "add " + i);
    }
    for (int i = 0; i < n; i++) {
      assertTrue(f.mightContain(hash(i)), "key " + i);
    }
    assertEquals(n, f.size());
  }

  @Test
  void falsePositivesAreRareWithSixteenBitFingerprints() {
    CuckooFilter f = new CuckooFilter(100_000);
    for (int i = 0; i < 100_000; i++) {
      f.add(hash(i));
    }
    int falsePositives = 0;
    for (int i = 1_000_000; i < 2_000_000; i++) {
      if (f.mightContain(hash(i))) {
        falsePositives++;
      }
    }
    // 8 slots probed of 16-bit fingerprints at ~76% load: about 0.01%.
    assertTrue(falsePositives < 300, "false positives per million: " + falsePositives);
  }

  @Test
  void removeTakesOneCopyAway() {
    CuckooFilter f = new CuckooFilter(1000);
    long h = hash(1);
    f.add(h);
    f.add(h);
    assertTrue(f.remove(h));
    assertTrue(f.mightContain(h));
    assertTrue(f.remove(h));
    assertFalse(f.mightContain(h));
    assertFalse(f.remove(h));
    assertEquals(0, f.size());
  }

  @Test
  void aFailedAddLeavesTheFilterUnchanged() {
    CuckooFilter f = new CuckooFilter(64);
    int added = 0;
    int i = 0;
    while (true) {
      if (!f.add(hash(i))) {
        break;
      }
      added++;
      i++;
    }
    assertTrue(added >= f.slots() * 0.8, "filled " + added + " of " + f.slots());
    for (int j = 0; j < added; j++) {
      assertTrue(f.mightContain(hash(j)), "key " + j + " lost by the failed add");
    }
    assertEquals(added, f.size());
  }

  @Test
  void addsAndRemovesInAnyOrderKeepNoFalseNegatives() {
    CuckooFilter f = new CuckooFilter(10_000);
    int[] count = new int[20_000];
    SplittableRandom r = new SplittableRandom(5);
    for (int step = 0; step < 200_000; step++) {
      int k = r.nextInt(count.length);
      if (r.nextBoolean() && count[k] > 0) {
        assertTrue(f.remove(hash(k)));
        count[k]--;
      } else if (f.size() < 9000) {
        assertTrue(f.add(hash(k)));
        count[k]++;
      }
    }
    for (int k = 0; k < count.length; k++) {
      if (count[k] > 0) {
        assertTrue(f.mightContain(hash(k)), "key " + k);
      }
    }
  }

  @Test
  void capacityMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new CuckooFilter(0));
  }
}
