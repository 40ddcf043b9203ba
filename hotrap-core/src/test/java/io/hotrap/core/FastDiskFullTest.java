package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fast disk fills up: writes fail with a clear {@link HotRapException}, reads go on, and every
 * write acknowledged before is there after the disk has room again. The fast disk is a small tmpfs
 * mounted for the test, which needs root; elsewhere the test is skipped with that reason.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FastDiskFullTest {
  @TempDir Path dir;
  private Path mount;

  private static int run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private final PrintStream originalErr = System.err;

  /** Copies what is printed to two streams. */
  private static final class TeeStream extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    TeeStream(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
    }
  }

  @AfterEach
  void unmount() throws Exception {
    System.setErr(originalErr);
    if (mount != null) {
      run("umount", "-l", mount.toString());
    }
  }

  @Test
  void aFullFastDiskFailsWritesClearlyAndLosesNothingAcknowledged() throws Exception {
    Path fs = Files.createDirectories(dir.resolve("fastfs"));
    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", fs.toString()) == 0,
        "mounting a small tmpfs as the fast disk needs root; skipped");
    mount = fs;
    HotRapOptions o = HotRapOptions.builder()
        .fastPath(fs.resolve("store")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(64L << 20).writeBufferBytes(256L << 10).fastTargetFileBytes(256L << 10)
        .blockCacheBytes(4L << 20).backgroundJobs(2).build();
    int acked = 0;
    HotRapException failure = null;
    // What RocksDB's threads print while the disk fills: RocksJava 11.8.1 cannot convert the
    // background error of a flush without WAL (reason 5) and printed its exception here.
    PrintStream stderr = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(new TeeStream(stderr, printed), true));
    try (HotRapDB db = HotRapDB.open(o)) {
      while (failure == null && acked < 50_000) {
        try {
          db.put(key(acked), value(acked, 1, 1000));
          acked++;
        } catch (HotRapException e) {
          failure = e;
        }
      }
      System.setErr(stderr);
      assertNotNull(failure, "50,000 writes of 1 KB fit a 3 MiB disk");
      String fromRocksDbThreads = printed.toString(StandardCharsets.UTF_8);
      assertFalse(fromRocksDbThreads.contains("BackgroundErrorReason"), fromRocksDbThreads);
      assertTrue(acked > 100, "only " + acked + " writes before the disk was full");
      String message = failure.getMessage() + " " + failure.getCause();
      assertTrue(message.toLowerCase().contains("space"), message);
      for (int i = 0; i < acked; i++) {
        byte[] v = db.get(key(i));
        assertNotNull(v, "acknowledged key " + i + " of " + acked + " is gone");
        assertEquals(1, versionOf(v));
      }
    }
    assertEquals(0, run("mount", "-o", "remount,size=64m", fs.toString()));
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < acked; i++) {
        byte[] v = db.get(key(i));
        assertNotNull(v, "acknowledged key " + i + " of " + acked + " lost across the reopen");
        assertEquals(1, versionOf(v));
      }
      db.put(key(acked), value(acked, 1, 1000));
      assertEquals(1, versionOf(db.get(key(acked))));
    }
  }
}
