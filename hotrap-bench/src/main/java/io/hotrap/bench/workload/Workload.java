package io.hotrap.bench.workload;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A benchmark workload of HotRAP §4 (DESIGN.md §12): a load phase that writes the records, then a
 * run phase of reads and writes whose keys follow a distribution. Named {@code <mix>-<distribution>}
 * (for example {@code RO-hotspot5}, {@code RW-zipf}, {@code UH-dynamic}) or {@code trace:<path>}.
 *
 * <p>Distributions, over the loaded ids {@code [0, records)}:
 *
 * <ul>
 *   <li>{@code hotspotN}: N percent of the keys (0 &lt; N &lt; 100, e.g. {@code hotspot5},
 *       {@code hotspot0.5}) get 95% of the operations, uniformly; the rest get 5%;
 *   <li>{@code zipf}: Zipfian with {@link WorkloadParams#zipfS()}, or with the exponent the name
 *       gives ({@code zipf0.8}); {@code zipfian} is accepted for {@code zipf};
 *   <li>{@code uniform};
 *   <li>{@code exprangeR}: db_bench's {@code read_random_exp_range} with range R, SAS-Cache's
 *       read-only workload (e.g. {@code ro-exprange5});
 *   <li>{@code latest}: Zipfian over recency: the newest key is the most popular, then the one
 *       before it, and so on, over the {@code records} newest keys. Newest means highest id: with
 *       an inserting mix the inserts of all threads count, in the order they were acknowledged;
 *   <li>{@code dynamic}: the workload of the paper's Fig. 15, seven phases with equal operation
 *       counts whose hot set (95% of the operations) grows, moves and shrinks: uniform, then the
 *       hottest 1%, 3% and 5% of the popularity ranks, then a disjoint 5% (the ranks right after the
 *       first 5%), then the first 4% and 2% of that shifted set.
 * </ul>
 *
 * Popularity ranks are spread over the key ids by a permutation seeded with
 * {@link WorkloadParams#seed()}, shared by all phases, so a hot set is scattered over the key space
 * and a moved hot set is made of other keys.
 *
 * <p>Writes: {@code RW} and {@code WH} insert records with ids from {@code records} up, never the
 * same id twice (thread t of n inserts {@code records + t + k·n} for k = 0, 1, ...; {@code latest}
 * takes the next id of a sequence its threads share); {@code UH} updates loaded records, with the
 * keys drawn like the reads'. Values are
 * {@link WorkloadParams#valueBytes()} long. A trace ({@link Trace} describes the format) instead
 * replays its operations with their own keys and value sizes; see {@link #runner} for how.
 *
 * <p>Determinism: the operations of {@code loader(t, n)} and {@code runner(t, n)} depend only on
 * the name, the parameters, t and n. The exception is {@code latest} with an inserting mix: which
 * keys are newest depends on how the threads' inserts interleave.
 *
 * <p>Thread-safe: one instance serves all threads of a run, each with its own generators. Use a
 * fresh instance per run, since {@code latest} counts inserts across its runners.
 */
public final class Workload {

  /** {@link Operation#phase} of the load phase. */
  public static final String LOAD_PHASE = "load";

  /** The single phase of every workload but {@code dynamic}. */
  public static final String RUN_PHASE = "run";

  /** Share of the operations that go to a hotspot's hot keys (HotRAP §4). */
  static final double HOT_SHARE = 0.95;

  private static final String TRACE_PREFIX = "trace:";

  private static final String ACCEPTED = "accepted: <mix>-<distribution> with mix RO, RW, WH,"
      + " UH or RU and distribution hotspotN (0 < N < 100, e.g. hotspot5), zipf, zipfS (S > 0, e.g."
      + " zipf0.8), exprangeR (R > 0, e.g. exprange5), uniform, latest or dynamic; or trace:<path>";

  private static final List<String> DYNAMIC_PHASES = List.of("uniform", "hotspot-1%",
      "hotspot-3%", "hotspot-5%", "hotspot-5%-shifted", "hotspot-4%", "hotspot-2%");

  private final String name;
  private final Mix mix;
  private final String distribution;
  private final WorkloadParams params;
  private final List<String> phases;
  /** One per phase; null for a trace. */
  private final RankDistribution[] distributions;
  private final boolean scrambled;
  private final boolean recency;
  /** Shared insert ids of {@code latest} with an inserting mix, else null. */
  private final InsertSequence inserts;
  /** The replayed trace, else null. */
  private final Trace trace;

  /** Popularity rank to key id, built on first use; guarded by this. */
  private int[] rankToId;
  /** For a trace's oracle, built on first use; guarded by this. */
  private long[] cumulativeReads;

  private Workload(String name, Mix mix, String distribution, WorkloadParams params,
      List<String> phases, RankDistribution[] distributions, boolean scrambled, boolean recency,
      Trace trace) {
    this.name = name;
    this.mix = mix;
    this.distribution = distribution;
    this.params = params;
    this.phases = phases;
    this.distributions = distributions;
    this.scrambled = scrambled;
    this.recency = recency;
    this.inserts = recency && mix.writesInsert() ? new InsertSequence(params.records()) : null;
    this.trace = trace;
  }

  /**
   * The workload {@code name} names, sized by {@code params}. A trace is read whole here.
   *
   * @throws IllegalArgumentException for a name that is not one of the accepted forms (the message
   *     lists them), a distribution that does not fit {@code params.records()}, or a trace that is
   *     missing or malformed (the message names the file and line)
   * @throws java.io.UncheckedIOException if reading a trace fails
   */
  public static Workload parse(String name, WorkloadParams params) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(params, "params");
    String trimmed = name.strip();
    if (trimmed.startsWith(TRACE_PREFIX)) {
      return trace(trimmed.substring(TRACE_PREFIX.length()), params);
    }
    int dash = trimmed.indexOf('-');
    if (dash < 0) {
      throw new IllegalArgumentException("unknown workload '" + name + "'; " + ACCEPTED);
    }
    Mix mix = mix(trimmed.substring(0, dash), name);
    String dist = trimmed.substring(dash + 1).toLowerCase(Locale.ROOT);
    int n = (int) params.records();
    String canonical = mix.name().toLowerCase(Locale.ROOT) + "-" + dist;
    if (dist.equals("uniform")) {
      return generated(canonical, mix, dist, params, RankDistribution.uniform(n), false);
    }
    if (dist.equals("latest")) {
      RankDistribution zipf = RankDistribution.zipfian(n, params.zipfS());
      return new Workload(canonical, mix, dist, params, List.of(RUN_PHASE),
          new RankDistribution[] {zipf}, false, true, null);
    }
    if (dist.equals("dynamic")) {
      return new Workload(canonical, mix, dist, params, DYNAMIC_PHASES, dynamic(n, name), true,
          false, null);
    }
    if (dist.startsWith("hotspot")) {
      double percent = number(dist.substring("hotspot".length()), name);
      if (!(percent > 0 && percent < 100)) {
        throw new IllegalArgumentException("hotspot percentage in '" + name
            + "' must be in (0, 100) but was " + dist.substring("hotspot".length()));
      }
      int hot = RankDistribution.count(n, percent / 100);
      return generated(canonical, mix, dist, params,
          RankDistribution.hotspot(n, 0, hot, HOT_SHARE), true);
    }
    if (dist.startsWith("exprange")) {
      double range = number(dist.substring("exprange".length()), name);
      if (!(range > 0) || Double.isInfinite(range)) {
        throw new IllegalArgumentException("Exp range in '" + name + "' must be positive but was "
            + dist.substring("exprange".length()));
      }
      return generated(canonical, mix, dist, params, RankDistribution.expRange(n, range), true);
    }
    if (dist.startsWith("zipf")) {
      String rest = dist.substring(dist.startsWith("zipfian") ? 7 : 4);
      double s = rest.isEmpty() ? params.zipfS() : number(rest, name);
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException(
            "Zipfian exponent in '" + name + "' must be positive but was " + rest);
      }
      return generated(canonical, mix, dist, params, RankDistribution.zipfian(n, s), true);
    }
    throw new IllegalArgumentException(
        "unknown distribution '" + dist + "' in workload '" + name + "'; " + ACCEPTED);
  }

  /** The name, normalized: {@code ro-hotspot5}, {@code trace:/x/y.txt}. */
  public String name() {
    return name;
  }

  /** The read/write mix; null for a trace, whose operations say what they are. */
  public Mix mix() {
    return mix;
  }

  /** The distribution part of the name ({@code hotspot5}, {@code zipf0.8}), or {@code trace}. */
  public String distribution() {
    return distribution;
  }

  /** The parameters the workload was built with. */
  public WorkloadParams params() {
    return params;
  }

  /**
   * Records the load phase writes: {@code params.records()} (key ids {@code 0 .. records - 1}), or
   * for a trace the distinct keys whose first mention is a read (a key the trace writes before
   * reading it needs no load).
   */
  public long loadRecords() {
    return trace != null ? trace.loadCount() : params.records();
  }

  /**
   * Thread {@code thread}'s part of the load phase: inserts of the {@code thread}-th of
   * {@code threads} contiguous, near-equal ranges of the records to load, in a scattered order
   * ({@link RangeLoader}); together the threads write every record exactly once. Values are
   * {@code params.valueBytes()} long, or for a trace as long as the first read says.
   */
  public OperationGenerator loader(int thread, int threads) {
    checkThread(thread, threads);
    long total = loadRecords();
    long from = total * thread / threads;
    long to = total * (thread + 1) / threads;
    if (trace != null) {
      return new TraceLoader(trace, (int) from, (int) to, LOAD_PHASE);
    }
    return new RangeLoader(from, to, streamSeed(params.seed(), 1, thread, threads),
        params.valueBytes(), LOAD_PHASE);
  }

  /**
   * Thread {@code thread}'s part of the run phase.
   *
   * <p>Generated workloads: {@code params.runOperations() / threads} operations, the first
   * {@code runOperations % threads} threads one more, with a random source seeded from the seed,
   * {@code thread} and {@code threads}. In {@code dynamic}, operation i of a thread of share m is in
   * phase {@code floor(7·i / m)}.
   *
   * <p>Traces: the operations whose index is {@code thread} modulo {@code threads}, among the first
   * {@code min(trace length, params.runOperations())}; the budget caps a trace but never repeats
   * one. The order between threads is not kept.
   *
   * <p>The first runner of a scrambled distribution builds the rank-to-id permutation, an
   * {@code int} per record (seconds and 200 MB for 50 million records); create the runners before
   * starting a clock.
   */
  public OperationGenerator runner(int thread, int threads) {
    checkThread(thread, threads);
    if (trace != null) {
      return new TraceReplay(trace, thread, threads, traceLimit(), RUN_PHASE);
    }
    long total = params.runOperations();
    long share = total / threads + (thread < total % threads ? 1 : 0);
    SplittableRandom random =
        new SplittableRandom(streamSeed(params.seed(), 2, thread, threads));
    return new GeneratedRunner(random, share, mix, distributions,
        phases.toArray(new String[0]), scrambled ? rankToId() : null, recency, inserts,
        params.records(), params.valueBytes(), thread, threads);
  }

  /** The names of the run phases in order: seven for {@code dynamic}, else {@value #RUN_PHASE}. */
  public List<String> phases() {
    return phases;
  }

  /**
   * The oracle hit rate (DESIGN.md §12): the share of run-phase reads that go to the
   * {@code capacityRecords} most read records, the best any placement of that many records can do.
   * Exact for hotspot, Zipfian and uniform; for {@code dynamic}, the mean over its phases (each
   * phase with its own best set); for {@code latest}, the Zipfian value, which holds while the
   * newest keys stay in place; for a trace, counted from the key frequencies of the reads it
   * replays, and NaN if it replays no read.
   */
  public double oracleHitRate(long capacityRecords) {
    if (trace != null) {
      long[] cumulative = cumulativeReads();
      if (cumulative.length == 0) {
        return Double.NaN;
      }
      if (capacityRecords <= 0) {
        return 0;
      }
      int top = (int) Math.min(capacityRecords, cumulative.length);
      return (double) cumulative[top - 1] / cumulative[cumulative.length - 1];
    }
    double sum = 0;
    for (RankDistribution d : distributions) {
      sum += d.topShare(capacityRecords);
    }
    return sum / distributions.length;
  }

  @Override
  public String toString() {
    return name;
  }

  private static Workload generated(String name, Mix mix, String dist, WorkloadParams params,
      RankDistribution distribution, boolean scrambled) {
    return new Workload(name, mix, dist, params, List.of(RUN_PHASE),
        new RankDistribution[] {distribution}, scrambled, false, null);
  }

  private static Workload trace(String file, WorkloadParams params) {
    if (file.isBlank()) {
      throw new IllegalArgumentException("trace workload needs a path: trace:<path>");
    }
    Path path;
    try {
      path = Path.of(file);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("invalid trace path '" + file + "': " + e.getMessage(), e);
    }
    Trace trace = Trace.read(path, params.valueBytes());
    return new Workload(TRACE_PREFIX + file, null, "trace", params, List.of(RUN_PHASE), null,
        false, false, trace);
  }

  /** The phases of {@code dynamic}, in {@link #DYNAMIC_PHASES} order. */
  private static RankDistribution[] dynamic(int n, String name) {
    int five = RankDistribution.count(n, 0.05);
    if (2L * five > n) {
      throw new IllegalArgumentException("workload '" + name + "' needs two disjoint 5% hot sets,"
          + " which " + n + " records do not have");
    }
    return new RankDistribution[] {
        RankDistribution.uniform(n),
        RankDistribution.hotspot(n, 0, RankDistribution.count(n, 0.01), HOT_SHARE),
        RankDistribution.hotspot(n, 0, RankDistribution.count(n, 0.03), HOT_SHARE),
        RankDistribution.hotspot(n, 0, five, HOT_SHARE),
        RankDistribution.hotspot(n, five, five, HOT_SHARE),
        RankDistribution.hotspot(n, five, RankDistribution.count(n, 0.04), HOT_SHARE),
        RankDistribution.hotspot(n, five, RankDistribution.count(n, 0.02), HOT_SHARE),
    };
  }

  private static Mix mix(String token, String name) {
    for (Mix m : Mix.values()) {
      if (m.name().equalsIgnoreCase(token)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown mix '" + token + "' in workload '" + name + "'; " + ACCEPTED);
  }

  /** A plain decimal number such as {@code 5}, {@code 0.5} or {@code 1.2}. */
  private static double number(String digits, String name) {
    if (!digits.matches("[0-9]+(\\.[0-9]+)?|\\.[0-9]+")) {
      throw new IllegalArgumentException("expected a number after the distribution in '" + name
          + "' but found '" + digits + "'; " + ACCEPTED);
    }
    return Double.parseDouble(digits);
  }

  private static void checkThread(int thread, int threads) {
    if (threads <= 0) {
      throw new IllegalArgumentException("threads must be positive but was " + threads);
    }
    if (thread < 0 || thread >= threads) {
      throw new IllegalArgumentException(
          "thread must be in [0, " + threads + ") but was " + thread);
    }
  }

  private long traceLimit() {
    return Math.min(trace.size(), params.runOperations());
  }

  private synchronized int[] rankToId() {
    if (rankToId == null) {
      rankToId = AccessStream.permutation((int) params.records(), params.seed());
    }
    return rankToId;
  }

  private synchronized long[] cumulativeReads() {
    if (cumulativeReads == null) {
      cumulativeReads = trace.cumulativeReadCounts((int) traceLimit());
    }
    return cumulativeReads;
  }

  /**
   * The seed of one random stream: distinct for every (seed, purpose, thread, threads), and well
   * mixed, since {@link SplittableRandom} streams whose seeds differ by a multiple of its internal
   * increment are shifted copies of each other.
   */
  static long streamSeed(long seed, int purpose, int thread, int threads) {
    long z = mix64(seed);
    z = mix64(z ^ ((long) purpose << 56 | (long) threads << 28 | thread));
    return z;
  }

  /** A bijective 64-bit finalizer (xor-shift and odd-constant multiplies). */
  private static long mix64(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
