package io.hotrap.bench.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A named benchmark matrix with its sizes: which systems run which workloads, on how much data,
 * for how long. Every system of a profile gets the same fast budget and settings; the data set is
 * {@link #DATA_TO_BUDGET} times the budget, as in the paper (10 GB fast disk, 110 GB of data).
 *
 * @param name {@code quick}, {@code standard}, {@code paper} or {@code custom}
 * @param fastBudgetBytes the fast tier's budget
 * @param runDuration run phase of each run
 * @param dynamicRunDuration run phase of the dynamic workload (seven phases)
 * @param threads client threads
 * @param runs the matrix, in order
 */
public record Profile(String name, long fastBudgetBytes, Duration runDuration,
    Duration dynamicRunDuration, int threads, List<Run> runs) {

  /** Data set size over fast budget (HotRAP §4: 110 GB over 10 GB). */
  public static final int DATA_TO_BUDGET = 11;
  /** Key bytes of every record (HotRAP §4). */
  public static final int KEY_BYTES = 24;

  /** The systems of the main comparison. */
  static final List<String> MAIN = List.of("rocksdb-fd", "rocksdb-tiered", "hotrap");
  /** The ablations of HotRAP (paper Tables 3–5). */
  static final List<String> ABLATIONS = List.of("hotrap-no-retain", "hotrap-no-hotness-check",
      "hotrap-no-by-compaction", "hotrap-no-promotion");

  public Profile {
    runs = List.copyOf(runs);
  }

  /**
   * One entry of the matrix.
   *
   * @param system system name
   * @param workload workload name
   * @param recordBytes key + value bytes (1024 or 200)
   */
  public record Run(String system, String workload, int recordBytes) {}

  /** Records of {@code recordBytes} that make the data set. */
  public long records(int recordBytes) {
    return DATA_TO_BUDGET * fastBudgetBytes / recordBytes;
  }

  /** The run phase of {@code workload}. */
  public Duration duration(String workload) {
    return workload.endsWith("-dynamic") ? dynamicRunDuration : runDuration;
  }

  /** The profile called {@code name}. */
  public static Profile named(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "quick":
        return quick();
      case "standard":
        return standard();
      case "paper":
        return paper();
      default:
        throw new IllegalArgumentException(
            "unknown profile '" + name + "'; known: quick, standard, paper");
    }
  }

  /** A few minutes: the main systems on hotspot-5% reads, small data. */
  static Profile quick() {
    List<Run> runs = new ArrayList<>();
    for (String s : MAIN) {
      runs.add(new Run(s, "ro-hotspot5", 1024));
    }
    return new Profile("quick", 8L << 20, Duration.ofSeconds(30), Duration.ofSeconds(70), 4, runs);
  }

  /**
   * The main matrix in under an hour on a 2-core machine: the main systems on hotspot-5% RO and
   * RW, Zipfian RO and uniform RO and RW; every ablation on hotspot-5% RO; on hotspot-5% RW (where
   * inserts keep migration running) the ablations that act through migration; the hotness-check
   * ablation on uniform RO; the dynamic workload for HotRAP (its phases are counted in operations,
   * which tiered RocksDB on a throttled disk would take half an hour to get through).
   */
  static Profile standard() {
    List<Run> runs = new ArrayList<>();
    for (String w : List.of("ro-hotspot5", "rw-hotspot5", "ro-zipf", "ro-uniform", "rw-uniform")) {
      for (String s : Profile.MAIN) {
        runs.add(new Run(s, w, 1024));
      }
    }
    for (String s : ABLATIONS) {
      runs.add(new Run(s, "ro-hotspot5", 1024));
    }
    runs.add(new Run("hotrap-no-retain", "rw-hotspot5", 1024));
    runs.add(new Run("hotrap-no-by-compaction", "rw-hotspot5", 1024));
    runs.add(new Run("hotrap-no-hotness-check", "ro-uniform", 1024));
    runs.add(new Run("hotrap", "ro-dynamic", 1024));
    return new Profile("standard", 16L << 20, Duration.ofSeconds(80), Duration.ofSeconds(400), 4,
        runs);
  }

  /**
   * The paper's matrix at the largest scale this machine affords (fast:slow = 1:10): every system
   * on every mix of hotspot-5%, Zipfian and uniform, 1 KiB and 200 B records, and the dynamic
   * workload. Hours.
   */
  static Profile paper() {
    List<Run> runs = new ArrayList<>();
    for (int recordBytes : new int[] {1024, 200}) {
      for (String mix : List.of("ro", "rw", "wh", "uh")) {
        for (String dist : List.of("hotspot5", "zipf", "uniform")) {
          for (String s : Systems.ALL) {
            runs.add(new Run(s, mix + "-" + dist, recordBytes));
          }
        }
      }
    }
    runs.add(new Run("rocksdb-tiered", "ro-dynamic", 1024));
    runs.add(new Run("hotrap", "ro-dynamic", 1024));
    return new Profile("paper", 256L << 20, Duration.ofSeconds(600), Duration.ofSeconds(1400), 8,
        runs);
  }
}
