package io.hotrap.bench.harness;

import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import java.nio.file.Path;

public class PcacheCheck {
  public static void main(String[] a) throws Exception {
    String system = a[0];
    int n = Integer.parseInt(a[1]);
    SystemConfig config = new SystemConfig(Path.of("/work/s39/chk/fast"), Path.of("/work/s39/chk/slow"), 128L << 20, true);
    HotspotStream hs = AccessStream.hotspot(1_440_000, 0.05, 0.95, 42);
    try (BenchSystem s = Systems.open(system, config)) {
      long nulls = 0, wrongLen = 0;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        int id = hs.next();
        byte[] v = s.get(Keys.key(id));
        if (v == null) nulls++; else if (v.length != 1024) wrongLen++;
        if ((i + 1) % 50000 == 0) {
          BenchSystem.Counters c = s.counters();
          System.out.printf("%d gets, nulls %d, wrong length %d, slow gets %d, %.0f ops/s%n", i + 1, nulls, wrongLen, c.slowGets(), (i + 1) / ((System.nanoTime() - t0) / 1e9));
        }
      }
    }
  }
}
