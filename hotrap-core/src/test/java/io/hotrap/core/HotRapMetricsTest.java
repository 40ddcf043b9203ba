package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotRapMetricsTest {
  @TempDir Path dir;

  @Test
  void metersFollowTheStoreAndLeaveWithIt() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).meterRegistry(registry).build())) {
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      db.put(key(1), value(1, 2, 100));
      db.get(key(1));       // fast
      db.get(key(2));       // slow
      db.get(key(100_000)); // slow, absent
      // The stats and the gauges below are read one after the other: nothing may flush or compact
      // in between (the demotion's ingested files can still be compacted on the slow tier).
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertEquals(1, s.getsServedFast());
      assertEquals(2, s.getsServedSlow());
      assertEquals(1.0, registry.get("hotrap.gets").tag("tier", "fast").functionCounter().count());
      assertEquals(2.0, registry.get("hotrap.gets").tag("tier", "slow").functionCounter().count());
      assertEquals(s.bytesDemoted(),
          registry.get("hotrap.migration.bytes").tag("kind", "demoted").functionCounter().count());
      assertTrue(s.bytesDemoted() > 100 * 100);
      assertEquals(0.0, registry.get("hotrap.promotion.bytes").tag("kind", "flush")
          .functionCounter().count());
      assertNull(registry.find("hotrap.migration.bytes").tag("kind", "promoted.flush").functionCounter(),
          "promoted bytes are exported once, as hotrap.promotion.bytes");
      assertTrue(registry.get("hotrap.migration.duration").functionTimer().count() >= 1);
      assertEquals((double) s.slowSstBytes(),
          registry.get("hotrap.tier.sst.bytes").tag("tier", "slow").gauge().value());
      assertEquals("bytes", registry.get("hotrap.tier.sst.bytes").tag("tier", "fast").gauge().getId()
          .getBaseUnit());
      assertEquals(s.raltAvailable() ? 1.0 : 0.0, registry.get("hotrap.ralt.available").gauge().value());
      assertEquals(0, s.bytesPromotedByFlush());
      assertEquals(0, s.bytesPromotedByCompaction());
    }
    assertNull(registry.find("hotrap.gets").functionCounter(), "close removes the store's meters");
  }

  @Test
  void bindsToAnyRegistryThroughTheMeterBinder() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.metrics().bindTo(registry);
      db.put(key(1), value(1, 1, 10));
      db.get(key(1));
      assertEquals(1.0, registry.get("hotrap.gets").tag("tier", "fast").functionCounter().count());
    }
  }
}
