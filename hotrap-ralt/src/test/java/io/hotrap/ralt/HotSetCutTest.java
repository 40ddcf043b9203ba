package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An eviction leaves the hot set at {@code 1 − hotSetBeta} of its limit, whatever β does to the
 * physical limit: the hot set's cut and the physical cut are separate settings.
 *
 * <p>A Zipfian stream over many more keys than the hot-set limit holds keeps its hot set growing
 * past the limit, so evictions come one after another. Auto-tuning is off to hold the limit still,
 * and the physical limit is far above what the stream can fill, so only the hot set triggers them.
 * The stream is fed in chunks, each followed by {@link Ralt#awaitQuiescence}; after a chunk in which
 * an eviction ran, the hot set is what that eviction kept plus what later buffers made hot, so it
 * lies near the eviction's target or above it; the eviction picks its threshold from a sample, so
 * single readings scatter by a few percent, and the test judges their median.
 */
class HotSetCutTest {

  private static final int KEYS = 200_000;
  private static final int VALUE_BYTES = 1000;
  private static final long HOT_SET_LIMIT = 8L << 20;
  private static final long BUFFER_BYTES = 128L << 10;
  private static final int CHUNK = 2_000;
  private static final int CHUNKS = 300;

  @Test
  void theDefaultCutLeavesTheHotSetNearItsLimit(@TempDir Path dir) {
    Shares s = run(RaltOptions.builder().directory(dir));
    assertTrue(s.count() >= 5, "too few evictions to judge: " + s);
    assertTrue(s.median() >= 0.95, "after the default cut of " + RaltOptions.DEFAULT_HOT_SET_BETA
        + " the hot set should stay above 0.95 of its limit: " + s);
  }

  @Test
  void aLargerCutLeavesTheHotSetLowerAndTheBetaOfThePhysicalLimitDoesNotSetIt(@TempDir Path dir) {
    Shares s = run(RaltOptions.builder().directory(dir).hotSetBeta(0.3).beta(0.01));
    assertTrue(s.count() >= 3, "too few evictions to judge: " + s);
    assertTrue(s.median() >= 0.65 && s.median() <= 0.76,
        "after a cut of 0.3 the hot set should fall to about 0.7 of its limit: " + s);
  }

  private static Shares run(RaltOptions.Builder builder) {
    RaltOptions options = builder
        .fastDiskBytes(64L << 20)
        .autoTuning(false)
        .initialHotSetLimit(HOT_SET_LIMIT)
        .initialPhysicalLimit(1L << 30)
        .bufferBytes(BUFFER_BYTES)
        .build();
    AccessStreams.Zipfian stream = AccessStreams.zipfian(KEYS, 0.99, 7);
    byte[][] keys = AccessStreams.keys(KEYS);
    List<Double> shares = new ArrayList<>();
    String last;
    try (Ralt ralt = Ralt.open(options)) {
      long evictions = 0;
      for (int c = 0; c < CHUNKS; c++) {
        for (int i = 0; i < CHUNK; i++) {
          ralt.record(keys[stream.next()], VALUE_BYTES);
        }
        ralt.awaitQuiescence();
        RaltStats stats = ralt.stats();
        if (stats.evictions() > evictions && evictions > 0) {
          shares.add((double) stats.hotSetBytes() / stats.hotSetLimit());
        }
        evictions = stats.evictions();
      }
      last = ralt.stats().toString();
    }
    return new Shares(shares, last);
  }

  private record Shares(List<Double> after, String stats) {
    int count() {
      return after.size();
    }

    double median() {
      return after.stream().mapToDouble(Double::doubleValue).sorted().skip(after.size() / 2)
          .findFirst().orElse(Double.NaN);
    }

    @Override
    public String toString() {
      return "hot set over its limit after each eviction " + after + "; " + stats;
    }
  }
}
