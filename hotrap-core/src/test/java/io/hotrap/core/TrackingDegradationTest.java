package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RALT's limits and failures reach the store as degraded tracking, never as lost service. */
class TrackingDegradationTest {
  @TempDir Path dir;

  @Test
  void theDefaultKeyLimitIsOneRaltTracks() {
    HotRapOptions o = small(dir).build();
    assertTrue(o.maxKeyBytes() <= Ralt.MAX_KEY_BYTES, "maxKeyBytes " + o.maxKeyBytes());
  }

  @Test
  void aKeyLimitAboveRaltsIsRejectedNamingBoth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> small(dir).maxKeyBytes(Ralt.MAX_KEY_BYTES + 1));
    assertTrue(e.getMessage().contains("maxKeyBytes was " + (Ralt.MAX_KEY_BYTES + 1))
        && e.getMessage().contains("RALT") && e.getMessage().contains(Integer.toString(Ralt.MAX_KEY_BYTES)),
        e.getMessage());
  }

  @Test
  void theLongestLegalKeyKeepsTrackingOn() {
    HotRapOptions o = small(dir).ralt(r -> r.bufferBytes(64 * 1024)).build();
    try (HotRapDB db = HotRapDB.open(o)) {
      byte[] longKey = new byte[o.maxKeyBytes()];
      Arrays.fill(longKey, (byte) 'k');
      byte[] value = {1, 2, 3};
      db.put(longKey, value);
      assertArrayEquals(value, db.get(longKey));
      db.put(key(1), value);
      db.get(key(1));
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.raltAvailable(), "tracking switched off: " + s);
      assertEquals(0, db.tracker().rejectedRecords());
      assertTrue(s.raltStats().accesses() >= 2, s.toString());
    }
  }

  @Test
  void aRecordRaltRejectsIsSkippedAndTrackingStaysOn() {
    RaltOptions ro = RaltOptions.builder().directory(dir.resolve("ralt")).fastDiskBytes(4L << 20).build();
    AccessTracker tracker = AccessTracker.open(ro);
    try {
      tracker.record(new byte[Ralt.MAX_KEY_BYTES + 1], 10, true);
      tracker.record(key(1), 10, true);
      tracker.awaitQuiescence();
      assertTrue(tracker.available(), "tracking switched off after one rejected record");
      assertEquals(1, tracker.rejectedRecords());
      assertEquals(0, tracker.failures());
      assertEquals(1, tracker.stats().accesses());
    } finally {
      tracker.close();
    }
  }
}
