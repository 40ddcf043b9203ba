package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/** The memory tier ({@link MemoryTier}): file placement, the log's watermark, recovery after a reopen and a wipe, bad input. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MemoryTierTest {
  static final long MEMORY = 1L << 20;

  @TempDir Path dir;
  /** The store's directory name inside the memory directory, once a test has opened it. */
  private String filesDirName;

  private Path memory() throws Exception {
    return Files.createDirectories(dir.resolve("memory"));
  }

  private HotRapOptions options() throws Exception {
    return TestStores.small(dir).memoryTier(memory(), MEMORY).build();
  }

  /** Writes key i at {@code version}, or deletes it one time in seven; returns the model. */
  private static void writeRound(HotRapDB db, Map<Integer, Integer> model, int keys, int version) {
    for (int i = 0; i < keys; i++) {
      if ((i + version) % 7 == 0) {
        db.delete(key(i));
        model.remove(i);
      } else {
        db.put(key(i), value(i, version, 1000));
        model.put(i, version);
      }
    }
  }

  private static void assertHolds(HotRapDB db, Map<Integer, Integer> model, int keys) {
    for (int i = 0; i < keys; i++) {
      byte[] v = db.get(key(i));
      Integer expected = model.get(i);
      if (expected == null) {
        assertNull(v, "key " + i + " was deleted");
      } else {
        assertNotNull(v, "key " + i + " lost");
        assertEquals(expected, versionOf(v), "key " + i);
      }
    }
    TreeMap<String, Integer> scanned = new TreeMap<>();
    try (HotRapIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        scanned.put(TestStores.str(it.key()), versionOf(it.value()));
      }
    }
    TreeMap<String, Integer> expected = new TreeMap<>();
    model.forEach((k, v) -> expected.put(TestStores.str(key(k)), v));
    assertEquals(expected, scanned);
  }

  /** Every file of "fast" in the memory directory is in L0, and every L0 file is there (MemoryTier). */
  private static void assertL0InMemoryOnly(HotRapDB db, Path memoryFiles) throws Exception {
    String mem = memoryFiles.toAbsolutePath().normalize().toString();
    for (LiveFileMetaData f : db.rocks().getLiveFilesMetaData()) {
      if (!new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(HotRapDB.FAST_CF)) {
        continue;
      }
      String p = Path.of(f.path()).toAbsolutePath().normalize().toString();
      assertEquals(f.level() == 0, p.equals(mem),
          "fast file " + f.fileName() + " at L" + f.level() + " is in " + p);
    }
  }

  @Test
  void aMemoryTierCannotBeAddedToAStoreCreatedWithoutOne() throws Exception {
    try (HotRapDB db = HotRapDB.open(TestStores.small(dir).build())) {
      db.put(key(1), value(1, 1, 100));
      db.flush();
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HotRapDB.open(options()));
    assertTrue(e.getMessage().contains("without a memory tier"), e.getMessage());
    try (HotRapDB db = HotRapDB.open(TestStores.small(dir).build())) {
      assertArrayEquals(value(1, 1, 100), db.get(key(1)));
    }
  }

  private static long sstFiles(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
    }
  }

  @Test
  void flushesLandInTheMemoryDirectoryAndDeletesHideOlderTiers() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      Path files = db.memory().filesDir();
      assertTrue(files.startsWith(memory()), files.toString());
      writeRound(db, model, 300, 1);
      db.flush();
      assertTrue(sstFiles(files) > 0, "the flush wrote no L0 file to the memory directory");
      writeRound(db, model, 300, 2); // new versions and deletes over round 1
      HotRapWriteBatch batch = new HotRapWriteBatch().put(key(1), value(1, 3, 100)).delete(key(2));
      db.write(batch);
      model.put(1, 3);
      model.remove(2);
      assertHolds(db, model, 300);
      assertL0InMemoryOnly(db, files);
      db.memory().trim();
      HotRapStats s = db.stats();
      assertTrue(s.memoryTierBytes() > 0);
      assertTrue(s.tierLogBytes() > 0);
    }
  }

  @Test
  void l0CompactionsWriteTheFastDiskAndTheLogForgetsWhatReachedIt() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      Path files = db.memory().filesDir();
      for (int round = 1; round <= 6; round++) {
        writeRound(db, model, 1000, round); // ~1 MB a round: the memory tier's size
      }
      db.awaitBackgroundWork();
      db.memory().trim();
      assertL0InMemoryOnly(db, files);
      assertTrue(sstFiles(dir.resolve("fast").resolve(StoreLayout.DATA_DIR)) > 0,
          "no L0 compaction wrote the fast disk");
      HotRapStats s = db.stats();
      assertTrue(s.memoryTierRetirements() > 0, "the log's watermark never advanced");
      assertTrue(s.memoryTierBytes() <= MEMORY * 2, "L0 outgrew the tier: " + s.memoryTierBytes());
      db.memory().awaitLogWork();
      assertTrue(db.memory().logStats().liveRecords() < db.memory().logStats().appendedRecords(),
          "nothing in the log died: " + db.memory().logStats());
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertL0InMemoryOnly(db, files);
      assertHolds(db, model, 1000);
    }
  }

  @Test
  void reopenAndReopenAfterTheMemoryDirectoryWasWipedKeepEveryWrite() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int round = 1; round <= 3; round++) {
        writeRound(db, model, 800, round);
      }
      db.awaitBackgroundWork(); // some data below L0, on the fast disk
      writeRound(db, model, 800, 4); // and some only in L0 and the memtables
    }
    try (HotRapDB db = HotRapDB.open(options())) {
      assertHolds(db, model, 800);
      writeRound(db, model, 800, 5);
    }
    TestStores.deleteContents(memory());
    try (HotRapDB db = HotRapDB.open(options())) {
      Path files = db.memory().filesDir();
      filesDirName = files.getFileName().toString();
      try (Stream<Path> left = Files.list(files)) {
        assertTrue(left.noneMatch(Files::isSymbolicLink), "recovery left its links behind");
      }
      assertTrue(Files.exists(files.resolve(MemoryTier.MARKER)));
      assertHolds(db, model, 800);
      writeRound(db, model, 800, 6);
      db.awaitBackgroundWork();
      assertL0InMemoryOnly(db, files);
    }
    TestStores.deleteContents(memory());
    // An open that failed after linking the fast disk's files left its links (and no marker):
    // the next open removes them without touching what they point to.
    Path fastData = dir.resolve("fast").resolve(StoreLayout.DATA_DIR);
    Path linked;
    try (Stream<Path> files = Files.list(fastData)) {
      linked = files.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    Path storeFiles = Files.createDirectories(memory().resolve(filesDirName));
    Files.createSymbolicLink(storeFiles.resolve(linked.getFileName()), linked);
    try (HotRapDB db = HotRapDB.open(options())) {
      assertHolds(db, model, 800);
    }
  }

  /**
   * A crash may lose the log's liveness marks, so a reopen replays records whose data is already
   * on disk, older versions among them. The log is always a suffix of the user writes (deadness is
   * a prefix), so each key's newest record is replayed last: the store must return the newest
   * state, deletes included, on a plain reopen and after a wipe.
   */
  @Test
  void replayingRecordsAlreadyOnDiskKeepsTheNewestState() throws Exception {
    Map<Integer, Integer> model = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int round = 1; round <= 4; round++) {
        writeRound(db, model, 600, round);
      }
      db.awaitBackgroundWork();
      db.migrator().migrateNow(Long.MAX_VALUE, true); // some versions down to the slow tier
      writeRound(db, model, 600, 5);
    }
    Path log = dir.resolve("fast").resolve(MemoryTier.LOG_DIR);
    Files.deleteIfExists(log.resolve("liveness")); // every record left counts as live
    try (HotRapDB db = HotRapDB.open(options())) {
      assertHolds(db, model, 600);
    }
    Files.deleteIfExists(log.resolve("liveness"));
    TestStores.deleteContents(memory());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertHolds(db, model, 600);
    }
  }

  @Test
  void snapshotsAndIteratorsKeepTheirCutAcrossFlushes() throws Exception {
    try (HotRapDB db = HotRapDB.open(options())) {
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, 1, 200));
      }
      try (HotRapSnapshot snap = db.getSnapshot(); HotRapIterator it = db.newIterator()) {
        for (int i = 0; i < 100; i++) {
          if (i % 2 == 0) {
            db.delete(key(i));
          } else {
            db.put(key(i), value(i, 2, 200));
          }
        }
        db.flush(); // the versions the snapshot and the iterator read go to L0
        db.awaitBackgroundWork();
        for (int i = 0; i < 100; i++) {
          assertEquals(1, versionOf(db.get(snap, key(i))));
        }
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          assertEquals(1, versionOf(it.value()));
          n++;
        }
        assertEquals(100, n);
        try (HotRapIterator at = db.newIterator(snap)) {
          n = 0;
          for (at.seekToFirst(); at.isValid(); at.next()) {
            assertEquals(1, versionOf(at.value()));
            n++;
          }
          assertEquals(100, n);
        }
      }
      for (int i = 0; i < 100; i++) {
        byte[] v = db.get(key(i));
        if (i % 2 == 0) {
          assertNull(v);
        } else {
          assertEquals(2, versionOf(v));
        }
      }
    }
  }

  @Test
  void aMissingMemoryDirectoryIsRejectedByName() {
    Path missing = dir.resolve("no-such-dir");
    HotRapOptions o = TestStores.small(dir).memoryTier(missing, MEMORY).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains(missing.toString()),
        e.getMessage());
    assertTrue(!Files.exists(dir.resolve("fast")), "the store was created anyway");
  }

  @Test
  void anUnwritableMemoryDirectoryIsRejectedByName() throws Exception {
    Path ro = Files.createDirectories(dir.resolve("read-only"));
    ro.toFile().setWritable(false, false);
    if (Files.isWritable(ro)) {
      ro = Path.of("/proc/self"); // root writes anywhere it may; no one creates files here
    }
    HotRapOptions o = TestStores.small(dir).memoryTier(ro, MEMORY).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("not writable"), e.getMessage());
  }

  @Test
  void aMemoryDirectoryWithoutRoomForTheTierIsRejectedByName() throws Exception {
    HotRapOptions o = TestStores.small(dir).memoryTier(memory(), 1L << 50).build(); // 1 PiB
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(o));
    assertTrue(e.getMessage().contains("less than memoryBytes")
        && e.getMessage().contains(memory().toString()), e.getMessage());
  }

  @Test
  void aMemoryTierSmallerThanTwoWriteBuffersIsRejected() throws Exception {
    HotRapOptions.Builder b = TestStores.small(dir).memoryTier(memory(), TestStores.WRITE_BUFFER);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().contains("smaller than two write buffers"), e.getMessage());
  }

  @Test
  void aStoreWithATierLogRefusesToOpenWithoutItsMemoryTier() throws Exception {
    try (HotRapDB db = HotRapDB.open(options())) {
      db.put(key(1), value(1, 1, 100));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HotRapDB.open(TestStores.small(dir).build()));
    assertTrue(e.getMessage().contains("memoryTier"), e.getMessage());
    try (HotRapDB db = HotRapDB.open(options())) {
      assertArrayEquals(value(1, 1, 100), db.get(key(1)));
    }
  }

}
