package io.hotrap.core;

import static io.hotrap.core.TestStores.BUDGET;
import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocksDB's write-ahead log stays bounded: a column family written seldom (the metadata one, the
 * slow tier between migrations) must not keep every log file alive.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WalBoundTest {
  @TempDir Path dir;

  private static List<Path> logs(Path dbDir) throws Exception {
    try (Stream<Path> files = Files.list(dbDir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).collect(Collectors.toList());
    }
  }

  @Test
  void aReopenAfterTwentyBudgetsOfWritesFindsFewLogFiles() throws Exception {
    HotRapOptions o = HotRapOptions.builder().fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(BUDGET).build();
    int records = (int) (20 * BUDGET / 1024);
    try (HotRapDB db = HotRapDB.open(o)) {
      for (int i = 0; i < records; i++) {
        db.put(key(i % 8000), value(i % 8000, i / 8000 + 1, 1000));
      }
    }
    try (HotRapDB db = HotRapDB.open(o)) {
      List<Path> logs = logs(o.fastPath().resolve(StoreLayout.DB_DIR));
      assertTrue(logs.size() <= 4, logs.size() + " log files after a reopen: " + logs);
      int last = (records - 1) / 8000 + 1;
      assertEquals(last, versionOf(db.get(key((records - 1) % 8000))));
    }
  }
}
