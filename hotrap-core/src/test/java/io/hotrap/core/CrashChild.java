package io.hotrap.core;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process {@link CrashTest} kills: writes with sync from two threads and reports on stdout
 * {@code B <key> <version> <P|D>} before each write and {@code A <key> <version> <P|D>} after it was
 * acknowledged. Each line also goes, in one {@code write} call before it is printed, to a log file
 * (the fourth argument): the kernel keeps what a killed process wrote, so the file is the complete
 * record even if the last lines printed are still in the pipe when the process dies. In mode {@code migration} the migrator stops for good right after a demotion batch
 * committed (before the range compaction that drops the demoted versions) and reports {@code M}.
 */
public final class CrashChild {
  static final int KEYS = 2000;
  static final int VALUE_BYTES = 1000;

  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    Path fast = Path.of(args[0]);
    Path slow = Path.of(args[1]);
    boolean stopInMigration = args[2].equals("migration");
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
    FileOutputStream file = new FileOutputStream(args[3], true);
    AtomicInteger commits = new AtomicInteger();
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterCommit(int batchIndex) {
        if (stopInMigration && commits.incrementAndGet() == 3) {
          synchronized (out) {
            out.println("M");
            out.flush();
          }
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    HotRapOptions o = TestStores.Mode.valueOf(args[4]).apply(HotRapOptions.builder().fastPath(fast).slowPath(slow)
        .fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10).fastTargetFileBytes(64 << 10)
        .slowTargetFileBytes(256 << 10).blockCacheBytes(1 << 20).backgroundJobs(2)
        .migrationBatchBytes(16 << 10).maxWriteStall(Duration.ofMillis(50))
        .syncWrites(true)).build();
    HotRapDB db = HotRapDB.open(o, StoreHooks.migration(hooks));
    Thread[] writers = new Thread[2];
    for (int w = 0; w < writers.length; w++) {
      int writer = w;
      writers[w] = new Thread(() -> {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        int[] version = new int[KEYS];
        while (true) {
          int k = rnd.nextInt(KEYS / 2) * 2 + writer;
          int v = ++version[k];
          boolean delete = rnd.nextInt(10) == 0;
          String op = delete ? "D" : "P";
          report(out, file, "B " + k + " " + v + " " + op);
          if (delete) {
            db.delete(TestStores.key(k));
          } else {
            db.put(TestStores.key(k), TestStores.value(k, v, VALUE_BYTES));
          }
          report(out, file, "A " + k + " " + v + " " + op);
        }
      });
      writers[w].start();
    }
    writers[0].join();
  }

  private static void report(PrintStream out, FileOutputStream file, String line) {
    synchronized (out) {
      try {
        file.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      out.println(line);
      out.flush();
    }
  }
}
