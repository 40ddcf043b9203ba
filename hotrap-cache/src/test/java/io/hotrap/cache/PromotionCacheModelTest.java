package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotrap.cache.PromotionCache.Entry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Random operations against a plain sorted-map model: contents, order, marks and exact bytes. */
class PromotionCacheModelTest {

  private static final class ModelImmutable {
    final ImmutablePromotionCache real;
    final TreeMap<byte[], byte[]> entries;
    final TreeSet<byte[]> updated = new TreeSet<>(PromotionCache.KEY_ORDER);

    ModelImmutable(ImmutablePromotionCache real, TreeMap<byte[], byte[]> entries) {
      this.real = real;
      this.entries = entries;
    }
  }

  private static byte[] randomKey(Random rnd) {
    // Few distinct keys, so operations collide; bytes span 0x00..0xff to exercise unsigned order.
    byte[] k = new byte[1 + rnd.nextInt(2)];
    for (int i = 0; i < k.length; i++) {
      k[i] = (byte) (rnd.nextInt(8) * 37);
    }
    return k;
  }

  private static long charge(Map<byte[], byte[]> m) {
    long sum = 0;
    for (Map.Entry<byte[], byte[]> e : m.entrySet()) {
      sum += PromotionCache.charge(e.getKey().length, e.getValue().length);
    }
    return sum;
  }

  @Test
  void randomOperationsMatchASortedMapModelWithExactBytes() {
    for (long seed = 1; seed <= 20; seed++) {
      run(seed);
    }
  }

  private void run(long seed) {
    Random rnd = new Random(seed);
    int maxRecord = 40;
    PromotionCache cache = PromotionCache.builder()
        .targetBytes(20 * PromotionCache.charge(2, 20))
        .maxRecordBytes(maxRecord)
        .build();
    TreeMap<byte[], byte[]> mutable = new TreeMap<>(PromotionCache.KEY_ORDER);
    List<ModelImmutable> immutables = new ArrayList<>();

    for (int step = 0; step < 3000; step++) {
      String where = "seed " + seed + " step " + step;
      int op = rnd.nextInt(100);
      byte[] key = randomKey(rnd);
      if (op < 40) {
        byte[] value = new byte[rnd.nextInt(45)];
        rnd.nextBytes(value);
        boolean cached = cache.insert(key, value);
        assertEquals(key.length + value.length <= maxRecord, cached, where);
        if (cached) {
          mutable.put(key, value);
        }
      } else if (op < 65) {
        cache.invalidate(key);
        mutable.remove(key);
        for (ModelImmutable imm : immutables) {
          if (imm.entries.containsKey(key)) {
            imm.updated.add(key);
          }
        }
      } else if (op < 75) {
        byte[] other = randomKey(rnd);
        byte[] lo = PromotionCache.KEY_ORDER.compare(key, other) <= 0 ? key : other;
        byte[] hi = lo == key ? other : key;
        List<Entry> taken = cache.range(lo, hi);
        List<byte[]> expectedKeys = new ArrayList<>(mutable.subMap(lo, true, hi, true).keySet());
        assertEquals(expectedKeys.size(), taken.size(), where);
        for (int i = 0; i < taken.size(); i++) {
          assertArrayEquals(expectedKeys.get(i), taken.get(i).key(), where);
        }
        // Something changes between taking and removing, as during a migration.
        byte[] touched = randomKey(rnd);
        if (rnd.nextBoolean()) {
          cache.insert(touched, new byte[] {1});
          mutable.put(touched, new byte[] {1});
        } else {
          cache.invalidate(touched);
          mutable.remove(touched);
          immutables.forEach(m -> {
            if (m.entries.containsKey(touched)) {
              m.updated.add(touched);
            }
          });
        }
        int expectedRemoved = 0;
        for (Entry e : taken) {
          if (PromotionCache.KEY_ORDER.compare(e.key(), touched) != 0) {
            mutable.remove(e.key());
            expectedRemoved++;
          }
        }
        assertEquals(expectedRemoved, cache.removeIfUnchanged(taken), where);
      } else if (op < 82) {
        ImmutablePromotionCache real = cache.freeze();
        immutables.add(new ModelImmutable(real, mutable));
        mutable = new TreeMap<>(PromotionCache.KEY_ORDER);
      } else if (op < 90 && !immutables.isEmpty()) {
        ModelImmutable imm = immutables.get(rnd.nextInt(immutables.size()));
        int expected = 0;
        for (Map.Entry<byte[], byte[]> e : imm.entries.entrySet()) {
          if (!imm.updated.contains(e.getKey()) && !mutable.containsKey(e.getKey())) {
            mutable.put(e.getKey(), e.getValue());
            expected++;
          }
        }
        assertEquals(expected, cache.putBack(imm.real, imm.real), where);
      } else if (op < 95 && !immutables.isEmpty()) {
        ModelImmutable imm = immutables.remove(rnd.nextInt(immutables.size()));
        cache.release(imm.real);
      } else {
        byte[] expected = mutable.get(key);
        if (expected == null) {
          // Then the newest unreleased immutable holding the key, unless updated there.
          for (int i = immutables.size() - 1; i >= 0; i--) {
            ModelImmutable imm = immutables.get(i);
            if (imm.entries.containsKey(key)) {
              expected = imm.updated.contains(key) ? null : imm.entries.get(key);
              break;
            }
          }
        }
        byte[] got = cache.get(key);
        if (expected == null) {
          assertEquals(null, got, where);
        } else {
          assertArrayEquals(expected, got, where);
        }
      }

      assertEquals(charge(mutable), cache.mutableBytes(), where);
      assertEquals(mutable.size(), cache.mutableSize(), where);
      long immutableBytes = 0;
      for (ModelImmutable imm : immutables) {
        assertEquals(charge(imm.entries), imm.real.bytes(), where);
        assertEquals(imm.entries.size(), imm.real.size(), where);
        assertEquals(imm.updated.size(), imm.real.updatedCount(), where);
        immutableBytes += imm.real.bytes();
      }
      assertEquals(immutableBytes, cache.immutableBytes(), where);
    }
    // Final full comparison of contents and order.
    byte[] top = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
    Iterator<Entry> real = cache.range(new byte[0], top).iterator();
    for (Map.Entry<byte[], byte[]> e : mutable.entrySet()) {
      Entry r = real.next();
      assertArrayEquals(e.getKey(), r.key());
      assertArrayEquals(e.getValue(), r.value());
    }
    assertEquals(false, real.hasNext());
    for (ModelImmutable imm : immutables) {
      Iterator<Entry> it = imm.real.iterator();
      for (Map.Entry<byte[], byte[]> e : imm.entries.entrySet()) {
        Entry r = it.next();
        assertArrayEquals(e.getKey(), r.key());
        assertArrayEquals(e.getValue(), r.value());
        assertEquals(imm.updated.contains(e.getKey()), imm.real.isUpdated(e.getKey()));
      }
      assertEquals(false, it.hasNext());
    }
  }
}
