package io.hotrap.bench.harness;

import io.hotrap.bench.report.RunResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The harness's commands: {@code run}, {@code compare}, {@code quick} and {@code report}. */
@Command(name = "hotrap-bench", mixinStandardHelpOptions = true,
    subcommands = {BenchCli.RunCommand.class, BenchCli.CompareCommand.class,
        BenchCli.QuickCommand.class, BenchCli.ReportCommand.class},
    description = "Benchmarks HotRAP against RocksDB on the same workloads (DESIGN.md §12).")
public final class BenchCli {

  private BenchCli() {}

  /** Runs the harness command in {@code args}; returns the exit code. */
  public static int execute(String[] args) {
    return new CommandLine(new BenchCli()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
  }

  /** Options every command shares: where data and results go. */
  static final class Common {
    @Option(names = "--dir", defaultValue = "hotrap-data/bench",
        description = "Work directory on the fast disk (data, templates). Default: ${DEFAULT-VALUE}")
    Path dir;

    @Option(names = "--slow-dir",
        description = "Slow-disk directory, e.g. a throttled loop mount from scripts/slowdisk.sh."
            + " Default: <dir>/slow (same disk, unthrottled)")
    Path slowDir;

    @Option(names = "--out", description = "Results directory. Default: <dir>/results")
    Path out;

    @Option(names = "--seed", defaultValue = "1", description = "Workload seed. Default: ${DEFAULT-VALUE}")
    long seed;

    @Option(names = "--no-direct-io", description = "Buffered I/O instead of direct I/O")
    boolean noDirectIo;

    Matrix matrix(PrintStream out) {
      Path slow = slowDir != null ? slowDir : dir.resolve("slow");
      Path results = this.out != null ? this.out : dir.resolve("results");
      return new Matrix(dir, slow, results, out, seed, !noDirectIo);
    }
  }

  /** Sizes a command may override. */
  static final class Sizes {
    @Option(names = "--budget-mib", description = "Fast budget, MiB (the data is 11× the budget)")
    Long budgetMib;

    @Option(names = "--duration", description = "Run phase, e.g. 60s or 2m")
    String duration;

    @Option(names = "--threads", description = "Client threads")
    Integer threads;

    Profile apply(Profile p, String name, List<Profile.Run> runs) {
      long budget = budgetMib != null ? budgetMib << 20 : p.fastBudgetBytes();
      Duration run = duration != null ? parseDuration(duration) : p.runDuration();
      Duration dynamic = duration != null ? run : p.dynamicRunDuration();
      return new Profile(name, budget, run, dynamic, threads != null ? threads : p.threads(), runs);
    }
  }

  static Duration parseDuration(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      if (t.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      return Duration.ofSeconds(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a duration: '" + s + "' (e.g. 90s, 2m)");
    }
  }

  @Command(name = "run", mixinStandardHelpOptions = true,
      description = "One system on one workload.")
  static final class RunCommand implements Callable<Integer> {
    @Option(names = "--system", required = true, description = "One of: ${COMPLETION-CANDIDATES}",
        completionCandidates = SystemNames.class)
    String system;

    @Option(names = "--workload", required = true,
        description = "<mix>-<distribution>: mix ro, rw, wh, uh; distribution hotspotN, zipf,"
            + " zipfS, uniform, latest, dynamic; or trace:<file>")
    String workload;

    @Option(names = "--record-bytes", defaultValue = "1024",
        description = "Key + value bytes (24-byte keys). Default: ${DEFAULT-VALUE}")
    int recordBytes;

    @Mixin Common common = new Common();
    @Option(names = "--budget-mib", defaultValue = "32", description = "Default: ${DEFAULT-VALUE}")
    long budgetMib;
    @Option(names = "--duration", defaultValue = "60s", description = "Default: ${DEFAULT-VALUE}")
    String duration;
    @Option(names = "--threads", defaultValue = "4", description = "Default: ${DEFAULT-VALUE}")
    int threads;

    @Override
    public Integer call() throws Exception {
      Systems.requireKnown(system);
      Duration d = parseDuration(duration);
      Profile p = new Profile("custom", budgetMib << 20, d, d, threads,
          List.of(new Profile.Run(system, workload, recordBytes)));
      return execute(p, common);
    }
  }

  /** Completion candidates and validation of system names. */
  static final class SystemNames extends ArrayList<String> {
    SystemNames() {
      super(Systems.ALL);
    }
  }

  @Command(name = "compare", mixinStandardHelpOptions = true,
      description = "A profile's matrix: quick (minutes), standard (under an hour), paper (hours).")
  static final class CompareCommand implements Callable<Integer> {
    @Option(names = "--profile", defaultValue = "standard", description = "Default: ${DEFAULT-VALUE}")
    String profile;

    @Option(names = "--systems", split = ",", description = "Only these systems")
    List<String> systems;

    @Option(names = "--workloads", split = ",", description = "Only these workloads")
    List<String> workloads;

    @Mixin Common common = new Common();
    @Mixin Sizes sizes = new Sizes();

    @Override
    public Integer call() throws Exception {
      Profile p = Profile.named(profile);
      List<Profile.Run> runs = new ArrayList<>();
      for (Profile.Run r : p.runs()) {
        if ((systems == null || systems.contains(r.system()))
            && (workloads == null || workloads.contains(r.workload()))) {
          runs.add(r);
        }
      }
      if (runs.isEmpty()) {
        throw new CommandLine.ParameterException(new CommandLine(this),
            "no run of profile " + profile + " matches the selection");
      }
      return execute(sizes.apply(p, p.name(), runs), common);
    }
  }

  @Command(name = "quick", mixinStandardHelpOptions = true,
      description = "A few minutes on default directories under the working directory: RocksDB on"
          + " the fast disk, tiered RocksDB and HotRAP on hotspot-5% reads; prints a table and"
          + " writes CSV, Markdown and plots.")
  static final class QuickCommand implements Callable<Integer> {
    @Mixin Common common = new Common();
    @Mixin Sizes sizes = new Sizes();

    @Override
    public Integer call() throws Exception {
      Profile p = Profile.quick();
      return execute(sizes.apply(p, p.name(), p.runs()), common);
    }
  }

  @Command(name = "report", mixinStandardHelpOptions = true,
      description = "Rebuilds summary.csv, README.md and the plots from the run CSVs under --out.")
  static final class ReportCommand implements Callable<Integer> {
    @Option(names = "--profile", defaultValue = "standard", description = "Default: ${DEFAULT-VALUE}")
    String profile;

    @Option(names = "--command",
        description = "The command that produced the runs, for README.md. Default: this one")
    String command;

    @Mixin Common common = new Common();

    @Override
    public Integer call() throws Exception {
      common.matrix(System.out).report(Profile.named(profile),
          command != null ? command : commandLine());
      return 0;
    }
  }

  static int execute(Profile p, Common common) throws Exception {
    PrintStream out = System.out;
    List<RunResult> results = common.matrix(out).run(p, commandLine());
    out.println();
    out.println(table(results));
    Path results2 = common.out != null ? common.out : common.dir.resolve("results");
    out.println("results: " + results2.toAbsolutePath());
    return 0;
  }

  static String commandLine() {
    return "java -jar hotrap-bench/target/hotrap-bench.jar "
        + String.join(" ", ProcessHandle.current().info().arguments().map(a -> {
          List<String> rest = new ArrayList<>();
          boolean after = false;
          for (String s : a) {
            if (after) {
              rest.add(s);
            } else if (s.endsWith(".jar")) {
              after = true;
            }
          }
          return rest;
        }).orElse(List.of()));
  }

  /** A fixed-width table of results. */
  static String table(List<RunResult> results) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-24s %-14s %6s %12s %9s %8s %9s%n",
        "system", "workload", "bytes", "ops/s", "fast hit", "oracle", "p99 us"));
    for (RunResult r : results) {
      b.append(String.format(Locale.ROOT, "%-24s %-14s %6d %12.0f %9.4f %8.4f %9.0f%n", r.system(),
          r.workload(), r.recordBytes(), r.throughput(), r.fastHitRate(), r.oracleHitRate(),
          r.p99GetMicros()));
    }
    return b.toString();
  }
}
