package io.hotrap.core;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The process {@link KillTrialsTest} kills at a random moment. Two writers own the even and the odd
 * keys and issue puts, deletes and batches of up to four keys; a reader reads a hot tenth of the
 * keys nine times out of ten, so that records are promoted while migration demotes others. Every
 * write is logged to the file named by the third argument, one {@code write} call per line, before
 * it starts ({@code B <key> <version> <P|D>}) and after it was acknowledged ({@code A ...}); the
 * kernel keeps what a killed process wrote, so the file is the complete record. Versions start at
 * the fourth argument, so they grow across trials on one store. Once a second the child logs
 * {@code S <demoted bytes> <promoted bytes> <memory tier moves>} and, when the store is open, {@code R}. An optional
 * sixth argument is a memory tier directory.
 */
public final class KillTrialChild {
  static final int KEYS = 3000;
  static final int VALUE_BYTES = 500;

  private KillTrialChild() {}

  /** Bytes of the memory tier when the child runs with one: the least, two write buffers. */
  static final long MEMORY_TIER_BYTES = 128 << 10;

  static HotRapOptions options(Path fast, Path slow) {
    return options(fast, slow, null, null, false);
  }

  /**
   * The trial store: on the demotion path {@code nativeMigration} (null: the store's default), with
   * a memory tier in {@code memory} unless it is null, with write-hot separation engaged at once
   * if {@code separated} ({@link TestStores#separated}).
   */
  static HotRapOptions options(Path fast, Path slow, Boolean nativeMigration, Path memory,
      boolean separated) {
    HotRapOptions.Builder b = HotRapOptions.builder().fastPath(fast).slowPath(slow)
        .fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10).fastTargetFileBytes(64 << 10)
        .slowTargetFileBytes(256 << 10).blockCacheBytes(1 << 20).backgroundJobs(2)
        .promotionCacheBytes(32 << 10).hotnessCheck(false)
        .migrationBatchBytes(16 << 10).maxWriteStall(Duration.ofMillis(50));
    if (nativeMigration != null) {
      b.nativeMigration(nativeMigration);
    }
    if (memory != null) {
      b.memoryTier(memory, MEMORY_TIER_BYTES);
    }
    if (separated) {
      TestStores.separated(b);
    }
    return b.build();
  }

  public static void main(String[] args) throws Exception {
    Path fast = Path.of(args[0]);
    Path slow = Path.of(args[1]);
    FileOutputStream log = new FileOutputStream(args[2], true);
    int base = Integer.parseInt(args[3]);
    long seed = Long.parseLong(args[4]);
    // The demotion path ("true", "false"; absent: the store's default), then the memory tier
    // ("-": none), then "separated" for write-hot separation.
    Boolean nativeMigration = args.length > 5 ? Boolean.valueOf(args[5]) : null;
    Path memory = args.length > 6 && !args[6].equals("-") ? Path.of(args[6]) : null;
    boolean separated = args.length > 7 && args[7].equals("separated");
    HotRapDB db = HotRapDB.open(options(fast, slow, nativeMigration, memory, separated));
    report(log, "R");
    System.out.println("R");
    System.out.flush();
    for (int w = 0; w < 2; w++) {
      int writer = w;
      Thread t = new Thread(() -> write(db, log, writer, base, new SplittableRandom(seed * 31 + writer)));
      t.setDaemon(true);
      t.start();
    }
    Thread reader = new Thread(() -> {
      SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
      while (true) {
        int k = rnd.nextInt(10) < 9 ? rnd.nextInt(KEYS / 10) : rnd.nextInt(KEYS);
        db.get(TestStores.key(k));
      }
    });
    reader.setDaemon(true);
    reader.start();
    while (true) {
      Thread.sleep(1000); // a progress report, not synchronisation
      HotRapStats s = db.stats();
      report(log, "S " + s.bytesDemoted() + " " + (s.bytesPromotedByFlush() + s.bytesPromotedByCompaction())
          + " " + s.memoryTierRetirements());
    }
  }

  private static void write(HotRapDB db, FileOutputStream log, int writer, int base, SplittableRandom rnd) {
    int version = base;
    while (true) {
      int kind = rnd.nextInt(10);
      int count = kind < 2 ? 1 + rnd.nextInt(4) : 1;
      int[] keys = new int[count];
      boolean[] deletes = new boolean[count];
      HotRapWriteBatch batch = new HotRapWriteBatch();
      for (int i = 0; i < count; i++) {
        // Distinct keys of this writer's parity within one batch.
        keys[i] = ((rnd.nextInt(KEYS / 8) * 4 + i) * 2 + writer) % KEYS;
        deletes[i] = rnd.nextInt(10) == 0;
      }
      version++;
      StringBuilder begun = new StringBuilder();
      StringBuilder acked = new StringBuilder();
      for (int i = 0; i < count; i++) {
        String op = keys[i] + " " + version + " " + (deletes[i] ? "D" : "P");
        begun.append("B ").append(op).append('\n');
        acked.append("A ").append(op).append('\n');
        if (deletes[i]) {
          batch.delete(TestStores.key(keys[i]));
        } else {
          batch.put(TestStores.key(keys[i]), TestStores.value(keys[i], version, VALUE_BYTES));
        }
      }
      report(log, begun.substring(0, begun.length() - 1));
      if (kind < 2) {
        db.write(batch);
      } else if (deletes[0]) {
        db.delete(TestStores.key(keys[0]));
      } else {
        db.put(TestStores.key(keys[0]), TestStores.value(keys[0], version, VALUE_BYTES));
      }
      report(log, acked.substring(0, acked.length() - 1));
    }
  }

  private static void report(FileOutputStream log, String lines) {
    synchronized (log) {
      try {
        log.write((lines + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
