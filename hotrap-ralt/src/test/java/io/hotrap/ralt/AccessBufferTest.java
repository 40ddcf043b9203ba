package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AccessBufferTest {
  private static final Clock CLOCK = new Clock(RaltOptions.builder().directory(Path.of("unused"))
      .fastDiskBytes(100L << 20).build());

  /** Keys that share long prefixes, tie in their first bytes after the prefix, and vary in length. */
  private static byte[] awkwardKey(Random rnd) {
    switch (rnd.nextInt(4)) {
      case 0:
        return String.format("user%020d", rnd.nextInt(5000)).getBytes();
      case 1:
        byte[] k = new byte[rnd.nextInt(12)];
        for (int i = 0; i < k.length; i++) {
          k[i] = (byte) (rnd.nextBoolean() ? 0xFF : rnd.nextInt(3));
        }
        return k;
      case 2:
        return ("user0000000000" + rnd.nextInt(50)).getBytes();
      default:
        byte[] b = new byte[8 + rnd.nextInt(24)];
        rnd.nextBytes(b);
        return b;
    }
  }

  @Test
  void aggregatesRepeatedKeysAndSortsThemUnsigned() {
    Random rnd = new Random(42);
    AccessBuffer buf = new AccessBuffer(1 << 20);
    TreeMap<byte[], List<long[]>> model = new TreeMap<>(Arrays::compareUnsigned);
    long clock = 0;
    while (true) {
      byte[] key = awkwardKey(rnd);
      int valueLength = rnd.nextInt(2000);
      long t = clock + key.length + valueLength;
      if (!buf.add(key, valueLength, t)) {
        break;
      }
      clock = t;
      model.computeIfAbsent(key, x -> new ArrayList<>()).add(new long[] {t, valueLength});
    }
    buf.aggregateAndSort(CLOCK);
    assertEquals(model.size(), buf.distinctCount());
    AccessRecord r = new AccessRecord();
    int i = 0;
    for (var e : model.entrySet()) {
      buf.load(i++, r);
      assertArrayEquals(e.getKey(), r.keyCopy());
      List<long[]> accesses = e.getValue();
      long[] last = accesses.get(accesses.size() - 1);
      assertEquals(last[0], r.time, "time of the newest access");
      assertEquals((int) last[1], r.valueLength, "value length of the newest access");
      assertEquals(accesses.size() > 1, r.tagged, "tagged only when accessed twice");
      double expected = 0;
      long prevTick = CLOCK.tick(accesses.get(0)[0]);
      for (long[] a : accesses) {
        long tick = CLOCK.tick(a[0]);
        expected = expected * Math.pow(RaltOptions.DEFAULT_ALPHA, tick - prevTick) + 1;
        prevTick = tick;
      }
      assertEquals(expected, r.score, 1e-3 * expected, "smoothed score");
    }
  }

  @Test
  void clearedBufferIsReusable() {
    AccessBuffer buf = new AccessBuffer(64 * 1024);
    assertTrue(buf.add("a".getBytes(), 1, 2));
    buf.aggregateAndSort(CLOCK);
    buf.clear();
    assertTrue(buf.isEmpty());
    assertTrue(buf.add("b".getBytes(), 1, 4));
    assertTrue(buf.add("a".getBytes(), 1, 6));
    buf.aggregateAndSort(CLOCK);
    assertEquals(2, buf.distinctCount());
    AccessRecord r = new AccessRecord();
    buf.load(0, r);
    assertArrayEquals("a".getBytes(), r.keyCopy());
    assertFalse(r.tagged);
  }
}
