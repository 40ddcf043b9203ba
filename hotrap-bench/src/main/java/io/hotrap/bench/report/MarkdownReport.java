package io.hotrap.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A benchmark report in Markdown: the title, the command that produced it, notes on the machine,
 * then per workload and record size a table of the systems and links to the plots {@link Plots}
 * writes next to the report.
 *
 * <p>The table has one row per system in {@link SystemOrder}: throughput over the final 10% of the
 * run, its ratio to {@code rocksdb-tiered} (the paper's baseline) and to {@code rocksdb-fd} (the
 * upper bound) when those systems ran the same workload, the fast-tier hit rate and its three
 * references (the distribution's oracle, Belady's MIN and LRU over the run's own operations), the
 * data blocks' block cache hit rate, the slow disk's read I/Os over the run and per get that read
 * the slow tier ({@link SlowDiskReads}), get latency p50 and p99, and the byte counters of the last
 * sample in MiB. Values that are not numbers show as a dash. Of several runs with the same system,
 * workload and record size the last is reported. A section before the tables says what the
 * columns mean and why HotRAP can outrun {@code rocksdb-fd}; under a table where it did, a
 * sentence gives the two block cache hit rates.
 */
public final class MarkdownReport {

  static final String BASELINE = "rocksdb-tiered";
  static final String UPPER_BOUND = "rocksdb-fd";

  private static final String DASH = "–";
  private static final double MIB = 1024.0 * 1024.0;

  /** The columns, and why HotRAP can outrun the system that has every record on the fast disk. */
  static final String HOW_TO_READ = String.join("\n",
      "## How to read the tables",
      "",
      "- **Throughput** is measured over the final 10% of the run, with ratios to"
          + " `rocksdb-tiered` (the paper's baseline) and `rocksdb-fd` (all data on the fast disk).",
      "- **Fast hit rate**: the share of gets served without reading the slow tier (memtables,"
          + " the fast tier, HotRAP's promotion cache), over the final 10% of the run; 100% for"
          + " `rocksdb-fd` by definition.",
      "- **Oracle**: not a measurement but the best fast hit rate a fixed placement can reach: the"
          + " share of the run's reads that go to the most-read records that fit in HotRAP's"
          + " largest hot set (70% of the fast budget), computed from the workload's key"
          + " distribution. A system near it has found the hot records; no fixed set of records"
          + " on the fast disk does better.",
      "- **Belady** and **LRU** replay the run's own gets and writes, in the order the clients"
          + " issued them, with the oracle's capacity, over the final 10% of the gets. Belady's"
          + " MIN, knowing the future, keeps the records read again soonest: no placement can do"
          + " better on that run. It usually beats the oracle: MIN knows when each record comes"
          + " back, while for reads drawn independently from a fixed distribution the oracle's"
          + " fixed set is the best an online policy can do."
          + " LRU keeps the records accessed last, the simplest online policy. A write puts its"
          + " record in the set but is neither a hit nor a miss.",
      "- **Block cache hit rate**: the share of the data blocks the clients' gets looked up that"
          + " were in the block cache, over the final 10% of the run (index and filter blocks left"
          + " out), from RocksDB's per-thread perf context on the client threads, so background"
          + " compactions, migrations and promotions do not count.",
      "- **Slow disk reads / per slow get**: the read I/Os the benchmark process issued to the"
          + " throttled slow disk over the whole run phase (its blkio cgroup's"
          + " `blkio.throttle.io_serviced`), and those reads per get that read the slow tier (the"
          + " gets the fast hit rate does not count, over the whole run). The reads include"
          + " background compactions, migrations and promotions that read the slow tier, not only"
          + " the gets; a get whose data block the block cache misses costs at least one. A dash"
          + " where the slow directory was not on a throttled slow disk or the process was not in"
          + " its cgroup (the slow disk line under the table says which), or where no get read"
          + " the slow tier.",
      "- Byte counts are totals at the end of the run.",
      "",
      "**Why HotRAP can outrun `rocksdb-fd`.** Every system gets the same block cache (a 40th of"
          + " the fast budget, at least 8 MiB, unless `--block-cache-mib` sets it) and reads with"
          + " direct I/O, so each data block the cache misses is a disk read, whichever disk it is"
          + " on. `rocksdb-fd` keeps its records in key order, and a hotspot's hot keys are"
          + " scattered over the key space: with 1 KiB records in 4 KiB blocks, a 5% hotspot puts"
          + " a hot record in about 1 − 0.95⁴ ≈ 19% of the blocks, mostly one each, so caching the"
          + " hot set means caching about four times its size. HotRAP keeps its hot records in"
          + " the fast tier's files, which retention and promotion fill with hot records: the same"
          + " hot set takes about its own size in blocks. When the hot set is larger than the"
          + " block cache but its packed blocks fit, as in the quick profile (4.4 MiB of hot"
          + " records, 17 MiB of `rocksdb-fd` blocks holding them, an 8 MiB cache), HotRAP serves"
          + " most gets from memory while `rocksdb-fd` reads the disk for more than half of them;"
          + " the block cache hit rate column shows it. The lead comes from packing, not from the"
          + " fast disk: with a block cache that holds `rocksdb-fd`'s hot blocks too"
          + " (`--block-cache-mib 24` in the quick profile) its hit rate and throughput rise to"
          + " HotRAP's.",
      "",
      "");

  private MarkdownReport() {}

  /**
   * The report as Markdown text.
   *
   * @param title the top heading
   * @param commandLine the command that ran the benchmark, shown as code; omitted when null or
   *     blank
   * @param machineNotes free text about the machine and disks; omitted when null or blank
   */
  public static String render(List<RunResult> results, String title, String commandLine,
      String machineNotes) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(title).append("\n\n");
    if (commandLine != null && !commandLine.isBlank()) {
      md.append("Command:\n\n```\n").append(commandLine.strip()).append("\n```\n\n");
    }
    if (machineNotes != null && !machineNotes.isBlank()) {
      md.append("## Machine\n\n").append(machineNotes.strip()).append("\n\n");
    }
    if (results.isEmpty()) {
      md.append("No runs.\n");
      return md.toString();
    }
    md.append(HOW_TO_READ);
    md.append("![Throughput by workload](").append(Plots.FINAL_THROUGHPUT_FILE).append(")\n\n");

    for (List<RunResult> group : groups(results)) {
      RunResult first = group.get(0);
      md.append("## ").append(first.workload()).append(", ")
          .append(Plots.recordSize(first.recordBytes())).append(" records\n\n");
      table(md, group);
      md.append('\n');
      String denser = fasterThanUpperBound(group);
      if (denser != null) {
        md.append(denser).append("\n\n");
      }
      Set<String> profiles = new LinkedHashSet<>();
      Set<String> disks = new LinkedHashSet<>();
      for (RunResult r : group) {
        profiles.add(r.profile());
        disks.add(r.slowDisk());
      }
      md.append("Profile ").append(String.join(", ", profiles)).append("; slow disk ")
          .append(String.join("; ", disks)).append(".\n\n");
      md.append("![").append(first.workload()).append(" over time](")
          .append(Plots.timeSeriesFileName(first.workload(), first.recordBytes())).append(")\n\n");
      for (RunResult r : group) {
        if (Plots.showsHotSetLimit(r)) {
          md.append("![").append(r.system()).append(" hot-set limit](")
              .append(Plots.hotSetLimitFileName(r)).append(")\n\n");
        }
      }
    }
    return md.toString();
  }

  /** Renders the report and replaces {@code file} with it atomically. */
  public static void write(Path file, List<RunResult> results, String title, String commandLine,
      String machineNotes) throws IOException {
    AtomicFile.writeString(file, render(results, title, commandLine, machineNotes));
  }

  private static void table(StringBuilder md, List<RunResult> group) {
    RunResult baseline = find(group, BASELINE);
    RunResult upperBound = find(group, UPPER_BOUND);
    List<String> header = new ArrayList<>(List.of("System", "Throughput (ops/s)"));
    if (baseline != null) {
      header.add("× " + BASELINE);
    }
    if (upperBound != null) {
      header.add("× " + UPPER_BOUND);
    }
    header.addAll(List.of("Fast hit rate", "Oracle", "Belady", "LRU", "Block cache hit rate",
        "Slow disk reads / per slow get", "Get p50 / p99 (µs)",
        "Promoted flush / compaction (MiB)", "Demoted (MiB)", "Compaction fast / slow (MiB)"));
    row(md, header);
    List<String> rule = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      rule.add(i == 0 ? "---" : "---:");
    }
    row(md, rule);

    for (RunResult r : group) {
      Sample last = r.last();
      List<String> cells = new ArrayList<>();
      cells.add(r.system());
      cells.add(number("%,.0f", r.throughput()));
      if (baseline != null) {
        cells.add(ratio(r.throughput(), baseline.throughput()));
      }
      if (upperBound != null) {
        cells.add(ratio(r.throughput(), upperBound.throughput()));
      }
      cells.add(percent(r.fastHitRate()));
      cells.add(percent(r.oracleHitRate()));
      cells.add(percent(r.beladyHitRate()));
      cells.add(percent(r.lruHitRate()));
      cells.add(percent(r.blockCacheHitRate()));
      SlowDiskReads slow = r.slowDiskReads();
      cells.add((slow.measured() ? String.format(Locale.ROOT, "%,d", slow.reads()) : DASH) + " / "
          + number("%.3f", slow.perSlowGet()));
      cells.add(number("%.1f", r.p50GetMicros()) + " / " + number("%.1f", r.p99GetMicros()));
      if (last == null) {
        cells.addAll(List.of(DASH, DASH, DASH));
      } else {
        cells.add(mib(last.promotedByFlushBytes()) + " / " + mib(last.promotedByCompactionBytes()));
        cells.add(mib(last.demotedBytes()));
        cells.add(mib(last.fastCompactionBytes()) + " / " + mib(last.slowCompactionBytes()));
      }
      row(md, cells);
    }
  }

  /**
   * When {@code hotrap} outran {@code rocksdb-fd} in {@code group} and found more of its data
   * blocks in the block cache, a sentence that says so with both rates; else null.
   */
  static String fasterThanUpperBound(List<RunResult> group) {
    RunResult hotrap = find(group, "hotrap");
    RunResult fd = find(group, UPPER_BOUND);
    if (hotrap == null || fd == null || !(hotrap.throughput() > fd.throughput())
        || !(hotrap.blockCacheHitRate() > fd.blockCacheHitRate())) {
      return null;
    }
    return "`hotrap` outran `" + UPPER_BOUND + "` here (" + ratio(hotrap.throughput(),
        fd.throughput()) + ") because its gets found " + percent(hotrap.blockCacheHitRate())
        + " of their data blocks in the block cache against " + percent(fd.blockCacheHitRate())
        + " for `" + UPPER_BOUND + "`: its fast tier packs the hot records into few blocks"
        + " (see \"Why HotRAP can outrun `" + UPPER_BOUND + "`\" above).";
  }

  /** Runs grouped by workload and record size, groups and systems in report order. */
  private static List<List<RunResult>> groups(List<RunResult> results) {
    Comparator<RunResult> byWorkload =
        Comparator.comparing(RunResult::workload).thenComparingInt(RunResult::recordBytes);
    Map<RunResult, Map<String, RunResult>> groups = new TreeMap<>(byWorkload);
    for (RunResult r : results) {
      groups.computeIfAbsent(r, k -> new TreeMap<>(SystemOrder.COMPARATOR)).put(r.system(), r);
    }
    List<List<RunResult>> out = new ArrayList<>();
    for (Map<String, RunResult> g : groups.values()) {
      out.add(new ArrayList<>(g.values()));
    }
    return out;
  }

  private static RunResult find(List<RunResult> group, String system) {
    for (RunResult r : group) {
      if (r.system().equals(system)) {
        return r;
      }
    }
    return null;
  }

  private static void row(StringBuilder md, List<String> cells) {
    md.append('|');
    for (String c : cells) {
      md.append(' ').append(c.replace("|", "\\|")).append(" |");
    }
    md.append('\n');
  }

  static String ratio(double value, double reference) {
    if (!Double.isFinite(value) || !Double.isFinite(reference) || reference <= 0) {
      return DASH;
    }
    return String.format(Locale.ROOT, "%.2f×", value / reference);
  }

  private static String percent(double rate) {
    return Double.isFinite(rate) ? String.format(Locale.ROOT, "%.1f%%", rate * 100) : DASH;
  }

  private static String number(String format, double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : DASH;
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%,.1f", bytes / MIB);
  }
}
