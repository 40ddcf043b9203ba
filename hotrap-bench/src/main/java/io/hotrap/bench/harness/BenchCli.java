package io.hotrap.bench.harness;

import io.hotrap.bench.Directories;
import io.hotrap.bench.report.RunResult;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The harness's commands: {@code run}, {@code compare}, {@code quick} and {@code report}.
 *
 * <p>Exit codes: 0 on success, {@value #USAGE_ERROR} on a command line that cannot run (an unknown
 * option, system, workload or profile, a value out of range, a directory that cannot be created),
 * reported as one line on the error stream; 1 when a run fails, with the stack trace. Every
 * argument is checked before anything is written, so a mistyped command leaves no directory behind.
 */
@Command(name = "hotrap-bench", mixinStandardHelpOptions = true,
    versionProvider = BenchVersion.class,
    subcommands = {BenchCli.RunCommand.class, BenchCli.CompareCommand.class,
        BenchCli.QuickCommand.class, BenchCli.ReportCommand.class},
    description = "Benchmarks HotRAP against RocksDB on the same workloads (DESIGN.md §12).")
public final class BenchCli {
  /** Exit code of a command line that cannot run, as picocli's and the other commands'. */
  public static final int USAGE_ERROR = 2;

  private final PrintStream out;

  private BenchCli(PrintStream out) {
    this.out = out;
  }

  /**
   * Runs the harness command in {@code args} (its name first), printing results to {@code out}
   * and errors to {@code err}; returns the exit code.
   */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    return new CommandLine(new BenchCli(out))
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
        .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
        .setParameterExceptionHandler(BenchCli::usageError)
        .execute(args);
  }

  /** One line: the command, what is wrong, where to look. */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    String name = cl.getCommandName();
    String message = String.valueOf(e.getMessage()).strip().replaceAll("\\s*\\R\\s*", "; ");
    cl.getErr().println(name + ": " + message + " (see " + name + " --help)");
    return USAGE_ERROR;
  }

  /** A usage error of {@code spec}'s command, reported by {@link #usageError}. */
  static ParameterException userError(CommandSpec spec, String message) {
    return new ParameterException(spec.commandLine(), message);
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

    @Option(names = "--block-cache-mib",
        description = "Block cache of every system, MiB. Default: a 40th of the fast budget,"
            + " at least 8 MiB (HotRAP's default)")
    Long blockCacheMib;

    @Option(names = "--phase-ops",
        description = "Operations per phase of the dynamic workload (seven phases). Default: 8,000"
            + " per MiB of the fast budget")
    Long phaseOps;

    Path slow() {
      return slowDir != null ? slowDir : dir.resolve("slow");
    }

    Path results() {
      return out != null ? out : dir.resolve("results");
    }

    Matrix matrix(PrintStream log) {
      long cache = 0;
      if (blockCacheMib != null) {
        if (blockCacheMib <= 0 || blockCacheMib > Long.MAX_VALUE >> 20) {
          throw new IllegalArgumentException(
              "--block-cache-mib must be a positive number of MiB but was " + blockCacheMib);
        }
        cache = blockCacheMib << 20;
      }
      if (phaseOps != null && phaseOps <= 0) {
        throw new IllegalArgumentException(
            "--phase-ops must be a positive number of operations but was " + phaseOps);
      }
      return new Matrix(dir, slow(), results(), log, seed, !noDirectIo, cache)
          .dynamicPhaseOps(phaseOps == null ? 0 : phaseOps);
    }

    /**
     * Creates the work, slow and results directories, after every other argument was checked.
     *
     * @throws ParameterException naming the option whose directory cannot be created, and why
     */
    void createDirectories(CommandSpec spec) {
      create(spec, "--dir", dir);
      create(spec, "--slow-dir", slow());
      create(spec, "--out", results());
    }

    private static void create(CommandSpec spec, String option, Path path) {
      try {
        Directories.create(path);
      } catch (IllegalArgumentException e) {
        throw userError(spec, option + " " + e.getMessage());
      }
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
      long budget = budgetMib != null ? mibToBytes(budgetMib) : p.fastBudgetBytes();
      Duration run = duration != null ? parseDuration(duration) : p.runDuration();
      Duration dynamic = duration != null ? run : p.dynamicRunDuration();
      return new Profile(name, budget, run, dynamic, threads != null ? threads : p.threads(), runs);
    }
  }

  /**
   * {@code 90s}, {@code 2m}, {@code 500ms} or plain seconds.
   *
   * @throws IllegalArgumentException if {@code s} is not a positive duration
   */
  static Duration parseDuration(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    Duration d;
    try {
      if (t.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      } else if (t.endsWith("m")) {
        d = Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      } else {
        d = Duration.ofSeconds(Long.parseLong(t));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("--duration " + s + " is not a duration (e.g. 90s, 2m)");
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("--duration must be positive but was " + s);
    }
    return d;
  }

  @Command(name = "run", mixinStandardHelpOptions = true, versionProvider = BenchVersion.class,
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

    @ParentCommand BenchCli cli;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Profile p = checked(spec, () -> {
        Duration d = parseDuration(duration);
        return new Profile("custom", mibToBytes(budgetMib), d, d, threads,
            List.of(new Profile.Run(system, workload, recordBytes)));
      });
      return cli.run(spec, p, common);
    }
  }

  /** Completion candidates and validation of system names. */
  static final class SystemNames extends ArrayList<String> {
    SystemNames() {
      super(Systems.ALL);
    }
  }

  @Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = BenchVersion.class,
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

    @ParentCommand BenchCli cli;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Profile p = checked(spec, () -> select(Profile.named(profile)));
      return cli.run(spec, p, common);
    }

    private Profile select(Profile p) {
      if (systems != null) {
        systems.forEach(Systems::requireKnown);
      }
      Set<String> profileSystems = new LinkedHashSet<>();
      Set<String> profileWorkloads = new LinkedHashSet<>();
      List<Profile.Run> runs = new ArrayList<>();
      for (Profile.Run r : p.runs()) {
        profileSystems.add(r.system());
        profileWorkloads.add(r.workload());
        if ((systems == null || systems.contains(r.system()))
            && (workloads == null || workloads.contains(r.workload()))) {
          runs.add(r);
        }
      }
      if (runs.isEmpty()) {
        throw new IllegalArgumentException("no run of profile " + p.name() + " matches --systems "
            + (systems == null ? "(all)" : String.join(",", systems)) + " --workloads "
            + (workloads == null ? "(all)" : String.join(",", workloads)) + "; its systems: "
            + String.join(",", profileSystems) + "; its workloads: "
            + String.join(",", profileWorkloads));
      }
      return sizes.apply(p, p.name(), runs);
    }
  }

  @Command(name = "quick", mixinStandardHelpOptions = true, versionProvider = BenchVersion.class,
      description = "A few minutes on default directories under the working directory: RocksDB on"
          + " the fast disk, tiered RocksDB and HotRAP on hotspot-5% reads; prints a table and"
          + " writes CSV, Markdown and plots.")
  static final class QuickCommand implements Callable<Integer> {
    @Mixin Common common = new Common();
    @Mixin Sizes sizes = new Sizes();

    @ParentCommand BenchCli cli;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Profile p = checked(spec, () -> {
        Profile quick = Profile.quick();
        return sizes.apply(quick, quick.name(), quick.runs());
      });
      return cli.run(spec, p, common);
    }
  }

  @Command(name = "report", mixinStandardHelpOptions = true, versionProvider = BenchVersion.class,
      description = "Rebuilds summary.csv, README.md and the plots from the run CSVs under --out.")
  static final class ReportCommand implements Callable<Integer> {
    @Option(names = "--profile", defaultValue = "standard", description = "Default: ${DEFAULT-VALUE}")
    String profile;

    @Option(names = "--command",
        description = "The command that produced the runs, for README.md. Default: this one")
    String command;

    @Mixin Common common = new Common();

    @ParentCommand BenchCli cli;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Profile p = checked(spec, () -> Profile.named(profile));
      Path runs = common.results().resolve("runs");
      if (!Files.isDirectory(runs)) {
        throw userError(spec, "no run CSVs to report: " + runs + " is not a directory (--out or"
            + " --dir names where a run or compare wrote its results)");
      }
      checked(spec, () -> common.matrix(cli.out)).report(p,
          command != null ? command : commandLine());
      return 0;
    }
  }

  /** {@code check}'s value; its IllegalArgumentException becomes a usage error of the command. */
  private static <T> T checked(CommandSpec spec, Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw userError(spec, e.getMessage());
    }
  }

  private static long mibToBytes(long mib) {
    if (mib <= 0 || mib > Long.MAX_VALUE >> 20) {
      throw new IllegalArgumentException("--budget-mib must be a positive number of MiB but was "
          + mib);
    }
    return mib << 20;
  }

  /**
   * Checks the profile, creates the directories and runs it; prints the results table. Nothing
   * is written before the checks pass.
   */
  private int run(CommandSpec spec, Profile p, Common common) throws Exception {
    Matrix matrix = checked(spec, () -> {
      Matrix m = common.matrix(out);
      m.check(p);
      return m;
    });
    common.createDirectories(spec);
    List<RunResult> results = matrix.run(p, commandLine());
    out.println();
    out.println(table(results));
    out.println("results: " + common.results().toAbsolutePath());
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

  /**
   * A fixed-width table of results, then what the columns mean and, for runs whose slow disk's
   * reads were not counted, their slow disk (which says why).
   */
  static String table(List<RunResult> results) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "%-24s %-14s %6s %12s %9s %8s %8s %8s %10s %12s %11s %8s %9s%n", "system", "workload",
        "bytes", "ops/s", "fast hit", "oracle", "belady", "lru", "block hit", "slow reads",
        "slow rd/get", "p50 us", "p99 us"));
    Set<String> uncounted = new LinkedHashSet<>();
    for (RunResult r : results) {
      b.append(String.format(Locale.ROOT,
          "%-24s %-14s %6d %12.0f %9.4f %8.4f %8.4f %8.4f %10.4f %12s %11.4f %8.1f %9.0f%n",
          r.system(), r.workload(), r.recordBytes(), r.throughput(), r.fastHitRate(),
          r.oracleHitRate(), r.beladyHitRate(), r.lruHitRate(), r.blockCacheHitRate(),
          Matrix.slowReads(r.slowDiskReads()), r.slowDiskReads().perSlowGet(),
          r.p50GetMicros(), r.p99GetMicros()));
      if (!r.slowDiskReads().measured()) {
        uncounted.add(r.slowDisk());
      }
    }
    b.append("fast hit: gets served without reading the slow tier; oracle: the share of the"
        + " distribution's reads to the hottest records the hot-set limit holds; belady, lru:"
        + " Belady's MIN (the best any placement can do) and LRU replaying the run's own"
        + " operations with that many records, over its final 10% of gets; block hit: data"
        + " blocks the gets found in the block cache; slow reads: the slow disk's read I/Os by"
        + " this process over the whole run phase (compactions and migrations included), slow"
        + " rd/get: those per get that read the slow tier").append(System.lineSeparator());
    for (String disk : uncounted) {
      b.append("slow reads not counted: slow disk ").append(disk).append(System.lineSeparator());
    }
    return b.toString();
  }
}
