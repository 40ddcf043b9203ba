package io.hotrap.kafka;

import io.hotrap.core.HotRapOptions;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Factory of Kafka Streams state stores on HotRapDB.
 *
 * <pre>{@code
 * KeyValueBytesStoreSupplier counts =
 *     HotRapStores.keyValueStore("counts", Path.of("/mnt/hdd/streams"), 256L << 20);
 * builder.stream("clicks").groupByKey().count(Materialized.as(counts));
 * }</pre>
 *
 * <p>Each task gets its own store: the fast directory is {@code <task state directory>/<name>}
 * (on the disk of {@code state.dir}), the slow directory {@code <slowBaseDir>/<path of the task
 * directory under state.dir>/<name>}, for example {@code <slowBaseDir>/<application.id>/0_3/<name>}.
 * The fast budget is per task: an instance running {@code n} tasks of the store keeps up to
 * {@code n * fastBudgetBytes} of their SST files on the fast disk. Like {@code state.dir}, a slow
 * base directory must not be shared by two Kafka Streams instances of the same application.
 *
 * <p>Settings read from the Streams configuration ({@code StreamsConfig} originals):
 * <ul>
 *   <li>{@value #METER_REGISTRY_CONFIG}: a {@code io.micrometer.core.instrument.MeterRegistry}
 *       <em>instance</em> (put it into the {@code Properties} object as a value); each store binds
 *       HotRapDB's {@code hotrap.*} meters to it while open. Kafka's own store metrics
 *       ({@code metricsScope} {@value #METRICS_SCOPE}) are recorded as usual.
 *   <li>{@value #FLUSH_INTERVAL_MS_CONFIG}: shortest time in milliseconds between two memtable
 *       flushes on commit; default 0, a flush at every commit with written data, as Kafka's
 *       RocksDB store does. See {@link HotRapKeyValueStore#commit(java.util.Map)} for what a longer interval
 *       trades.
 * </ul>
 */
public final class HotRapStores {
  /** Streams configuration key of a {@code MeterRegistry} instance for HotRapDB's meters. */
  public static final String METER_REGISTRY_CONFIG = "hotrap.meter.registry";
  /** Streams configuration key of the shortest interval between two flushes on commit, ms. */
  public static final String FLUSH_INTERVAL_MS_CONFIG = "hotrap.flush.interval.ms";
  /** The scope of Kafka's store metrics for these stores. */
  public static final String METRICS_SCOPE = "hotrap";

  /** Kafka's rule for topic names, which a store name becomes part of (its changelog topic). */
  private static final Pattern LEGAL_NAME = Pattern.compile("[a-zA-Z0-9._-]+");
  private static final int MAX_NAME_LENGTH = 249;

  private HotRapStores() {}

  /**
   * A supplier of key-value stores named {@code name}, each with HotRapDB's default settings for
   * {@code fastBudgetBytes}.
   *
   * @param name the store name; Kafka's topic-name characters {@code [a-zA-Z0-9._-]}
   * @param slowBaseDir directory on the slow disk under which each task's slow tier is created
   * @param fastBudgetBytes bytes of SST files each task's store may keep on the fast disk; at least
   *     about 1 MiB, since the fast tier needs room for three 64 KiB write buffers above its high
   *     watermark
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is not a legal store name or the budget is not
   *     positive or too small for HotRapDB's defaults
   */
  public static HotRapStoreSupplier keyValueStore(String name, Path slowBaseDir, long fastBudgetBytes) {
    checkName(name);
    Objects.requireNonNull(slowBaseDir, "slowBaseDir");
    if (fastBudgetBytes <= 0) {
      throw new IllegalArgumentException("fastBudgetBytes must be positive but was " + fastBudgetBytes);
    }
    return new HotRapStoreSupplier(name, slowBaseDir, OptionsTemplate.ofBudget(fastBudgetBytes));
  }

  /**
   * A supplier of key-value stores named {@code name} whose settings are those of {@code template}:
   * every setting, the fast budget included (per task), except the two paths, which each task's
   * store replaces with its own; the template's paths are ignored.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the name is not a legal store name
   */
  public static HotRapStoreSupplier keyValueStore(String name, Path slowBaseDir, HotRapOptions template) {
    checkName(name);
    Objects.requireNonNull(slowBaseDir, "slowBaseDir");
    Objects.requireNonNull(template, "template");
    return new HotRapStoreSupplier(name, slowBaseDir, OptionsTemplate.of(template));
  }

  static void checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !LEGAL_NAME.matcher(name).matches()
        || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("store name \"" + name + "\" is not legal: use 1 to "
          + MAX_NAME_LENGTH + " of the characters [a-zA-Z0-9._-], and not \".\" or \"..\"");
    }
  }
}
