package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.report.RunResult;
import io.hotrap.bench.report.Summary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A two-system matrix end to end on real stores: load, templates, runs, CSVs, report, plots. */
@Tag("statistical")
class MatrixTest {
  @TempDir Path dir;

  @Test
  void aSmallMatrixWritesEveryOutputAndHotRapHitsTheFastTierMoreThanTieredRocksDb()
      throws Exception {
    Profile profile = new Profile("custom", 4L << 20, Duration.ofSeconds(4), Duration.ofSeconds(4),
        2, List.of(new Profile.Run("rocksdb-tiered", "ro-hotspot5", 1024),
            new Profile.Run("hotrap", "ro-hotspot5", 1024),
            new Profile.Run("hotrap-no-promotion", "ro-hotspot5", 1024)));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Path out = dir.resolve("results");
    Matrix m = new Matrix(dir.resolve("work"), dir.resolve("slow"), out,
        new PrintStream(log, true, StandardCharsets.UTF_8), 7, false);
    List<RunResult> results = m.run(profile, "test");

    assertEquals(3, results.size());
    RunResult tiered = results.get(0);
    RunResult hotrap = results.get(1);
    RunResult noPromotion = results.get(2);
    for (RunResult r : results) {
      assertTrue(r.samples().size() >= 3, r.system() + " samples " + r.samples().size());
      assertTrue(r.throughput() > 0, r.system());
      assertTrue(Files.exists(out.resolve("runs").resolve(Matrix.fileName(r))));
    }
    assertTrue(hotrap.fastHitRate() > tiered.fastHitRate() + 0.3,
        hotrap.fastHitRate() + " vs " + tiered.fastHitRate());
    assertTrue(hotrap.last().promotedByFlushBytes() + hotrap.last().promotedByCompactionBytes() > 0);
    assertEquals(0, noPromotion.last().promotedByFlushBytes()
        + noPromotion.last().promotedByCompactionBytes());
    assertTrue(hotrap.oracleHitRate() > 0.9 && hotrap.oracleHitRate() < 1, "oracle "
        + hotrap.oracleHitRate());
    assertTrue(hotrap.lruHitRate() > 0 && hotrap.lruHitRate() <= hotrap.beladyHitRate()
        && hotrap.beladyHitRate() < 1, "belady " + hotrap.beladyHitRate() + " lru "
        + hotrap.lruHitRate());
    // An ordinary directory, not a throttled slow disk: the slow-tier gets are known, the reads not.
    assertFalse(tiered.slowDiskReads().measured());
    assertTrue(tiered.slowDiskReads().slowGets() > 0, tiered.slowDiskReads().toString());

    List<Map<String, String>> all = Summary.read(out.resolve("summary.csv"));
    // One load row per loaded family (the hotrap variants share one), then the runs.
    List<Map<String, String>> loads = all.stream().filter(r -> r.get("workload").equals("load")).toList();
    assertEquals(List.of("rocksdb-tiered", "hotrap"), loads.stream().map(r -> r.get("system")).toList());
    for (Map<String, String> load : loads) {
      assertTrue(Double.parseDouble(load.get("throughput")) > 0, load.toString());
      assertTrue(Long.parseLong(load.get("fast_compaction_bytes")) > 0, load.toString());
    }
    List<Map<String, String>> summary = all.stream().filter(r -> !r.get("workload").equals("load")).toList();
    assertEquals(3, summary.size());
    assertEquals("rocksdb-tiered", summary.get(0).get("system"));
    assertEquals("ro-hotspot5", summary.get(0).get("workload"));
    assertEquals("1024", summary.get(0).get("record_size"));
    assertFalse(summary.get(1).get("p99_get_us").isEmpty());
    assertFalse(summary.get(1).get("belady_hit_rate").isEmpty());
    assertFalse(summary.get(1).get("lru_hit_rate").isEmpty());
    assertEquals("", summary.get(0).get("slow_disk_reads"));
    assertEquals("", summary.get(0).get("slow_disk_reads_per_slow_get"));
    String readme = Files.readString(out.resolve("README.md"));
    assertTrue(readme.contains("| hotrap |"), readme);
    assertTrue(Files.size(out.resolve("ro-hotspot5-1024-timeseries.png")) > 1000);
    assertTrue(Files.size(out.resolve("throughput-by-workload.png")) > 1000);
    // The hotrap variants loaded once: one template for them, one for tiered RocksDB.
    try (var templates = Files.list(dir.resolve("work").resolve("templates"))) {
      assertEquals(2, templates.count());
    }
    assertTrue(log.toString(StandardCharsets.UTF_8).contains("unthrottled"));
    assertTrue(log.toString(StandardCharsets.UTF_8).contains("slow disk reads not counted: slow disk"
        + " unthrottled"), log.toString(StandardCharsets.UTF_8));
  }
}
