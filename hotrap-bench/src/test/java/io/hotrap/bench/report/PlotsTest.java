package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {

  /** The plot area ends and the legend starts right of this column. */
  private static final int LEFT_OF_LEGEND = 800;

  @TempDir Path dir;

  private static BufferedImage readPng(Path file) throws IOException {
    assertTrue(Files.size(file) > 1000, file + " has " + Files.size(file) + " bytes");
    BufferedImage image = ImageIO.read(file.toFile());
    assertNotNull(image, file + " is not an image ImageIO reads");
    return image;
  }

  private static void assertSize(BufferedImage image) {
    assertEquals(Plots.WIDTH, image.getWidth());
    assertEquals(Plots.HEIGHT, image.getHeight());
  }

  /**
   * Pixels of exactly the colour {@code system} is drawn in, left of the legend, in the upper
   * (throughput) or lower (hit rate) chart of a time-series image.
   */
  private static int pixelsOf(BufferedImage image, String system, boolean upper) {
    int rgb = Plots.color(system, List.of(system)).getRGB() & 0xffffff;
    int from = upper ? 0 : image.getHeight() / 2;
    int count = 0;
    for (int y = from; y < from + image.getHeight() / 2; y++) {
      for (int x = 0; x < LEFT_OF_LEGEND; x++) {
        if ((image.getRGB(x, y) & 0xffffff) == rgb) {
          count++;
        }
      }
    }
    return count;
  }

  @Test
  void loadingPlotsSelectsHeadlessAwt() {
    assertEquals("ro-1024-timeseries.png", Plots.timeSeriesFileName("ro", 1024));

    assertEquals("true", System.getProperty("java.awt.headless"));
    assertTrue(GraphicsEnvironment.isHeadless());
  }

  @Test
  void timeSeriesDrawsEverySystemIntoOneImage() throws IOException {
    List<RunResult> runs = List.of(
        Runs.run("hotrap", "ro-hotspot5", 1024, 3000, Runs.steady(120, 3000, 0.9)),
        Runs.run("rocksdb-tiered", "ro-hotspot5", 1024, 1000, Runs.steady(120, 1000, 0.4)),
        Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 4000, Runs.steady(120, 4000, 1.0)));

    Path file = Plots.timeSeries(runs, dir);

    assertEquals(dir.resolve("ro-hotspot5-1024-timeseries.png"), file);
    BufferedImage image = readPng(file);
    assertSize(image);
    for (String system : List.of("hotrap", "rocksdb-tiered", "rocksdb-fd")) {
      assertTrue(pixelsOf(image, system, true) > 200, system + " throughput line");
      assertTrue(pixelsOf(image, system, false) > 200, system + " hit-rate line");
    }
  }

  @Test
  void timeSeriesDrawsRunsWithSeveralPhasesAndSecondsWithoutGets() throws IOException {
    List<RunResult> runs = List.of(Runs.dynamic("hotrap", 40), Runs.dynamic("rocksdb-fd", 40));

    BufferedImage image = readPng(Plots.timeSeries(runs, dir));

    assertSize(image);
    assertTrue(pixelsOf(image, "hotrap", false) > 200, "hit-rate line");
  }

  @Test
  void timeSeriesDrawsARunOfOneSample() throws IOException {
    RunResult run = Runs.run("hotrap", "ro-uniform", 200, 10, Runs.steady(1, 10, 0.5));

    assertSize(readPng(Plots.timeSeries(List.of(run), dir)));
  }

  @Test
  void timeSeriesDrawsARunWhoseHitRateIsNeverANumber() throws IOException {
    RunResult writeOnly =
        Runs.run("hotrap", "wo-uniform", 1024, 10, Runs.steady(5, 10, Double.NaN));
    RunResult empty = Runs.run("rocksdb-fd", "wo-uniform", 1024, 10, List.of());

    BufferedImage image = readPng(Plots.timeSeries(List.of(writeOnly, empty), dir));

    assertSize(image);
    assertTrue(pixelsOf(image, "hotrap", true) > 0, "throughput line");
    assertEquals(0, pixelsOf(image, "hotrap", false), "hit-rate line");
  }

  @Test
  void linesLeaveOutSecondsWithoutGets() {
    List<Sample> samples = List.of(Runs.sample(1, "run", 10, Double.NaN),
        Runs.sample(2, "run", 10, 0.5), Runs.sample(3, "run", 10, Double.NaN),
        Runs.sample(4, "run", 10, 0.75));

    Plots.Points points =
        Plots.finitePoints(Runs.run("hotrap", "ro", 1024, 10, samples), Sample::fastHitRate);

    assertEquals(List.of(2.0, 4.0), points.xs());
    assertEquals(List.of(0.5, 0.75), points.ys());
  }

  @Test
  void phaseBoundariesOfSystemsThatChangePhaseTogetherAreMarkedOnce() {
    RunResult fast = Runs.dynamic("hotrap", 50);
    RunResult same = Runs.dynamic("rocksdb-fd", 50);
    List<Sample> later = new ArrayList<>();
    for (Sample s : fast.samples()) {
      // Ten seconds later into every phase but the first.
      String phase = s.elapsedSeconds() <= 60 ? "uniform"
          : s.elapsedSeconds() <= 110 ? "hotspot-1%" : "hotspot-3%";
      later.add(new Sample(s.elapsedSeconds(), phase, s.operations(), s.throughput(),
          s.fastHitRate(), s.p50GetMicros(), s.p99GetMicros(), s.promotedByFlushBytes(),
          s.promotedByCompactionBytes(), s.retainedBytes(), s.demotedBytes(),
          s.fastCompactionBytes(), s.slowCompactionBytes(), s.raltBytes(), s.raltCpuShare(),
          s.rssBytes(), s.hotSetLimitBytes(), s.ioBytes()));
    }
    RunResult slow = Runs.run("rocksdb-tiered", "dynamic", 1024, 1, later);

    assertEquals(List.of(50.5, 100.5), Plots.phaseBoundaries(List.of(fast, same)));
    assertEquals(List.of(50.5, 100.5, 60.5, 110.5),
        Plots.phaseBoundaries(List.of(fast, same, slow)));
  }

  @Test
  void timeSeriesRejectsRunsOfDifferentWorkloads() {
    List<RunResult> runs =
        List.of(Runs.run("hotrap", "a", 1024, 1), Runs.run("hotrap", "a", 200, 1));

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Plots.timeSeries(runs, dir));

    assertEquals("runs of different workloads: a with 1024-byte records and a with 200-byte "
        + "records", e.getMessage());
  }

  @Test
  void finalThroughputGroupsBarsByWorkloadAndRecordSize() throws IOException {
    List<RunResult> runs = new ArrayList<>();
    for (String workload : List.of("ro-hotspot5", "rw-zipfian", "uh-uniform")) {
      for (int size : new int[] {1024, 200}) {
        runs.add(Runs.run("rocksdb-tiered", workload, size, 1000));
        runs.add(Runs.run("hotrap", workload, size, 2500));
      }
    }
    runs.add(Runs.run("rocksdb-fd", "ro-hotspot5", 1024, 4000));
    runs.add(Runs.run("flash-cache", "ro-hotspot5", 200, Double.NaN));

    Path file = Plots.finalThroughput(runs, dir);

    assertEquals(dir.resolve("throughput-by-workload.png"), file);
    assertSize(readPng(file));
  }

  @Test
  void finalThroughputDrawsASingleRun() throws IOException {
    Path file = Plots.finalThroughput(List.of(Runs.run("hotrap", "ro", 1024, 5)), dir);

    assertSize(readPng(file));
  }

  @Test
  void hotSetLimitDrawsTheDynamicRun() throws IOException {
    RunResult run = Runs.dynamic("hotrap", 30);

    Path file = Plots.hotSetLimit(run, dir);

    assertEquals(dir.resolve("hotrap-dynamic-1024-hot-set-limit.png"), file);
    assertSize(readPng(file));
    assertTrue(Plots.showsHotSetLimit(run));
    assertFalse(Plots.showsHotSetLimit(Runs.run("hotrap", "ro", 1024, 5)));
  }

  @Test
  void hotSetLimitDrawsARunOfOneSampleWithoutGets() throws IOException {
    RunResult run = Runs.run("hotrap", "dynamic", 200, 1, Runs.steady(1, 1, Double.NaN));

    assertSize(readPng(Plots.hotSetLimit(run, dir)));
  }

  @Test
  void phasesSpanFromBoundaryToBoundary() {
    List<Plots.Phase> phases = Plots.phases(Runs.dynamic("hotrap", 10));

    assertEquals(List.of(new Plots.Phase("uniform", 0, 10.5),
        new Plots.Phase("hotspot-1%", 10.5, 20.5), new Plots.Phase("hotspot-3%", 20.5, 30)),
        phases);
  }

  @Test
  void fileNamesReplaceCharactersUnsafeInPathsAndLinks() {
    assertEquals("a_b_c-200-timeseries.png", Plots.timeSeriesFileName("a/b c", 200));
  }
}
