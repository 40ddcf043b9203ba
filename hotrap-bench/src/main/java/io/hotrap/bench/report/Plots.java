package io.hotrap.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of a benchmark report, drawn with XChart, {@value #WIDTH}×{@value #HEIGHT} pixels:
 *
 * <ul>
 *   <li>{@link #timeSeries}: throughput and fast-tier hit rate per second of each system on one
 *       workload, one chart above the other;
 *   <li>{@link #finalThroughput}: throughput over the final 10% of the run, grouped by workload;
 *   <li>{@link #hotSetLimit}: RALT's hot-set limit and the hit rate of one run over time, for the
 *       dynamic workload whose hot set changes size.
 * </ul>
 *
 * <p>A system keeps its colour in every plot. Seconds without gets have a NaN hit rate; those
 * points are left out rather than drawn as zero. When samples carry several phases, a dashed line
 * marks each phase change and the phase name sits over its span; the names come from the run with
 * the most phases, the lines from every run, since systems that run phases of a fixed number of
 * operations reach them at different times.
 *
 * <p>Drawing needs no display: loading this class sets {@code java.awt.headless=true}, which takes
 * effect if AWT has not been initialised yet. Files are replaced atomically. Safe to call from
 * several threads on different files.
 */
public final class Plots {

  static {
    // Before any AWT class initialises its toolkit: a benchmark machine has no display, and a
    // non-headless toolkit would fail there on the first font metric.
    System.setProperty("java.awt.headless", "true");
  }

  public static final int WIDTH = 1000;
  public static final int HEIGHT = 600;
  public static final String FINAL_THROUGHPUT_FILE = "throughput-by-workload.png";

  /** Series with fewer points get markers, since a line through one point is invisible. */
  private static final int MARKERS_BELOW_POINTS = 30;
  /** Room above the highest value for the phase names. */
  private static final double HEADROOM = 1.18;
  private static final double LABEL_HEIGHT = 1.09;
  /** Room right of the last sample, as a share of the time axis. */
  private static final double TIME_MARGIN = 0.005;
  private static final double MIB = 1024.0 * 1024.0;

  /** Colours of the systems in {@link SystemOrder#KNOWN}, then of others in turn. */
  private static final Color[] KNOWN_COLORS = {
      new Color(0x2ca02c), // rocksdb-fd
      new Color(0x7f7f7f), // rocksdb-tiered
      new Color(0xd62728), // hotrap
      new Color(0x1f77b4), // hotrap-no-retain
      new Color(0xff7f0e), // hotrap-no-hotness-check
      new Color(0x9467bd), // hotrap-no-by-compaction
      new Color(0x8c564b), // hotrap-no-promotion
      new Color(0x17becf), // hotrap-mem
  };
  private static final Color[] OTHER_COLORS = {
      new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22), new Color(0x393b79),
      new Color(0xad494a)
  };

  private Plots() {}

  /** {@code <workload>-<recordBytes>-timeseries.png}, the file {@link #timeSeries} writes. */
  public static String timeSeriesFileName(String workload, int recordBytes) {
    return safe(workload) + "-" + recordBytes + "-timeseries.png";
  }

  /** {@code <system>-<workload>-<recordBytes>-hot-set-limit.png}, the {@link #hotSetLimit} file. */
  public static String hotSetLimitFileName(RunResult r) {
    return safe(r.system()) + "-" + safe(r.workload()) + "-" + r.recordBytes()
        + "-hot-set-limit.png";
  }

  /**
   * Whether {@code r} deserves a {@link #hotSetLimit} plot: it reported a hot-set limit (it runs
   * RALT) and its samples carry more than one phase (the dynamic workload).
   */
  public static boolean showsHotSetLimit(RunResult r) {
    return r.samples().stream().anyMatch(s -> s.hotSetLimitBytes() > 0) && phases(r).size() > 1;
  }

  /**
   * Plots throughput and fast-tier hit rate over time, one line per system, into {@code dir}.
   * When several runs have the same system, the last is drawn.
   *
   * @param sameWorkload runs of one workload and record size
   * @return the PNG file, named by {@link #timeSeriesFileName}
   * @throws IllegalArgumentException when the list is empty or mixes workloads or record sizes
   */
  public static Path timeSeries(List<RunResult> sameWorkload, Path dir) throws IOException {
    if (sameWorkload.isEmpty()) {
      throw new IllegalArgumentException("no runs to plot");
    }
    RunResult first = sameWorkload.get(0);
    for (RunResult r : sameWorkload) {
      if (!r.workload().equals(first.workload()) || r.recordBytes() != first.recordBytes()) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "runs of different workloads: %s with %d-byte records and %s with %d-byte records",
            first.workload(), first.recordBytes(), r.workload(), r.recordBytes()));
      }
    }
    List<RunResult> runs = bySystem(sameWorkload);
    List<String> systems = runs.stream().map(RunResult::system).toList();
    String what = first.workload() + ", " + recordSize(first.recordBytes());

    XYChart throughput = xyChart(WIDTH, HEIGHT / 2, what + ": throughput", "ops/s");
    XYChart hitRate = xyChart(WIDTH, HEIGHT - HEIGHT / 2, what + ": fast-tier hit rate",
        "hit rate");
    hitRate.getStyler().setYAxisDecimalPattern("0.00");
    double maxThroughput = 0;
    for (RunResult r : runs) {
      Color color = color(r.system(), systems);
      addLine(throughput, r.system(), r, Sample::throughput, color);
      addLine(hitRate, r.system(), r, Sample::fastHitRate, color);
      for (Sample s : r.samples()) {
        if (Double.isFinite(s.throughput())) {
          maxThroughput = Math.max(maxThroughput, s.throughput());
        }
      }
    }
    markPhases(throughput, runs, maxThroughput > 0 ? maxThroughput : 1);
    markPhases(hitRate, runs, 1.0);
    fixTimeAxis(throughput, runs);
    fixTimeAxis(hitRate, runs);
    if (hitRate.getSeriesMap().isEmpty()) {
      hitRate.addAnnotation(new AnnotationText("no gets", hitRate.getWidth() / 2.0,
          hitRate.getHeight() / 2.0, true));
    }
    Path file = dir.resolve(timeSeriesFileName(first.workload(), first.recordBytes()));
    save(List.of(throughput, hitRate), 2, 1, file);
    return file;
  }

  /**
   * Plots the throughput over the final 10% of each run as bars grouped by workload (and record
   * size, when the runs have several), one colour per system. Of several runs with the same
   * system, workload and record size the last is drawn.
   *
   * @return {@code dir/throughput-by-workload.png}
   * @throws IllegalArgumentException when {@code all} is empty
   */
  public static Path finalThroughput(List<RunResult> all, Path dir) throws IOException {
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no runs to plot");
    }
    boolean severalSizes = all.stream().map(RunResult::recordBytes).distinct().count() > 1;
    Comparator<RunResult> byWorkload =
        Comparator.comparing(RunResult::workload).thenComparingInt(RunResult::recordBytes);
    Map<String, Map<String, Double>> bySystem = new TreeMap<>(SystemOrder.COMPARATOR);
    List<String> categories = new ArrayList<>();
    for (RunResult r : all.stream().sorted(byWorkload).toList()) {
      String category = severalSizes ? r.workload() + " " + recordSize(r.recordBytes())
          : r.workload();
      if (!categories.contains(category)) {
        categories.add(category);
      }
      bySystem.computeIfAbsent(r.system(), s -> new LinkedHashMap<>())
          .put(category, r.throughput());
    }

    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title("Throughput over the final 10% of the run").xAxisTitle("workload")
        .yAxisTitle("ops/s").build();
    style(chart.getStyler());
    chart.getStyler().setYAxisDecimalPattern("#,##0").setYAxisMin(0.0);
    if (categories.size() > 5) {
      chart.getStyler().setXAxisLabelRotation(20);
    }
    List<String> systems = new ArrayList<>(bySystem.keySet());
    for (Map.Entry<String, Map<String, Double>> e : bySystem.entrySet()) {
      // XChart places a bar by its index in the series' own x list, so every series gets every
      // category; NaN draws no bar.
      List<Double> values = new ArrayList<>(categories.size());
      for (String c : categories) {
        values.add(e.getValue().getOrDefault(c, Double.NaN));
      }
      CategorySeries series = chart.addSeries(e.getKey(), categories, values);
      series.setFillColor(color(e.getKey(), systems));
    }
    Path file = dir.resolve(FINAL_THROUGHPUT_FILE);
    save(List.of(chart), 1, 1, file);
    return file;
  }

  /**
   * Plots RALT's hot-set limit (MiB, left axis) and the fast-tier hit rate (right axis) of one run
   * over time, with its phases marked.
   *
   * @return the PNG file, named by {@link #hotSetLimitFileName}
   */
  public static Path hotSetLimit(RunResult r, Path dir) throws IOException {
    XYChart chart = xyChart(WIDTH, HEIGHT, r.system() + " on " + r.workload() + ", "
        + recordSize(r.recordBytes()) + ": hot-set limit and hit rate", "hot-set limit (MiB)");
    chart.setYAxisGroupTitle(0, "hot-set limit (MiB)");
    chart.setYAxisGroupTitle(1, "fast-tier hit rate");
    AxesChartStyler styler = chart.getStyler();
    styler.setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    styler.putYAxisGroupDecimalPatternMap(0, "#,##0.#");
    styler.putYAxisGroupDecimalPatternMap(1, "0.00");
    styler.setYAxisMin(1, 0.0).setYAxisMax(1, 1.0);

    double maxMib = 0;
    for (Sample s : r.samples()) {
      maxMib = Math.max(maxMib, s.hotSetLimitBytes() / MIB);
    }
    addLine(chart, "hot-set limit (MiB)", r, s -> s.hotSetLimitBytes() / MIB, Color.BLACK);
    XYSeries hit = addLine(chart, "fast-tier hit rate", r, Sample::fastHitRate,
        color(r.system(), List.of(r.system())));
    if (hit != null) {
      hit.setYAxisGroup(1);
    }
    markPhases(chart, List.of(r), maxMib > 0 ? maxMib : 1);
    fixTimeAxis(chart, List.of(r));
    Path file = dir.resolve(hotSetLimitFileName(r));
    save(List.of(chart), 1, 1, file);
    return file;
  }

  /** {@code 1 KiB}, {@code 200 B}. */
  static String recordSize(int bytes) {
    return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
  }

  /** Letters, digits, dot, dash and underscore are kept; anything else becomes an underscore. */
  static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** A phase and the span of elapsed seconds it covers. */
  record Phase(String name, double start, double end) {}

  /**
   * The phases of a run in order. A phase starts halfway between the last sample of the phase
   * before and its own first sample (samples mark the end of their second).
   */
  static List<Phase> phases(RunResult r) {
    List<Sample> samples = r.samples();
    List<Phase> phases = new ArrayList<>();
    if (samples.isEmpty()) {
      return phases;
    }
    String name = phaseName(samples.get(0));
    double start = Math.max(0, samples.get(0).elapsedSeconds() - 1);
    for (int i = 1; i < samples.size(); i++) {
      Sample s = samples.get(i);
      if (!phaseName(s).equals(name)) {
        double boundary = (samples.get(i - 1).elapsedSeconds() + s.elapsedSeconds()) / 2;
        phases.add(new Phase(name, start, boundary));
        name = phaseName(s);
        start = boundary;
      }
    }
    phases.add(new Phase(name, start, samples.get(samples.size() - 1).elapsedSeconds()));
    return phases;
  }

  private static String phaseName(Sample s) {
    return s.phase() == null ? "" : s.phase();
  }

  private static XYChart xyChart(int width, int height, String title, String yTitle) {
    XYChart chart = new XYChartBuilder().width(width).height(height).title(title)
        .xAxisTitle("time (s)").yAxisTitle(yTitle).build();
    style(chart.getStyler());
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line)
        .setXAxisDecimalPattern("#,##0").setYAxisDecimalPattern("#,##0");
    return chart;
  }

  private static void style(AxesChartStyler s) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
    s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
    s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    s.setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.ITALIC, 12));
    s.setAnnotationTextFontColor(Color.DARK_GRAY);
    s.setAnnotationLineColor(Color.GRAY);
    s.setAnnotationLineStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
        10f, new float[] {6f, 4f}, 0f));
    s.setLegendPosition(Styler.LegendPosition.OutsideE);
    s.setMarkerSize(6);
  }

  /**
   * Adds the finite values of {@code value} over time as a line; returns null, adding nothing,
   * when there are none (XChart refuses an empty series).
   */
  private static XYSeries addLine(XYChart chart, String name, RunResult r,
      ToDoubleFunction<Sample> value, Color color) {
    Points points = finitePoints(r, value);
    if (points.xs().isEmpty()) {
      return null;
    }
    XYSeries series = chart.addSeries(name, points.xs(), points.ys());
    series.setLineColor(color);
    series.setMarkerColor(color);
    series.setLineWidth(1.5f);
    series.setMarker(
        points.xs().size() < MARKERS_BELOW_POINTS ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
    return series;
  }

  /** The points of a line over time. */
  record Points(List<Double> xs, List<Double> ys) {}

  /** Elapsed seconds and {@code value} of the samples where both are finite numbers. */
  static Points finitePoints(RunResult r, ToDoubleFunction<Sample> value) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (Sample s : r.samples()) {
      double y = value.applyAsDouble(s);
      if (Double.isFinite(y) && Double.isFinite(s.elapsedSeconds())) {
        xs.add(s.elapsedSeconds());
        ys.add(y);
      }
    }
    return new Points(xs, ys);
  }

  /**
   * Marks phase changes and names the phases, and fixes the primary y axis to
   * {@code [0, top * HEADROOM]} to leave room for the names.
   */
  private static void markPhases(XYChart chart, List<RunResult> runs, double top) {
    chart.getStyler().setYAxisMin(0, 0.0).setYAxisMax(0, top * HEADROOM);
    RunResult reference = null;
    int most = 1;
    for (RunResult r : runs) {
      int n = phases(r).size();
      if (n > most) {
        most = n;
        reference = r;
      }
    }
    if (reference == null) {
      return;
    }
    for (double x : phaseBoundaries(runs)) {
      chart.addAnnotation(new AnnotationLine(x, true, false));
    }
    for (Phase p : phases(reference)) {
      chart.addAnnotation(new AnnotationText(p.name(), (p.start() + p.end()) / 2,
          top * LABEL_HEIGHT, false));
    }
  }

  /**
   * Where the runs change phase, in elapsed seconds; boundaries closer than 1% of the time the runs
   * span are given once, at the first run's (in the list's order).
   */
  static List<Double> phaseBoundaries(List<RunResult> runs) {
    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    for (RunResult r : runs) {
      for (Sample s : r.samples()) {
        minX = Math.min(minX, s.elapsedSeconds());
        maxX = Math.max(maxX, s.elapsedSeconds());
      }
    }
    double tolerance = Math.max(1e-9, (maxX - minX) / 100);
    List<Double> boundaries = new ArrayList<>();
    for (RunResult r : runs) {
      List<Phase> phases = phases(r);
      for (Phase p : phases.subList(1, phases.size())) {
        if (boundaries.stream().noneMatch(x -> Math.abs(x - p.start()) < tolerance)) {
          boundaries.add(p.start());
        }
      }
    }
    return boundaries;
  }

  /**
   * Runs the time axis from 0 to just past the last sample. The small margin is also what keeps the
   * ticks readable: XChart puts a tick at every data value when all x values, axis ends included,
   * are equally spaced, which crowds the axis of a once-a-second series.
   */
  private static void fixTimeAxis(XYChart chart, List<RunResult> runs) {
    double maxX = 0;
    for (RunResult r : runs) {
      for (Sample s : r.samples()) {
        if (Double.isFinite(s.elapsedSeconds())) {
          maxX = Math.max(maxX, s.elapsedSeconds());
        }
      }
    }
    chart.getStyler().setXAxisMin(0.0).setXAxisMax(maxX + Math.max(maxX, 1) * TIME_MARGIN);
  }

  /** The runs in system order, the last run of each system. */
  private static List<RunResult> bySystem(List<RunResult> runs) {
    Map<String, RunResult> last = new TreeMap<>(SystemOrder.COMPARATOR);
    for (RunResult r : runs) {
      last.put(r.system(), r);
    }
    return new ArrayList<>(last.values());
  }

  /** A known system's own colour; other systems take the spare colours in their order. */
  static Color color(String system, List<String> systemsInPlot) {
    int rank = SystemOrder.rank(system);
    if (rank < KNOWN_COLORS.length) {
      return KNOWN_COLORS[rank];
    }
    int other = 0;
    for (String s : systemsInPlot.stream().sorted(SystemOrder.COMPARATOR).toList()) {
      if (s.equals(system)) {
        break;
      }
      if (SystemOrder.rank(s) >= KNOWN_COLORS.length) {
        other++;
      }
    }
    return OTHER_COLORS[other % OTHER_COLORS.length];
  }

  private static <C extends Chart<?, ?>> void save(List<C> charts, int rows, int columns,
      Path file) throws IOException {
    AtomicFile.write(file,
        out -> BitmapEncoder.saveBitmap(charts, rows, columns, out, BitmapFormat.PNG));
  }
}
