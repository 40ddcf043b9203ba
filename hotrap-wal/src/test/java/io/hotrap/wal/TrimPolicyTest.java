package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrimPolicyTest {

  private final TrimPolicy policy = new TrimPolicy(2.5, 2.0);

  private static TrimPolicy.Candidate segment(long base, int live) {
    return new TrimPolicy.Candidate(base, 1000, 100, live);
  }

  private static List<Long> bases(List<TrimPolicy.Candidate> chosen) {
    return chosen.stream().map(TrimPolicy.Candidate::base).toList();
  }

  @Test
  void nothingIsChosenAtOrBelowTheTrigger() {
    List<TrimPolicy.Candidate> sealed = List.of(segment(0, 10), segment(1, 10));
    assertFalse(policy.triggered(2500, 1000));
    assertTrue(policy.choose(sealed, 2500, 1000).isEmpty());
    assertTrue(policy.triggered(2501, 1000));
  }

  @Test
  void lowestLiveShareFirstUntilTheTargetIsProjected() {
    // 3000 bytes over a tier of 1000: must reclaim 1000 to reach λ_s = 2.
    List<TrimPolicy.Candidate> sealed =
        List.of(segment(0, 80), segment(1, 40), segment(2, 70), segment(3, 50));
    // 1 reclaims 600, 3 another 500: projected 1900.
    assertEquals(List.of(1L, 3L), bases(policy.choose(sealed, 3000, 1000)));
  }

  @Test
  void tiesGoToTheOlderSegment() {
    List<TrimPolicy.Candidate> sealed = List.of(segment(9, 10), segment(4, 10), segment(6, 10));
    assertEquals(List.of(4L), bases(policy.choose(sealed, 2600, 1000)));
  }

  @Test
  void segmentsReclaimingTooLittleAreLeftAlone() {
    List<TrimPolicy.Candidate> sealed = List.of(segment(0, 95), segment(1, 91), segment(2, 90));
    assertEquals(List.of(2L), bases(policy.choose(sealed, 30_000, 1000)));
  }

  @Test
  void theTargetMustBeBelowTheTrigger() {
    assertThrows(IllegalArgumentException.class, () -> new TrimPolicy(2.0, 2.0));
  }
}
