package io.hotrap.bench.report;

import java.util.Comparator;
import java.util.List;

/**
 * The order in which reports list systems: the two RocksDB references, HotRAP, then its ablations
 * from the mildest to the one that promotes nothing, then any other system alphabetically. Tables,
 * the summary file and plot legends all follow it, so a system keeps its place (and colour).
 */
final class SystemOrder {

  static final List<String> KNOWN = List.of(
      "rocksdb-fd",
      "rocksdb-tiered",
      "hotrap",
      "hotrap-no-retain",
      "hotrap-no-hotness-check",
      "hotrap-no-by-compaction",
      "hotrap-no-promotion",
      "rocksdb-sc",
      "sas-cache",
      "sas-cache-rec",
      "rocksdb-pcache",

      "hotrap-mem");

  static final Comparator<String> COMPARATOR =
      Comparator.comparingInt(SystemOrder::rank).thenComparing(Comparator.naturalOrder());

  private SystemOrder() {}

  /** The position of a known system, or {@code KNOWN.size()} for any other. */
  static int rank(String system) {
    int i = KNOWN.indexOf(system);
    return i < 0 ? KNOWN.size() : i;
  }
}
