package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults while the store runs: RALT's directory damaged or gone, the slow tier's files unreadable. The
 * store keeps serving or reports a clear error; it never returns a wrong value or loses an
 * acknowledged write it still has the files for.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RuntimeFaultTest {
  @TempDir Path dir;

  private static void load(HotRapDB db, int records, int version) {
    for (int i = 0; i < records; i++) {
      db.put(key(i), value(i, version, 1000));
    }
  }

  private static void assertAll(HotRapDB db, int records, int version) {
    for (int i = 0; i < records; i++) {
      byte[] v = db.get(key(i));
      assertNotNull(v, "key " + i);
      assertEquals(version, versionOf(v), "key " + i);
    }
  }

  private static List<Path> files(Path d, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(d)) {
      return s.filter(p -> p.toString().endsWith(suffix)).collect(Collectors.toList());
    }
  }

  /** Something done to a store's directories; a test step that may fail with I/O errors. */
  private interface DirectoryAction {
    void run(HotRapOptions o) throws IOException;
  }

  /**
   * Loads a store, damages RALT with {@code damage} while it runs, and checks that every read before
   * and after more writes returns its value, and again after {@code beforeReopen} and a reopen.
   */
  private void raltDamageNeverCostsAValue(DirectoryAction damage, DirectoryAction beforeReopen)
      throws Exception {
    HotRapOptions o = small(dir).build();
    int records = 12_000;
    try (HotRapDB db = HotRapDB.open(o)) {
      load(db, records, 1);
      assertAll(db, records, 1);
      db.awaitBackgroundWork();
      damage.run(o);
      for (int round = 0; round < 3; round++) {
        assertAll(db, records, 1);
      }
      load(db, records, 2);
      db.awaitBackgroundWork();
      assertAll(db, records, 2);
      assertTrue(db.stats().migrations() > 0, db.stats().toString());
    }
    beforeReopen.run(o);
    try (HotRapDB db = HotRapDB.open(o)) {
      assertAll(db, records, 2);
    }
  }

  @Test
  void raltFilesDamagedAtRuntimeNeverCostAValue() throws Exception {
    raltDamageNeverCostsAValue(o -> {
      List<Path> ralt = files(o.fastPath().resolve(StoreLayout.RALT_DIR), ".ralt");
      assertTrue(!ralt.isEmpty(), "RALT wrote no files");
      for (Path p : ralt) {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
          for (long off = 0; off < f.length(); off += 512) {
            f.seek(off);
            f.write(new byte[64]);
          }
        }
      }
    }, o -> { });
  }

  @Test
  void raltDirectoryReplacedByAFileDegradesTrackingOnly() throws Exception {
    raltDamageNeverCostsAValue(o -> {
      Path raltDir = o.fastPath().resolve(StoreLayout.RALT_DIR);
      try (Stream<Path> s = Files.walk(raltDir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
      Files.writeString(raltDir, "not a directory");
    }, o -> Files.delete(o.fastPath().resolve(StoreLayout.RALT_DIR)));
  }

  @Test
  void aBadSlowDiskFailsGetsClearlyAndFastRecordsStayServed() throws Exception {
    HotRapOptions o = small(dir).build();
    int records = 12_000;
    try (HotRapDB db = HotRapDB.open(o)) {
      load(db, records, 1);
      db.awaitBackgroundWork();
      assertTrue(db.stats().slowSstBytes() > 0, db.stats().toString());
      // Newer versions of the last keys on the fast tier.
      for (int i = records - 200; i < records; i++) {
        db.put(key(i), value(i, 2, 1000));
      }
      // The slow disk goes bad under open files: every byte of its SST files zeroed in place.
      for (Path p : files(o.slowPath().resolve(StoreLayout.DATA_DIR), ".sst")) {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
          byte[] zeros = new byte[(int) Math.min(f.length(), 1 << 20)];
          for (long off = 0; off < f.length(); off += zeros.length) {
            f.seek(off);
            f.write(zeros, 0, (int) Math.min(zeros.length, f.length() - off));
          }
        }
      }
      int errors = 0;
      for (int i = 0; i < records; i++) {
        try {
          byte[] v = db.get(key(i));
          if (v != null) {
            assertEquals(i >= records - 200 ? 2 : 1, versionOf(v), "key " + i + " came back wrong");
          }
        } catch (HotRapException e) {
          errors++;
          assertTrue(e.getMessage().contains("get failed"), e.getMessage());
        }
      }
      assertTrue(errors > 0, "no get noticed the lost slow files");
      for (int i = records - 200; i < records; i++) {
        assertEquals(2, versionOf(db.get(key(i))), "fast record " + i);
      }
    }
  }
}
