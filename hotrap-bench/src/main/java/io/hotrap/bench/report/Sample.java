package io.hotrap.bench.report;

/**
 * One second of a run, as the harness samples it (DESIGN.md §12). Rates and latencies are over the
 * second that ends at {@code elapsedSeconds}; byte counters are cumulative since the run phase began.
 *
 * @param elapsedSeconds seconds since the run phase began
 * @param phase the workload phase in force (e.g. {@code hotspot-3%} of the dynamic workload), or
 *     {@code run}
 * @param operations operations completed in this second
 * @param throughput operations per second in this second
 * @param fastHitRate share of this second's gets served without reading the slow tier, NaN when
 *     there were no gets
 * @param p50GetMicros median get latency in this second
 * @param p99GetMicros 99th percentile get latency in this second
 * @param promotedByFlushBytes bytes promoted by flush
 * @param promotedByCompactionBytes bytes promoted by compaction
 * @param retainedBytes bytes retained in the fast tier by migration
 * @param demotedBytes bytes demoted to the slow tier
 * @param fastCompactionBytes compaction and flush bytes written to the fast tier
 * @param slowCompactionBytes compaction bytes written to the slow tier
 * @param raltBytes bytes RALT read and wrote
 * @param raltCpuShare share of this process's CPU time spent in RALT's thread in this second
 * @param rssBytes resident set size of the process
 * @param hotSetLimitBytes RALT's hot-set size limit, 0 for systems without RALT
 * @param ioBytes bytes this process read from and wrote to storage devices since the run phase
 *     began ({@code read_bytes + write_bytes} of {@code /proc/self/io}: page-cache hits do not
 *     count, direct I/O does); -1 where not measured (no {@code /proc}, or a file written before
 *     the column existed)
 * @param fastDeviceReads reads the block device under the fast tier completed in this second, for
 *     every process on the machine ({@code BlockDeviceStat}); -1 where not measured (no such device,
 *     or a file written before the column existed)
 * @param fastDeviceReadMillis mean service time of those reads, milliseconds; NaN when not measured
 *     or there were none. On a shared machine this is the disk's latency as the host gives it: a
 *     system whose clients wait on fast-tier reads slows down when it rises
 * @param slowDeviceReads reads the block device under the slow tier completed in this second (the
 *     throttled loop device of {@code scripts/slowdisk.sh}); -1 where not measured
 * @param slowDeviceReadMillis mean service time of those reads after the throttle let them
 *     through, milliseconds; NaN when not measured or there were none
 */
public record Sample(
    double elapsedSeconds,
    String phase,
    long operations,
    double throughput,
    double fastHitRate,
    double p50GetMicros,
    double p99GetMicros,
    long promotedByFlushBytes,
    long promotedByCompactionBytes,
    long retainedBytes,
    long demotedBytes,
    long fastCompactionBytes,
    long slowCompactionBytes,
    long raltBytes,
    double raltCpuShare,
    long rssBytes,
    long hotSetLimitBytes,
    long ioBytes,
    long fastDeviceReads,
    double fastDeviceReadMillis,
    long slowDeviceReads,
    double slowDeviceReadMillis) {

  /** A sample without the device columns (a load summary, or a file written before them). */
  public Sample(double elapsedSeconds, String phase, long operations, double throughput,
      double fastHitRate, double p50GetMicros, double p99GetMicros, long promotedByFlushBytes,
      long promotedByCompactionBytes, long retainedBytes, long demotedBytes,
      long fastCompactionBytes, long slowCompactionBytes, long raltBytes, double raltCpuShare,
      long rssBytes, long hotSetLimitBytes, long ioBytes) {
    this(elapsedSeconds, phase, operations, throughput, fastHitRate, p50GetMicros, p99GetMicros,
        promotedByFlushBytes, promotedByCompactionBytes, retainedBytes, demotedBytes,
        fastCompactionBytes, slowCompactionBytes, raltBytes, raltCpuShare, rssBytes,
        hotSetLimitBytes, ioBytes, -1, Double.NaN, -1, Double.NaN);
  }
}
