package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decay clock: Algorithm 1's counters drain one base period per R of accesses, R as paced. */
class ClockTest {
  private static final long BASE = 1_000_000;

  private static Clock clock(double maxStretch) {
    return new Clock(RaltOptions.builder().directory(Path.of("unused")).fastDiskBytes(64L << 20)
        .counterDecayPeriodBytes(BASE).maxDecayStretch(maxStretch).build());
  }

  @Test
  void eachStretchHoldsFromItsPacingOn() {
    Clock c = clock(4);
    assertEquals(500_000, c.decayAt(500_000), "R at its base: one decay unit per byte");
    c.pace(4, 1_000_000);
    assertEquals(BASE * 4, c.counterDecayPeriodBytes());
    assertEquals(1_000_000, c.decayAt(1_000_000));
    assertEquals(1_250_000, c.decayAt(2_000_000), "a quarter unit per byte at four times R");
    c.pace(1, 3_000_000);
    assertEquals(1_500_000, c.decayAt(3_000_000));
    assertEquals(2_500_000, c.decayAt(4_000_000));
    assertEquals(250_000, c.decayAt(250_000), "times before later pacings keep their mapping");
    assertEquals(1_125_000, c.decayAt(1_500_000));
  }

  @Test
  void stretchesAreClampedAndTinyChangesAddNoBreakpoint() {
    Clock c = clock(4);
    c.pace(10, 1_000_000);
    assertEquals(4 * BASE, c.counterDecayPeriodBytes(), "at most maxDecayStretch");
    c.pace(0.2, 2_000_000);
    assertEquals(BASE, c.counterDecayPeriodBytes(), "at least the base");
    c.pace(1.005, 3_000_000);
    assertEquals(2_250_000, c.decayAt(3_000_000));
    assertEquals(3_250_000, c.decayAt(4_000_000), "within 1% the previous stretch goes on");
  }

  @Test
  void theMappingIsMonotoneAndTimesBeforeTheKeptBreakpointsMapNoEarlierThanTheTruth() {
    Clock c = clock(4);
    Random rnd = new Random(7);
    int paces = Clock.MAX_BREAKPOINTS * 2;
    long[] at = new long[paces + 1];
    double[] truth = new double[paces + 1];
    double[] stretch = new double[paces + 1];
    stretch[0] = 1;
    long t = 0;
    for (int i = 1; i <= paces; i++) {
      t += 1 + rnd.nextInt(100_000);
      double s = rnd.nextBoolean() ? 1 : 4; // alternate widely so every pacing adds a breakpoint
      c.pace(s, t);
      at[i] = t;
      truth[i] = truth[i - 1] + (at[i] - at[i - 1]) / stretch[i - 1];
      stretch[i] = s;
    }
    long previous = Long.MIN_VALUE;
    for (int i = 0; i <= paces; i++) {
      long d = c.decayAt(at[i]);
      assertTrue(d >= previous, "monotone at breakpoint " + i);
      previous = d;
      assertTrue(d >= Math.floor(truth[i]) - 1, "never earlier than the true decay time at " + i);
      if (i > paces - Clock.MAX_BREAKPOINTS + 1) {
        assertEquals(Math.floor(truth[i]), d, 1, "exact within the kept breakpoints at " + i);
      }
    }
  }

  @Test
  void aResetStartsFromTheGivenClocksWithRAtItsBase() {
    Clock c = clock(4);
    c.pace(4, 1_000);
    c.reset(10_000_000, 3_000_000);
    assertEquals(BASE, c.counterDecayPeriodBytes());
    assertEquals(3_000_000, c.decayAt(10_000_000));
    assertEquals(4_000_000, c.decayAt(11_000_000));
    assertEquals(2_750_000, c.decayAt(9_000_000), "earlier times map with the largest stretch");
  }

  @Test
  void anAccessAddsDeltaCBasePeriodsOnTheDecayClock() {
    Clock c = clock(4);
    c.pace(4, 0);
    AccessRecord r = new AccessRecord();
    c.initAccess(r, 8_000_000);
    assertEquals(2_000_000 + (long) (RaltOptions.DEFAULT_DELTA_C * BASE), r.stableUntil);
    assertTrue(r.stableUntil > c.decayAt(8_000_000 + (long) (RaltOptions.DEFAULT_DELTA_C * BASE) * 3),
        "under hits the counter lasts Δc stretched periods of accesses");
  }

  /** A manifest written before the decay clock existed (version 1) reads with decay = access clock. */
  @Test
  void aVersionOneManifestReadsWithTheDecayClockAtTheAccessClock(@TempDir Path dir)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write("HRALTMF1".getBytes(StandardCharsets.US_ASCII));
    out.writeInt(1);
    out.writeLong(123_456_789L); // access clock
    out.writeLong(42); // next file id
    out.writeLong(3); // evictions
    out.writeLong(100_000_000L); // clock at the last eviction
    out.writeBoolean(true);
    out.writeDouble(1.5);
    out.writeLong(1L << 20);
    out.writeLong(2L << 20);
    out.writeLong(512 * 1024);
    out.writeInt(0);
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());
    Files.write(dir.resolve(Manifest.FILE), bytes.toByteArray());
    Manifest m = Manifest.read(dir);
    assertEquals(123_456_789L, m.clock());
    assertEquals(123_456_789L, m.decayClock());
    assertEquals(42, m.nextFileId());
    assertEquals(512 * 1024, m.stableHotBytes());
  }

  @Test
  void theDecayClockSurvivesAManifestRoundTrip(@TempDir Path dir) throws IOException {
    new Manifest(9_000_000, 4_000_000, 7, 1, 8_000_000, new HotThreshold(false, -2.5), 1L << 20,
        2L << 20, 0, List.of()).write(dir, true);
    Manifest m = Manifest.read(dir);
    assertEquals(9_000_000, m.clock());
    assertEquals(4_000_000, m.decayClock());
    assertEquals(-2.5, m.threshold().rank());
  }
}
