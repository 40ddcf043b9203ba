package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InsertSequenceTest {

  @Test
  void claimsIncreasingIdsFromTheFirst() {
    InsertSequence seq = new InsertSequence(100);
    assertEquals(100, seq.claim());
    assertEquals(101, seq.claim());
    assertEquals(100, seq.written());
  }

  @Test
  void writtenWaitsForTheGapBelowToClose() {
    InsertSequence seq = new InsertSequence(100);
    for (int i = 0; i < 5; i++) {
      seq.claim();
    }
    seq.acknowledge(102);
    seq.acknowledge(101);
    assertEquals(100, seq.written());
    seq.acknowledge(100);
    assertEquals(103, seq.written());
    seq.acknowledge(104);
    assertEquals(103, seq.written());
    seq.acknowledge(103);
    assertEquals(105, seq.written());
  }

  @Test
  void manyAcknowledgementsBehindOneStalledInsertAreKept() {
    InsertSequence seq = new InsertSequence(0);
    int n = 10_000;
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(seq.claim());
    }
    List<Long> later = new ArrayList<>(ids.subList(1, n));
    Collections.shuffle(later, new Random(3));
    for (long id : later) {
      seq.acknowledge(id);
    }
    assertEquals(0, seq.written());
    seq.acknowledge(0);
    assertEquals(n, seq.written());
  }

  @Test
  void rejectsIdsNotInFlight() {
    InsertSequence seq = new InsertSequence(10);
    seq.claim();
    seq.acknowledge(10);
    assertThrows(IllegalArgumentException.class, () -> seq.acknowledge(10));
    assertThrows(IllegalArgumentException.class, () -> seq.acknowledge(11));
  }

  @Test
  void concurrentWritersEndWithEverythingWritten() throws InterruptedException {
    InsertSequence seq = new InsertSequence(1000);
    int threads = 8;
    int each = 20_000;
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w = new Thread(() -> {
        for (int i = 0; i < each; i++) {
          long id = seq.claim();
          long written = seq.written();
          if (written > id) {
            failures.add("id " + id + " reported written before it was acknowledged");
          }
          seq.acknowledge(id);
        }
      });
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertEquals(List.of(), failures);
    assertEquals(1000 + (long) threads * each, seq.written());
  }
}
