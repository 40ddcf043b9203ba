package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {

  @TempDir Path dir;

  private Path summary() {
    return dir.resolve("docs").resolve("results").resolve("summary.csv");
  }

  @Test
  void upsertCreatesTheFileWithFormattedValuesAndLastSampleTotals() throws IOException {
    RunResult run = new RunResult("hotrap", "ro-hotspot5", 1024, "quick", "unthrottled",
        Runs.steady(10, 1000, 0.9), 1234.56, 0.123456, 12.345, 480.55, 0.95, 0.97654, 0.81234,
        2048, 1, 2, 0.654321, new SlowDiskReads(2_000, 1_600));

    Summary.upsert(summary(), List.of(run));
    List<Map<String, String>> rows = Summary.read(summary());

    assertEquals(Summary.COLUMNS, List.copyOf(rows.get(0).keySet()));
    Map<String, String> row = rows.get(0);
    assertEquals("hotrap", row.get("system"));
    assertEquals("ro-hotspot5", row.get("workload"));
    assertEquals("1024", row.get("record_size"));
    assertEquals("1234.6", row.get("throughput"));
    assertEquals("0.1235", row.get("fast_hit_rate"));
    assertEquals("480.6", row.get("p99_get_us"));
    assertEquals("12.3", row.get("p50_get_us"));
    assertEquals("0.9500", row.get("oracle_hit_rate"));
    assertEquals("0.9765", row.get("belady_hit_rate"));
    assertEquals("0.8123", row.get("lru_hit_rate"));
    assertEquals("0.6543", row.get("block_cache_hit_rate"));
    assertEquals("2000", row.get("slow_disk_reads"));
    assertEquals("1.2500", row.get("slow_disk_reads_per_slow_get"));
    assertEquals("0.125", row.get("fast_device_read_ms"));
    assertEquals("0.500", row.get("slow_device_read_ms"));
    assertEquals(Long.toString(10 * Runs.MIB), row.get("promoted_by_flush_bytes"));
    assertEquals(Long.toString(20 * Runs.MIB), row.get("promoted_by_compaction_bytes"));
    assertEquals(Long.toString(40 * Runs.MIB), row.get("demoted_bytes"));
    assertEquals(Long.toString(70 * Runs.MIB), row.get("ralt_bytes"));
    assertEquals("0.0150", row.get("ralt_cpu_share"));
    assertEquals("0.1000", row.get("ralt_io_share")); // 70 MiB of RALT's over 700 MiB of I/O
    assertEquals("2048", row.get("peak_rss_bytes"));
    assertEquals("quick", row.get("profile"));
    assertEquals("unthrottled", row.get("slow_disk"));
    assertEquals("", row.get("commit"), "a result made without a commit");
    assertEquals("", row.get("timestamp"));
  }

  @Test
  void raltSharesAreTheMeanCpuShareAndTheLastIoShareAndEmptyWithoutIo() {
    List<Sample> samples = new ArrayList<>();
    double[] cpu = {0.01, 0.03, Double.NaN, 0.05};
    for (int i = 0; i < cpu.length; i++) {
      Sample s = Runs.sample(i + 1, "run", 100, 0.5);
      samples.add(new Sample(s.elapsedSeconds(), s.phase(), s.operations(), s.throughput(),
          s.fastHitRate(), s.p50GetMicros(), s.p99GetMicros(), s.promotedByFlushBytes(),
          s.promotedByCompactionBytes(), s.retainedBytes(), s.demotedBytes(),
          s.fastCompactionBytes(), s.slowCompactionBytes(), 3 * Runs.MIB, cpu[i], s.rssBytes(),
          s.hotSetLimitBytes(), i == cpu.length - 1 ? 12 * Runs.MIB : -1));
    }
    assertEquals(0.03, Summary.raltCpuShare(samples), 1e-12);
    assertEquals(0.25, Summary.raltIoShare(samples.get(samples.size() - 1)), 1e-12);
    assertTrue(Double.isNaN(Summary.raltIoShare(samples.get(0))));
    assertTrue(Double.isNaN(Summary.raltCpuShare(List.of())));
    assertEquals("", Summary.row(Runs.run("hotrap", "ro-uniform", 1024, 10, samples.subList(0, 1)))
        .get("ralt_io_share"));
  }

  @Test
  void deviceReadTimeIsTheReadWeightedMeanOverTheFinalTenthAndEmptyWhereNotSampled() {
    List<Sample> samples = new ArrayList<>();
    // 20 seconds: the final tenth is the last two, at 0.1 ms over 3,000 reads and 0.4 ms over 1,000.
    for (int i = 1; i <= 20; i++) {
      Sample s = Runs.sample(i, "run", 100, 0.5);
      long reads = i == 19 ? 3_000 : i == 20 ? 1_000 : 50;
      double ms = i == 19 ? 0.1 : i == 20 ? 0.4 : 9.0;
      samples.add(new Sample(s.elapsedSeconds(), s.phase(), s.operations(), s.throughput(),
          s.fastHitRate(), s.p50GetMicros(), s.p99GetMicros(), s.promotedByFlushBytes(),
          s.promotedByCompactionBytes(), s.retainedBytes(), s.demotedBytes(),
          s.fastCompactionBytes(), s.slowCompactionBytes(), s.raltBytes(), s.raltCpuShare(),
          s.rssBytes(), s.hotSetLimitBytes(), s.ioBytes(), reads, ms, i == 20 ? 0 : -1,
          Double.NaN));
    }

    assertEquals(0.175, Summary.deviceReadMillis(samples, Sample::fastDeviceReads,
        Sample::fastDeviceReadMillis), 1e-12);
    assertTrue(Double.isNaN(Summary.deviceReadMillis(samples, Sample::slowDeviceReads,
        Sample::slowDeviceReadMillis)));
    Map<String, String> row = Summary.row(Runs.run("hotrap", "ro-hotspot5", 1024, 100, samples));
    assertEquals("0.175", row.get("fast_device_read_ms"));
    assertEquals("", row.get("slow_device_read_ms"));
  }

  @Test
  void upsertReplacesTheRowWithTheSameKeyAndKeepsTheOthers() throws IOException {
    Summary.upsert(summary(), List.of(
        Runs.run("hotrap", "ro-hotspot5", 1024, 100),
        Runs.run("rocksdb-tiered", "ro-hotspot5", 1024, 50),
        Runs.run("hotrap", "ro-hotspot5", 200, 70)));

    Summary.upsert(summary(), List.of(Runs.run("hotrap", "ro-hotspot5", 1024, 300)));
    List<Map<String, String>> rows = Summary.read(summary());

    assertEquals(3, rows.size());
    assertEquals(List.of("hotrap/200/70.0", "rocksdb-tiered/1024/50.0", "hotrap/1024/300.0"),
        rows.stream().map(r -> r.get("system") + "/" + r.get("record_size") + "/"
            + r.get("throughput")).toList());
  }

  @Test
  void rowsAreSortedByWorkloadThenRecordSizeAsANumberThenTheFixedSystemOrder()
      throws IOException {
    Summary.upsert(summary(), List.of(
        Runs.run("zeta", "ro-zipfian", 1024, 1),
        Runs.run("hotrap-no-promotion", "ro-hotspot5", 1024, 1),
        Runs.run("alpha", "ro-hotspot5", 1024, 1),
        Runs.run("hotrap", "ro-hotspot5", 1024, 1),
        Runs.run("hotrap-no-retain", "ro-hotspot5", 1024, 1)));
    Summary.upsert(summary(), List.of(
        Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 1),
        Runs.run("hotrap-no-by-compaction", "ro-hotspot5", 1024, 1),
        Runs.run("rocksdb-tiered", "ro-hotspot5", 1024, 1),
        Runs.run("hotrap-no-hotness-check", "ro-hotspot5", 1024, 1),
        Runs.run("hotrap", "ro-hotspot5", 200, 1)));

    List<String> order = Summary.read(summary()).stream()
        .map(r -> r.get("workload") + " " + r.get("record_size") + " " + r.get("system"))
        .toList();

    assertEquals(List.of(
        "ro-hotspot5 200 hotrap",
        "ro-hotspot5 1024 rocksdb-fd",
        "ro-hotspot5 1024 rocksdb-tiered",
        "ro-hotspot5 1024 hotrap",
        "ro-hotspot5 1024 hotrap-no-retain",
        "ro-hotspot5 1024 hotrap-no-hotness-check",
        "ro-hotspot5 1024 hotrap-no-by-compaction",
        "ro-hotspot5 1024 hotrap-no-promotion",
        "ro-hotspot5 1024 alpha",
        "ro-zipfian 1024 zeta"), order);
  }

  @Test
  void fieldsHoldingCommasAreQuotedAndReadBack() throws IOException {
    String disk = "throttled loop7 (7:7), 500 IOPS, 64 MiB/s";
    RunResult run = new RunResult("hotrap", "ro-hotspot5", 1024, "paper", disk,
        Runs.steady(2, 10, 0.5), 10, 0.5, 1, 2, 0.6, 0.7, 0.4, 3, 4, 5, Double.NaN,
        SlowDiskReads.UNMEASURED);

    Summary.upsert(summary(), List.of(run));

    String text = Files.readString(summary());
    assertTrue(text.contains(",paper,\"" + disk + "\",,\n"), text);
    assertEquals(disk, Summary.read(summary()).get(0).get("slow_disk"));
  }

  @Test
  void figuresThatAreNotNumbersAndCountersOfARunWithoutSamplesAreEmpty() throws IOException {
    RunResult run = new RunResult("rocksdb-fd", "wh-uniform", 200, "quick", "unthrottled",
        List.of(), 10, Double.NaN, Double.NaN, Double.NaN, 0.1, Double.NaN, Double.NaN, 3, 4, 5,
        Double.NaN, SlowDiskReads.UNMEASURED);

    Summary.upsert(summary(), List.of(run));
    Map<String, String> row = Summary.read(summary()).get(0);

    assertEquals("", row.get("fast_hit_rate"));
    assertEquals("", row.get("p99_get_us"));
    assertEquals("", row.get("demoted_bytes"));
    assertEquals("0.1000", row.get("oracle_hit_rate"));
    assertEquals("", row.get("belady_hit_rate"));
    assertEquals("", row.get("lru_hit_rate"));
    assertEquals("", row.get("slow_disk_reads"));
    assertEquals("", row.get("slow_disk_reads_per_slow_get"));
  }

  @Test
  void slowDiskReadsOfARunWhoseGetsNeverReadTheSlowTierHaveNoRatio() throws IOException {
    RunResult fd = Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 10);
    RunResult run = new RunResult(fd.system(), fd.workload(), fd.recordBytes(), fd.profile(),
        fd.slowDisk(), fd.samples(), fd.throughput(), fd.fastHitRate(), fd.p50GetMicros(),
        fd.p99GetMicros(), fd.oracleHitRate(), fd.beladyHitRate(), fd.lruHitRate(),
        fd.peakRssBytes(), fd.loadSeconds(), fd.runSeconds(), fd.blockCacheHitRate(),
        new SlowDiskReads(37, 0));

    Summary.upsert(summary(), List.of(run));
    Map<String, String> row = Summary.read(summary()).get(0);

    assertEquals("37", row.get("slow_disk_reads"));
    assertEquals("", row.get("slow_disk_reads_per_slow_get"));
  }

  @Test
  void rowsOfAFileWrittenBeforeTheReplaysGetTheirColumnsEmpty() throws IOException {
    Files.createDirectories(summary().getParent());
    Files.writeString(summary(), "system,workload,record_size,throughput,fast_hit_rate,"
        + "oracle_hit_rate\nrocksdb-fd,ro-hotspot5,1024,99.0,1.0000,0.9507\n");

    Summary.upsert(summary(), List.of(Runs.run("hotrap", "ro-hotspot5", 1024, 10)));
    List<Map<String, String>> rows = Summary.read(summary());

    assertEquals(Summary.COLUMNS, List.copyOf(rows.get(0).keySet()));
    assertEquals("0.9507", rows.get(0).get("oracle_hit_rate"));
    assertEquals("", rows.get(0).get("belady_hit_rate"));
    assertEquals("", rows.get(0).get("lru_hit_rate"));
    assertEquals("0.9600", rows.get(1).get("belady_hit_rate"));
    assertEquals("0.8100", rows.get(1).get("lru_hit_rate"));
    assertEquals("", rows.get(0).get("slow_disk_reads"));
    assertEquals("", rows.get(0).get("slow_disk_reads_per_slow_get"));
    assertEquals("123456", rows.get(1).get("slow_disk_reads"));
    assertEquals("1.2346", rows.get(1).get("slow_disk_reads_per_slow_get"));
  }

  @Test
  void columnsTheFileHasBeyondTheKnownOnesAreKept() throws IOException {
    Files.createDirectories(summary().getParent());
    Files.writeString(summary(), "system,workload,record_size,throughput,note\n"
        + "rocksdb-fd,ro-hotspot5,1024,99.0,\"kept, as is\"\n");

    Summary.upsert(summary(), List.of(Runs.run("hotrap", "ro-hotspot5", 1024, 10)));
    List<Map<String, String>> rows = Summary.read(summary());

    assertEquals("note", List.copyOf(rows.get(0).keySet()).get(Summary.COLUMNS.size()));
    assertEquals("kept, as is", rows.get(0).get("note"));
    assertEquals("", rows.get(1).get("note"));
    assertEquals("hotrap", rows.get(1).get("system"));
  }
}
