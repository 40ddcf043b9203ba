package io.hotrap.core;

import io.hotrap.jni.NativeHooks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;

/** Small stores on temporary directories, and ways to look into the column families directly. */
final class TestStores {
  static final long BUDGET = 4L << 20;
  static final long WRITE_BUFFER = 256L << 10;
  static final long TARGET_FILE = 256L << 10;

  private TestStores() {}

  /** A builder for a 4 MiB fast tier with 256 KiB memtables and files. */
  static HotRapOptions.Builder small(Path dir) {
    return HotRapOptions.builder()
        .fastPath(dir.resolve("fast"))
        .slowPath(dir.resolve("slow"))
        .fastBudgetBytes(BUDGET)
        .writeBufferBytes(WRITE_BUFFER)
        .fastTargetFileBytes(TARGET_FILE)
        .slowTargetFileBytes(1L << 20)
        .blockCacheBytes(4L << 20)
        .backgroundJobs(2);
  }

  /**
   * {@link #small(Path)} on one demotion path: native ({@link NativeDemotion}) or tombstones. The
   * native variant is skipped, with the reason, where the native hooks did not load (no gcc at
   * build time).
   */
  static HotRapOptions.Builder small(Path dir, boolean nativeMigration) {
    Assumptions.assumeTrue(!nativeMigration || NativeHooks.available(),
        () -> "native demotion unavailable: " + NativeHooks.unavailableReason());
    return small(dir).nativeMigration(nativeMigration);
  }

  /**
   * The store variants the model, race and crash tests run on: demotion by tombstones alone,
   * tombstones with wholly demoted files leaving whole (the default), native demotion, and the
   * default with write-hot separation engaged at once (any repeated key in a 16 KiB window of writes
   * is hot), so that keys move between {@code fast-hot} and {@code fast} under the tests' writes.
   */
  enum Mode {
    TOMBSTONES, FILE_DROP, NATIVE, SEPARATED;

    /** Applies this mode to {@code b}. */
    HotRapOptions.Builder apply(HotRapOptions.Builder b) {
      switch (this) {
        case TOMBSTONES:
          return b.nativeMigration(false).dropDemotedFiles(false);
        case NATIVE:
          return b.nativeMigration(true);
        case SEPARATED:
          return separated(b.nativeMigration(false));
        default:
          return b.nativeMigration(false);
      }
    }
  }

  /** Write-hot separation on, engaged by any repeated key in a window of 16 KiB of writes. */
  static HotRapOptions.Builder separated(HotRapOptions.Builder b) {
    return b.writeHotSeparation(true).writeSkewThreshold(0).writeHotWindowBytes(16 << 10);
  }

  /** {@link #small(Path)} in {@code mode}; the native mode is skipped where the hooks did not load. */
  static HotRapOptions.Builder small(Path dir, Mode mode) {
    Assumptions.assumeTrue(mode != Mode.NATIVE || NativeHooks.available(),
        () -> "native demotion unavailable: " + NativeHooks.unavailableReason());
    return mode.apply(small(dir));
  }

  /** Deletes everything inside {@code dir}, keeping the directory: a machine loss for a tmpfs. */
  static void deleteContents(Path dir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        if (!p.equals(dir)) {
          java.nio.file.Files.delete(p);
        }
      }
    }
  }

  static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(int i, int version, int length) {
    byte[] v = new byte[length];
    byte[] head = (i + ":" + version + ":").getBytes(StandardCharsets.UTF_8);
    // Pseudo-random filler so that compression does not hide the bytes from the budget.
    long x = i * 0x9E3779B97F4A7C15L + version;
    for (int j = 0; j < length; j++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[j] = (byte) x;
    }
    System.arraycopy(head, 0, v, 0, Math.min(head.length, length));
    return v;
  }

  /** The version encoded by {@link #value(int, int, int)}. */
  static int versionOf(byte[] v) {
    String s = new String(v, 0, Math.min(v.length, 32), StandardCharsets.ISO_8859_1);
    String[] parts = s.split(":", 3);
    return Integer.parseInt(parts[1]);
  }

  static String str(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** Raw contents of one column family (newest visible version of each key). */
  static List<byte[][]> raw(HotRapDB db, ColumnFamilyHandle cf) {
    List<byte[][]> out = new ArrayList<>();
    try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.rocks().newIterator(cf, ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new byte[][] {it.key(), it.value()});
      }
    }
    return out;
  }

  /**
   * The fast tier as reads see it: with write-hot separation, {@code fast-hot}'s records over
   * {@code fast}'s (a member's older version in {@code fast} is shadowed); else {@code fast}'s.
   */
  static List<byte[][]> fastTier(HotRapDB db) {
    List<byte[][]> fast = raw(db, db.fastHandle());
    if (db.separator() == null) {
      return fast;
    }
    java.util.TreeMap<byte[], byte[]> merged = new java.util.TreeMap<>(Arrays::compareUnsigned);
    for (byte[][] kv : fast) {
      merged.put(kv[0], kv[1]);
    }
    for (byte[][] kv : raw(db, db.hotHandle())) {
      merged.put(kv[0], kv[1]);
    }
    List<byte[][]> out = new ArrayList<>();
    merged.forEach((k, v) -> out.add(new byte[][] {k, v}));
    return out;
  }

  /**
   * Runs migration rounds that ignore the watermarks until one moves nothing or {@code maxRounds}
   * have run: each round moves the fast tier's bottommost files down.
   */
  static void demoteAll(HotRapDB db, int maxRounds) throws Exception {
    for (int round = 0; round < maxRounds && db.migrator().migrateNow(Long.MAX_VALUE, true) > 0; round++) {
      // The next round takes the files the last one left at the bottom.
    }
  }

  static byte[] rawGet(HotRapDB db, ColumnFamilyHandle cf, byte[] key) throws Exception {
    return db.rocks().get(cf, key);
  }

  static boolean contains(List<byte[][]> raw, byte[] key) {
    for (byte[][] kv : raw) {
      if (Arrays.equals(kv[0], key)) {
        return true;
      }
    }
    return false;
  }
}
