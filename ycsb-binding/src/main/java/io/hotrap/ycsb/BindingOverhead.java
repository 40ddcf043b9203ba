package io.hotrap.ycsb;

import io.hotrap.core.HotRapDB;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * What the binding costs: workload C's operation (read a whole record of a Zipfian-chosen key)
 * through {@link HotRapYcsbClient#read} against the same gets straight on {@link HotRapDB}, in one
 * JVM on one store, alternating short rounds so that machine noise hits both alike.
 *
 * <p>{@code java -cp ycsb-binding/target/hotrap-ycsb.jar io.hotrap.ycsb.BindingOverhead [dir]
 * [records] [rounds] [opsPerRound]}; defaults hotrap-data/ycsb-overhead, 100000, 10, 200000.
 */
public final class BindingOverhead {
  private BindingOverhead() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "hotrap-data/ycsb-overhead");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int opsPerRound = args.length > 3 ? Integer.parseInt(args[3]) : 200_000;
    deleteRecursively(dir);
    Properties p = new Properties();
    p.setProperty("hotrap.fast.dir", dir.resolve("fast").toString());
    p.setProperty("hotrap.slow.dir", dir.resolve("slow").toString());
    p.setProperty("hotrap.fast.budget", "64M");
    HotRapYcsbClient client = new HotRapYcsbClient();
    client.setProperties(p);
    client.init();
    try {
      Map<String, ByteIterator> values = new HashMap<>();
      byte[] field = new byte[100];
      Arrays.fill(field, (byte) 'x');
      for (int f = 0; f < 10; f++) {
        values.put("field" + f, new StringByteIterator(new String(field, StandardCharsets.US_ASCII)));
      }
      for (int i = 0; i < records; i++) {
        check(client.insert("usertable", key(i), new HashMap<>(values)));
      }
      SharedStore store = SharedStore.acquire(p);
      HotRapDB db = store.db();
      try {
        ScrambledZipfianGenerator zipf = new ScrambledZipfianGenerator(records);
        int[] ids = new int[opsPerRound];
        for (int i = 0; i < ids.length; i++) {
          ids[i] = zipf.nextValue().intValue();
        }
        String[] keys = new String[records];
        byte[][] keyBytes = new byte[records][];
        for (int i = 0; i < records; i++) {
          keys[i] = key(i);
          keyBytes[i] = keys[i].getBytes(StandardCharsets.UTF_8);
        }
        double[] viaBinding = new double[rounds];
        double[] direct = new double[rounds];
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
          long t0 = System.nanoTime();
          for (int id : ids) {
            Map<String, ByteIterator> result = new HashMap<>();
            check(client.read("usertable", keys[id], null, result));
            sink += result.size();
          }
          long t1 = System.nanoTime();
          for (int id : ids) {
            sink += db.get(keyBytes[id]).length;
          }
          long t2 = System.nanoTime();
          viaBinding[r] = opsPerRound / ((t1 - t0) / 1e9);
          direct[r] = opsPerRound / ((t2 - t1) / 1e9);
        }
        // The first rounds warm the JIT and the caches: report the median of the second half.
        double b = median(Arrays.copyOfRange(viaBinding, rounds / 2, rounds));
        double d = median(Arrays.copyOfRange(direct, rounds / 2, rounds));
        System.out.printf("workload C reads, %d records of 10 x 100 B, %d ops per round, 1 thread%n",
            records, opsPerRound);
        System.out.printf("through the binding: %.0f ops/s; HotRapDB.get: %.0f ops/s;"
            + " binding/direct = %.2f (checksum %d)%n", b, d, b / d, sink);
      } finally {
        store.release();
      }
    } finally {
      client.cleanup();
      deleteRecursively(dir);
    }
  }

  private static String key(int i) {
    return "user" + i;
  }

  private static void check(Status s) {
    if (!s.isOk()) {
      throw new IllegalStateException("operation failed: " + s);
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static void deleteRecursively(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }
}
