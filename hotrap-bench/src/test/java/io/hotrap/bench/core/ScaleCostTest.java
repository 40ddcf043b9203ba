package io.hotrap.bench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale table through a real store at a tiny budget: the load migrated (the picker ranked
 * files), the reads made RALT call records hot and filled the promotion cache, and every figure
 * is divided by the data as the header says.
 */
class ScaleCostTest {
  @TempDir Path dir;

  @Test
  void aTinyBudgetGetsOneRowWithEveryCostMeasured() throws Exception {
    Path out = dir.resolve("out");
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    ScaleCost.run(List.of("--dir", dir.resolve("data").toString(), "--out", out.toString(),
        "--budgets", "2", "--seconds", "4", "--workload", "ro-hotspot5"),
        new PrintStream(buffer, true, StandardCharsets.UTF_8));
    List<String> lines = Files.readAllLines(out.resolve(ScaleCost.CSV));
    assertEquals(ScaleCost.HEADER, lines.get(0));
    assertEquals(2, lines.size(), "one row per budget");
    String[] names = lines.get(0).split(",");
    String[] values = lines.get(1).split(",");
    Map<String, Double> row = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      row.put(names[i], Double.parseDouble(values[i]));
    }
    assertEquals(2, row.get("budget_mib"));
    assertEquals(11 * (2 << 20) / 1024, row.get("records"), "the run command's 11x the budget");
    assertEquals(row.get("records") * 1024, row.get("data_bytes"));
    assertTrue(row.get("fast_files") > 0, "fast files");
    assertTrue(row.get("ralt_hot_records") > 0, "RALT called nothing hot");
    assertTrue(row.get("ralt_memory_bytes") > 0, "RALT's account");
    assertEquals(row.get("ralt_memory_bytes") / row.get("ralt_hot_records"),
        row.get("ralt_bytes_per_hot_key"), 0.01);
    assertTrue(row.get("picks") > 0, "a load of 11x the budget migrated without a ranking");
    assertTrue(row.get("pick_fast_files_mean") > 0 && row.get("pick_us") > 0);
    assertTrue(row.get("pick_peak_bytes") > 0);
    assertTrue(row.get("cache_peak_bytes") > 0, "the reads never reached the promotion cache");
    assertTrue(row.get("cache_peak_bytes") >= row.get("cache_end_bytes"));
    assertEquals(1e6 * row.get("ralt_memory_bytes") / row.get("data_bytes"),
        row.get("ralt_memory_ppm_of_data"), 0.01);
    assertEquals(1e6 * row.get("cache_peak_bytes") / row.get("data_bytes"),
        row.get("cache_peak_ppm_of_data"), 0.1);
    assertFalse(Files.exists(dir.resolve("data").resolve("2mib")), "the store is left behind");
    assertTrue(buffer.toString(StandardCharsets.UTF_8).contains("B/hotkey"));
  }

  @Test
  void aBadBudgetOrWorkloadFailsBeforeTheDirectoryIsEmptied() throws Exception {
    Path kept = Files.writeString(dir.resolve("kept"), "x");
    PrintStream sink = new PrintStream(new ByteArrayOutputStream());
    assertThrows(IllegalArgumentException.class,
        () -> ScaleCost.run(List.of("--dir", dir.toString(), "--budgets", "16,x"), sink));
    assertThrows(IllegalArgumentException.class,
        () -> ScaleCost.run(List.of("--dir", dir.toString(), "--budgets", "0"), sink));
    assertThrows(IllegalArgumentException.class,
        () -> ScaleCost.run(List.of("--dir", dir.toString(), "--workload", "nosuch"), sink));
    assertTrue(Files.exists(kept));
  }
}
