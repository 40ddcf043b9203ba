package io.hotrap.bench.report;

import java.util.List;
import java.util.Objects;

/**
 * Everything one run (one system on one workload) produced: its identity, the environment, the
 * per-second samples and the summary figures.
 *
 * @param system system name, e.g. {@code hotrap}, {@code rocksdb-tiered}
 * @param workload workload name, e.g. {@code ro-hotspot5}
 * @param recordBytes key plus value bytes of a record (1024 or 200)
 * @param profile profile name ({@code quick}, {@code standard}, {@code paper}) or {@code custom}
 * @param slowDisk how the slow directory was set up, e.g. {@code throttled loop7 (7:7) 500 IOPS
 *     64 MiB/s} or {@code unthrottled}
 * @param samples one per second of the run phase
 * @param throughput operations per second over the final 10% of the run phase
 * @param fastHitRate fast-tier hit rate over the final 10% of the run phase
 * @param p50GetMicros get latency median over the whole run phase
 * @param p99GetMicros get latency 99th percentile over the whole run phase
 * @param oracleHitRate the oracle hit rate for the workload's distribution and hot-set limit
 * @param beladyHitRate Belady's MIN over the run's own operations with the oracle's capacity, over
 *     the final 10% of the gets ({@link ReplayHitRates}); NaN when not computed
 * @param lruHitRate an exact LRU over the same operations, capacity and gets; NaN when not
 *     computed
 * @param peakRssBytes the largest resident set size seen
 * @param loadSeconds duration of the load phase
 * @param runSeconds duration of the run phase
 * @param blockCacheHitRate over the final 10% of the run phase, the share of the data blocks the
 *     clients' gets looked up in the block cache that were there (index and filter blocks left
 *     out); NaN when unknown or there was no lookup
 * @param slowDiskReads the slow disk's read I/Os and the gets that read the slow tier over the
 *     run phase, {@link SlowDiskReads#UNMEASURED} where they were not counted; never null
 * @param flash what the system's flash cache did, or null for a system without one
 * @param commit the commit of the code that made the run ({@code BenchVersion.commit}), empty
 *     where not recorded (files written before it was)
 * @param timestamp when the run phase ended, ISO-8601 UTC to the second, empty where not recorded
 */
public record RunResult(
    String system,
    String workload,
    int recordBytes,
    String profile,
    String slowDisk,
    List<Sample> samples,
    double throughput,
    double fastHitRate,
    double p50GetMicros,
    double p99GetMicros,
    double oracleHitRate,
    double beladyHitRate,
    double lruHitRate,
    long peakRssBytes,
    double loadSeconds,
    double runSeconds,
    double blockCacheHitRate,
    SlowDiskReads slowDiskReads,
    FlashResult flash,
    String commit,
    String timestamp) {

  public RunResult {
    samples = List.copyOf(samples);
    Objects.requireNonNull(slowDiskReads, "slowDiskReads");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(timestamp, "timestamp");
  }

  /** A result without the commit and time it was made (tests, older files). */
  public RunResult(String system, String workload, int recordBytes, String profile, String slowDisk,
      List<Sample> samples, double throughput, double fastHitRate, double p50GetMicros,
      double p99GetMicros, double oracleHitRate, double beladyHitRate, double lruHitRate,
      long peakRssBytes, double loadSeconds, double runSeconds, double blockCacheHitRate,
      SlowDiskReads slowDiskReads, FlashResult flash) {
    this(system, workload, recordBytes, profile, slowDisk, samples, throughput, fastHitRate,
        p50GetMicros, p99GetMicros, oracleHitRate, beladyHitRate, lruHitRate, peakRssBytes,
        loadSeconds, runSeconds, blockCacheHitRate, slowDiskReads, flash, "", "");
  }

  /** This result, stamped with the commit of the code that made it and the time it ended. */
  public RunResult stamped(String commit, String timestamp) {
    return new RunResult(system, workload, recordBytes, profile, slowDisk, samples, throughput,
        fastHitRate, p50GetMicros, p99GetMicros, oracleHitRate, beladyHitRate, lruHitRate,
        peakRssBytes, loadSeconds, runSeconds, blockCacheHitRate, slowDiskReads, flash, commit,
        timestamp);
  }

  /** A result of a system without a flash cache. */
  public RunResult(String system, String workload, int recordBytes, String profile, String slowDisk,
      List<Sample> samples, double throughput, double fastHitRate, double p50GetMicros,
      double p99GetMicros, double oracleHitRate, double beladyHitRate, double lruHitRate,
      long peakRssBytes, double loadSeconds, double runSeconds, double blockCacheHitRate,
      SlowDiskReads slowDiskReads) {
    this(system, workload, recordBytes, profile, slowDisk, samples, throughput, fastHitRate,
        p50GetMicros, p99GetMicros, oracleHitRate, beladyHitRate, lruHitRate, peakRssBytes,
        loadSeconds, runSeconds, blockCacheHitRate, slowDiskReads, null, "", "");
  }

  /** The last sample, or null when the run phase produced none. */
  public Sample last() {
    return samples.isEmpty() ? null : samples.get(samples.size() - 1);
  }
}
