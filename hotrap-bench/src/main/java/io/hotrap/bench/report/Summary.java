package io.hotrap.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The results table shared by all runs ({@code docs/results/summary.csv}): one row per system,
 * workload and record size, so that running a workload again replaces its rows and leaves the
 * others.
 *
 * <p>Columns, in this order ({@link #COLUMNS}): {@code system, workload, record_size} (the key),
 * {@code throughput} (ops/s over the final 10% of the run, 1 decimal), {@code fast_hit_rate} (4
 * decimals), {@code p99_get_us} and {@code p50_get_us} (µs, 1 decimal), {@code oracle_hit_rate},
 * {@code belady_hit_rate} and {@code lru_hit_rate} (the references of {@link RunResult}, 4
 * decimals), {@code block_cache_hit_rate} (data blocks, final 10% of the run, 4 decimals),
 * {@code slow_disk_reads} and {@code slow_disk_reads_per_slow_get} (the slow disk's read I/Os over
 * the whole run phase and per get that read the slow tier, 4 decimals, {@link SlowDiskReads};
 * empty where not measured: the {@code slow_disk} column says why), {@code fast_device_read_ms} and
 * {@code slow_device_read_ms} (the mean service time of the reads of the block device under each
 * tier over the final 10% of the run, every process's reads, 3 decimals: {@link #deviceReadMillis};
 * empty where not sampled), then
 * the byte counters of the run's last sample ({@code promoted_by_flush_bytes}
 * ... {@code ralt_bytes}), {@code ralt_cpu_share} (the mean over the run's seconds of RALT's
 * thread's share of the process's CPU time) and {@code ralt_io_share} (RALT's bytes over the
 * process's storage I/O bytes over the run phase, an upper bound: {@link #raltIoShare}), for systems with a flash cache {@code flash_lookup_hit_ratio},
 * {@code overall_hit_ratio}, {@code flash_bytes_written} and {@code deleted_file_insert_share}
 * ({@link FlashResult}; empty for the others), {@code peak_rss_bytes}, {@code profile},
 * {@code slow_disk}, {@code commit} (of the code that made the run, {@code -dirty} when built from
 * a tree with changes not committed) and {@code timestamp} (when its run phase ended, UTC). A value
 * that is not a number, or a counter of a run without samples, is left empty. Columns the file
 * holds beyond these are kept, and left empty in new rows.
 *
 * <p>Rows are sorted by workload, record size (numerically), then system in {@link SystemOrder}.
 * Fields follow {@link Csv}. Not safe for concurrent upserts of the same file from several
 * processes: the last writer wins.
 */
public final class Summary {

  /** The share of a run, at its end, over which its throughput and device latencies are taken. */
  public static final double FINAL_SHARE = 0.1;

  /** How many of a run's {@code samples} seconds make its final {@link #FINAL_SHARE}: at least one. */
  public static int finalWindow(int samples) {
    return Math.max(1, (int) Math.ceil(samples * FINAL_SHARE));
  }

  public static final List<String> COLUMNS = List.of(
      "system",
      "workload",
      "record_size",
      "throughput",
      "fast_hit_rate",
      "p99_get_us",
      "p50_get_us",
      "oracle_hit_rate",
      "belady_hit_rate",
      "lru_hit_rate",
      "block_cache_hit_rate",
      "slow_disk_reads",
      "slow_disk_reads_per_slow_get",
      "fast_device_read_ms",
      "slow_device_read_ms",
      "promoted_by_flush_bytes",
      "promoted_by_compaction_bytes",
      "retained_bytes",
      "demoted_bytes",
      "fast_compaction_bytes",
      "slow_compaction_bytes",
      "ralt_bytes",
      "ralt_cpu_share",
      "ralt_io_share",
      "flash_lookup_hit_ratio",
      "overall_hit_ratio",
      "flash_bytes_written",
      "deleted_file_insert_share",
      "peak_rss_bytes",
      "profile",
      "slow_disk",
      "commit",
      "timestamp");

  /** Workload, then record size as a number, then the fixed system order. */
  static final Comparator<Map<String, String>> ROW_ORDER =
      Comparator.<Map<String, String>, String>comparing(row -> row.getOrDefault("workload", ""))
          .thenComparing(row -> row.getOrDefault("record_size", ""), Summary::compareNumbers)
          .thenComparing(row -> row.getOrDefault("system", ""), SystemOrder.COMPARATOR);

  private Summary() {}

  /**
   * Adds a row per result to {@code summaryCsv}, creating it (and its directory) when missing. A
   * row with the same system, workload and record size is replaced; of several results with the
   * same key the last wins. The file is replaced atomically.
   *
   * @throws IOException when the existing file cannot be read or parsed, or the new one written
   */
  public static void upsert(Path summaryCsv, List<RunResult> results) throws IOException {
    List<String> header = new ArrayList<>(COLUMNS);
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    if (Files.exists(summaryCsv)) {
      List<List<String>> records = records(summaryCsv);
      if (!records.isEmpty()) {
        for (String column : records.get(0)) {
          if (!header.contains(column)) {
            header.add(column);
          }
        }
      }
      for (Map<String, String> row : toMaps(records)) {
        rows.put(key(row), row);
      }
    }
    for (RunResult r : results) {
      Map<String, String> row = row(r);
      rows.put(key(row), row);
    }
    List<Map<String, String>> sorted = new ArrayList<>(rows.values());
    sorted.sort(ROW_ORDER);

    StringBuilder out = new StringBuilder();
    out.append(Csv.row(header)).append('\n');
    List<String> fields = new ArrayList<>(header.size());
    for (Map<String, String> row : sorted) {
      fields.clear();
      for (String column : header) {
        fields.add(row.getOrDefault(column, ""));
      }
      out.append(Csv.row(fields)).append('\n');
    }
    AtomicFile.writeString(summaryCsv, out.toString());
  }

  /**
   * The rows of a summary file, each a map from column name to field in header order.
   *
   * @throws java.nio.file.NoSuchFileException when the file does not exist
   * @throws IOException when it cannot be read or is not valid CSV
   */
  public static List<Map<String, String>> read(Path summaryCsv) throws IOException {
    return toMaps(records(summaryCsv));
  }

  /** The row {@link #upsert} writes for {@code r}, as a map from column name to field. */
  static Map<String, String> row(RunResult r) {
    Map<String, String> row = new LinkedHashMap<>();
    row.put("system", r.system());
    row.put("workload", r.workload());
    row.put("record_size", Integer.toString(r.recordBytes()));
    row.put("throughput", decimal(r.throughput(), 1));
    row.put("fast_hit_rate", decimal(r.fastHitRate(), 4));
    row.put("p99_get_us", decimal(r.p99GetMicros(), 1));
    row.put("p50_get_us", decimal(r.p50GetMicros(), 1));
    row.put("oracle_hit_rate", decimal(r.oracleHitRate(), 4));
    row.put("belady_hit_rate", decimal(r.beladyHitRate(), 4));
    row.put("lru_hit_rate", decimal(r.lruHitRate(), 4));
    row.put("block_cache_hit_rate", decimal(r.blockCacheHitRate(), 4));
    SlowDiskReads slow = r.slowDiskReads();
    row.put("slow_disk_reads", slow.measured() ? Long.toString(slow.reads()) : "");
    row.put("slow_disk_reads_per_slow_get", decimal(slow.perSlowGet(), 4));
    row.put("fast_device_read_ms", decimal(deviceReadMillis(r.samples(), Sample::fastDeviceReads,
        Sample::fastDeviceReadMillis), 3));
    row.put("slow_device_read_ms", decimal(deviceReadMillis(r.samples(), Sample::slowDeviceReads,
        Sample::slowDeviceReadMillis), 3));
    Sample last = r.last();
    row.put("promoted_by_flush_bytes", counter(last, Sample::promotedByFlushBytes));
    row.put("promoted_by_compaction_bytes", counter(last, Sample::promotedByCompactionBytes));
    row.put("retained_bytes", counter(last, Sample::retainedBytes));
    row.put("demoted_bytes", counter(last, Sample::demotedBytes));
    row.put("fast_compaction_bytes", counter(last, Sample::fastCompactionBytes));
    row.put("slow_compaction_bytes", counter(last, Sample::slowCompactionBytes));
    row.put("ralt_bytes", counter(last, Sample::raltBytes));
    row.put("ralt_cpu_share", decimal(raltCpuShare(r.samples()), 4));
    row.put("ralt_io_share", decimal(raltIoShare(last), 4));
    FlashResult flash = r.flash();
    row.put("flash_lookup_hit_ratio", flash == null ? "" : decimal(flash.lookupHitRatio(), 4));
    row.put("overall_hit_ratio", flash == null ? "" : decimal(flash.overallHitRatio(), 4));
    row.put("flash_bytes_written", flash == null || flash.bytesWritten() < 0 ? ""
        : Long.toString(flash.bytesWritten()));
    row.put("deleted_file_insert_share", flash == null ? ""
        : decimal(flash.deletedFileInsertShare(), 4));
    row.put("peak_rss_bytes", Long.toString(r.peakRssBytes()));
    row.put("profile", r.profile());
    row.put("slow_disk", r.slowDisk());
    row.put("commit", r.commit());
    row.put("timestamp", r.timestamp());
    return row;
  }

  /** The mean over the run's seconds of RALT's thread's share of the process's CPU time; NaN without samples. */
  static double raltCpuShare(List<Sample> samples) {
    double sum = 0;
    int n = 0;
    for (Sample s : samples) {
      if (Double.isFinite(s.raltCpuShare())) {
        sum += s.raltCpuShare();
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /**
   * The mean service time of a device's reads over the final 10% of the samples (the window of
   * the run's throughput), each second weighted by its reads; NaN when no sample in that window
   * measured a read. A run whose throughput swings while its hit rate holds can be read against
   * it: on a shared machine the disk's latency moves with the neighbours' load.
   */
  static double deviceReadMillis(List<Sample> samples, ToLongFunction<Sample> reads,
      ToDoubleFunction<Sample> millis) {
    int window = finalWindow(samples.size());
    double weighted = 0;
    long total = 0;
    for (Sample s : samples.subList(Math.max(0, samples.size() - window), samples.size())) {
      long n = reads.applyAsLong(s);
      double ms = millis.applyAsDouble(s);
      if (n > 0 && Double.isFinite(ms)) {
        weighted += n * ms;
        total += n;
      }
    }
    return total == 0 ? Double.NaN : weighted / total;
  }

  /**
   * RALT's bytes read and written over the process's storage I/O bytes, over the run phase; NaN
   * when the I/O was not measured or there was none. RALT counts the bytes it asks for, some of
   * which the page cache serves, so this is an upper bound on its share of device I/O.
   */
  static double raltIoShare(Sample last) {
    if (last == null || last.ioBytes() <= 0) {
      return Double.NaN;
    }
    return (double) last.raltBytes() / last.ioBytes();
  }

  private static String counter(Sample last, ToLongFunction<Sample> counter) {
    return last == null ? "" : Long.toString(counter.applyAsLong(last));
  }

  private static String decimal(double value, int places) {
    if (!Double.isFinite(value)) {
      return "";
    }
    return String.format(Locale.ROOT, "%." + places + "f", value);
  }

  private static String key(Map<String, String> row) {
    return Csv.row(List.of(row.getOrDefault("system", ""), row.getOrDefault("workload", ""),
        row.getOrDefault("record_size", "")));
  }

  private static List<List<String>> records(Path file) throws IOException {
    try {
      return Csv.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private static List<Map<String, String>> toMaps(List<List<String>> records) {
    if (records.isEmpty()) {
      return List.of();
    }
    List<String> header = records.get(0);
    List<Map<String, String>> rows = new ArrayList<>(records.size() - 1);
    for (List<String> record : records.subList(1, records.size())) {
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.size(); i++) {
        row.put(header.get(i), i < record.size() ? record.get(i) : "");
      }
      rows.add(row);
    }
    return rows;
  }

  /** Numbers by value, before anything that is not a number, which sorts as text. */
  private static int compareNumbers(String a, String b) {
    Long x = parseLong(a);
    Long y = parseLong(b);
    if (x != null && y != null) {
      return Long.compare(x, y);
    }
    if (x != null || y != null) {
      return x != null ? -1 : 1;
    }
    return a.compareTo(b);
  }

  private static Long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
