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

/** The skew table through a real store: Zipf writes are called skewed, uniform ones are not. */
class SkewTableTest {
  @TempDir Path dir;

  @Test
  void zipfWritesAreSkewedAndUniformWritesAreNotWindowByWindow() throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    SkewTable.run(List.of("--dir", dir.toString(), "--budget-mib", "4", "--windows", "3",
        "--distributions", "uniform,zipf1.2"), new PrintStream(buffer, true, StandardCharsets.UTF_8));
    List<String> lines = Files.readAllLines(dir.resolve("skew.csv"));
    assertEquals("distribution,windows,variance_min,variance_median,variance_max,skewed_share,"
        + "threshold,window_bytes", lines.get(0));
    Map<String, String[]> rows = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      rows.put(f[0], f);
    }
    String[] uniform = rows.get("uniform");
    String[] zipf = rows.get("zipf1.2");
    assertEquals("3", uniform[1], "windows counted under uniform");
    assertEquals("3", zipf[1], "windows counted under Zipf");
    double threshold = Double.parseDouble(zipf[6]);
    assertTrue(Double.parseDouble(uniform[4]) < threshold, "uniform max variance " + uniform[4]);
    assertEquals(0.0, Double.parseDouble(uniform[5]), "uniform windows called skewed");
    assertTrue(Double.parseDouble(zipf[2]) > threshold, "Zipf 1.2 min variance " + zipf[2]);
    assertEquals(1.0, Double.parseDouble(zipf[5]), "Zipf windows not called skewed");
    assertFalse(Files.exists(dir.resolve("uniform")), "a distribution's store is left behind");
    assertTrue(buffer.toString(StandardCharsets.UTF_8).contains("zipf1.2"));
  }

  @Test
  void aBadDistributionFailsBeforeTheDirectoryIsEmptied() throws Exception {
    Path kept = Files.writeString(dir.resolve("kept"), "x");
    assertThrows(IllegalArgumentException.class, () -> SkewTable.run(List.of("--dir", dir.toString(),
        "--distributions", "uniform,nosuch"), new PrintStream(new ByteArrayOutputStream())));
    assertTrue(Files.exists(kept));
  }
}
