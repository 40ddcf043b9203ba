package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExactLruTest {

  @Test
  void theTextbookStringInThreeFramesMissesTwelveTimes() {
    AccessSequence seq = Sequences.parse(BeladyMinTest.TEXTBOOK, 1.0);

    assertEquals(8, ExactLru.hits(seq, 3));
  }

  @Test
  void aWriteMakesItsRecordTheMostRecent() {
    // Without the write, 1 would be the oldest and the get of 3 would evict it.
    assertEquals(1, ExactLru.hits(Sequences.parse("1 2 w1 3 1", 1.0), 2));
    assertEquals(0, ExactLru.hits(Sequences.parse("1 2 3 1", 1.0), 2));
    assertEquals(1, ExactLru.hits(Sequences.parse("w5 5", 1.0), 1));
  }

  @Test
  void onlyTheWindowsGetsScore() {
    // Nine hits on 0 while warming up; the one counted get (of 1) misses.
    assertEquals(0, ExactLru.hits(Sequences.parse("0 0 0 0 0 0 0 0 0 0 1", 0.1), 1));
    assertEquals(1, ExactLru.hits(Sequences.parse("1 0 0 0 0 0 0 0 0 0 1", 0.1), 2));
  }

  @Test
  void withoutRoomNothingHits() {
    assertEquals(0, ExactLru.hits(Sequences.parse("1 1 1", 1.0), 0));
  }

  @Test
  void agreesWithAnAccessOrderedLinkedHashMap() {
    SplittableRandom random = new SplittableRandom(23);
    for (int trial = 0; trial < 300; trial++) {
      int capacity = random.nextInt(40);
      AccessSequence seq = Sequences.randomSequence(random, 2_000, 1 + random.nextInt(200),
          random.nextDouble() * 0.5, random.nextDouble());

      assertEquals(reference(seq, capacity), ExactLru.hits(seq, capacity),
          "trial " + trial + " capacity " + capacity);
    }
  }

  @Test
  void aNegativeCapacityIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> ExactLru.hits(Sequences.parse("1", 1.0), -1));
  }

  private static long reference(AccessSequence seq, int capacity) {
    Map<Integer, Boolean> lru = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
        return size() > capacity;
      }
    };
    long hits = 0;
    for (int i = 0; i < seq.size(); i++) {
      if (lru.get(seq.record(i)) != null) {
        hits += seq.counts(i) ? 1 : 0;
      } else {
        lru.put(seq.record(i), true);
      }
    }
    return hits;
  }
}
