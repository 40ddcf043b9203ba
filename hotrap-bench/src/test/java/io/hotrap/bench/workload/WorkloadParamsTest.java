package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkloadParamsTest {

  private static void assertRejected(String expectedInMessage, Runnable build) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, build::run);
    assertTrue(e.getMessage().contains(expectedInMessage), e.getMessage());
  }

  @Test
  void defaultsAreThePapersRecordAndExponent() {
    WorkloadParams p = WorkloadParams.defaults();
    assertEquals(1000, p.valueBytes());
    assertEquals(0.99, p.zipfS());
    assertTrue(p.records() > 0 && p.runOperations() > 0);
  }

  @Test
  void withersChangeOneField() {
    WorkloadParams p = WorkloadParams.defaults().withRecords(7).withValueBytes(176)
        .withRunOperations(9).withSeed(-3).withZipfS(1.2);
    assertEquals(new WorkloadParams(7, 176, 9, -3, 1.2), p);
  }

  @Test
  void rejectsEveryImpossibleValueNamingIt() {
    assertRejected("records must be in [1, 2147483639] but was 0",
        () -> new WorkloadParams(0, 1, 1, 0, 0.99));
    assertRejected("but was 2147483640",
        () -> new WorkloadParams(WorkloadParams.MAX_RECORDS + 1, 1, 1, 0, 0.99));
    assertRejected("valueBytes must be >= 0 but was -1",
        () -> new WorkloadParams(1, -1, 1, 0, 0.99));
    assertRejected("runOperations must be >= 0 but was -5",
        () -> new WorkloadParams(1, 1, -5, 0, 0.99));
    assertRejected("zipfS must be positive and finite but was 0.0",
        () -> new WorkloadParams(1, 1, 1, 0, 0));
    assertRejected("but was NaN", () -> new WorkloadParams(1, 1, 1, 0, Double.NaN));
    assertRejected("but was Infinity",
        () -> new WorkloadParams(1, 1, 1, 0, Double.POSITIVE_INFINITY));
  }

  @Test
  void acceptsEdgeValues() {
    new WorkloadParams(1, 0, 0, Long.MIN_VALUE, 1e-9);
    new WorkloadParams(WorkloadParams.MAX_RECORDS, Integer.MAX_VALUE, Long.MAX_VALUE, 0, 50);
  }
}
