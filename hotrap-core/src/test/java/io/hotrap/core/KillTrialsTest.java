package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotrap.jni.NativeHooks;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL trials on one store: a {@link KillTrialChild} writes (puts, deletes, batches) and reads
 * skewed keys while migration and promotion move records both ways, and is killed at a random
 * moment; the reopened store must hold, for every key, its last acknowledged version or the one in
 * flight at the kill (so no acknowledged write is lost and no delete comes back), and a full scan
 * must be sorted, free of duplicates and equal to point gets. Then the next trial writes on.
 *
 * <p>Three stores: {@code disk} without a memory tier; {@code memory} with one ({@link MemoryTier}),
 * reopened as the kill left it; {@code memory-wiped} with one whose directory is emptied before
 * each reopen, as after the loss of the machine's RAM.
 *
 * <p>{@code -Dkilltrials.trials=N} sets the number of trials per store: 10 by default, 200 for the
 * long form ({@code mvn -pl hotrap-core test -Dtest=KillTrialsTest -Dkilltrials.trials=200}).
 */
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class KillTrialsTest {
  @TempDir Path dir;

  /** What the store may hold for each key: the last acknowledged state and one write in flight. */
  private final String[] acked = new String[KillTrialChild.KEYS];
  private final String[] inFlight = new String[KillTrialChild.KEYS];
  private long demoted;
  private long promoted;
  private long moves;
  /** The memory tier's directory, or null. */
  private Path memory;
  /** Whether the store runs with write-hot separation. */
  private boolean separated;

  @ParameterizedTest
  @ValueSource(strings = {"disk", "separated", "memory", "memory-wiped"})
  void killedAtRandomMomentsTheStoreKeepsEveryAcknowledgedWrite(String store) throws Exception {
    int trials = Integer.getInteger("killtrials.trials", 10);
    Path fast = dir.resolve("fast");
    Path slow = dir.resolve("slow");
    memory = store.startsWith("memory") ? Files.createDirectories(dir.resolve("memory")) : null;
    separated = store.equals("separated");
    boolean wipe = store.equals("memory-wiped");
    SplittableRandom rnd = new SplittableRandom(Long.getLong("killtrials.seed", 42));
    long checkedKeys = 0;
    for (int trial = 0; trial < trials; trial++) {
      Path log = dir.resolve("ops-" + trial + ".log");
      // With a memory tier, data reaches the fast disk an L0 compaction at a time: a second more
      // per trial, so that migrations to the slow tier run under the kills too.
      long extra = memory == null ? 0 : 1000;
      // Trials alternate between the demotion paths (native where the hooks load), so a store is
      // also reopened on the other path after a kill.
      boolean nativeTrial = NativeHooks.available() && trial % 2 == 0;
      // The last trial is killed only once its child has reported the tier moves no earlier trial
      // reached (a loaded machine gets less done before a kill at a random moment), so the
      // assertions below check the kills with moves under way rather than the machine's speed.
      boolean lastWithoutMoves = trial == trials - 1 && !movesSeen();
      runAndKill(fast, slow, log, (trial + 1) * 10_000_000, trial, 200 + extra + rnd.nextInt(1300),
          nativeTrial, lastWithoutMoves);
      replay(log);
      if (wipe) {
        TestStores.deleteContents(memory);
      }
      checkedKeys += check(fast, slow, trial, nativeTrial);
      Files.delete(log);
    }
    assertTrue(checkedKeys > trials * 500L, "checked only " + checkedKeys + " keys");
    assertTrue(demoted > 0, "no trial demoted anything");
    if (memory == null) {
      assertTrue(promoted > 0, "no trial promoted anything");
    } else {
      // Reads of recently written keys are served by the memory tier, so promotion is rare here.
      assertTrue(moves > 0, "no trial saw the tier log retire records that reached a disk");
      System.out.println("kill trials with a memory tier (" + store + "): demoted " + demoted
          + " B, promoted " + promoted + " B, tier log retirements " + moves);
    }
  }

  /** Whether the trials so far demoted, and promoted or moved the memory tier. */
  private boolean movesSeen() {
    return demoted > 0 && (memory == null ? promoted > 0 : moves > 0);
  }

  /** Whether the child's progress reports in {@code log} show the moves {@link #movesSeen} asks for. */
  private boolean logShowsMoves(Path log) throws IOException {
    boolean demotedAny = false;
    boolean movedAny = false;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String[] p = line.split(" ");
      if (p[0].equals("S") && p.length == 4) {
        demotedAny |= Long.parseLong(p[1]) > 0;
        movedAny |= Long.parseLong(memory == null ? p[2] : p[3]) > 0;
      }
    }
    return demotedAny && movedAny;
  }

  private void runAndKill(Path fast, Path slow, Path log, int base, long seed, long runMillis,
      boolean nativeMigration, boolean untilMoves) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", cp,
        KillTrialChild.class.getName(), fast.toString(), slow.toString(), log.toString(),
        Integer.toString(base), Long.toString(seed), Boolean.toString(nativeMigration)));
    command.add(memory != null ? memory.toString() : "-");
    if (separated) {
      command.add("separated");
    }
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(dir.resolve("child.err").toFile());
    Process child = pb.start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String first = out.readLine();
      if (!"R".equals(first)) {
        child.waitFor(60, TimeUnit.SECONDS);
        fail("the child did not open the store: " + Files.readString(dir.resolve("child.err")));
      }
      // The kill moment, chosen at random: not a wait for anything.
      Thread.sleep(runMillis);
      // Or, for the last trial of a run that saw no moves, the first progress report after one
      // (reports come once a second).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (untilMoves && !logShowsMoves(log) && child.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      if (!child.isAlive()) {
        fail("the child died on its own: " + Files.readString(dir.resolve("child.err")));
      }
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the killed child did not end");
    }
  }

  private void replay(Path log) throws Exception {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String[] p = line.split(" ");
      if (p[0].equals("S") && p.length == 4) {
        demoted = Math.max(demoted, Long.parseLong(p[1]));
        promoted = Math.max(promoted, Long.parseLong(p[2]));
        moves = Math.max(moves, Long.parseLong(p[3]));
      } else if (p.length == 4) {
        int k = Integer.parseInt(p[1]);
        String op = p[2] + " " + p[3];
        if (p[0].equals("B")) {
          inFlight[k] = op;
        } else if (p[0].equals("A")) {
          acked[k] = op;
          inFlight[k] = null;
        }
      }
    }
  }

  private static String state(byte[] value) {
    return value == null ? "absent" : "version " + versionOf(value);
  }

  private static String state(String op) {
    if (op == null) {
      return "absent";
    }
    String[] p = op.split(" ");
    return p[1].equals("D") ? "absent" : "version " + p[0];
  }

  private int check(Path fast, Path slow, int trial, boolean nativeMigration) {
    List<String> violations = new ArrayList<>();
    int present = 0;
    try (HotRapDB db = HotRapDB.open(KillTrialChild.options(fast, slow, nativeMigration, memory, separated))) {
      for (int k = 0; k < KillTrialChild.KEYS; k++) {
        String actual = state(db.get(key(k)));
        if (!actual.equals(state(acked[k])) && (inFlight[k] == null || !actual.equals(state(inFlight[k])))) {
          violations.add("key " + k + ": store has " + actual + ", acknowledged " + acked[k]
              + ", in flight " + inFlight[k]);
        }
        if (!actual.equals("absent")) {
          present++;
        }
        // What the store holds is the baseline of the next trial.
        acked[k] = actual.equals("absent") ? null : actual.substring("version ".length()) + " P";
        inFlight[k] = null;
      }
      byte[] previous = null;
      int scanned = 0;
      try (HotRapIterator it = db.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] k = it.key();
          if (previous != null && Arrays.compareUnsigned(previous, k) >= 0) {
            violations.add("scan out of order or duplicated at " + new String(k, StandardCharsets.UTF_8));
          }
          byte[] got = db.get(k);
          if (got == null || versionOf(got) != versionOf(it.value())) {
            violations.add("scan and get differ at " + new String(k, StandardCharsets.UTF_8));
          }
          previous = k;
          scanned++;
        }
      }
      if (scanned != present) {
        violations.add("scan saw " + scanned + " records, gets " + present);
      }
    }
    if (!violations.isEmpty()) {
      fail("trial " + trial + ": " + violations.size() + " violations, e.g. "
          + violations.subList(0, Math.min(5, violations.size())));
    }
    return KillTrialChild.KEYS;
  }
}
