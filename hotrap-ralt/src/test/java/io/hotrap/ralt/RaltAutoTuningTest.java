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
 * Algorithm 1 (HotRAP §3.7) on the dynamic stream of the paper's Fig. 15: uniform, then hotspots of
 * 1%, 3% and 5% of the keys, then a 5% hotspot disjoint from the previous one. A hotspot takes
 * 95% of the accesses, as in the paper's hotspot-5%; the other 5% keep new keys arriving, so
 * evictions, after which Algorithm 1 updates the limits, keep happening in every stage. The target
 * is the hotspot's bytes: its keys are what a perfect tracker would call hot.
 *
 * <p>Uniform access spreads over {@value #UNIFORM_KEYS} keys, fifty times the fast disk: Algorithm 1
 * calls a key stable when it is seen twice within its counter's life of up to c_max·R accesses, so
 * over a key space only a few times R (as the hotspots' 1M keys are) chance repeats keep a large
 * "stable" set alive, and uniform access would not look uniform to it.
 *
 * <p>The hotspots of 1%, 3% and 5% are nested (the smaller is part of the larger); the last one
 * shares no key with them. Each stage lasts {@value #STAGE_PERIODS} counter-decay periods (R bytes
 * accessed each), longer than the c_max = 5 periods a stable counter needs to expire, so every
 * stage ends in the steady state Algorithm 1 converges to.
 */
class RaltAutoTuningTest {

  private static final int KEYS = 1_000_000;
  private static final int UNIFORM_KEYS = 10_000_000;
  private static final int VALUE_BYTES = 1000;
  private static final long RECORD_BYTES = AccessStreams.KEY_BYTES + VALUE_BYTES;
  private static final long FAST_DISK_BYTES = 200L << 20;
  private static final long FIVE_PERCENT_BYTES = KEYS / 20 * RECORD_BYTES;
  /**
   * D_hs. The default, 0.1·R_hs ≈ 14.7 MB here, would put the limit of a 1% hotspot (10.2 MB) at
   * more than twice its size, so the room for unstable records is set to 2% of the 5% hotspot.
   */
  private static final long MAX_UNSTABLE_HOT_BYTES = FIVE_PERCENT_BYTES / 50;
  /**
   * L_hs. The default, 0.05·FD ≈ 10.5 MB, is the size of the 1% hotspot; 4 MiB keeps the floor
   * that uniform access falls to clearly apart from every hotspot.
   */
  private static final long MIN_HOT_SET_LIMIT = 4L << 20;
  private static final int STAGE_PERIODS = 8;
  private static final double HOT_SHARE = 0.95;
  private static final long SEED = 15;

  @Test
  void hotSetLimitFallsTowardItsMinimumUnderUniformAndEndsEachHotspotWithin25PercentOfIt(
      @TempDir Path dir) {
    RaltOptions options = RaltOptions.builder()
        .directory(dir)
        .fastDiskBytes(FAST_DISK_BYTES)
        .minHotSetLimit(MIN_HOT_SET_LIMIT)
        .maxUnstableHotBytes(MAX_UNSTABLE_HOT_BYTES)
        .build();
    long stageAccesses = STAGE_PERIODS * options.counterDecayPeriodBytes() / RECORD_BYTES;
    byte[][] keys = AccessStreams.keys(KEYS);

    List<Stage> stages = List.of(
        new Stage("uniform", AccessStreams.uniform(UNIFORM_KEYS, SEED), 0),
        hotspot("hotspot 1%", 0.01, 0),
        hotspot("hotspot 3%", 0.03, 0),
        hotspot("hotspot 5%", 0.05, 0),
        hotspot("disjoint hotspot 5%", 0.05, KEYS / 20));

    List<String> report = new ArrayList<>();
    List<Executable> checks = new ArrayList<>();
    try (Ralt ralt = Ralt.open(options)) {
      for (Stage stage : stages) {
        // The first stage also outlives the stable records made while the initial limits, before
        // any auto-tuning, let the tracker hold many more records than it later does.
        long accesses = stage == stages.get(0) ? 2 * stageAccesses : stageAccesses;
        for (long i = 0; i < accesses; i++) {
          int id = stage.stream.next();
          // Uniform ids beyond the hotspots' key array are distinct keys of their own.
          ralt.record(id < KEYS ? keys[id] : AccessStreams.key(id), VALUE_BYTES);
        }
        ralt.awaitQuiescence();
        RaltStats stats = ralt.stats();
        long limit = stats.hotSetLimit();
        assertEquals(limit, ralt.hotSetLimit(), "the lock-free reading of the limit");
        assertEquals(stats.hotSetBytes(), ralt.hotSetBytes(), "the lock-free reading of hot bytes");
        report.add(String.format("%s: hot-set limit %d (hotspot %d, stable %d, hot set %d)",
            stage.name, limit, stage.hotBytes, stats.stableHotBytes(), stats.hotSetBytes()));
        if (stage.hotBytes == 0) {
          // No key is hotter than another: the limit, stable bytes plus D_hs (< L_hs), should
          // come down to its floor, with the same 25% allowance as a hotspot's.
          checks.add(() -> assertTrue(
              limit >= MIN_HOT_SET_LIMIT && limit <= MIN_HOT_SET_LIMIT * 5 / 4,
              stage.name + ": limit " + limit + " not within [L_hs, 1.25·L_hs] = ["
                  + MIN_HOT_SET_LIMIT + ", " + MIN_HOT_SET_LIMIT * 5 / 4 + "]\n" + report));
        } else {
          checks.add(() -> assertTrue(
              Math.abs(limit - stage.hotBytes) <= stage.hotBytes / 4,
              String.format("%s: limit %d is %+.1f%% off the hotspot's %d bytes%n%s", stage.name,
                  limit, 100.0 * (limit - stage.hotBytes) / stage.hotBytes, stage.hotBytes,
                  report)));
        }
      }
    }
    assertAll(checks);
  }

  private static Stage hotspot(String name, double fraction, int firstHotRank) {
    AccessStreams.Hotspot s = AccessStreams.hotspot(KEYS, fraction, firstHotRank, HOT_SHARE, SEED);
    return new Stage(name, s, s.hotKeyCount() * RECORD_BYTES);
  }

  private static final class Stage {
    final String name;
    final AccessStreams.Stream stream;
    final long hotBytes;

    Stage(String name, AccessStreams.Stream stream, long hotBytes) {
      this.name = name;
      this.stream = stream;
      this.hotBytes = hotBytes;
    }
  }
}
