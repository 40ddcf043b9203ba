package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleProgressTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  private long nanos;

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutATerminalItPrintsAPlainLineAtEveryTenth() {
    ConsoleProgress progress = new ConsoleProgress(out, "load", 1_000, false, () -> nanos);
    for (int done = 10; done <= 1_000; done += 10) {
      nanos += 100_000_000L; // 100 ops/s
      progress.update(done);
    }
    progress.finish();

    List<String> lines = output().lines().toList();
    assertFalse(output().contains("\r"), output());
    assertEquals(11, lines.size(), output());
    assertEquals("load:  10.0%, 100 ops/s, ETA 0:09", lines.get(0));
    assertEquals("load:  50.0%, 100 ops/s, ETA 0:05", lines.get(4));
    assertEquals("load: 100.0%, 100 ops/s, ETA 0:00", lines.get(9));
    assertEquals("load: done, 1,000 ops in 10.0 s (100 ops/s)", lines.get(10));
  }

  @Test
  void withoutATerminalAJumpPastSeveralTenthsPrintsOneLine() {
    ConsoleProgress progress = new ConsoleProgress(out, "load", 100, false, () -> nanos);
    nanos = 1_000_000_000L;

    progress.update(35);
    progress.update(36);

    assertEquals(List.of("load:  35.0%, 35 ops/s, ETA 0:02"), output().lines().toList());
  }

  @Test
  void onATerminalItRedrawsOneLineAtMostFourTimesASecond() {
    ConsoleProgress progress = new ConsoleProgress(out, "warm-up", 10_000, true, () -> nanos);
    for (int done = 1; done <= 10_000; done++) {
      nanos += 1_000_000L; // 10 s in all
      progress.update(done);
    }
    progress.finish();

    String text = output();
    long redraws = text.chars().filter(c -> c == '\r').count() - 1; // the last is finish()
    assertTrue(redraws >= 39 && redraws <= 41, redraws + " redraws");
    assertEquals(1, text.chars().filter(c -> c == '\n').count(), text);
    assertTrue(text.startsWith("\rwarm-up [" + " ".repeat(30) + "]   0.0%"), text);
    // The final line is padded with spaces over the longer bar line it replaces.
    assertTrue(text.matches(
        "(?s).*\\rwarm-up: done, 10,000 ops in 10\\.0 s \\(1,000 ops/s\\) {10,}\n"), text);
  }

  @Test
  void rejectsATotalThatIsNotPositive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ConsoleProgress(out, "load", 0));
    assertEquals("total must be positive but was 0", e.getMessage());
  }

  @Test
  void clockShowsMinutesOrHours() {
    assertEquals("0:09", ConsoleProgress.clock(9.4));
    assertEquals("2:05", ConsoleProgress.clock(125));
    assertEquals("1:02:03", ConsoleProgress.clock(3723));
  }
}
