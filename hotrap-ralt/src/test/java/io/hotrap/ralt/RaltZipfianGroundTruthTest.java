package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RALT against the ground truth of a Zipfian stream (s = 0.99, HotRAP §4) over one million 1 KiB
 * records, with both limits auto-tuned.
 *
 * <p>A Zipfian stream has no sharp hot set, so the test asks what matters to a fast tier: the
 * accesses that the keys RALT calls hot would serve, against what the truly most popular keys of
 * the same total size would serve (the oracle of DESIGN.md §12). Both are expected shares under
 * the stream's exact distribution, so sampling noise does not enter the comparison.
 */
@Tag("statistical")
class RaltZipfianGroundTruthTest {

  private static final int KEYS = 1_000_000;
  private static final int VALUE_BYTES = 1000;
  private static final long ACCESSES = 4_000_000;
  private static final long FAST_DISK_BYTES = 200L << 20;
  private static final long SEED = 99;

  @Test
  void hotKeysCoverAtLeast95PercentOfWhatTheTrueTopKeysOfTheSameSizeCover(@TempDir Path dir) {
    AccessStreams.Zipfian stream = AccessStreams.zipfian(KEYS, 0.99, SEED);
    byte[][] keys = AccessStreams.keys(KEYS);
    RaltOptions options =
        RaltOptions.builder().directory(dir).fastDiskBytes(FAST_DISK_BYTES).build();
    try (Ralt ralt = Ralt.open(options)) {
      for (long i = 0; i < ACCESSES; i++) {
        ralt.record(keys[stream.next()], VALUE_BYTES);
      }
      ralt.awaitQuiescence();

      HotKeySnapshot hot = HotKeySnapshot.all(ralt);
      assertTrue(hot.size() > 0, "no hot keys after " + ACCESSES + " accesses; " + ralt.stats());

      double covered = 0;
      for (byte[] k : hot.keys) {
        covered += stream.probability((int) AccessStreams.id(k));
      }
      // Every record has the same size, so "the same total size" is the same number of keys.
      double oracle = stream.topProbability(hot.size());
      double ratio = covered / oracle;
      assertTrue(ratio >= 0.95, String.format(
          "the %d hot keys cover %.4f of the accesses, the top %d keys %.4f: ratio %.4f < 0.95; %s",
          hot.size(), covered, hot.size(), oracle, ratio, ralt.stats()));
    }
  }
}
