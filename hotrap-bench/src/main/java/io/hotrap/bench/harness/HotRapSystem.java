package io.hotrap.bench.harness;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import io.hotrap.ralt.RaltStats;
import java.util.function.UnaryOperator;

/** HotRAP and its ablations: a {@link HotRapDB} opened with one variant of its options. */
public final class HotRapSystem implements BenchSystem {
  private final String name;
  private final HotRapDB db;

  HotRapSystem(String name, SystemConfig config, UnaryOperator<HotRapOptions.Builder> variant) {
    this.name = name;
    // Variants of one load family live under the same directory name, so one template serves them.
    String dir = Systems.loadFamily(name);
    this.db = HotRapDB.open(variant.apply(
        config.hotrap(config.fastDir().resolve(dir), config.slowDir().resolve(dir))).build());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(key, value);
  }

  @Override
  public void settle() {
    db.flush();
    db.awaitBackgroundWork();
  }

  @Override
  public Counters counters() {
    HotRapStats s = db.stats();
    RaltStats r = s.raltStats();
    return new Counters(s.getsServedFast() + s.getsServedSlow(), s.getsServedFast(),
        s.bytesPromotedByFlush(), s.bytesPromotedByCompaction(), s.bytesRetained(),
        s.bytesDemoted(), Math.max(0, s.fastBytesWritten()), Math.max(0, s.slowBytesWritten()),
        r == null ? 0 : r.bytesRead() + r.bytesWritten(), r == null ? 0 : r.hotSetLimit());
  }

  /** The store's own statistics. */
  public HotRapStats stats() {
    return db.stats();
  }

  /** The options the store was opened with, as it derived them from the budget. */
  public HotRapOptions options() {
    return db.options();
  }

  @Override
  public void close() {
    // The store's counters as it closes, one line on stderr, for a look after a run.
    System.err.println("hotrap stats at close (" + db.options().fastPath() + "): " + db.stats());
    db.close();
  }
}
