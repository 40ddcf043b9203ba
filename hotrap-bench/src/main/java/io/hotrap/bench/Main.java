package io.hotrap.bench;

import io.hotrap.bench.harness.BenchCli;
import io.hotrap.bench.harness.BenchVersion;
import io.hotrap.bench.ralt.RaltDemo;
import io.hotrap.bench.ralt.RaltMemory;
import io.hotrap.bench.ralt.RaltWriteAmplification;
import io.hotrap.bench.ralt.RaltShift;
import io.hotrap.bench.ralt.RaltStages;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** Entry point of {@code hotrap-bench.jar}: one subcommand per measurement. */
public final class Main {

  private static final String USAGE = String.join("\n",
      "usage: java -jar hotrap-bench.jar <command> [options]",
      "       java -jar hotrap-bench.jar --version",
      "",
      "commands:",
      "  quick        a few minutes: RocksDB (fast disk), tiered RocksDB and HotRAP on hotspot-5%",
      "               reads; prints a table, writes CSV, Markdown and plots [--dir hotrap-data/bench]",
      "  run          one system on one workload (run --help)",
      "  compare      a profile's matrix: quick, standard, paper (compare --help)",
      "  report       rebuilds summary, README and plots from run CSVs (report --help)",
      "  disk-probe   4 KiB random direct-read IOPS and sequential MiB/s of a directory",
      "               [--dir .] [--seconds 5] [--file-mib 256] [--threads 1]",
      "  demo         RALT on a hotspot-5% stream over 1M keys: stats, recall, limits, speed",
      "               [--dir hotrap-data/ralt-demo] [--keys 1000000] [--accesses 4000000]",
      "               [--fast-disk-mib 200] [--seed 1]",
      "  ralt-memory  memory per tracked hot key: RALT's account, JVM heap and buffer pools",
      "               [--dir hotrap-data/ralt-memory] [--keys 4000000] [--hot-fraction 0.05]",
      "               [--accesses 6000000] [--fast-disk-mib data/5] [--seed 3]",
      "  ralt-shift   RALT alone through a shift of a hotspot-5% to a disjoint one: hit rate per",
      "               window and accesses until back within 2 points [--dir hotrap-data/ralt-shift]",
      "               [--keys 180224] [--before 1200000] [--after 600000] [--fast-disk-mib 16]",
      "               [--window 20000] [--seed 1]",
      "  ralt-stages  RALT alone through the dynamic workload's hotspot stages: per stage the",
      "               plateau hit rate, accesses to reach it, hot-set limit against the hotspot",
      "               [--dir hotrap-data/ralt-stages] [--keys 180224] [--stage-accesses 1200000]",
      "               [--fast-disk-mib 16] [--window 20000] [--seed 1] [--windows no]",
      "  ralt-zipf    RALT alone learning a Zipf 0.99 stream: hit rate, limit, stable per window",
      "               [--dir hotrap-data/ralt-zipf] [--keys 2883584] [--accesses 6000000]",
      "               [--fast-disk-mib 256] [--window 250000] [--seed 1] [--unstable-share 0.15]",
      "               [--hot-set-beta 0.025] [--value-bytes 1000] [--max-unstable-mib 0.1·R_hs]",
      "  ralt-wa      RALT bytes written per access on hotspot-5%, Zipfian and uniform streams",
      "               [--dir hotrap-data/ralt-wa] [--keys 1000000] [--accesses 5000000]",
      "               [--fast-disk-mib 200] [--streams hotspot5,zipfian,uniform]",
      "  migration    write-only load at 10x the fast budget into each system: load ops/s, bytes",
      "               written per tier, slow-tier SST files, demotion MiB/s, tombstones",
      "               [--dir hotrap-data/migration] [--slow-dir D] [--budget-mib 8] [--times 10]",
      "               [--value-bytes 1000] [--systems rocksdb-tiered,hotrap,hotrap-native] [--seed 5]",
      "  separation   write-hot separation against hotrap: run-phase ops/s and compaction bytes",
      "               per tier on update-heavy Zipf and uniform writes, what the skew detector saw",
      "               [--dir hotrap-data/separation] [--slow-dir D] [--budget-mib 32] [--ops 400000]",
      "               [--threads 2] [--workloads UH-zipf0.99,UH-zipf1.1,UH-zipf1.2,UH-zipf1.3,WH-uniform]",
      "               [--systems hotrap,hotrap-separated] [--write-buffer-kib N] [--hot-window-kib N]",
      "               [--rounds 1] [--value-bytes 1000] [--seed 7] [--keep false]",
      "  separation-cost  a writer's CPU per put with write-hot separation on (idle under uniform",
      "               writes) against off, in alternating blocks [--dir hotrap-data/separation-cost]",
      "  separation-paired  two systems' throughput on one workload in many short alternating blocks,",
      "               with the ratio's 95% interval [--workload WH-uniform --systems hotrap,hotrap-separated]",
      "               [--keys 500000] [--value-bytes 1000] [--blocks 20] [--block-puts 50000]",
      "               [--window-kib 800]",
      "  skew         the write-skew detector's variance per key distribution, against its threshold",
      "               [--dir hotrap-data/skew] [--budget-mib 16] [--windows 20] [--value-bytes 1000]",
      "               [--distributions uniform,hotspot5,...,zipf1.3] [--seed 7]",
      "  scale        what RALT, the migration picker and the promotion cache cost at each fast",
      "               budget, per hot key, per fast file and per byte of data (issue 21)",
      "               [--dir hotrap-data/scale] [--out DIR] [--budgets 16,128,256] [--workload ro-zipf]",
      "               [--seconds 60] [--threads 2] [--record-bytes 1024] [--direct-io false] [--seed 1]",
      "  cold-get     cold slow-tier gets, promotion on against off, in alternating paired rounds",
      "               [--dir hotrap-data/cold-get] [--budget-mib 4] [--times 50] [--rounds 30]",
      "               [--round-ms 2000] [--warmup-rounds 4] [--value-bytes 1000] [--seed 17]",
      "               [--cache-kib N: promotion cache target, default the fast file size]",
      "  commit-latency  user put latency while promotion by flush commits table after table",
      "               [--dir hotrap-data/commit-latency] [--records 60000] [--cache-kib 2048]",
      "               [--writes 100000] [--readers 1] [--pace-us 100] [--seed 11]",
      "  memory-tier  hotrap against hotrap-mem (a memory tier) at the same RAM: throughput, fast-disk",
      "               bytes written, tier log size, recovery after a wipe; --fast-dir must be on a",
      "               loop device made by scripts/slowdisk.sh up",
      "               --fast-dir D --slow-dir D --mem-dir D [--memory-mib 64] [--budget-mib 256]",
      "               [--ops 2000000] [--keys 500000] [--value-bytes 1000] [--threads 2] [--rounds 1]",
      "               [--workloads WH-uniform,UH-zipf] [--systems hotrap,hotrap-mem]",
      "               [--codec LZ4|ZSTD|NONE] [--trim true|false] [--seed 1]",
      "  flash-index  one kind of flash cache index, on or off the heap: heap per item, clean close",
      "               and warm open times, files [--kind OFF_HEAP|ON_HEAP]",
      "               [--dir hotrap-data/flash-index] [--items 1000000] [--value-bytes 100]",
      "  jmh [args]   the JMH benchmarks, with JMH's own arguments (-l lists, -h helps)",
      "");

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the command in {@code args}, printing to {@code out} and {@code err}; returns the exit
   * code: 0 on success, {@value BenchCli#USAGE_ERROR} on a command line that cannot run (one line
   * on {@code err} says why), 1 when the command failed (its stack trace is on {@code err}).
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")
        || args[0].equals("help")) {
      out.println(USAGE);
      return 0;
    }
    if (args[0].equals("-V") || args[0].equals("--version")) {
      out.println(BenchVersion.line());
      return 0;
    }
    String command = args[0];
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    try {
      switch (command) {
        case "demo":
          RaltDemo.run(rest, out);
          return 0;
        case "ralt-memory":
          RaltMemory.run(rest, out);
          return 0;
        case "ralt-shift":
          RaltShift.run(rest, out);
          return 0;
        case "ralt-stages":
          RaltStages.run(rest, out);
          return 0;
        case "ralt-zipf":
          io.hotrap.bench.ralt.RaltZipf.run(rest, out);
          return 0;
        case "ralt-wa":
          RaltWriteAmplification.run(rest, out);
          return 0;
        case "migration":
          io.hotrap.bench.core.MigrationLoad.run(rest, out);
          return 0;
        case "separation":
          io.hotrap.bench.core.SeparationBench.run(rest, out);
          return 0;
        case "separation-cost":
          io.hotrap.bench.core.SeparationCost.run(rest, out);
          return 0;
        case "separation-paired":
          io.hotrap.bench.core.SeparationPaired.run(rest, out);
          return 0;
        case "skew":
          io.hotrap.bench.core.SkewTable.run(rest, out);
          return 0;
        case "scale":
          io.hotrap.bench.core.ScaleCost.run(rest, out);
          return 0;
        case "quick":
        case "run":
        case "compare":
        case "report":
          return BenchCli.execute(args, out, err);
        case "commit-latency":
          io.hotrap.bench.core.CommitLatency.run(rest, out);
          return 0;
        case "memory-tier":
          io.hotrap.bench.core.MemoryTierBench.run(rest, out);
          return 0;
        case "cold-get":
          io.hotrap.bench.core.ColdGetPaired.run(rest, out);
          return 0;
        case "flash-index":
          io.hotrap.bench.cache.FlashIndexCost.run(rest, out);
          return 0;
        case "disk-probe":
          io.hotrap.bench.disk.DiskProbe.run(rest, out);
          return 0;
        case "jmh":
          org.openjdk.jmh.Main.main(rest.toArray(new String[0]));
          return 0;
        default:
          err.println("unknown command " + command + " (java -jar hotrap-bench.jar --help lists"
              + " the commands)");
          return BenchCli.USAGE_ERROR;
      }
    } catch (Args.UsageException e) {
      err.println(e.getMessage());
      return BenchCli.USAGE_ERROR;
    } catch (IllegalArgumentException e) { // a bad option value the command found itself
      err.println(command + ": " + e.getMessage());
      return BenchCli.USAGE_ERROR;
    } catch (Exception e) {
      e.printStackTrace(err);
      return 1;
    }
  }
}
