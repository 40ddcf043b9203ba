package io.hotrap.bench.report;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One run as a CSV file, written and read back without loss.
 *
 * <p>Layout, UTF-8 with {@code \n} line ends:
 *
 * <pre>
 * # hotrap-bench run
 * # format: 1
 * # system: hotrap
 * # workload: ro-hotspot5
 * # record_bytes: 1024
 * # profile: quick
 * # slow_disk: throttled loop7 (7:7) 500 IOPS 64 MiB/s
 * # throughput: 51234.5
 * # fast_hit_rate: 0.9312
 * # p50_get_us: 12.3
 * # p99_get_us: 1450.0
 * # oracle_hit_rate: 0.95
 * # belady_hit_rate: 0.9731
 * # lru_hit_rate: 0.9012
 * # peak_rss_bytes: 2147483648
 * # load_seconds: 312.5
 * # run_seconds: 600.0
 * # block_cache_hit_rate: 0.97
 * # slow_disk_reads: 106213                 (-1: not measured)
 * # slow_tier_gets: 98765                   (-1: unknown)
 * # slow_disk_reads_per_slow_get: 1.0754   (NaN when either is unknown or no get read slow)
 * # flash_lookup_hit_ratio: 0.99        (these six only for a system with a flash cache)
 * # flash_overall_hit_ratio: 0.81
 * # flash_bytes_written: 123456789
 * # flash_deleted_file_insert_share: 0.02
 * # flash_deleted_file_offer_share: 0.2
 * # flash_bypassed_lookups: 4567
 * elapsed_seconds,phase,operations,throughput,fast_hit_rate,...,hot_set_limit_bytes
 * 1.0,run,50210,50210.0,0.91,...
 * </pre>
 *
 * <p>The comment lines come first, each {@code # key: value}; their order does not matter to the
 * reader, which ignores keys it does not know, reads a missing {@code commit} or {@code timestamp}
 * as empty, and reads a missing {@code block_cache_hit_rate},
 * {@code belady_hit_rate} or {@code lru_hit_rate} (files written before they were measured) as
 * NaN, and a missing {@code slow_disk_reads} or {@code slow_tier_gets} as unknown
 * ({@link SlowDiskReads}), so that its reads per slow get are NaN. The reads per slow get are
 * written for whoever reads the file; the reader derives them from the two counts. The header row names the {@link Sample} components in snake_case in declaration order
 * ({@link #SAMPLE_COLUMNS}); the reader finds columns by name and ignores unknown ones; of the
 * known ones only {@code io_bytes} and the four {@code *_device_*} columns may be missing (counts read
 * as -1, service times as NaN). Each following row is one sample. Decimals are written with
 * {@link Double#toString} so that they parse back to the same {@code double}; {@code NaN} (a hit
 * rate in a second without gets) is written as {@code NaN}. String fields follow {@link Csv}.
 */
public final class RunCsv {

  static final int FORMAT = 1;

  private static final String FIRST_LINE = "# hotrap-bench run";
  private static final RecordComponent[] COMPONENTS = Sample.class.getRecordComponents();

  /** The header row: the {@link Sample} component names in snake_case. */
  public static final List<String> SAMPLE_COLUMNS =
      Arrays.stream(COMPONENTS).map(c -> snakeCase(c.getName())).toList();

  /**
   * The sample columns a file may lack, written before they existed: read as -1 (counts) or NaN
   * (the rest).
   */
  private static final Set<String> OPTIONAL_COLUMNS = Set.of("io_bytes",
      "fast_device_reads", "fast_device_read_millis", "slow_device_reads",
      "slow_device_read_millis");

  private RunCsv() {}

  /**
   * Writes {@code r} to {@code file}, replacing it atomically and creating missing directories.
   *
   * @throws IllegalArgumentException when a name or the slow-disk description holds a line break
   */
  public static void write(RunResult r, Path file) throws IOException {
    StringBuilder out = new StringBuilder();
    out.append(FIRST_LINE).append('\n');
    for (Map.Entry<String, String> e : comments(r).entrySet()) {
      String value = e.getValue();
      if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
        throw new IllegalArgumentException(
            e.getKey() + " must be one line but was \"" + value + '"');
      }
      out.append("# ").append(e.getKey()).append(": ").append(value).append('\n');
    }
    out.append(String.join(",", SAMPLE_COLUMNS)).append('\n');
    List<String> fields = new ArrayList<>(COMPONENTS.length);
    for (Sample s : r.samples()) {
      fields.clear();
      for (RecordComponent c : COMPONENTS) {
        fields.add(String.valueOf(get(c, s)));
      }
      out.append(Csv.row(fields)).append('\n');
    }
    AtomicFile.writeString(file, out.toString());
  }

  /**
   * Reads a file {@link #write} wrote.
   *
   * @throws IOException when the file cannot be read or is not a run file: a summary key or a
   *     sample column is missing, a row has the wrong number of fields or a number does not parse;
   *     the message names the file and the line or key
   */
  public static RunResult read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Map<String, String> comments = new HashMap<>();
    int pos = 0;
    while (pos < text.length() && text.charAt(pos) == '#') {
      int end = text.indexOf('\n', pos);
      if (end < 0) {
        end = text.length();
      }
      // The value is kept exactly as written; only the key is trimmed.
      String line = text.substring(pos + 1, end);
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      int colon = line.indexOf(": ");
      if (colon > 0) {
        comments.put(line.substring(0, colon).strip(), line.substring(colon + 2));
      } else if (line.endsWith(":")) {
        comments.put(line.substring(0, line.length() - 1).strip(), "");
      }
      pos = end + 1;
    }
    List<List<String>> rows;
    try {
      rows = Csv.parse(pos < text.length() ? text.substring(pos) : "");
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
    if (rows.isEmpty()) {
      throw new IOException(file + ": no header row");
    }
    List<Sample> samples = new ArrayList<>(rows.size() - 1);
    int[] index = columnIndexes(file, rows.get(0));
    for (int i = 1; i < rows.size(); i++) {
      List<String> row = rows.get(i);
      if (row.size() != rows.get(0).size()) {
        throw new IOException(String.format(Locale.ROOT, "%s: sample %d has %d fields, header %d",
            file, i, row.size(), rows.get(0).size()));
      }
      try {
        samples.add(sample(row, index));
      } catch (NumberFormatException e) {
        throw new IOException(file + ": sample " + i + ": " + e.getMessage(), e);
      }
    }
    Fields f = new Fields(file, comments);
    return new RunResult(
        f.string("system"),
        f.string("workload"),
        (int) f.longValue("record_bytes"),
        f.string("profile"),
        f.string("slow_disk"),
        samples,
        f.doubleValue("throughput"),
        f.doubleValue("fast_hit_rate"),
        f.doubleValue("p50_get_us"),
        f.doubleValue("p99_get_us"),
        f.doubleValue("oracle_hit_rate"),
        f.optionalDouble("belady_hit_rate"),
        f.optionalDouble("lru_hit_rate"),
        f.longValue("peak_rss_bytes"),
        f.doubleValue("load_seconds"),
        f.doubleValue("run_seconds"),
        f.optionalDouble("block_cache_hit_rate"),
        f.slowDiskReads(),
        comments.containsKey("flash_lookup_hit_ratio") ? new FlashResult(
            f.doubleValue("flash_lookup_hit_ratio"), f.doubleValue("flash_overall_hit_ratio"),
            f.longValue("flash_bytes_written"), f.doubleValue("flash_deleted_file_insert_share"),
            f.doubleValue("flash_deleted_file_offer_share"), f.longValue("flash_bypassed_lookups"))
            : null,
        comments.getOrDefault("commit", ""),
        comments.getOrDefault("timestamp", ""));
  }

  /** {@code p50GetMicros} to {@code p50_get_micros}. */
  static String snakeCase(String camelCase) {
    StringBuilder out = new StringBuilder(camelCase.length() + 4);
    for (int i = 0; i < camelCase.length(); i++) {
      char c = camelCase.charAt(i);
      if (Character.isUpperCase(c)) {
        out.append('_').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static Map<String, String> comments(RunResult r) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("format", Integer.toString(FORMAT));
    c.put("system", r.system());
    c.put("workload", r.workload());
    c.put("record_bytes", Integer.toString(r.recordBytes()));
    c.put("profile", r.profile());
    c.put("slow_disk", r.slowDisk());
    c.put("commit", r.commit());
    c.put("timestamp", r.timestamp());
    c.put("throughput", Double.toString(r.throughput()));
    c.put("fast_hit_rate", Double.toString(r.fastHitRate()));
    c.put("p50_get_us", Double.toString(r.p50GetMicros()));
    c.put("p99_get_us", Double.toString(r.p99GetMicros()));
    c.put("oracle_hit_rate", Double.toString(r.oracleHitRate()));
    c.put("belady_hit_rate", Double.toString(r.beladyHitRate()));
    c.put("lru_hit_rate", Double.toString(r.lruHitRate()));
    c.put("peak_rss_bytes", Long.toString(r.peakRssBytes()));
    c.put("load_seconds", Double.toString(r.loadSeconds()));
    c.put("run_seconds", Double.toString(r.runSeconds()));
    c.put("block_cache_hit_rate", Double.toString(r.blockCacheHitRate()));
    c.put("slow_disk_reads", Long.toString(r.slowDiskReads().reads()));
    c.put("slow_tier_gets", Long.toString(r.slowDiskReads().slowGets()));
    c.put("slow_disk_reads_per_slow_get", Double.toString(r.slowDiskReads().perSlowGet()));
    FlashResult flash = r.flash();
    if (flash != null) {
      c.put("flash_lookup_hit_ratio", Double.toString(flash.lookupHitRatio()));
      c.put("flash_overall_hit_ratio", Double.toString(flash.overallHitRatio()));
      c.put("flash_bytes_written", Long.toString(flash.bytesWritten()));
      c.put("flash_deleted_file_insert_share", Double.toString(flash.deletedFileInsertShare()));
      c.put("flash_deleted_file_offer_share", Double.toString(flash.deletedFileOfferShare()));
      c.put("flash_bypassed_lookups", Long.toString(flash.bypassedLookups()));
    }
    return c;
  }

  private static int[] columnIndexes(Path file, List<String> header) throws IOException {
    int[] index = new int[COMPONENTS.length];
    for (int i = 0; i < COMPONENTS.length; i++) {
      index[i] = header.indexOf(SAMPLE_COLUMNS.get(i));
      if (index[i] < 0 && OPTIONAL_COLUMNS.contains(SAMPLE_COLUMNS.get(i))) {
        continue; // a file written before the column existed
      }
      if (index[i] < 0) {
        throw new IOException(file + ": no column " + SAMPLE_COLUMNS.get(i) + " in " + header);
      }
    }
    return index;
  }

  private static Sample sample(List<String> row, int[] index) {
    Object[] args = new Object[COMPONENTS.length];
    for (int i = 0; i < COMPONENTS.length; i++) {
      if (index[i] < 0) {
        args[i] = COMPONENTS[i].getType() == double.class ? (Object) Double.NaN : (Object) (-1L);
        continue;
      }
      String v = row.get(index[i]);
      Class<?> type = COMPONENTS[i].getType();
      if (type == double.class) {
        args[i] = Double.parseDouble(v);
      } else if (type == long.class) {
        args[i] = Long.parseLong(v);
      } else if (type == int.class) {
        args[i] = Integer.parseInt(v);
      } else if (type == String.class) {
        args[i] = v;
      } else {
        throw new AssertionError("no CSV encoding for " + type + " of " + COMPONENTS[i]);
      }
    }
    try {
      return SampleConstructor.INSTANCE.newInstance(args);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot construct a Sample", e);
    }
  }

  private static Object get(RecordComponent c, Sample s) {
    try {
      return c.getAccessor().invoke(s);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + c.getName(), e);
    }
  }

  /** The canonical constructor, looked up once. */
  private static final class SampleConstructor {
    static final Constructor<Sample> INSTANCE;

    static {
      Class<?>[] types = Arrays.stream(COMPONENTS).map(RecordComponent::getType)
          .toArray(Class<?>[]::new);
      try {
        INSTANCE = Sample.class.getDeclaredConstructor(types);
      } catch (NoSuchMethodException e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  /** The summary comments of one file, with errors that name the file and the key. */
  private record Fields(Path file, Map<String, String> comments) {

    String string(String key) throws IOException {
      String v = comments.get(key);
      if (v == null) {
        throw new IOException(file + ": no '# " + key + ":' line");
      }
      return v;
    }

    long longValue(String key) throws IOException {
      String v = string(key);
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new IOException(file + ": " + key + " is not an integer: " + v, e);
      }
    }

    /** The slow disk's reads and slow-tier gets; either unknown where the file has none. */
    SlowDiskReads slowDiskReads() throws IOException {
      return new SlowDiskReads(count("slow_disk_reads"), count("slow_tier_gets"));
    }

    /** A count of {@link SlowDiskReads}: {@link SlowDiskReads#UNKNOWN} if the file has none. */
    private long count(String key) throws IOException {
      if (!comments.containsKey(key)) {
        return SlowDiskReads.UNKNOWN;
      }
      long v = longValue(key);
      if (v < 0 && v != SlowDiskReads.UNKNOWN) {
        throw new IOException(file + ": " + key + " must be >= 0, or " + SlowDiskReads.UNKNOWN
            + " when unknown, but was " + v);
      }
      return v;
    }

    /** The value of {@code key}, NaN if the file has none. */
    double optionalDouble(String key) throws IOException {
      return comments.containsKey(key) ? doubleValue(key) : Double.NaN;
    }

    double doubleValue(String key) throws IOException {
      String v = string(key);
      try {
        return Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw new IOException(file + ": " + key + " is not a number: " + v, e);
      }
    }
  }
}
