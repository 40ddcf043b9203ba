package io.hotrap.bench.report;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long phase (load, warm-up) on one console line: phase name, bar, percent, ops/s
 * and estimated time left, redrawn with {@code \r} at most {@value #REDRAWS_PER_SECOND} times a
 * second. When the output is not a terminal ({@code System.console() == null}, e.g. redirected to a
 * log file), it prints a plain line at every tenth of the way instead.
 *
 * <p>Not thread-safe: call it from one thread, e.g. the sampler, with the total done so far.
 */
public final class ConsoleProgress {

  static final int REDRAWS_PER_SECOND = 4;
  private static final long REDRAW_NANOS = 1_000_000_000L / REDRAWS_PER_SECOND;
  private static final int BAR_WIDTH = 30;
  private static final int STEPS = 10;

  private final PrintStream out;
  private final String phase;
  private final long total;
  private final String unit;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final long startNanos;
  private long lastDrawNanos;
  private boolean drawn;
  private int stepsPrinted;
  private int lastLength;
  private long done;

  /** Progress towards {@code total} operations, drawn for a terminal when there is one. */
  public ConsoleProgress(PrintStream out, String phase, long total) {
    this(out, phase, total, "ops");
  }

  /** Progress towards {@code total} of {@code unit} (e.g. {@code s} for a timed phase). */
  public ConsoleProgress(PrintStream out, String phase, long total, String unit) {
    this(out, phase, total, unit, System.console() != null, System::nanoTime);
  }

  ConsoleProgress(PrintStream out, String phase, long total, boolean terminal,
      LongSupplier nanoTime) {
    this(out, phase, total, "ops", terminal, nanoTime);
  }

  private ConsoleProgress(PrintStream out, String phase, long total, String unit,
      boolean terminal, LongSupplier nanoTime) {
    if (total <= 0) {
      throw new IllegalArgumentException("total must be positive but was " + total);
    }
    this.out = out;
    this.phase = phase;
    this.total = total;
    this.unit = unit;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    this.startNanos = nanoTime.getAsLong();
  }

  /** Reports {@code done} operations so far; draws only when a redraw or a step is due. */
  public void update(long done) {
    this.done = done;
    long now = nanoTime.getAsLong();
    if (terminal) {
      if (!drawn || now - lastDrawNanos >= REDRAW_NANOS) {
        draw(now);
      }
      return;
    }
    int steps = (int) Math.min(STEPS, done * STEPS / total);
    if (steps > stepsPrinted) {
      stepsPrinted = steps;
      out.println(phase + ": " + status(now));
    }
  }

  /** Ends the line with the final count, the elapsed time and the mean rate. */
  public void finish() {
    long now = nanoTime.getAsLong();
    double seconds = (now - startNanos) / 1e9;
    String line = String.format(Locale.ROOT, "%s: done, %,d %s in %.1f s (%,.0f %s/s)", phase,
        done, unit, seconds, seconds > 0 ? done / seconds : 0.0, unit);
    if (terminal) {
      out.print('\r' + pad(line) + '\n');
    } else {
      out.println(line);
    }
    out.flush();
  }

  private void draw(long now) {
    int filled = (int) Math.min(BAR_WIDTH, Math.max(0, done * BAR_WIDTH / total));
    String line = phase + " [" + "#".repeat(filled) + " ".repeat(BAR_WIDTH - filled) + "] "
        + status(now);
    out.print('\r' + pad(line));
    out.flush();
    lastDrawNanos = now;
    drawn = true;
  }

  /** {@code 45.2%, 123,456 ops/s, ETA 1:23}. */
  private String status(long now) {
    double seconds = (now - startNanos) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 ? clock((total - Math.min(done, total)) / rate) : "?";
    return String.format(Locale.ROOT, "%5.1f%%, %,.0f %s/s, ETA %s", 100.0 * done / total, rate, unit,
        eta);
  }

  /** Pads {@code line} with spaces to cover what the previous draw left on the console line. */
  private String pad(String line) {
    String padded = line.length() < lastLength ? line + " ".repeat(lastLength - line.length())
        : line;
    lastLength = line.length();
    return padded;
  }

  /** {@code 1:23} or {@code 1:02:03}. */
  static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
