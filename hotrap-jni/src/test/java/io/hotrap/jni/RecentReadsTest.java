package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RecentReadsTest {
  private static byte[] key(String s) {
    return s.getBytes(UTF_8);
  }

  private static List<String> strings(byte[][] keys) {
    List<String> out = new ArrayList<>();
    for (byte[] k : keys) {
      out.add(new String(k, UTF_8));
    }
    return out;
  }

  @Test
  void theCapacityIsRoundedUpToAPowerOfTwo() {
    assertEquals(1, new RecentReads(1).capacity());
    assertEquals(4, new RecentReads(3).capacity());
    assertEquals(4, new RecentReads(4).capacity());
    assertEquals(8, new RecentReads(5).capacity());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new RecentReads(0));
    assertTrue(e.getMessage().contains("0"), e.getMessage());
  }

  @Test
  void theLastReadsAreGivenDistinctAndInUnsignedOrder() {
    RecentReads reads = new RecentReads(4);
    for (String k : new String[] {"old", "c", "a", "c", "b"}) {
      reads.record(key(k));
    }
    assertEquals(List.of("a", "b", "c"), strings(reads.sortedDistinct()), "'old' was overwritten");
    assertEquals(List.of("b", "c"), strings(reads.sortedDistinct(2)));

    RecentReads signed = new RecentReads(2);
    signed.record(new byte[] {(byte) 0x80});
    signed.record(new byte[] {0x01});
    assertArrayEquals(new byte[] {0x01}, signed.sortedDistinct()[0], "0x80 sorts after 0x01");
  }

  @Test
  void aRecordedKeyIsACopy() {
    RecentReads reads = new RecentReads(2);
    byte[] buffer = key("a");
    reads.record(buffer);
    buffer[0] = 'z';
    assertEquals(List.of("a"), strings(reads.sortedDistinct()));
  }

  @Test
  void keysWithinARangeIncludeBothEnds() {
    byte[][] sorted = {key("a"), key("b"), key("c"), key("d")};
    assertEquals(List.of("b", "c"), strings(RecentReads.within(sorted, key("b"), key("c"))
        .toArray(new byte[0][])));
    assertEquals(List.of("a", "b"), strings(RecentReads.within(sorted, key("0"), key("bb"))
        .toArray(new byte[0][])));
    assertEquals(0, RecentReads.within(sorted, key("e"), key("f")).size());
  }

  @Test
  void snapshotsTakenWhileManyThreadsRecordAreSortedDistinctAndHoldOnlyRecordedKeys()
      throws Exception {
    RecentReads reads = new RecentReads(1024);
    int threads = 4;
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(threads);
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread w = new Thread(() -> {
        started.countDown();
        for (int i = 0; !stop.get(); i++) {
          reads.record(key("t" + id + "-" + (i % 3000)));
        }
      });
      w.start();
      writers.add(w);
    }
    started.await();
    try {
      for (int round = 0; round < 200; round++) {
        byte[][] snapshot = reads.sortedDistinct(512);
        assertTrue(snapshot.length <= 512, "at most the reads asked for");
        for (int i = 1; i < snapshot.length; i++) {
          assertTrue(Arrays.compareUnsigned(snapshot[i - 1], snapshot[i]) < 0, "sorted, distinct");
        }
        for (byte[] k : snapshot) {
          assertTrue(new String(k, UTF_8).matches("t[0-3]-\\d+"), new String(k, UTF_8));
        }
      }
    } finally {
      stop.set(true);
      for (Thread w : writers) {
        w.join();
      }
    }
  }
}
