package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

  private static final List<RunResult> RUNS = List.of(
      Runs.run("hotrap", "ro-hotspot5", 1024, 3000),
      Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 4000),
      Runs.run("rocksdb-tiered", "ro-hotspot5", 1024, 1000),
      Runs.run("hotrap", "ro-uniform", 200, 500));

  @Test
  void headerCarriesTitleCommandAndMachineNotes() {
    String md = MarkdownReport.render(RUNS, "HotRAP-J results", "java -jar hotrap-bench.jar run",
        "8 cores, NVMe for the fast tier");

    assertTrue(md.startsWith("# HotRAP-J results\n"), md);
    assertTrue(md.contains("```\njava -jar hotrap-bench.jar run\n```"), md);
    assertTrue(md.contains("8 cores, NVMe for the fast tier"), md);
  }

  @Test
  void tableHasOneRowPerSystemInFixedOrderWithRatiosToBothReferences() {
    String md = MarkdownReport.render(RUNS, "t", "cmd", "notes");

    // Last sample at 10 s: promoted 10 / 20 MiB, demoted 40 MiB, compaction 50 / 60 MiB.
    String fd = "| rocksdb-fd | 4,000 | 4.00× | 1.00× | 87.5% | 95.0% | 96.0% | 81.0% | 75.0% "
        + "| 123,456 / 1.235 | 12.3 / 480.5 | 10.0 / 20.0 | 40.0 | 50.0 / 60.0 |";
    String tiered = "| rocksdb-tiered | 1,000 | 1.00× | 0.25× |";
    String hotrap = "| hotrap | 3,000 | 3.00× | 0.75× |";
    assertTrue(md.contains("| System | Throughput (ops/s) | × rocksdb-tiered | × rocksdb-fd |"),
        md);
    assertTrue(md.contains(fd + "\n"), md);
    assertTrue(md.indexOf(fd) < md.indexOf(tiered), md);
    assertTrue(md.indexOf(tiered) < md.indexOf(hotrap), md);
  }

  @Test
  void ratioColumnsAppearOnlyWhenTheReferenceRanTheSameWorkload() {
    String md = MarkdownReport.render(RUNS, "t", "cmd", "notes");

    String uniform = md.substring(md.indexOf("## ro-uniform, 200 B records"));
    assertTrue(uniform.contains("| System | Throughput (ops/s) | Fast hit rate |"), uniform);
    assertTrue(uniform.contains("| hotrap | 500 | 87.5% | 95.0% | 96.0% | 81.0% | 75.0% |"), uniform);
    assertFalse(uniform.contains("×"), uniform);
  }

  @Test
  void explainsTheReferenceAndTheBlockCacheColumnsBeforeTheTables() {
    String md = MarkdownReport.render(RUNS, "t", "cmd", "notes");

    int howTo = md.indexOf("## How to read the tables");
    assertTrue(howTo > 0 && howTo < md.indexOf("## ro-hotspot5"), md);
    assertTrue(md.contains(
        "- **Oracle**: not a measurement but the best fast hit rate a fixed placement"), md);
    assertTrue(md.contains("- **Belady** and **LRU** replay the run's own gets and writes"), md);
    assertTrue(md.contains("- **Block cache hit rate**:"), md);
    assertTrue(md.contains("- **Slow disk reads / per slow get**: the read I/Os"), md);
    assertTrue(md.contains("**Why HotRAP can outrun `rocksdb-fd`.**"), md);
  }

  @Test
  void saysUnderTheTableWhenHotRapOutranRocksDbFdWithMoreBlockCacheHits() {
    RunResult fd = withBlockCacheHitRate(Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 36_000), 0.41);
    RunResult hotrap = withBlockCacheHitRate(Runs.run("hotrap", "ro-hotspot5", 1024, 158_000),
        0.987);

    String md = MarkdownReport.render(List.of(fd, hotrap), "t", "cmd", "notes");

    assertTrue(md.contains("`hotrap` outran `rocksdb-fd` here (4.39×) because its gets found 98.7%"
        + " of their data blocks in the block cache against 41.0% for `rocksdb-fd`"), md);
    assertEquals(null, MarkdownReport.fasterThanUpperBound(List.of(fd,
        withBlockCacheHitRate(Runs.run("hotrap", "ro-hotspot5", 1024, 30_000), 0.987))));
    assertEquals(null, MarkdownReport.fasterThanUpperBound(List.of(hotrap,
        withBlockCacheHitRate(Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 36_000), Double.NaN))));
  }

  private static RunResult withBlockCacheHitRate(RunResult r, double rate) {
    return new RunResult(r.system(), r.workload(), r.recordBytes(), r.profile(), r.slowDisk(),
        r.samples(), r.throughput(), r.fastHitRate(), r.p50GetMicros(), r.p99GetMicros(),
        r.oracleHitRate(), r.beladyHitRate(), r.lruHitRate(), r.peakRssBytes(), r.loadSeconds(),
        r.runSeconds(), rate, r.slowDiskReads());
  }

  @Test
  void linksToThePlotsByFileName() {
    List<RunResult> runs = List.of(RUNS.get(0), Runs.dynamic("hotrap", 5));

    String md = MarkdownReport.render(runs, "t", "cmd", "notes");

    assertTrue(md.contains("](throughput-by-workload.png)"), md);
    assertTrue(md.contains("](ro-hotspot5-1024-timeseries.png)"), md);
    assertTrue(md.contains("](dynamic-1024-timeseries.png)"), md);
    assertTrue(md.contains("](hotrap-dynamic-1024-hot-set-limit.png)"), md);
    assertFalse(md.contains("hotrap-ro-hotspot5-1024-hot-set-limit.png"), md);
  }

  @Test
  void valuesThatAreNotNumbersShowAsADash() {
    RunResult writeOnly = new RunResult("hotrap", "wo-uniform", 1024, "quick", "unthrottled",
        List.of(), 800, Double.NaN, Double.NaN, Double.NaN, 0.5, Double.NaN, Double.NaN, 1, 1, 1,
        Double.NaN, SlowDiskReads.UNMEASURED);

    String md = MarkdownReport.render(List.of(writeOnly), "t", null, null);

    assertTrue(md.contains("| hotrap | 800 | – | 50.0% | – | – | – | – / – | – / – | – | – | – |"),
        md);
    assertFalse(md.contains("Command"), md);
  }

  @Test
  void writeStoresTheRenderedReport(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("results").resolve("README.md");

    MarkdownReport.write(file, RUNS, "t", "cmd", "notes");

    assertEquals(MarkdownReport.render(RUNS, "t", "cmd", "notes"), Files.readString(file));
  }
}
