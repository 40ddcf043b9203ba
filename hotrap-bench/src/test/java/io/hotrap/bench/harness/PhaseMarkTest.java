package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hotrap.bench.Together;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseMarkTest {
  private static final List<String> PHASES = List.of("uniform", "hotspot-1%", "hotspot-3%");

  @Test
  void theFirstClientToReachAPhaseMovesTheMarkAndALaggingOneDoesNotMoveItBack() {
    PhaseMark mark = new PhaseMark(PHASES);
    assertEquals("uniform", mark.current());
    mark.reached("hotspot-1%");
    assertEquals("hotspot-1%", mark.current());
    mark.reached("uniform"); // a client still in the first phase
    assertEquals("hotspot-1%", mark.current());
    mark.reached("load"); // not a run phase
    assertEquals("hotspot-1%", mark.current());
    mark.reached("hotspot-3%");
    assertEquals("hotspot-3%", mark.current());
  }

  @Test
  void manyClientsReportingAtOnceLeaveTheFurthestPhase() throws InterruptedException {
    PhaseMark mark = new PhaseMark(PHASES);
    Together.run(8, "phase-client", t -> {
      int furthest = t % PHASES.size();
      for (int i = 0; i < 10_000; i++) {
        mark.reached(PHASES.get(i % (furthest + 1)));
      }
    });
    assertEquals("hotspot-3%", mark.current());
  }

  @Test
  void aWorkloadWithoutPhasesIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new PhaseMark(List.of()));
  }
}
