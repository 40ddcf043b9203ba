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
 * upper bound) when those systems ran the same workload, the fast-tier hit rate and the oracle's,
 * get latency p50 and p99, and the byte counters of the last sample in MiB. Values that are not
 * numbers show as a dash. Of several runs with the same system, workload and record size the last
 * is reported.
 */
public final class MarkdownReport {

  static final String BASELINE = "rocksdb-tiered";
  static final String UPPER_BOUND = "rocksdb-fd";

  private static final String DASH = "–";
  private static final double MIB = 1024.0 * 1024.0;

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
    md.append("Throughput is measured over the final 10% of the run; the fast-tier hit rate is ")
        .append("the share of gets served without reading the slow tier, next to the oracle's hit ")
        .append("rate for the hot-set limit. Byte counts are totals at the end of the run.\n\n");
    md.append("![Throughput by workload](").append(Plots.FINAL_THROUGHPUT_FILE).append(")\n\n");

    for (List<RunResult> group : groups(results)) {
      RunResult first = group.get(0);
      md.append("## ").append(first.workload()).append(", ")
          .append(Plots.recordSize(first.recordBytes())).append(" records\n\n");
      table(md, group);
      md.append('\n');
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
    header.addAll(List.of("Fast hit rate", "Oracle", "Get p50 / p99 (µs)",
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
