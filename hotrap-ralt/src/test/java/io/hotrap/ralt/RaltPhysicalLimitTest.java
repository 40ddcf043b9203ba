package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tracker's files stay within the physical limit, plus at most one buffer of records on its
 * way to disk, however long it runs: evictions merge step by step, so their temporary space is
 * bounded too (HotRAP §3.2).
 *
 * <p>Five million uniform accesses over ten million keys keep new records arriving, so eviction
 * never rests. Auto-tuning is off to hold the limit still; accesses are 32 bytes (a 24-byte key
 * and an 8-byte value length) because the number of records, not their values, is what fills the
 * tracker.
 */
class RaltPhysicalLimitTest {

  private static final long ACCESSES = 5_000_000;
  private static final int KEYS = 10_000_000;
  private static final int VALUE_BYTES = 8;
  private static final long SAMPLE_EVERY = 100_000;

  @Test
  void physicalSizeNeverExceedsTheLimitByMoreThanOneBuffer(@TempDir Path dir) {
    RaltOptions options = RaltOptions.builder()
        .directory(dir)
        .fastDiskBytes(64L << 20)
        .autoTuning(false)
        .build();
    long bound = options.initialPhysicalLimit() + options.bufferBytes();
    AccessStreams.Stream stream = AccessStreams.uniform(KEYS, 8);
    List<Executable> checks = new ArrayList<>();
    long worst = 0;
    long overSamples = 0;
    String firstOver = null;
    try (Ralt ralt = Ralt.open(options)) {
      for (long i = 1; i <= ACCESSES; i++) {
        ralt.record(AccessStreams.key(stream.next()), VALUE_BYTES);
        if (i % SAMPLE_EVERY == 0) {
          RaltStats stats = ralt.stats();
          worst = Math.max(worst, stats.physicalBytes());
          if (stats.physicalBytes() > bound) {
            overSamples++;
            if (firstOver == null) {
              firstOver = "after " + i + " accesses: physical " + stats.physicalBytes()
                  + " > limit + buffer " + bound + "; " + stats;
            }
          }
        }
      }
      ralt.awaitQuiescence();
      RaltStats stats = ralt.stats();
      long worstSampled = worst;
      long samplesOver = overSamples;
      String firstViolation = firstOver;
      checks.add(() -> assertEquals(0L, samplesOver, samplesOver + " of "
          + ACCESSES / SAMPLE_EVERY + " samples over the bound, the first " + firstViolation));
      checks.add(() -> assertEquals(options.initialPhysicalLimit(), stats.physicalLimit(),
          "a fixed limit moved"));
      checks.add(() -> assertTrue(stats.physicalBytes() <= bound,
          "at the end: physical " + stats.physicalBytes() + " > " + bound + "; " + stats));
      checks.add(() -> assertTrue(stats.maxPhysicalOvershoot() <= options.bufferBytes(),
          "largest overshoot " + stats.maxPhysicalOvershoot() + " > one buffer "
              + options.bufferBytes() + " (largest sampled physical size " + worstSampled
              + ", limit " + options.initialPhysicalLimit() + "); " + stats));
      checks.add(() -> assertTrue(stats.evictions() > 0, "never evicted; " + stats));
    }
    assertAll(checks);
  }
}
