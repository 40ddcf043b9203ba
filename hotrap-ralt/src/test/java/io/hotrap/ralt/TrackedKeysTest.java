package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Ralt#trackedKeys} reports every key the files hold, hot or not, and tells the hot ones as
 * {@link Ralt#hotKeys} does; a migration uses it to tell a record read lately from one never read.
 */
class TrackedKeysTest {
  @TempDir Path dir;

  private static byte[] key(String prefix, int i) {
    return String.format("%s%06d", prefix, i).getBytes();
  }

  private static List<String> keys(HotKeyIterator it, Boolean hot) {
    List<String> out = new ArrayList<>();
    try (it) {
      for (; it.isValid(); it.next()) {
        if (hot == null || it.hot() == hot) {
          out.add(new String(it.key()));
        }
      }
    }
    return out;
  }

  @Test
  void reportsReadKeysHotOrNotAndAgreesWithHotKeys() {
    // No room for unstable records in the hot set: a key read once is tracked but not hot.
    RaltOptions options = RaltOptions.builder().directory(dir).fastDiskBytes(64L << 20)
        .bufferBytes(1 << 20).maxUnstableHotBytes(0).build();
    try (Ralt ralt = Ralt.open(options)) {
      for (int i = 0; i < 300; i++) {
        ralt.record(key("b", i), 100); // read once
        ralt.record(key("a", i), 100); // read twice: stable, hence hot
        ralt.record(key("a", i), 100);
      }
      ralt.awaitQuiescence();
      byte[] low = key("a", 0);
      byte[] high = key("z", 0);

      List<String> hot = keys(ralt.hotKeys(low, high), null);
      List<String> trackedHot = keys(ralt.trackedKeys(low, high), true);
      List<String> trackedCold = keys(ralt.trackedKeys(low, high), false);
      List<String> tracked = keys(ralt.trackedKeys(low, high), null);

      assertEquals(300, hot.size(), "keys read twice are hot");
      assertEquals(hot, trackedHot, "the tracked keys marked hot are the hot keys");
      assertEquals(300, trackedCold.size(), "keys read once are tracked, not hot");
      assertTrue(trackedCold.stream().allMatch(k -> k.startsWith("b")), trackedCold.toString());
      assertEquals(600, tracked.size());
      List<String> sorted = new ArrayList<>(tracked);
      sorted.sort(null);
      assertEquals(sorted, tracked, "in key order, each once");

      assertEquals(List.of(), keys(ralt.trackedKeys(key("c", 0), key("d", 0)), null),
          "an untouched range is empty");
      List<String> part = keys(ralt.trackedKeys(key("b", 10), key("b", 19)), null);
      assertEquals(10, part.size(), "bounds are inclusive: " + part);
      assertFalse(part.contains(new String(key("b", 20))));

      HotKeyIterator it = ralt.trackedKeys(low, high);
      assertEquals(0, it.compareKey(key("a", 0)));
      assertTrue(it.compareKey(key("a", 1)) < 0);
      assertTrue(it.compareKey("a".getBytes()) > 0, "a key sorts after its prefix");
      it.close();
      assertThrows(IllegalStateException.class, it::hot, "a closed iterator");
    }
  }
}
