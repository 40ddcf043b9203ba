package io.hotrap.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ClientThread;
import site.ycsb.DBException;
import site.ycsb.measurements.Measurements;

/**
 * A binding that cannot start says so once, in one line naming the property, however many YCSB
 * client threads meet the failure; the other threads fail quietly with the same cause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StartFailureTest {
  private static final int THREADS = 4;

  @TempDir Path dir;

  private Properties properties() {
    Properties p = new Properties();
    p.setProperty("hotrap.fast.dir", dir.resolve("fast").toString());
    p.setProperty("hotrap.slow.dir", dir.resolve("slow").toString());
    p.setProperty("hotrap.fast.budget", "8M");
    return p;
  }

  /** What each client's init() threw, and what printing them as YCSB does printed. */
  private record Outcome(List<DBException> thrown, String err, String out) {}

  /**
   * Calls init() on one client per thread, all at once, then prints each exception as YCSB's
   * {@code ClientThread} does: its stack trace to stderr, then to stdout. With
   * {@code allWaiting}, the threads start while this one holds the lock acquire() serializes on,
   * which it lets go only when all of them are blocked on it: every client is then waiting when
   * the first one fails.
   */
  private static Outcome initConcurrently(Properties props, boolean allWaiting) throws Exception {
    List<DBException> thrown = Collections.synchronizedList(new ArrayList<>());
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      HotRapYcsbClient c = new HotRapYcsbClient();
      c.setProperties(props);
      threads.add(new Thread(() -> {
        try {
          start.await();
          c.init();
          c.cleanup();
        } catch (DBException e) {
          thrown.add(e);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }, "ycsb-client-" + i));
    }
    if (allWaiting) {
      synchronized (SharedStore.class) {
        threads.forEach(Thread::start);
        while (!threads.stream().allMatch(t -> t.getState() == Thread.State.BLOCKED)) {
          Thread.onSpinWait();
        }
      }
    } else {
      threads.forEach(Thread::start);
    }
    for (Thread t : threads) {
      t.join();
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      for (DBException x : thrown) {
        x.printStackTrace(e);
        x.printStackTrace(o);
      }
    }
    return new Outcome(List.copyOf(thrown), err.toString(StandardCharsets.UTF_8),
        out.toString(StandardCharsets.UTF_8));
  }

  private static void assertOneFailure(Outcome o, String expectedLineStart) {
    assertEquals(THREADS, o.thrown().size(), "every client fails");
    DBException first = o.thrown().get(0);
    for (DBException e : o.thrown()) {
      assertInstanceOf(StartFailure.StartException.class, e);
      assertSame(first.getCause(), e.getCause(), "the same cause for every client");
      assertEquals(first.getMessage(), e.getMessage());
    }
    assertEquals(List.of(), o.out().lines().toList(), "nothing on stdout");
    List<String> lines = o.err().lines().toList();
    assertEquals(1, lines.size(), o.err());
    assertTrue(lines.get(0).startsWith(StartFailure.PREFIX + expectedLineStart), lines.get(0));
  }

  @Test
  void aBadPropertyIsPrintedOnceInOneLineNamingIt() throws Exception {
    Properties bad = properties();
    bad.setProperty("hotrap.fast.budget", "lots");

    Outcome o = initConcurrently(bad, false);

    assertOneFailure(o, "hotrap.fast.budget=lots is not a byte count");
    assertEquals(0, SharedStore.references());
    assertFalse(Files.exists(dir.resolve("fast")), "nothing opened");
  }

  @Test
  void anUnknownPropertyIsPrintedOnceNamingIt() throws Exception {
    Properties bad = properties();
    bad.setProperty("hotrap.fast.budgett", "8M");

    assertOneFailure(initConcurrently(bad, false), "unknown property hotrap.fast.budgett");
  }

  @Test
  void aLaterClientWithTheSameBadPropertyFailsQuietlyWithTheSameCause() throws Exception {
    Properties bad = properties();
    bad.setProperty("hotrap.direct.reads", "yes");
    Outcome o = initConcurrently(bad, false);
    HotRapYcsbClient late = new HotRapYcsbClient();
    late.setProperties(bad);

    DBException e = assertThrows(DBException.class, late::init);

    assertSame(o.thrown().get(0).getCause(), e.getCause());
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    e.printStackTrace(new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aStoreThatWouldNotOpenIsReportedOnceToTheClientsWaitingAndRetriedLater() throws Exception {
    Properties props = properties();
    HotRapOptions options = HotRapProperties.toOptions(props);
    Outcome o;
    try (HotRapDB inUse = HotRapDB.open(options)) {
      o = initConcurrently(props, true);
      assertOneFailure(o, "cannot open HotRapDB at " + options.fastPath());
    }
    // The store is free now: a new client opens it instead of repeating the old failure.
    HotRapYcsbClient c = new HotRapYcsbClient();
    c.setProperties(props);
    c.init();
    assertEquals(1, SharedStore.references());
    c.cleanup();
  }

  @Test
  void ycsbsOwnClientThreadsPrintTheLineOnceOnStderr() throws Exception {
    Properties bad = properties();
    bad.setProperty("hotrap.fast.budget", "lots");
    Measurements.setProperties(new Properties());
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    PrintStream stdout = System.out;
    CountDownLatch done = new CountDownLatch(THREADS);
    try (PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      System.setErr(e);
      System.setOut(o);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        HotRapYcsbClient c = new HotRapYcsbClient();
        c.setProperties(bad);
        Thread t = new Thread(new ClientThread(c, true, null, bad, 0, 0, done));
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      System.setErr(stderr);
      System.setOut(stdout);
    }
    List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(1, lines.size(), lines::toString);
    assertTrue(lines.get(0).startsWith(StartFailure.PREFIX + "hotrap.fast.budget=lots"),
        lines.get(0));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void ycsbsClientProcessShowsOneLineAndNoStackTrace() throws Exception {
    Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    Path err = dir.resolve("ycsb.err");
    Path out = dir.resolve("ycsb.out");
    Process p = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        "site.ycsb.Client", "-t", "-db", HotRapYcsbClient.class.getName(),
        "-P", module.resolve("workloads").resolve("workloadc").toString(),
        "-threads", String.valueOf(THREADS), "-p", "operationcount=10",
        "-p", "hotrap.fast.dir=" + dir.resolve("fast"), "-p", "hotrap.slow.dir=" + dir.resolve("slow"),
        "-p", "hotrap.fast.budget=lots")
        .redirectError(err.toFile()).redirectOutput(out.toFile()).start();
    assertTrue(p.waitFor(50, TimeUnit.SECONDS), "YCSB did not finish");

    List<String> stderr = Files.readAllLines(err);
    // YCSB echoes its command line on stderr first; after it, only the binding's line names a property.
    List<String> mentions = stderr.stream()
        .filter(l -> l.contains("hotrap.") && !l.startsWith("Command line:")).toList();
    assertEquals(List.of(StartFailure.PREFIX + "hotrap.fast.budget=lots is not a byte count (digits"
        + " with an optional K, M or G suffix, e.g. 16M)"), mentions, String.join("\n", stderr));
    assertFalse(stderr.stream().anyMatch(l -> l.startsWith("\tat ")), String.join("\n", stderr));
    assertFalse(Files.readString(out).contains("hotrap.fast.budget"), Files.readString(out));
  }

  @Test
  void oneLineFoldsTheCausesMessagesAndLineBreaks() throws IOException {
    DBException e = new DBException("cannot open HotRapDB at /a",
        new IllegalStateException("store busy\nsee LOCK", new IOException("Resource busy")));

    assertEquals("cannot open HotRapDB at /a: store busy; see LOCK: Resource busy",
        StartFailure.oneLine(e));
  }
}
