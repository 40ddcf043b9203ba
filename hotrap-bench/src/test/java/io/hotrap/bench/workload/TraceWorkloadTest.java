package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceWorkloadTest {

  private static final WorkloadParams PARAMS = new WorkloadParams(10, 77, 1_000_000, 1, 0.99);

  @TempDir
  Path dir;

  private Path file(String... lines) throws IOException {
    Path p = dir.resolve("trace.txt");
    Files.write(p, List.of(lines), StandardCharsets.UTF_8);
    return p;
  }

  private Workload parse(String... lines) throws IOException {
    return Workload.parse("trace:" + file(lines), PARAMS);
  }

  private IllegalArgumentException rejected(String... lines) throws IOException {
    Path p = file(lines);
    return assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("trace:" + p, PARAMS));
  }

  private static String key(Operation op) {
    return new String(op.key, StandardCharsets.UTF_8);
  }

  @Test
  void replaysEveryOperationWithItsKeyAndValueSize() throws IOException {
    Workload w = parse(
        "# a comment",
        "",
        "read a 10",
        "  GET\tb   20  ",
        "insert c 30",
        "put d 40",
        "   # indented comment",
        "update a 50",
        "read ключ",
        "read c 30");
    assertEquals("trace:" + dir.resolve("trace.txt"), w.name());
    assertNull(w.mix());
    assertEquals("trace", w.distribution());
    assertEquals(List.of("run"), w.phases());

    List<Operation> ops = Drain.all(w.runner(0, 1));
    List<String> seen = new ArrayList<>();
    for (Operation op : ops) {
      seen.add(op.type + " " + key(op) + " " + op.valueBytes + " " + op.phase);
    }
    assertEquals(List.of("READ a 10 run", "READ b 20 run", "INSERT c 30 run", "INSERT d 40 run",
        "UPDATE a 50 run", "READ ключ 77 run", "READ c 30 run"), seen);
    assertArrayEquals("ключ".getBytes(StandardCharsets.UTF_8), ops.get(5).key);
    assertEquals(ops.get(0).keyId, ops.get(4).keyId, "one id per distinct key");
  }

  @Test
  void loadsTheKeysReadBeforeTheyAreWritten() throws IOException {
    Workload w = parse("read a 10", "insert b 20", "read b 20", "read c 30", "update a 5",
        "update d 6", "read d 6", "read a 10");
    assertEquals(2, w.loadRecords());
    List<String> loaded = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      for (Operation op : Drain.all(w.loader(t, 2))) {
        assertEquals(Operation.Type.INSERT, op.type);
        assertEquals("load", op.phase);
        loaded.add(key(op) + " " + op.valueBytes);
      }
    }
    assertEquals(List.of("a 10", "c 30"), loaded);
  }

  @Test
  void threadsSplitTheTraceByOperationIndex() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("# header");
    for (int i = 0; i < 10; i++) {
      lines.add("read k" + i + " 1");
    }
    Workload w = parse(lines.toArray(new String[0]));
    List<List<String>> perThread = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      List<String> keys = new ArrayList<>();
      for (Operation op : Drain.all(w.runner(t, 3))) {
        keys.add(key(op));
      }
      perThread.add(keys);
    }
    assertEquals(List.of("k0", "k3", "k6", "k9"), perThread.get(0));
    assertEquals(List.of("k1", "k4", "k7"), perThread.get(1));
    assertEquals(List.of("k2", "k5", "k8"), perThread.get(2));
  }

  @Test
  void runOperationsCapsTheReplay() throws IOException {
    Path p = file("read a 1", "read b 1", "read c 1", "read d 1", "read e 1");
    Workload w = Workload.parse("trace:" + p, PARAMS.withRunOperations(3));
    assertEquals(2, Drain.all(w.runner(0, 2)).size());
    assertEquals(1, Drain.all(w.runner(1, 2)).size());
  }

  @Test
  void oracleCountsTheReadsOfTheHottestKeys() throws IOException {
    Workload w = parse("read a 1", "read a 1", "read a 1", "read a 1", "read a 1",
        "read b 1", "read b 1", "read b 1", "read c 1", "read c 1",
        "update d 1", "update d 1", "update d 1", "update d 1", "update d 1", "update d 1",
        "insert e 1");
    assertEquals(0, w.oracleHitRate(0));
    assertEquals(0.5, w.oracleHitRate(1), 1e-12);
    assertEquals(0.8, w.oracleHitRate(2), 1e-12);
    assertEquals(1.0, w.oracleHitRate(3), 1e-12);
    assertEquals(1.0, w.oracleHitRate(100), 1e-12);
  }

  @Test
  void oracleOfATraceWithoutReadsIsNotANumber() throws IOException {
    assertTrue(Double.isNaN(parse("insert a 1", "update a 2").oracleHitRate(10)));
  }

  @Test
  void malformedLinesNameFileAndLine() throws IOException {
    String where = dir.resolve("trace.txt") + ":3: ";
    assertEquals(where + "unknown operation 'scan'; expected read, get, insert, put or update",
        rejected("read a 1", "# ok", "scan a 1").getMessage());
    assertEquals(where + "expected '<op> <key> <valueSize>' but found 2 fields: insert a",
        rejected("read a 1", "", "insert a").getMessage());
    assertEquals(where + "expected '<op> <key> <valueSize>' but found 4 fields: read a 1 2",
        rejected("read a 1", "", "read a 1 2").getMessage());
    assertEquals(where + "value size '-1' is not a non-negative int",
        rejected("read a 1", "", "put a -1").getMessage());
    assertEquals(where + "value size '1k' is not a non-negative int",
        rejected("read a 1", "", "put a 1k").getMessage());
    assertEquals(where + "value size '99999999999' is not a non-negative int",
        rejected("read a 1", "", "put a 99999999999").getMessage());
    assertEquals(where + "expected '<op> <key> <valueSize>' but found 1 field: get",
        rejected("read a 1", "", "get").getMessage());
  }

  @Test
  void keysUpToOneKibibyteAreAccepted() throws IOException {
    String longest = "k".repeat(Trace.MAX_KEY_BYTES);
    Workload w = parse("read " + longest + " 1");
    assertEquals(Trace.MAX_KEY_BYTES, Drain.all(w.runner(0, 1)).get(0).key.length);

    // 513 two-byte characters: 1026 bytes in UTF-8.
    IllegalArgumentException e = rejected("read a 1", "put " + "ж".repeat(513) + " 1");
    assertEquals(dir.resolve("trace.txt") + ":2: key is 1026 bytes, longer than the 1024-byte"
        + " limit", e.getMessage());
  }

  @Test
  void aTraceWithoutOperationsIsRejected() throws IOException {
    IllegalArgumentException e = rejected("# nothing", "", "  ");
    assertTrue(e.getMessage().endsWith("holds no operation"), e.getMessage());
  }
}
