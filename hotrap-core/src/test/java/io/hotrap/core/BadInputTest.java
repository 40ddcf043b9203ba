package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** What a user can get wrong gets a clear exception and changes nothing (DESIGN.md §11). */
class BadInputTest {
  @TempDir Path dir;

  private static void assertMessage(Class<? extends Throwable> type, String fragment, Executable call) {
    Throwable t = assertThrows(type, call);
    assertTrue(t.getMessage() != null && t.getMessage().contains(fragment),
        "expected a message containing '" + fragment + "' but was: " + t.getMessage());
  }

  @Test
  void nullsAreRejectedNamingTheArgumentAndEmptyKeysAreKeys() {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      byte[] v = {1};
      assertMessage(NullPointerException.class, "key", () -> db.put(null, v));
      assertMessage(NullPointerException.class, "value", () -> db.put(key(1), null));
      assertMessage(NullPointerException.class, "key", () -> db.get(null));
      assertMessage(NullPointerException.class, "key", () -> db.delete(null));
      assertMessage(NullPointerException.class, "batch", () -> db.write(null));
      assertMessage(NullPointerException.class, "key", () -> db.write(new HotRapWriteBatch().put(null, v)));
      assertMessage(NullPointerException.class, "snapshot", () -> db.newIterator((HotRapSnapshot) null));
      try (HotRapIterator it = db.newIterator()) {
        assertMessage(NullPointerException.class, "target", () -> it.seek(null));
      }
      assertNull(db.get(key(1)), "a rejected write changed the store");
      db.put(new byte[0], v);
      assertArrayEquals(v, db.get(new byte[0]));
    }
  }

  @Test
  void oversizedKeysAndValuesAreRejectedWithTheLimitAndChangeNothing() {
    try (HotRapDB db = HotRapDB.open(small(dir).maxKeyBytes(16).maxValueBytes(64).build())) {
      assertMessage(IllegalArgumentException.class, "maxKeyBytes = 16", () -> db.put(new byte[17], new byte[1]));
      assertMessage(IllegalArgumentException.class, "maxValueBytes = 64", () -> db.put(key(1), new byte[65]));
      assertMessage(IllegalArgumentException.class, "maxKeyBytes = 16", () -> db.get(new byte[17]));
      HotRapWriteBatch batch = new HotRapWriteBatch().put(key(2), new byte[1]).put(key(3), new byte[65]);
      assertMessage(IllegalArgumentException.class, "maxValueBytes = 64", () -> db.write(batch));
      assertNull(db.get(key(2)), "a batch with one bad record was partly applied");
      assertNull(db.get(key(1)));
    }
  }

  @Test
  void everyCallAfterCloseIsAnIllegalStateException() {
    HotRapDB db = HotRapDB.open(small(dir).build());
    db.put(key(1), new byte[] {1});
    HotRapIterator it = db.newIterator();
    it.seekToFirst();
    HotRapSnapshot snap = db.getSnapshot();
    db.close();
    db.close();
    byte[] v = {1};
    assertThrows(IllegalStateException.class, () -> db.put(key(1), v));
    assertThrows(IllegalStateException.class, () -> db.get(key(1)));
    assertThrows(IllegalStateException.class, () -> db.delete(key(1)));
    assertThrows(IllegalStateException.class, () -> db.write(new HotRapWriteBatch().put(key(1), v)));
    assertThrows(IllegalStateException.class, db::newIterator);
    assertThrows(IllegalStateException.class, db::getSnapshot);
    assertThrows(IllegalStateException.class, db::flush);
    assertThrows(IllegalStateException.class, db::stats);
    assertThrows(IllegalStateException.class, db::awaitBackgroundWork);
    assertThrows(IllegalStateException.class, it::seekToFirst);
    assertThrows(IllegalStateException.class, it::next);
    assertThrows(IllegalStateException.class, it::key);
    assertThrows(IllegalStateException.class, () -> db.get(snap, key(1)));
    assertFalse(snap.isOpen());
    it.close();
    snap.close();
  }

  @Test
  void iteratorAndSnapshotMisuseIsRejected() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).build());
        HotRapDB other = HotRapDB.open(small(dir.resolve("other")).build())) {
      db.put(key(1), new byte[] {1});
      HotRapIterator it = db.newIterator();
      assertThrows(IllegalStateException.class, it::key, "unpositioned");
      assertThrows(IllegalStateException.class, it::next, "unpositioned");
      it.seekToFirst();
      it.next();
      assertFalse(it.isValid());
      assertThrows(IllegalStateException.class, it::value, "past the end");
      it.close();
      it.close();
      assertThrows(IllegalStateException.class, it::isValid);
      assertThrows(IllegalStateException.class, it::seekToFirst);
      assertMessage(IllegalArgumentException.class, "lowInclusive", () -> db.newIterator(key(2), key(1)));
      try (HotRapSnapshot foreign = other.getSnapshot()) {
        assertMessage(IllegalArgumentException.class, "another store", () -> db.get(foreign, key(1)));
        assertMessage(IllegalArgumentException.class, "another store", () -> db.newIterator(foreign));
      }
      HotRapSnapshot snap = db.getSnapshot();
      snap.close();
      snap.close();
      assertThrows(IllegalStateException.class, () -> db.newIterator(snap));
      assertEquals(0, db.stats().openSnapshots());
    }
  }

  @Test
  void contradictoryOptionsAreRejectedNamingBoth() {
    assertMessage(IllegalStateException.class, "hotnessCheck(true) contradicts promotion(false)",
        () -> small(dir).promotion(false).hotnessCheck(true).build());
    assertMessage(IllegalStateException.class, "promoteByCompaction(true) contradicts promotion(false)",
        () -> small(dir).promoteByCompaction(true).promotion(false).build());
    HotRapOptions off = small(dir).promotion(false).build();
    assertFalse(off.hotnessCheck() || off.promoteByCompaction(), off.toString());
    assertMessage(IllegalStateException.class, "lowWatermark",
        () -> small(dir).lowWatermark(0.9).highWatermark(0.5).build());
    assertMessage(IllegalStateException.class, "must not overlap",
        () -> HotRapOptions.builder().fastPath(dir).slowPath(dir.resolve("inside")).fastBudgetBytes(4 << 20).build());
  }
}
