package io.hotrap.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * YCSB's own client against the binding: loads 10,000 records, then runs each core workload A–F
 * from {@code workloads/} on the same store, each in a forked JVM because
 * {@code site.ycsb.Client.main} ends with {@code System.exit}. Everything is read from YCSB's
 * report on stdout, kept in {@code target/ycsb-workloads/<phase>.out} (stderr beside it).
 *
 * <p>Every phase must exit 0, run exactly the operation types its workload mixes, report for each
 * of them {@code Return=OK} for every operation and no other status, and account for every one of
 * its {@code operationcount} operations. That includes no {@code NOT_FOUND} at all, also in D and
 * E: YCSB draws the keys of reads and scan starts only from records whose insert was acknowledged
 * (its {@code AcknowledgedCounterGenerator}), so with a correct store every read finds its record.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class YcsbWorkloadsTest {
  private static final int RECORDS = 10_000;
  private static final int OPERATIONS = 10_000;
  private static final long PHASE_TIMEOUT_SECONDS = 120;
  /** YCSB's composite of a READ and an UPDATE; it reports no status of its own. */
  private static final String RMW = "READ-MODIFY-WRITE";
  private static final Pattern OPERATIONS_LINE = Pattern.compile("^\\[([A-Z-]+)\\], Operations, (\\d+)$");
  private static final Pattern RETURN_LINE = Pattern.compile("^\\[([A-Z-]+)\\], Return=([A-Z_]+), (\\d+)$");

  @TempDir Path store;

  @Test
  void loadThenWorkloadsAThroughFRunCleanlyThroughYcsbsClient() throws Exception {
    Path reports = moduleDir().resolve("target/ycsb-workloads");
    Files.createDirectories(reports);

    check("load", ycsb(reports, "load", "-load", "workloada"), Set.of("INSERT"), RECORDS);
    check("A", ycsb(reports, "a", "-t", "workloada"), Set.of("READ", "UPDATE"), OPERATIONS);
    check("B", ycsb(reports, "b", "-t", "workloadb"), Set.of("READ", "UPDATE"), OPERATIONS);
    check("C", ycsb(reports, "c", "-t", "workloadc"), Set.of("READ"), OPERATIONS);
    check("D", ycsb(reports, "d", "-t", "workloadd"), Set.of("READ", "INSERT"), OPERATIONS);
    check("E", ycsb(reports, "e", "-t", "workloade"), Set.of("SCAN", "INSERT"), OPERATIONS);
    Map<String, Long> f = check("F", ycsb(reports, "f", "-t", "workloadf"), Set.of("READ", "UPDATE"), OPERATIONS);
    assertTrue(f.getOrDefault(RMW, 0L) > 0, "F: no read-modify-writes in " + f);
  }

  private static Path moduleDir() {
    return Path.of(System.getProperty("basedir", "")).toAbsolutePath();
  }

  /** Runs one YCSB phase in a new JVM on this JVM's test class path; returns its stdout lines. */
  private List<String> ycsb(Path reports, String phase, String mode, String workload)
      throws IOException, InterruptedException {
    Path out = reports.resolve(phase + ".out");
    Path err = reports.resolve(phase + ".err");
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        "site.ycsb.Client", mode,
        "-db", HotRapYcsbClient.class.getName(),
        "-P", moduleDir().resolve("workloads").resolve(workload).toString(),
        "-threads", "2",
        "-p", "recordcount=" + RECORDS,
        "-p", "operationcount=" + OPERATIONS,
        "-p", "hotrap.fast.dir=" + store.resolve("fast"),
        "-p", "hotrap.slow.dir=" + store.resolve("slow"),
        "-p", "hotrap.fast.budget=16M");
    Process p = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    if (!p.waitFor(PHASE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      fail("YCSB " + phase + " did not finish in " + PHASE_TIMEOUT_SECONDS + " s; see " + out);
    }
    assertEquals(0, p.exitValue(), "YCSB " + phase + " exit status; stderr: " + Files.readString(err));
    return Files.readAllLines(out);
  }

  /** Checks one phase's report and returns its operation counts by type. */
  private static Map<String, Long> check(String phase, List<String> report, Set<String> expectedTypes, int operations) {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Map<String, Long>> returns = new TreeMap<>();
    for (String line : report) {
      Matcher m = OPERATIONS_LINE.matcher(line);
      if (m.matches()) {
        counts.put(m.group(1), Long.parseLong(m.group(2)));
      }
      m = RETURN_LINE.matcher(line);
      if (m.matches()) {
        returns.computeIfAbsent(m.group(1), k -> new TreeMap<>()).put(m.group(2), Long.parseLong(m.group(3)));
      }
    }
    assertTrue(report.stream().anyMatch(l -> l.startsWith("[OVERALL], Throughput(ops/sec), ")),
        phase + ": no throughput line in " + report);
    assertEquals(expectedTypes, returns.keySet(), phase + ": operation types with a status");
    long total = 0;
    for (Map.Entry<String, Map<String, Long>> e : returns.entrySet()) {
      String type = e.getKey();
      long ran = counts.getOrDefault(type, 0L);
      assertTrue(ran > 0, phase + ": no " + type + " operations");
      assertEquals(Map.of("OK", ran), e.getValue(), phase + ": statuses of " + type);
      total += ran;
    }
    for (String type : counts.keySet()) {
      assertFalse(type.endsWith("-FAILED"), phase + ": YCSB reports failed operations " + type);
    }
    // A read-modify-write is counted once as itself and once each as a READ and an UPDATE.
    total -= counts.getOrDefault(RMW, 0L);
    assertEquals(operations, total, phase + ": operations accounted for, " + counts);
    return counts;
  }
}
