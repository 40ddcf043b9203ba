package io.hotrap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a user meets it: a mistake is one line on the error stream and exit code 2,
 * and nothing is written before the arguments were checked.
 */
class MainTest {
  @TempDir Path tmp;

  /** What one in-process run printed and returned. */
  private record Outcome(int code, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  private static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private static void assertOneLineUsageError(Outcome o, String expected) {
    assertEquals(2, o.code(), o.err());
    assertEquals(1, o.errLines().size(), "one line on stderr, got:\n" + o.err());
    assertTrue(o.err().contains(expected), o.err());
    assertFalse(o.err().contains("Exception"), o.err());
  }

  @Test
  void anUnknownSystemIsOneLineAndCreatesNoDirectory() {
    Path dir = tmp.resolve("bench");
    Outcome o = run("run", "--system", "nosuch", "--workload", "ro-hotspot5", "--dir", dir.toString());
    assertOneLineUsageError(o, "unknown system 'nosuch'");
    assertTrue(o.err().contains("rocksdb-fd"), "lists the known systems: " + o.err());
    assertFalse(Files.exists(dir));
  }

  @Test
  void anUnknownWorkloadIsOneLineAndCreatesNoDirectory() {
    Path dir = tmp.resolve("bench");
    Outcome o = run("run", "--system", "hotrap", "--workload", "ro-bogus", "--dir", dir.toString());
    assertOneLineUsageError(o, "unknown distribution 'bogus' in workload 'ro-bogus'");
    assertFalse(Files.exists(dir));
  }

  @Test
  void badSizesAndSelectionsAreOneLineAndCreateNoDirectory() {
    Path dir = tmp.resolve("bench");
    String d = dir.toString();
    List<Outcome> outcomes = new ArrayList<>();
    outcomes.add(run("quick", "--dir", d, "--threads", "0"));
    outcomes.add(run("quick", "--dir", d, "--budget-mib", "0"));
    outcomes.add(run("quick", "--dir", d, "--duration", "soon"));
    outcomes.add(run("run", "--dir", d, "--system", "hotrap", "--workload", "ro-uniform",
        "--record-bytes", "20"));
    outcomes.add(run("run", "--dir", d, "--system", "hotrap", "--workload",
        "trace:" + tmp.resolve("no-such-trace")));
    outcomes.add(run("run", "--dir", d, "--system", "hotrap"));
    outcomes.add(run("compare", "--dir", d, "--profile", "bogus"));
    outcomes.add(run("compare", "--dir", d, "--systems", "hotrap,nope"));
    outcomes.add(run("compare", "--dir", d, "--profile", "quick", "--workloads", "ro-zipf"));
    outcomes.add(run("quick", "--dir", d, "--no-such-option"));
    outcomes.add(run("quick", "--dir", d, "--block-cache-mib", "0"));
    outcomes.add(run("run", "--dir", d, "--system", "hotrap", "--workload", "ro-dynamic",
        "--phase-ops", "0"));
    for (Outcome o : outcomes) {
      assertEquals(2, o.code(), o.err());
      assertEquals(1, o.errLines().size(), o.err());
    }
    assertFalse(Files.exists(dir));
  }

  @Test
  void aWorkDirectoryThatCannotBeCreatedIsOneLine() throws IOException {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    Outcome o = run("quick", "--dir", file.resolve("bench").toString());
    assertOneLineUsageError(o, "--dir " + file.resolve("bench") + ": cannot create the directory");
  }

  @Test
  void aWorkDirectoryUnderProcIsOneLine() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux procfs");
    Outcome o = run("quick", "--dir", "/proc/nope");
    assertOneLineUsageError(o, "--dir /proc/nope: cannot create the directory");
    assertFalse(Files.exists(Path.of("/proc/nope")));
  }

  @Test
  void aSlowDirectoryThatCannotBeCreatedIsOneLineAndLeavesTheWorkDirectoryAlone()
      throws IOException {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    Outcome o = run("quick", "--dir", tmp.resolve("bench").toString(), "--slow-dir",
        file.resolve("slow").toString());
    assertOneLineUsageError(o, "--slow-dir " + file.resolve("slow"));
  }

  @Test
  void reportWithoutRunsIsOneLine() {
    Outcome o = run("report", "--out", tmp.resolve("results").toString());
    assertOneLineUsageError(o, "no run CSVs to report");
    assertFalse(Files.exists(tmp.resolve("results")));
  }

  @Test
  void anUnknownCommandIsOneLine() {
    assertOneLineUsageError(run("nosuch"), "unknown command nosuch");
  }

  @Test
  void aBadOptionOfAnotherCommandIsOneLine() {
    assertOneLineUsageError(run("demo", "--keys", "many"), "--keys must be an integer");
  }

  @Test
  void raltShiftRejectsAWindowThatIsNotAMultipleOfTheCheckInterval() {
    assertOneLineUsageError(run("ralt-shift", "--dir", tmp.resolve("rs").toString(), "--window",
        "1234"), "--window must be a positive multiple of 5000");
    assertFalse(java.nio.file.Files.exists(tmp.resolve("rs")));
  }

  /** RALT learns the first hotspot, misses the shifted one at first, then reports its recovery. */
  @Test
  void raltShiftLearnsTheHotspotAndReportsTheRecoveryAfterTheShift() {
    Outcome o = run("ralt-shift", "--dir", tmp.resolve("rs").toString(), "--keys", "20000",
        "--before", "200000", "--after", "100000", "--window", "10000", "--fast-disk-mib", "4");
    assertEquals(0, o.code(), o.err());
    java.util.regex.Matcher before = java.util.regex.Pattern
        .compile("before the shift \\(last window\\) ([0-9.]+);.*\\R([0-9.]+) ").matcher(o.out());
    assertTrue(before.find(), o.out());
    assertTrue(Double.parseDouble(before.group(1)) > 0.8, "hotspot learned: " + o.out());
    assertTrue(Double.parseDouble(before.group(2)) < 0.5, "the shift is first missed: " + o.out());
    assertTrue(o.out().contains("back within 2 points after"), o.out());
  }

  /** Every stage learns its hotspot; the limit at each stage's end is reported against it. */
  @Test
  void raltStagesReportsEachStagesPlateauAndLimit() {
    Outcome o = run("ralt-stages", "--dir", tmp.resolve("st").toString(), "--keys", "20000",
        "--stage-accesses", "100000", "--window", "10000", "--fast-disk-mib", "4");
    assertEquals(0, o.code(), o.err());
    java.util.regex.Matcher row = java.util.regex.Pattern
        .compile("(?m)^(hotspot-\\S+)\\s+([0-9.]+)\\s.*\\s([0-9.]+)x$").matcher(o.out());
    int stages = 0;
    while (row.find()) {
      stages++;
      assertTrue(Double.parseDouble(row.group(2)) > 0.8, "plateau of " + row.group(1) + ": " + o.out());
      assertTrue(Double.parseDouble(row.group(3)) >= 1.0, "limit covers " + row.group(1) + ": " + o.out());
    }
    assertEquals(6, stages, o.out());
    assertOneLineUsageError(run("ralt-stages", "--dir", tmp.resolve("st2").toString(),
        "--windows", "maybe"), "--windows must be yes or no");
  }

  /** The hot set is learnt: the last window hits more than the first. */
  @Test
  void raltZipfPrintsAWindowPerLineAndLearns() {
    Outcome o = run("ralt-zipf", "--dir", tmp.resolve("rz").toString(), "--keys", "20000",
        "--accesses", "200000", "--window", "50000", "--fast-disk-mib", "4");
    assertEquals(0, o.code(), o.err());
    java.util.regex.Matcher row = java.util.regex.Pattern
        .compile("(?m)^\\s+[0-9,]+\\s+([0-9.]+)\\s").matcher(o.out());
    List<Double> hits = new java.util.ArrayList<>();
    while (row.find()) {
      hits.add(Double.parseDouble(row.group(1)));
    }
    assertEquals(4, hits.size(), o.out());
    assertTrue(hits.get(3) > hits.get(0), o.out());
  }

  /** --value-bytes sets the records' size; a negative size or D_hs is refused in one line. */
  @Test
  void raltZipfTakesTheValueLengthAndRefusesNegativeSizes() {
    Outcome o = run("ralt-zipf", "--dir", tmp.resolve("rz200").toString(), "--keys", "20000",
        "--accesses", "50000", "--window", "50000", "--fast-disk-mib", "4", "--value-bytes", "176",
        "--max-unstable-mib", "1");
    assertEquals(0, o.code(), o.err());
    assertTrue(o.out().contains("20,000 keys of 200 bytes"), o.out());
    assertOneLineUsageError(run("ralt-zipf", "--dir", tmp.resolve("rzv").toString(),
        "--value-bytes", "-1"), "--value-bytes must be >= 0");
    assertOneLineUsageError(run("ralt-zipf", "--dir", tmp.resolve("rzm").toString(),
        "--max-unstable-mib", "-2"), "--max-unstable-mib must be >= 0");
  }

  @Test
  void versionPrintsTheProjectVersionBeforeAndAfterTheCommand() {
    for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"},
        new String[] {"run", "--version"}, new String[] {"quick", "--version"})) {
      Outcome o = run(args);
      assertEquals(0, o.code(), String.join(" ", args) + ": " + o.err());
      assertTrue(o.out().startsWith("hotrap-bench "), String.join(" ", args) + ": " + o.out());
      assertEquals(1, o.out().lines().count(), o.out());
    }
  }

  @Test
  void helpExitsZero() {
    Outcome o = run("--help");
    assertEquals(0, o.code());
    assertTrue(o.out().contains("usage:"));
    assertEquals(0, run("run", "--help").code());
  }
}
