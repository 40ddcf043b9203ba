package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.str;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotRapDBTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void putGetDeleteRoundTrip() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      assertNull(db.get(b("a")));
      db.put(b("a"), b("1"));
      db.put(b("b"), b("2"));
      assertEquals("1", str(db.get(b("a"))));
      db.put(b("a"), b("3"));
      assertEquals("3", str(db.get(b("a"))));
      db.delete(b("a"));
      assertNull(db.get(b("a")));
      assertEquals("2", str(db.get(b("b"))));
      db.delete(b("never-written"));
      assertNull(db.get(b("never-written")));
    }
  }

  @Test
  void emptyKeyAndEmptyValueAreRecords() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(new byte[0], b("empty key"));
      db.put(b("k"), new byte[0]);
      assertEquals("empty key", str(db.get(new byte[0])));
      assertArrayEquals(new byte[0], db.get(b("k")));
    }
  }

  @Test
  void layoutPutsEachTierInItsDirectory() throws Exception {
    HotRapOptions o = small(dir).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < 200; i++) {
        db.put(key(i), value(i, 0, 100));
      }
      db.flush();
      // Move everything to the slow tier, then write a little more to the fast one.
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      for (int i = 200; i < 250; i++) {
        db.put(key(i), value(i, 0, 100));
      }
      db.flush();
      assertEquals(200, TestStores.raw(db, db.slowHandle()).size());
      assertTrue(Files.exists(o.fastPath().resolve("db").resolve("CURRENT")));
      assertTrue(Files.isDirectory(o.fastPath().resolve("ralt")));
      // Every live file of a tier sits in that tier's directory.
      int fastFiles = 0;
      int slowFiles = 0;
      for (org.rocksdb.LiveFileMetaData f : db.rocks().getLiveFilesMetaData()) {
        String cf = new String(f.columnFamilyName(), StandardCharsets.UTF_8);
        Path where = Path.of(f.path());
        if (cf.equals("fast")) {
          fastFiles++;
          assertEquals(o.fastPath().resolve("data"), where);
        } else if (cf.equals("slow")) {
          slowFiles++;
          assertEquals(o.slowPath().resolve("data"), where);
        } else {
          assertEquals(o.fastPath().resolve("db"), where);
        }
      }
      assertTrue(fastFiles > 0 && slowFiles > 0, fastFiles + " fast files, " + slowFiles + " slow files");
      assertTrue(sstCount(o.slowPath().resolve("data")) > 0);
    }
  }

  private static long sstCount(Path p) throws Exception {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(f -> f.toString().endsWith(".sst")).count();
    }
  }

  @Test
  void dataSurvivesReopen() {
    HotRapOptions o = small(dir).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      db.put(b("x"), b("1"));
      db.put(b("y"), b("2"));
      db.delete(b("y"));
    }
    try (HotRapDB db = HotRapDB.open(o)) {
      assertEquals("1", str(db.get(b("x"))));
      assertNull(db.get(b("y")));
    }
  }

  @Test
  void reopeningWithAnotherSlowPathIsAClearError() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(b("x"), b("1"));
    }
    HotRapOptions moved = small(dir).slowPath(dir.resolve("elsewhere")).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(moved));
    assertTrue(e.getMessage().contains("was created with slowPath " + dir.resolve("slow"))
        && e.getMessage().contains("opened with slowPath " + dir.resolve("elsewhere")), e.getMessage());
  }

  @Test
  void aSlowDirectoryOfAnotherStoreIsRejected() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(b("x"), b("1"));
    }
    HotRapOptions other = small(dir).fastPath(dir.resolve("fast2")).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotRapDB.open(other));
    assertTrue(e.getMessage().contains("belongs to the store created with fastPath"), e.getMessage());
  }

  @Test
  void writeBatchIsAtomicAndAppliesRulesPerKey() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(b("gone"), b("old"));
      HotRapWriteBatch batch = new HotRapWriteBatch().put(b("a"), b("1")).put(b("b"), b("2"))
          .delete(b("gone")).delete(b("a")).put(b("a"), b("4"));
      try (HotRapSnapshot before = db.getSnapshot()) {
        db.write(batch);
        assertNull(db.get(before, b("a")));
        assertEquals("old", str(db.get(before, b("gone"))));
      }
      assertEquals("4", str(db.get(b("a"))));
      assertEquals("2", str(db.get(b("b"))));
      assertNull(db.get(b("gone")));
      assertEquals(5, batch.count());
    }
  }

  @Test
  void iteratorHonoursBoundsAndSeek() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      for (String k : new String[] {"a", "b", "c", "d", "e"}) {
        db.put(b(k), b(k.toUpperCase()));
      }
      db.put(new byte[] {(byte) 0xff}, b("high"));
      try (HotRapIterator it = db.newIterator(b("b"), b("d"))) {
        it.seekToFirst();
        assertEquals("b", str(it.key()));
        it.next();
        assertEquals("c", str(it.key()));
        assertEquals("C", str(it.value()));
        it.next();
        assertFalse(it.isValid());
        assertThrows(IllegalStateException.class, it::key);
      }
      try (HotRapIterator it = db.newIterator()) {
        it.seek(b("cc"));
        assertEquals("d", str(it.key()));
        it.next();
        it.next();
        assertArrayEquals(new byte[] {(byte) 0xff}, it.key(), "keys order as unsigned bytes");
      }
    }
  }

  @Test
  void snapshotIsStableAcrossWritesAndCoversIterators() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(b("a"), b("1"));
      try (HotRapSnapshot s = db.getSnapshot()) {
        db.put(b("a"), b("2"));
        db.put(b("b"), b("3"));
        db.delete(b("a"));
        assertEquals("1", str(db.get(s, b("a"))));
        assertNull(db.get(s, b("b")));
        try (HotRapIterator it = db.newIterator(s)) {
          it.seekToFirst();
          assertEquals("a", str(it.key()));
          assertEquals("1", str(it.value()));
          it.next();
          assertFalse(it.isValid());
        }
      }
      assertNull(db.get(b("a")));
    }
  }

  @Test
  void badInputIsRejectedPerTheContract() {
    try (HotRapDB db = HotRapDB.open(small(dir).maxKeyBytes(16).maxValueBytes(32).build())) {
      NullPointerException npe = assertThrows(NullPointerException.class, () -> db.put(null, b("v")));
      assertEquals("key", npe.getMessage());
      npe = assertThrows(NullPointerException.class, () -> db.put(b("k"), null));
      assertEquals("value", npe.getMessage());
      assertEquals("key", assertThrows(NullPointerException.class, () -> db.get(null)).getMessage());
      assertEquals("key", assertThrows(NullPointerException.class, () -> db.delete(null)).getMessage());
      assertEquals("key", assertThrows(NullPointerException.class,
          () -> new HotRapWriteBatch().put(null, b("v"))).getMessage());
      assertEquals("batch", assertThrows(NullPointerException.class, () -> db.write(null)).getMessage());
      IllegalArgumentException iae = assertThrows(IllegalArgumentException.class,
          () -> db.put(new byte[17], b("v")));
      assertTrue(iae.getMessage().contains("maxKeyBytes = 16"), iae.getMessage());
      iae = assertThrows(IllegalArgumentException.class, () -> db.put(b("k"), new byte[33]));
      assertTrue(iae.getMessage().contains("maxValueBytes = 32"), iae.getMessage());
      iae = assertThrows(IllegalArgumentException.class,
          () -> db.write(new HotRapWriteBatch().put(b("ok"), b("v")).put(b("k"), new byte[33])));
      assertTrue(iae.getMessage().contains("maxValueBytes = 32"));
      assertNull(db.get(b("ok")), "a rejected batch writes nothing");
      assertThrows(IllegalArgumentException.class, () -> db.newIterator(b("z"), b("a")));
    }
  }

  @Test
  void useAfterCloseThrowsIllegalState() {
    HotRapDB db = HotRapDB.open(small(dir).build());
    db.put(b("a"), b("1"));
    HotRapIterator it = db.newIterator();
    HotRapSnapshot s = db.getSnapshot();
    db.close();
    db.close();
    assertThrows(IllegalStateException.class, () -> db.get(b("a")));
    assertThrows(IllegalStateException.class, () -> db.put(b("a"), b("2")));
    assertThrows(IllegalStateException.class, () -> db.delete(b("a")));
    assertThrows(IllegalStateException.class, db::newIterator);
    assertThrows(IllegalStateException.class, db::getSnapshot);
    assertThrows(IllegalStateException.class, db::flush);
    assertThrows(IllegalStateException.class, db::awaitBackgroundWork);
    assertThrows(IllegalStateException.class, db::stats);
    assertThrows(IllegalStateException.class, it::seekToFirst);
    assertThrows(IllegalStateException.class, () -> db.get(s, b("a")));
    it.close();
    s.close();
  }

  @Test
  void storeKeepsServingWhenRaltCannotOpen() throws Exception {
    HotRapOptions o = small(dir).build();
    Files.createDirectories(o.fastPath());
    Files.writeString(o.fastPath().resolve("ralt"), "not a directory");
    try (HotRapDB db = HotRapDB.open(o)) {
      db.put(b("a"), b("1"));
      assertEquals("1", str(db.get(b("a"))));
      try (HotRapIterator it = db.newIterator()) {
        it.seekToFirst();
        assertEquals("1", str(it.value()));
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertEquals(1, s.getsServedFast());
      assertFalse(s.raltAvailable());
      assertNull(s.raltStats());
      assertTrue(db.tracker().failures() > 0);
      assertTrue(db.tracker().unavailableReason() != null);
    }
  }

  @Test
  void everyReturnedRecordIsLoggedInRalt() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(b("a"), b("1"));
      db.put(b("b"), b("22"));
      db.get(b("a"));
      db.get(b("missing"));
      try (HotRapIterator it = db.newIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          it.value();
        }
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      if (s.raltAvailable()) {
        assertEquals(3, s.raltStats().accesses(), s.toString());
        assertEquals(2 + 2 + 3, s.raltStats().accessedBytes(), s.toString());
      }
    }
  }
}
