package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCsvTest {

  @TempDir Path dir;

  @Test
  void readReturnsWhatWriteWrote() throws IOException {
    List<Sample> samples = new ArrayList<>(Runs.steady(5, 12_345.678901, 0.912345678));
    samples.add(Runs.sample(6, "hotspot-3%, \"shifted\"", 0.1 + 0.2, Double.NaN));
    RunResult run = new RunResult("hotrap", "ro-hotspot5", 1024, "standard",
        "throttled loop7 (7:7), 500 IOPS, 64 MiB/s", samples, 51_234.5678, 0.93123, 12.3456,
        1450.25, Double.NaN, 0.9876543, Double.NaN, 2_147_483_648L, 312.5, 600.0, 0.8125,
        new SlowDiskReads(106_213, 98_765));
    Path file = dir.resolve("runs").resolve("hotrap-ro-hotspot5-1024.csv");

    RunCsv.write(run, file);
    RunResult read = RunCsv.read(file);

    assertEquals(run, read);
  }

  @Test
  void aFlashCacheResultRoundTrips() throws IOException {
    RunResult run = new RunResult("sas-cache", "ru-uniform", 10264, "custom", "unthrottled",
        Runs.steady(3, 1_000.5, 0.4), 1_000.5, 0.4, 80.5, 900.25, 0.1, 0.3, 0.2, 1L << 30, 10.0,
        60.0, 0.5, new SlowDiskReads(SlowDiskReads.UNKNOWN, 42),
        new FlashResult(0.9987, 0.4123, 123_456_789L, 0.012, 0.2345, 4_567));
    Path file = dir.resolve("sas.csv");
    RunCsv.write(run, file);
    RunResult read = RunCsv.read(file);
    assertEquals(run, read);
    assertEquals(0.9987, read.flash().lookupHitRatio());
    assertEquals(SlowDiskReads.UNKNOWN, read.slowDiskReads().reads());
    assertTrue(Double.isNaN(read.slowDiskReads().perSlowGet()));
    Map<String, String> row = Summary.row(read);
    assertEquals("0.9987", row.get("flash_lookup_hit_ratio"));
    assertEquals("0.4123", row.get("overall_hit_ratio"));
    assertEquals("123456789", row.get("flash_bytes_written"));
    assertEquals("0.0120", row.get("deleted_file_insert_share"));
    assertEquals("", Summary.row(Runs.run("hotrap", "ro-hotspot5", 1024, 1.0))
        .get("flash_lookup_hit_ratio"), "no flash cache, no figure");
  }

  @Test
  void runWithoutSamplesRoundTrips() throws IOException {
    RunResult run = Runs.run("rocksdb-fd", "uniform", 200, 100.0, List.of());
    Path file = dir.resolve("empty.csv");

    RunCsv.write(run, file);

    assertEquals(run, RunCsv.read(file));
  }

  @Test
  void fileHasCommentHeaderThenSnakeCaseColumnsThenOneRowPerSample() throws IOException {
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0, Runs.steady(3, 500, 0.5));
    Path file = dir.resolve("run.csv");

    RunCsv.write(run, file);
    List<String> lines = Files.readAllLines(file);

    int firstRow = 0;
    while (lines.get(firstRow).startsWith("#")) {
      firstRow++;
    }
    List<String> comments = lines.subList(0, firstRow);
    assertTrue(comments.contains("# system: hotrap"), comments::toString);
    assertTrue(comments.contains("# workload: ro-hotspot5"), comments::toString);
    assertTrue(comments.contains("# record_bytes: 1024"), comments::toString);
    assertTrue(comments.contains("# profile: quick"), comments::toString);
    assertTrue(comments.contains("# slow_disk: unthrottled"), comments::toString);
    assertTrue(comments.contains("# throughput: 500.0"), comments::toString);
    assertEquals("elapsed_seconds,phase,operations,throughput,fast_hit_rate,p50_get_micros,"
        + "p99_get_micros,promoted_by_flush_bytes,promoted_by_compaction_bytes,retained_bytes,"
        + "demoted_bytes,fast_compaction_bytes,slow_compaction_bytes,ralt_bytes,ralt_cpu_share,"
        + "rss_bytes,hot_set_limit_bytes,io_bytes,fast_device_reads,fast_device_read_millis,"
        + "slow_device_reads,slow_device_read_millis", lines.get(firstRow));
    assertEquals(firstRow + 1 + 3, lines.size());
    assertTrue(lines.get(firstRow + 1).startsWith("1.0,run,500,500.0,0.5,"),
        lines.get(firstRow + 1));
  }

  @Test
  void readNamesAMissingColumn() throws IOException {
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    Path file = dir.resolve("run.csv");
    RunCsv.write(run, file);
    Files.writeString(file, Files.readString(file).replace(",ralt_bytes,", ",ralt_bytez,"));

    IOException e = assertThrows(IOException.class, () -> RunCsv.read(file));

    assertTrue(e.getMessage().contains("no column ralt_bytes"), e.getMessage());
  }

  @Test
  void aFileWrittenBeforeBlockCacheHitRatesReadsThemAsNaN() throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    RunCsv.write(run, file);
    String text = Files.readString(file);
    assertTrue(text.contains("# block_cache_hit_rate: 0.75\n"), text);
    Files.writeString(file, text.replace("# block_cache_hit_rate: 0.75\n", ""));

    RunResult read = RunCsv.read(file);

    assertTrue(Double.isNaN(read.blockCacheHitRate()));
    assertEquals(run.throughput(), read.throughput());
  }

  @Test
  void aFileWrittenBeforeTheReplaysReadsTheirRatesAsNaN() throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    RunCsv.write(run, file);
    String text = Files.readString(file);
    assertTrue(text.contains("# belady_hit_rate: 0.96\n# lru_hit_rate: 0.81\n"), text);
    Files.writeString(file, text.replace("# belady_hit_rate: 0.96\n# lru_hit_rate: 0.81\n", ""));

    RunResult read = RunCsv.read(file);

    assertTrue(Double.isNaN(read.beladyHitRate()));
    assertTrue(Double.isNaN(read.lruHitRate()));
    assertEquals(run.oracleHitRate(), read.oracleHitRate());
    assertEquals("", Summary.row(read).get("belady_hit_rate"));
  }

  @Test
  void theCommitAndTimestampGoThroughTheFileAndIntoTheSummaryAndOlderFilesReadThemAsEmpty()
      throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0)
        .stamped("0123456789ab-dirty", "2026-11-26T06:50:00Z");
    RunCsv.write(run, file);
    String text = Files.readString(file);
    assertTrue(text.contains("# commit: 0123456789ab-dirty\n# timestamp: 2026-11-26T06:50:00Z\n"), text);
    RunResult read = RunCsv.read(file);
    assertEquals("0123456789ab-dirty", read.commit());
    assertEquals("2026-11-26T06:50:00Z", read.timestamp());
    assertEquals("0123456789ab-dirty", Summary.row(read).get("commit"));
    assertEquals("2026-11-26T06:50:00Z", Summary.row(read).get("timestamp"));

    Files.writeString(file, text.replace("# commit: 0123456789ab-dirty\n# timestamp: 2026-11-26T06:50:00Z\n", ""));
    read = RunCsv.read(file);
    assertEquals("", read.commit());
    assertEquals("", Summary.row(read).get("timestamp"));
    assertEquals(run.throughput(), read.throughput());
  }

  @Test
  void aFileWrittenBeforeTheIoColumnReadsItAsMinusOne() throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    RunCsv.write(run, file);
    dropColumns(file, List.of("io_bytes"));

    RunResult read = RunCsv.read(file);

    assertEquals(run.samples().size(), read.samples().size());
    for (Sample s : read.samples()) {
      assertEquals(-1, s.ioBytes());
    }
    assertEquals(run.last().raltBytes(), read.last().raltBytes());
    assertEquals("", Summary.row(read).get("ralt_io_share"));
    assertEquals(Summary.row(run).get("ralt_cpu_share"), Summary.row(read).get("ralt_cpu_share"));
  }

  @Test
  void theDeviceColumnsRoundTripAndAFileWrittenBeforeThemReadsThemAsUnknown() throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    RunCsv.write(run, file);
    RunResult read = RunCsv.read(file);
    assertEquals(run.samples(), read.samples());
    assertEquals(0.125, read.last().fastDeviceReadMillis());
    assertEquals(1_600 + (long) run.last().elapsedSeconds(), read.last().slowDeviceReads());

    // The device columns come last, so older readers' column positions are unchanged.
    assertEquals(RunCsv.SAMPLE_COLUMNS.size() - 4,
        RunCsv.SAMPLE_COLUMNS.indexOf("fast_device_reads"));
    dropColumns(file, List.of("fast_device_reads", "fast_device_read_millis",
        "slow_device_reads", "slow_device_read_millis"));

    read = RunCsv.read(file);

    assertEquals(run.samples().size(), read.samples().size());
    for (Sample s : read.samples()) {
      assertEquals(-1, s.fastDeviceReads());
      assertTrue(Double.isNaN(s.fastDeviceReadMillis()));
      assertEquals(-1, s.slowDeviceReads());
      assertTrue(Double.isNaN(s.slowDeviceReadMillis()));
    }
    assertEquals(run.last().ioBytes(), read.last().ioBytes());
    assertEquals(run.throughput(), read.throughput());
  }

  @Test
  void writesTheSlowDiskReadsAndTheirRatioAndReadsThemBack() throws IOException {
    Path file = dir.resolve("run.csv");
    RunCsv.write(Runs.run("hotrap", "ro-hotspot5", 1024, 500.0), file);
    String text = Files.readString(file);
    assertTrue(text.contains("# slow_disk_reads: 123456\n# slow_tier_gets: 100000\n"
        + "# slow_disk_reads_per_slow_get: 1.23456\n"), text);

    RunResult read = RunCsv.read(file);

    assertEquals(new SlowDiskReads(123_456, 100_000), read.slowDiskReads());
    assertEquals(1.23456, read.slowDiskReads().perSlowGet(), 1e-12);
  }

  @Test
  void aFileWrittenBeforeTheSlowDiskReadsReadsThemAsUnknown() throws IOException {
    Path file = dir.resolve("run.csv");
    RunResult run = Runs.run("hotrap", "ro-hotspot5", 1024, 500.0);
    RunCsv.write(run, file);
    String lines = "# slow_disk_reads: 123456\n# slow_tier_gets: 100000\n"
        + "# slow_disk_reads_per_slow_get: 1.23456\n";
    Files.writeString(file, Files.readString(file).replace(lines, ""));

    RunResult read = RunCsv.read(file);

    assertEquals(SlowDiskReads.UNMEASURED, read.slowDiskReads());
    assertTrue(Double.isNaN(read.slowDiskReads().perSlowGet()));
    assertEquals(run.blockCacheHitRate(), read.blockCacheHitRate());
    assertEquals("", Summary.row(read).get("slow_disk_reads"));
    assertEquals("", Summary.row(read).get("slow_disk_reads_per_slow_get"));
  }

  @Test
  void readNamesANegativeSlowDiskCount() throws IOException {
    Path file = dir.resolve("run.csv");
    RunCsv.write(Runs.run("hotrap", "ro-hotspot5", 1024, 500.0), file);
    Files.writeString(file, Files.readString(file).replace("# slow_tier_gets: 100000\n",
        "# slow_tier_gets: -7\n"));

    IOException e = assertThrows(IOException.class, () -> RunCsv.read(file));

    assertTrue(e.getMessage().endsWith("slow_tier_gets must be >= 0, or -1 when unknown, but was"
        + " -7"), e.getMessage());
  }

  @Test
  void everyRunFileOfThePublishedResultsStillReads() throws IOException {
    Path results = Path.of("..", "docs", "results");
    Assumptions.assumeTrue(Files.isDirectory(results), "no " + results.toAbsolutePath());
    List<Path> runs;
    try (Stream<Path> files = Files.walk(results)) {
      runs = files.filter(p -> p.getParent().getFileName().toString().equals("runs")
          && p.toString().endsWith(".csv")).toList();
    }

    for (Path f : runs) {
      RunResult r = RunCsv.read(f);
      boolean replayed = Files.readString(f).contains("# belady_hit_rate: ");
      assertEquals(!replayed, Double.isNaN(r.beladyHitRate()), f.toString());
      boolean counted = Files.readString(f).contains("# slow_disk_reads: ");
      assertEquals(counted, r.slowDiskReads().measured(), f.toString());
    }
  }

  @Test
  void readNamesAMissingSummaryKey() throws IOException {
    Path file = dir.resolve("run.csv");
    RunCsv.write(Runs.run("hotrap", "ro-hotspot5", 1024, 500.0), file);
    Files.writeString(file, Files.readString(file).replace("# profile: quick\n", ""));

    IOException e = assertThrows(IOException.class, () -> RunCsv.read(file));

    assertTrue(e.getMessage().endsWith("no '# profile:' line"), e.getMessage());
  }

  @Test
  void writeRejectsALineBreakInTheSlowDiskDescription() {
    RunResult run = new RunResult("hotrap", "ro-hotspot5", 1024, "quick", "loop7\n500 IOPS",
        List.of(), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, SlowDiskReads.UNMEASURED);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunCsv.write(run, dir.resolve("run.csv")));

    assertEquals("slow_disk must be one line but was \"loop7\n500 IOPS\"", e.getMessage());
  }

  /** Rewrites a run file without the named sample columns, as a file written before them. */
  private static void dropColumns(Path file, List<String> columns) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    int header = lines.indexOf(String.join(",", RunCsv.SAMPLE_COLUMNS));
    assertTrue(header > 0, lines.toString());
    List<Integer> drop = new ArrayList<>();
    for (String c : columns) {
      int i = RunCsv.SAMPLE_COLUMNS.indexOf(c);
      assertTrue(i >= 0, "no column " + c);
      drop.add(i);
    }
    drop.sort(Comparator.reverseOrder());
    for (int i = header; i < lines.size(); i++) {
      List<String> fields = new ArrayList<>(List.of(lines.get(i).split(",", -1)));
      for (int c : drop) {
        fields.remove(c);
      }
      lines.set(i, String.join(",", fields));
    }
    Files.write(file, lines);
  }
}
