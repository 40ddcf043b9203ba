package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.Together;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LatencyRecorderTest {

  /** Three significant digits: a reported value is within 0.1% of the true one. */
  private static void assertMicros(double expected, double actual) {
    assertEquals(expected, actual, expected * 0.001);
  }

  @Test
  void fourThreadsRecordingDisjointRangesGiveTheCombinedPercentiles() throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    // Thread t records (10,000 t + 1) .. 10,000 (t + 1) µs, in shuffled order; together 1..40,000.
    Together.run(4, "recorder", t -> {
      int base = t * 10_000;
      for (int i = 0; i < 10_000; i++) {
        int micros = base + 1 + (int) ((i * 7_919L) % 10_000);
        recorder.recordNanos(micros * 1_000L);
      }
    });

    LatencyRecorder.Interval interval = recorder.interval();

    assertEquals(40_000, interval.count());
    assertMicros(20_000, interval.p50Micros());
    assertMicros(39_600, interval.p99Micros());
    assertMicros(20_000, recorder.totalPercentileMicros(50));
    assertMicros(40_000, recorder.totalPercentileMicros(100));
  }

  @Test
  void eachIntervalHoldsOnlyItsOwnValuesAndTheTotalMergesThem() {
    LatencyRecorder recorder = new LatencyRecorder();
    for (int micros = 1; micros <= 40_000; micros++) {
      recorder.recordNanos(micros * 1_000L);
    }
    recorder.interval();
    for (int i = 0; i < 1_000; i++) {
      recorder.recordNanos(100_000);
    }

    LatencyRecorder.Interval second = recorder.interval();

    assertEquals(1_000, second.count());
    assertMicros(100, second.p50Micros());
    assertMicros(100, second.p99Micros());
    assertEquals(41_000, recorder.totalCount());
    // 1,100 values are at most 100 µs, so the 20,500th smallest is 19,500 µs.
    assertMicros(19_500, recorder.totalPercentileMicros(50));
  }

  @Test
  void anIntervalWithoutGetsHasNoPercentiles() {
    LatencyRecorder recorder = new LatencyRecorder();

    LatencyRecorder.Interval interval = recorder.interval();

    assertEquals(0, interval.count());
    assertTrue(Double.isNaN(interval.p50Micros()));
    assertTrue(Double.isNaN(interval.p99Micros()));
    assertTrue(Double.isNaN(recorder.totalPercentileMicros(99)));
  }

  @Test
  void valuesOutsideTheRangeAreClampedRatherThanRejected() {
    LatencyRecorder recorder = new LatencyRecorder();
    recorder.recordNanos(-5);
    recorder.recordNanos(Long.MAX_VALUE);

    recorder.interval();

    assertEquals(2, recorder.totalCount());
    assertEquals(0, recorder.totalPercentileMicros(0));
    assertMicros(60_000_000, recorder.totalPercentileMicros(100));
  }
}
