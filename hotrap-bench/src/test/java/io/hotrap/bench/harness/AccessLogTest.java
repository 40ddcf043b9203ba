package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.report.AccessSequence;
import io.hotrap.bench.report.ReplayHitRates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessLogTest {

  /** The textbook string: MIN hits 12 of its 20 gets in three frames, LRU 8. */
  private static final String TEXTBOOK = "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1";

  @Test
  void concurrentAppendsKeepEveryOperationInEachThreadsOrder() throws InterruptedException {
    int threads = 4;
    int perThread = 300_000; // over a chunk in all
    AccessLog log = new AccessLog(AccessLog.DEFAULT_MAX_OPERATIONS);
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t * perThread;
      Thread c = new Thread(() -> {
        for (int k = 0; k < perThread; k++) {
          log.append(first + k, k % 2 == 1);
        }
      });
      clients.add(c);
      c.start();
    }
    for (Thread c : clients) {
      c.join();
    }

    AccessSequence seq = log.sequence(1.0);

    assertEquals(threads * perThread, seq.size());
    // Every id in [0, threads × perThread) appears once, so the dense numbers are the ids.
    assertEquals(threads * perThread, seq.records());
    int[] last = new int[threads];
    Arrays.fill(last, -1);
    for (int i = 0; i < seq.size(); i++) {
      int id = seq.record(i);
      int t = id / perThread;
      assertTrue(id > last[t], "thread " + t + " appended " + id + " after " + last[t]);
      assertEquals((id - t * perThread) % 2 == 1, seq.isWrite(i));
      last[t] = id;
    }
  }

  @Test
  void aLogWithinItsBoundReplays() {
    AccessLog log = new AccessLog(20);
    for (String op : TEXTBOOK.split(" ")) {
      log.append(Long.parseLong(op), false);
    }

    ReplayHitRates r = log.replay(3, 1.0);

    assertNull(r.unavailableReason());
    assertEquals(0.6, r.belady(), 1e-12);
    assertEquals(0.4, r.lru(), 1e-12);
  }

  @Test
  void aRunLongerThanTheBoundIsNotReplayedAndSaysWhy() {
    AccessLog log = new AccessLog(10);
    for (int i = 0; i < 11; i++) {
      log.append(i % 3, false);
    }

    ReplayHitRates r = log.replay(3, 0.1);

    assertTrue(Double.isNaN(r.belady()));
    assertTrue(Double.isNaN(r.lru()));
    assertEquals("the run issued 11 operations, more than the 10 the replay keeps",
        r.unavailableReason());
  }

  @Test
  void anIdBeyondTheEncodingIsNotReplayedAndSaysWhy() {
    AccessLog log = new AccessLog(10);
    log.append(1, false);
    log.append(1L << 31, true);

    ReplayHitRates r = log.replay(3, 0.1);

    assertTrue(Double.isNaN(r.belady()));
    assertEquals("record id 2147483648 does not fit the replay's int encoding",
        r.unavailableReason());
  }

  @Test
  void theLogIsReplayedOnce() {
    AccessLog log = new AccessLog(10);
    log.append(1, false);
    assertFalse(Double.isNaN(log.replay(1, 0.1).belady()));

    assertThrows(IllegalStateException.class, () -> log.replay(1, 0.1));
  }

  @Test
  void aBoundOutsideTheEncodingIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new AccessLog(0));
    assertThrows(IllegalArgumentException.class, () -> new AccessLog(1L << 31));
  }
}
