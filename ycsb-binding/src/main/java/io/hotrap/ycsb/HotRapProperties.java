package io.hotrap.ycsb;

import io.hotrap.core.HotRapOptions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocksdb.CompressionType;
import site.ycsb.DBException;

/**
 * Turns the {@code hotrap.*} properties of a YCSB run into {@link HotRapOptions}.
 *
 * <p>Required: {@code hotrap.fast.dir}, {@code hotrap.slow.dir} (directories, created if absent)
 * and {@code hotrap.fast.budget} (bytes). Every other {@link HotRapOptions.Builder} setting but the
 * RALT customizer, the meter registry and the test hooks may be passed through; an absent property
 * keeps the store's default:
 *
 * <table>
 *   <caption>Pass-through properties</caption>
 *   <tr><th>property</th><th>{@code HotRapOptions.Builder}</th><th>value</th></tr>
 *   <tr><td>hotrap.block.cache</td><td>blockCacheBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.fast.block.size</td><td>fastBlockSize</td><td>bytes</td></tr>
 *   <tr><td>hotrap.slow.block.size</td><td>slowBlockSize</td><td>bytes</td></tr>
 *   <tr><td>hotrap.bloom.bits.per.key</td><td>bloomBitsPerKey</td><td>decimal</td></tr>
 *   <tr><td>hotrap.slow.bloom.bits.per.key</td><td>slowBloomBitsPerKey</td><td>decimal</td></tr>
 *   <tr><td>hotrap.fast.compression</td><td>fastCompression</td><td>compression</td></tr>
 *   <tr><td>hotrap.slow.compression</td><td>slowCompression</td><td>compression</td></tr>
 *   <tr><td>hotrap.direct.reads</td><td>directReads</td><td>true|false</td></tr>
 *   <tr><td>hotrap.direct.io.flush.compaction</td><td>directIoForFlushAndCompaction</td><td>true|false</td></tr>
 *   <tr><td>hotrap.background.jobs</td><td>backgroundJobs</td><td>integer</td></tr>
 *   <tr><td>hotrap.write.buffer.size</td><td>writeBufferBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.fast.target.file.size</td><td>fastTargetFileBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.slow.target.file.size</td><td>slowTargetFileBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.high.watermark</td><td>highWatermark</td><td>fraction of the budget</td></tr>
 *   <tr><td>hotrap.low.watermark</td><td>lowWatermark</td><td>fraction of the budget</td></tr>
 *   <tr><td>hotrap.migration.check.interval.ms</td><td>migrationCheckInterval</td><td>milliseconds</td></tr>
 *   <tr><td>hotrap.max.write.stall.ms</td><td>maxWriteStall</td><td>milliseconds</td></tr>
 *   <tr><td>hotrap.migration.batch.size</td><td>migrationBatchBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.retain.hot.records</td><td>retainHotRecords</td><td>true|false</td></tr>
 *   <tr><td>hotrap.max.key.size</td><td>maxKeyBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.max.value.size</td><td>maxValueBytes</td><td>bytes</td></tr>
 *   <tr><td>hotrap.sync.writes</td><td>syncWrites</td><td>true|false</td></tr>
 *   <tr><td>hotrap.native.migration</td><td>nativeMigration</td><td>true|false</td></tr>
 *   <tr><td>hotrap.drop.demoted.files</td><td>dropDemotedFiles</td><td>true|false</td></tr>
 *   <tr><td>hotrap.lock.stripes</td><td>lockStripes</td><td>power of two</td></tr>
 *   <tr><td>hotrap.write.hot.separation</td><td>writeHotSeparation</td><td>true|false</td></tr>
 *   <tr><td>hotrap.write.hot.share</td><td>writeHotShare</td><td>fraction of the budget</td></tr>
 *   <tr><td>hotrap.write.skew.threshold</td><td>writeSkewThreshold</td><td>decimal</td></tr>
 *   <tr><td>hotrap.hot.block.cache.share</td><td>hotBlockCacheShare</td><td>fraction</td></tr>
 *   <tr><td>hotrap.read.skew.detection</td><td>readSkewDetection</td><td>true|false</td></tr>
 * </table>
 *
 * <p>Bytes are a non-negative integer with an optional binary suffix {@code K}, {@code M} or
 * {@code G} (case-insensitive: {@code 16M} = 16 × 2<sup>20</sup>). A compression is one of
 * {@code none, snappy, zlib, bzip2, lz4, lz4hc, xpress, zstd} or a RocksJava
 * {@link CompressionType} constant name. A missing required property, a value that does not parse
 * or that the builder rejects, and an unknown {@code hotrap.*} name (a typo would otherwise be
 * ignored silently) fail with a {@link DBException} whose message names the property.
 */
final class HotRapProperties {
  static final String PREFIX = "hotrap.";
  static final String FAST_DIR = "hotrap.fast.dir";
  static final String SLOW_DIR = "hotrap.slow.dir";
  static final String FAST_BUDGET = "hotrap.fast.budget";

  private static final Map<String, CompressionType> COMPRESSIONS = new LinkedHashMap<>();

  static {
    COMPRESSIONS.put("none", CompressionType.NO_COMPRESSION);
    COMPRESSIONS.put("snappy", CompressionType.SNAPPY_COMPRESSION);
    COMPRESSIONS.put("zlib", CompressionType.ZLIB_COMPRESSION);
    COMPRESSIONS.put("bzip2", CompressionType.BZLIB2_COMPRESSION);
    COMPRESSIONS.put("lz4", CompressionType.LZ4_COMPRESSION);
    COMPRESSIONS.put("lz4hc", CompressionType.LZ4HC_COMPRESSION);
    COMPRESSIONS.put("xpress", CompressionType.XPRESS_COMPRESSION);
    COMPRESSIONS.put("zstd", CompressionType.ZSTD_COMPRESSION);
  }

  private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*([kKmMgG]?)");

  /** A pass-through setting: its property, the builder setting it feeds, and how. */
  private interface Setter {
    void apply(HotRapOptions.Builder builder, String property, String value) throws DBException;
  }

  /** Builder setting name by property, in the order of the table above; fast.dir etc. first. */
  private static final Map<String, String> BUILDER_NAMES = new LinkedHashMap<>();
  private static final Map<String, Setter> SETTERS = new LinkedHashMap<>();

  static {
    BUILDER_NAMES.put(FAST_DIR, "fastPath");
    BUILDER_NAMES.put(SLOW_DIR, "slowPath");
    BUILDER_NAMES.put(FAST_BUDGET, "fastBudgetBytes");
    passThrough("hotrap.block.cache", "blockCacheBytes",
        (b, p, v) -> b.blockCacheBytes(parseBytes(p, v)));
    passThrough("hotrap.fast.block.size", "fastBlockSize",
        (b, p, v) -> b.fastBlockSize(parseIntBytes(p, v)));
    passThrough("hotrap.slow.block.size", "slowBlockSize",
        (b, p, v) -> b.slowBlockSize(parseIntBytes(p, v)));
    passThrough("hotrap.bloom.bits.per.key", "bloomBitsPerKey",
        (b, p, v) -> b.bloomBitsPerKey(parseDouble(p, v)));
    passThrough("hotrap.slow.bloom.bits.per.key", "slowBloomBitsPerKey",
        (b, p, v) -> b.slowBloomBitsPerKey(parseDouble(p, v)));
    passThrough("hotrap.fast.compression", "fastCompression",
        (b, p, v) -> b.fastCompression(parseCompression(p, v)));
    passThrough("hotrap.slow.compression", "slowCompression",
        (b, p, v) -> b.slowCompression(parseCompression(p, v)));
    passThrough("hotrap.direct.reads", "directReads",
        (b, p, v) -> b.directReads(parseBoolean(p, v)));
    passThrough("hotrap.direct.io.flush.compaction", "directIoForFlushAndCompaction",
        (b, p, v) -> b.directIoForFlushAndCompaction(parseBoolean(p, v)));
    passThrough("hotrap.background.jobs", "backgroundJobs",
        (b, p, v) -> b.backgroundJobs(parseInt(p, v)));
    passThrough("hotrap.write.buffer.size", "writeBufferBytes",
        (b, p, v) -> b.writeBufferBytes(parseBytes(p, v)));
    passThrough("hotrap.fast.target.file.size", "fastTargetFileBytes",
        (b, p, v) -> b.fastTargetFileBytes(parseBytes(p, v)));
    passThrough("hotrap.slow.target.file.size", "slowTargetFileBytes",
        (b, p, v) -> b.slowTargetFileBytes(parseBytes(p, v)));
    passThrough("hotrap.high.watermark", "highWatermark",
        (b, p, v) -> b.highWatermark(parseDouble(p, v)));
    passThrough("hotrap.low.watermark", "lowWatermark",
        (b, p, v) -> b.lowWatermark(parseDouble(p, v)));
    passThrough("hotrap.migration.check.interval.ms", "migrationCheckInterval",
        (b, p, v) -> b.migrationCheckInterval(Duration.ofMillis(parseLong(p, v))));
    passThrough("hotrap.max.write.stall.ms", "maxWriteStall",
        (b, p, v) -> b.maxWriteStall(Duration.ofMillis(parseLong(p, v))));
    passThrough("hotrap.migration.batch.size", "migrationBatchBytes",
        (b, p, v) -> b.migrationBatchBytes(parseBytes(p, v)));
    passThrough("hotrap.retain.hot.records", "retainHotRecords",
        (b, p, v) -> b.retainHotRecords(parseBoolean(p, v)));
    passThrough("hotrap.max.key.size", "maxKeyBytes",
        (b, p, v) -> b.maxKeyBytes(parseIntBytes(p, v)));
    passThrough("hotrap.max.value.size", "maxValueBytes",
        (b, p, v) -> b.maxValueBytes(parseIntBytes(p, v)));
    passThrough("hotrap.sync.writes", "syncWrites",
        (b, p, v) -> b.syncWrites(parseBoolean(p, v)));
    passThrough("hotrap.native.migration", "nativeMigration",
        (b, p, v) -> b.nativeMigration(parseBoolean(p, v)));
    passThrough("hotrap.drop.demoted.files", "dropDemotedFiles",
        (b, p, v) -> b.dropDemotedFiles(parseBoolean(p, v)));
    passThrough("hotrap.lock.stripes", "lockStripes",
        (b, p, v) -> b.lockStripes(parseInt(p, v)));
    passThrough("hotrap.write.hot.separation", "writeHotSeparation",
        (b, p, v) -> b.writeHotSeparation(parseBoolean(p, v)));
    passThrough("hotrap.write.hot.share", "writeHotShare",
        (b, p, v) -> b.writeHotShare(parseDouble(p, v)));
    passThrough("hotrap.write.skew.threshold", "writeSkewThreshold",
        (b, p, v) -> b.writeSkewThreshold(parseDouble(p, v)));
    passThrough("hotrap.read.skew.detection", "readSkewDetection",
        (b, p, v) -> b.readSkewDetection(parseBoolean(p, v)));
    passThrough("hotrap.hot.block.cache.share", "hotBlockCacheShare",
        (b, p, v) -> b.hotBlockCacheShare(parseDouble(p, v)));
  }

  private HotRapProperties() {}

  private static void passThrough(String property, String builderName, Setter setter) {
    BUILDER_NAMES.put(property, builderName);
    SETTERS.put(property, setter);
  }

  /** Every property this binding reads, in documentation order. */
  static Iterable<String> names() {
    return Collections.unmodifiableSet(BUILDER_NAMES.keySet());
  }

  /** The {@code hotrap.*} entries of {@code props}, sorted: what identifies one store's settings. */
  static Map<String, String> select(Properties props) {
    Map<String, String> selected = new TreeMap<>();
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith(PREFIX)) {
        selected.put(name, props.getProperty(name));
      }
    }
    return selected;
  }

  /**
   * The options {@code props} describe.
   *
   * @throws DBException naming the property that is missing, unknown, malformed or rejected
   */
  static HotRapOptions toOptions(Properties props) throws DBException {
    Map<String, String> given = select(props);
    for (String name : given.keySet()) {
      if (!BUILDER_NAMES.containsKey(name)) {
        throw new DBException("unknown property " + name + "; the hotrap.* properties are "
            + BUILDER_NAMES.keySet());
      }
    }
    HotRapOptions.Builder b = HotRapOptions.builder()
        .fastPath(parsePath(FAST_DIR, required(given, FAST_DIR)))
        .slowPath(parsePath(SLOW_DIR, required(given, SLOW_DIR)));
    String budget = required(given, FAST_BUDGET);
    apply(FAST_BUDGET, budget, () -> b.fastBudgetBytes(parseBytes(FAST_BUDGET, budget)));
    for (Map.Entry<String, Setter> e : SETTERS.entrySet()) {
      String value = given.get(e.getKey());
      if (value != null) {
        apply(e.getKey(), value, () -> e.getValue().apply(b, e.getKey(), value.trim()));
      }
    }
    try {
      return b.build();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new DBException("invalid hotrap.* properties: " + withPropertyNames(e.getMessage()), e);
    }
  }

  private interface Action {
    void run() throws DBException;
  }

  /** Runs one builder call, turning the builder's rejection into a DBException naming the property. */
  private static void apply(String property, String value, Action action) throws DBException {
    try {
      action.run();
    } catch (IllegalArgumentException e) {
      throw new DBException(property + "=" + value + " rejected: " + withPropertyNames(e.getMessage()), e);
    }
  }

  /** {@code message} with each builder setting name replaced by its property's name. */
  static String withPropertyNames(String message) {
    String out = String.valueOf(message);
    for (Map.Entry<String, String> e : BUILDER_NAMES.entrySet()) {
      out = out.replaceAll("\\b" + Pattern.quote(e.getValue()) + "\\b", Matcher.quoteReplacement(e.getKey()));
    }
    return out;
  }

  private static String required(Map<String, String> given, String property) throws DBException {
    String value = given.get(property);
    if (value == null || value.isBlank()) {
      throw new DBException("missing required property " + property);
    }
    return value.trim();
  }

  private static Path parsePath(String property, String value) throws DBException {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new DBException(property + "=" + value + " is not a path: " + e.getMessage(), e);
    }
  }

  /**
   * {@code value} as bytes: a non-negative integer with an optional binary suffix K, M or G.
   *
   * @throws DBException naming {@code property} if it does not parse or overflows a long
   */
  static long parseBytes(String property, String value) throws DBException {
    Matcher m = BYTES.matcher(value.trim());
    if (!m.matches()) {
      throw new DBException(property + "=" + value + " is not a byte count (digits with an optional"
          + " K, M or G suffix, e.g. 16M)");
    }
    try {
      long n = Long.parseLong(m.group(1));
      switch (m.group(2).toUpperCase(Locale.ROOT)) {
        case "K": return Math.multiplyExact(n, 1L << 10);
        case "M": return Math.multiplyExact(n, 1L << 20);
        case "G": return Math.multiplyExact(n, 1L << 30);
        default: return n;
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw new DBException(property + "=" + value + " is more bytes than a long holds", e);
    }
  }

  private static int parseIntBytes(String property, String value) throws DBException {
    long bytes = parseBytes(property, value);
    if (bytes > Integer.MAX_VALUE) {
      throw new DBException(property + "=" + value + " exceeds " + Integer.MAX_VALUE + " bytes");
    }
    return (int) bytes;
  }

  private static long parseLong(String property, String value) throws DBException {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new DBException(property + "=" + value + " is not an integer", e);
    }
  }

  private static int parseInt(String property, String value) throws DBException {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new DBException(property + "=" + value + " is not an integer", e);
    }
  }

  private static double parseDouble(String property, String value) throws DBException {
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new DBException(property + "=" + value + " is not a number", e);
    }
  }

  /** Only {@code true} or {@code false}: {@link Boolean#parseBoolean} would read a typo as false. */
  private static boolean parseBoolean(String property, String value) throws DBException {
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw new DBException(property + "=" + value + " is not true or false");
  }

  private static CompressionType parseCompression(String property, String value) throws DBException {
    String name = value.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, CompressionType> e : COMPRESSIONS.entrySet()) {
      if (name.equals(e.getKey()) || name.equalsIgnoreCase(e.getValue().name())) {
        return e.getValue();
      }
    }
    throw new DBException(property + "=" + value + " is not a compression " + COMPRESSIONS.keySet());
  }
}
