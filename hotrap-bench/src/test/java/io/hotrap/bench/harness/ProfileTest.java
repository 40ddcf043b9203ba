package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProfileTest {

  @Test
  void standardRunsTheMainSystemsOnTheIssuesWorkloadsAndTheAblationsWhereTheyShow() {
    Profile p = Profile.named("standard");
    Set<String> runs = p.runs().stream().map(r -> r.system() + " " + r.workload())
        .collect(Collectors.toSet());
    for (String w : new String[] {"ro-hotspot5", "rw-hotspot5", "ro-zipf", "ro-uniform",
        "rw-uniform"}) {
      for (String s : Profile.MAIN) {
        assertTrue(runs.contains(s + " " + w), s + " " + w);
      }
    }
    for (String s : Profile.ABLATIONS) {
      assertTrue(runs.contains(s + " ro-hotspot5"), s);
    }
    assertTrue(runs.contains("hotrap-no-retain rw-hotspot5"));
    assertTrue(runs.contains("hotrap-no-by-compaction rw-hotspot5"));
    assertTrue(runs.contains("hotrap-no-hotness-check ro-uniform"));
    assertTrue(runs.contains("hotrap ro-dynamic"));
    for (Profile.Run r : p.runs()) {
      Systems.requireKnown(r.system());
    }
  }

  @Test
  void theDataSetIsElevenTimesTheBudget() {
    Profile p = new Profile("custom", 32L << 20, Duration.ofSeconds(1), Duration.ofSeconds(2), 1,
        java.util.List.of());
    assertEquals(11L * (32 << 20) / 1024, p.records(1024));
    assertEquals(Duration.ofSeconds(2), p.duration("ro-dynamic"));
    assertEquals(Duration.ofSeconds(1), p.duration("ro-hotspot5"));
  }

  @Test
  void unknownProfilesAreRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Profile.named("huge"));
    assertTrue(e.getMessage().contains("quick, standard, paper"));
    assertEquals("quick", Profile.named("QUICK").name());
  }

  @Test
  void durationsParse() {
    assertEquals(Duration.ofSeconds(90), BenchCli.parseDuration("90s"));
    assertEquals(Duration.ofMinutes(2), BenchCli.parseDuration("2m"));
    assertEquals(Duration.ofMillis(500), BenchCli.parseDuration("500ms"));
    assertEquals(Duration.ofSeconds(7), BenchCli.parseDuration("7"));
    assertThrows(IllegalArgumentException.class, () -> BenchCli.parseDuration("soon"));
  }
}
