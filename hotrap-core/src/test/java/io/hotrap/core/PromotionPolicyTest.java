package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotrap.core.PromotionPolicy.Action;
import io.hotrap.core.PromotionPolicy.Candidate;
import io.hotrap.core.PromotionPolicy.Context;
import io.hotrap.core.PromotionPolicy.Decision;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PromotionPolicyTest {
  static final long TARGET = 1000;

  /** A record named {@code name} of 100 bytes, key and value alike, in the cache as well. */
  private static Candidate<String> record(String name, int putBacksUnread, boolean wasRead) {
    return new Candidate<>(name, name.getBytes(StandardCharsets.UTF_8), 100, 100, putBacksUnread, wasRead);
  }

  private static List<Candidate<String>> fresh(int n) {
    List<Candidate<String>> table = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      table.add(record("r" + i, 0, false));
    }
    return table;
  }

  private static Context hotness(Set<String> stableHot, long returnRoom, double admittedShare) {
    return new Context(k -> stableHot.contains(new String(k, StandardCharsets.UTF_8)), returnRoom,
        admittedShare, false, TARGET);
  }

  @Test
  void withoutTheHotnessCheckHalfATableIsPromotedAndLessPutBack() {
    Decision<String> half = PromotionPolicy.decide(fresh(5), Context.withoutHotnessCheck(false, TARGET));
    assertEquals(Action.PROMOTE, half.action());
    assertEquals(5, half.records().size());
    Decision<String> less = PromotionPolicy.decide(fresh(4), Context.withoutHotnessCheck(false, TARGET));
    assertEquals(Action.PUT_BACK, less.action());
    assertEquals(4, less.records().size());
  }

  @Test
  void waitingWritersTurnAPromotionIntoAPutBack() {
    Decision<String> d = PromotionPolicy.decide(fresh(10), Context.withoutHotnessCheck(true, TARGET));
    assertEquals(Action.PUT_BACK, d.action());
    assertEquals(5, d.records().size(), "at most half a table waits");
  }

  @Test
  void recordsPutBackTwiceUnreadAreDroppedAndReadOnesStay() {
    List<Candidate<String>> table = List.of(record("stale", 2, false), record("read", 2, true),
        record("once", 1, false));
    Decision<String> d = PromotionPolicy.decide(table, Context.withoutHotnessCheck(false, TARGET));
    assertEquals(1, d.droppedUnread());
    assertEquals(Action.PUT_BACK, d.action());
    assertEquals(List.of("read", "once"), d.records());
  }

  @Test
  void returnsAreHotOnlyUpToRaltsRoomAndStableHotRecordsAlways() {
    List<Candidate<String>> table = fresh(10);
    Set<String> stable = Set.of("r0", "r1", "r2");
    Decision<String> d = PromotionPolicy.decide(table, hotness(stable, 250, 1.0));
    assertEquals(Action.PROMOTE, d.action());
    // Three stable-hot records, and two returns fit 250 bytes of room.
    assertEquals(List.of("r0", "r1", "r2", "r3", "r4"), d.records());
    assertEquals(2, d.returned());
    Decision<String> none = PromotionPolicy.decide(table, hotness(Set.of(), 0, 1.0));
    assertEquals(Action.NOTHING, none.action());
  }

  @Test
  void theReturnRoomIsWhatTheHotSetCanStillGrowToHoldAndAtLeastATenthOfTheCap() {
    long cap = 1_000_000;
    assertEquals(cap, PromotionPolicy.returnRoom(cap, 0));
    assertEquals(400_000, PromotionPolicy.returnRoom(cap, 600_000));
    assertEquals(100_000, PromotionPolicy.returnRoom(cap, 900_000));
    assertEquals(100_000, PromotionPolicy.returnRoom(cap, 975_000),
        "a hot set at its limit still leaves returns a tenth of the cap");
    assertEquals(100_000, PromotionPolicy.returnRoom(cap, 1_200_000),
        "a hot set over the cap, between an overflow and its eviction");
  }

  @Test
  void returnsPutBackUnreadRideAlongButDoNotMakeAPromotion() {
    List<Candidate<String>> table = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      table.add(record("new" + i, 0, false));
    }
    for (int i = 0; i < 4; i++) {
      table.add(record("waited" + i, 1, false));
    }
    Decision<String> d = PromotionPolicy.decide(table, hotness(Set.of(), 10_000, 1.0));
    assertEquals(Action.PUT_BACK, d.action(), "400 bytes that count are under half a table");
    table.add(record("new4", 0, false));
    Decision<String> now = PromotionPolicy.decide(table, hotness(Set.of(), 10_000, 1.0));
    assertEquals(Action.PROMOTE, now.action());
    assertEquals(9, now.records().size(), "the waiting returns go with the promotion");
  }

  @Test
  void tooFewAdmittedReadsAroundATablePutItBackReadRecordsFirst() {
    List<Candidate<String>> table = fresh(8);
    table.add(record("readA", 0, true));
    table.add(record("readB", 0, true));
    Decision<String> d = PromotionPolicy.decide(table, hotness(Set.of(), 10_000, 0.2));
    assertEquals(Action.PUT_BACK, d.action());
    assertEquals(List.of("readA", "readB", "r0", "r1", "r2"), d.records());
    assertEquals(false, PromotionPolicy.mayPromote(0.2), "uniform reads are admitted at ~0.14");
    assertEquals(true, PromotionPolicy.mayPromote(0.4), "a Zipf tail is admitted at ~0.4");
  }
}
