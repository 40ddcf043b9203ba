package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotrap.jni.NativeHooks;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * I5 across crashes: a child JVM writing with sync is killed with SIGKILL during the load and in
 * the middle of a migration; the reopened store must hold, for every key, the last acknowledged
 * write or the one in flight at the kill, and nothing older.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@EnumSource(TestStores.Mode.class)
class CrashTest {
  /** The child's store variant (TestStores.Mode): every test runs on each. */
  @Parameter TestStores.Mode mode;

  @BeforeEach
  void requireNativeHooksWhenAsked() {
    Assumptions.assumeTrue(mode != TestStores.Mode.NATIVE || NativeHooks.available(),
        () -> "native demotion unavailable: " + NativeHooks.unavailableReason());
  }
  @TempDir Path dir;

  /** Per key: the last acknowledged op and the op begun after it, as "version op". */
  private static final class Log {
    final String[] acked = new String[CrashChild.KEYS];
    final String[] begun = new String[CrashChild.KEYS];
    final AtomicInteger acks = new AtomicInteger();
    final CountDownLatch migrationStopped = new CountDownLatch(1);
    int acksAtStop = -1;

    synchronized void line(String line) {
      if (line.equals("M")) {
        acksAtStop = acks.get();
        migrationStopped.countDown();
        return;
      }
      String[] p = line.split(" ");
      if (p.length != 4) {
        return;
      }
      int k = Integer.parseInt(p[1]);
      String op = p[2] + " " + p[3];
      if (p[0].equals("B")) {
        begun[k] = op;
      } else if (p[0].equals("A")) {
        acked[k] = op;
        acks.incrementAndGet();
        notifyAll();
      }
    }

    synchronized void awaitAcks(int count, Process child) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (acks.get() < count && child.isAlive() && System.nanoTime() < deadline) {
        wait(1000);
      }
    }
  }

  @Test
  void killDuringLoadLosesNoAcknowledgedWrite() throws Exception {
    crashAndCheck("load", dir.resolve("load"));
  }

  @Test
  void killInTheMiddleOfAMigrationLosesNoAcknowledgedWrite() throws Exception {
    crashAndCheck("migration", dir.resolve("migration"));
  }

  private void crashAndCheck(String mode, Path root) throws Exception {
    Path fast = root.resolve("fast");
    Path slow = root.resolve("slow");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Path opsLog = root.resolve("ops.log");
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", cp, CrashChild.class.getName(),
        fast.toString(), slow.toString(), mode, opsLog.toString(), this.mode.name());
    pb.redirectError(root.resolve("child.err").toFile());
    root.toFile().mkdirs();
    Process child = pb.start();
    Log log = new Log();
    Log watched = log;
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          watched.line(line);
        }
      } catch (Exception e) {
        // the pipe breaks when the child dies
      }
    });
    reader.start();
    try {
      if (mode.equals("migration")) {
        assertTrue(log.migrationStopped.await(120, TimeUnit.SECONDS),
            "the child never reached a migration");
        log.awaitAcks(log.acks.get() + 300, child);
      } else {
        log.awaitAcks(1500, child);
      }
      assertTrue(child.isAlive(), "the child died on its own; see " + root.resolve("child.err"));
    } finally {
      child.destroyForcibly();
      child.waitFor(60, TimeUnit.SECONDS);
      reader.join(10_000);
    }
    // The log file is the complete record; stdout served to follow progress. Every acknowledgement
    // seen on stdout must be in the file too.
    Log printed = log;
    log = new Log();
    for (String line : Files.readAllLines(opsLog, StandardCharsets.UTF_8)) {
      log.line(line);
    }
    assertTrue(log.acks.get() >= printed.acks.get(),
        "the log file has " + log.acks.get() + " acknowledgements, stdout " + printed.acks.get());
    // Reopened with the defaults: after a separated child this also moves fast-hot back to fast.
    HotRapOptions o = HotRapOptions.builder().fastPath(fast).slowPath(slow)
        .fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10).fastTargetFileBytes(64 << 10)
        .backgroundJobs(2).build();
    List<String> violations = new ArrayList<>();
    int checked = 0;
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < CrashChild.KEYS; k++) {
          String acked;
          String begun;
          synchronized (log) {
            acked = log.acked[k];
            begun = log.begun[k];
          }
          if (begun == null) {
            continue;
          }
          String actual = describe(db.get(key(k)));
          boolean ok = actual.equals(acked == null ? "absent" : describeOp(acked))
              || actual.equals(describeOp(begun));
          if (!ok) {
            violations.add("key " + k + ": store has " + actual + ", acknowledged " + acked
                + ", in flight " + begun);
          }
          checked++;
        }
        // The same answers after the restarted store migrated again.
        db.awaitBackgroundWork();
      }
    }
    if (!violations.isEmpty()) {
      fail(violations.size() + " violations, e.g. " + violations.subList(0, Math.min(5, violations.size())));
    }
    assertTrue(checked > 500, "checked " + checked + " keys");
    if (mode.equals("migration")) {
      assertTrue(printed.acksAtStop >= 0);
    }
  }

  private static String describe(byte[] value) {
    return value == null ? "absent" : "version " + versionOf(value);
  }

  private static String describeOp(String op) {
    String[] p = op.split(" ");
    return p[1].equals("D") ? "absent" : "version " + p[0];
  }

  @Test
  void describeMatchesTheLogFormat() {
    assertEquals("absent", describeOp("3 D"));
    assertEquals("version 3", describeOp("3 P"));
    assertNotNull(describe(null));
  }
}
