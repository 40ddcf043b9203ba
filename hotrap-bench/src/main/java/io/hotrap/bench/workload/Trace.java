package io.hotrap.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A recorded sequence of operations, read whole into memory for replay.
 *
 * <p>File format: UTF-8 text, one operation per line, fields separated by blanks:
 *
 * <pre>
 * # comment lines and blank lines are skipped
 * read   user42  1000     (also "get"; the value size may be left out of a read)
 * insert user43  1000     (also "put")
 * update user42  200
 * </pre>
 *
 * The key is any token without blanks, at most {@value #MAX_KEY_BYTES} bytes in UTF-8, used as
 * its UTF-8 bytes; the value size is a non-negative decimal int. Operation names are
 * case-insensitive. A line that breaks these rules fails the whole file with its path and line
 * number.
 *
 * <p>Each distinct key is stored once; operations are three parallel arrays. Immutable after
 * {@link #read}, so replays on several threads share one trace.
 */
final class Trace {

  /** The longest key a trace may hold. */
  static final int MAX_KEY_BYTES = 1024;

  private static final Operation.Type[] TYPES = Operation.Type.values();

  private final Path path;
  /** Distinct keys, in the order the trace first mentions them. */
  private final byte[][] keys;
  private final int size;
  private final byte[] types;
  private final int[] keyIndexes;
  private final int[] valueBytes;
  /** Keys whose first mention is a read: the records a load phase must write. */
  private final int[] loadKeys;
  private final int[] loadValueBytes;

  private Trace(Path path, byte[][] keys, int size, byte[] types, int[] keyIndexes,
      int[] valueBytes, int[] loadKeys, int[] loadValueBytes) {
    this.path = path;
    this.keys = keys;
    this.size = size;
    this.types = types;
    this.keyIndexes = keyIndexes;
    this.valueBytes = valueBytes;
    this.loadKeys = loadKeys;
    this.loadValueBytes = loadValueBytes;
  }

  /**
   * Reads the trace at {@code path}; reads without a value size get {@code defaultValueBytes}.
   *
   * @throws IllegalArgumentException if the file does not exist, holds a malformed line (the
   *     message names {@code path:line}) or holds no operation
   * @throws UncheckedIOException if reading fails
   */
  static Trace read(Path path, int defaultValueBytes) {
    Builder b = new Builder(path, defaultValueBytes);
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      String line;
      int lineNumber = 0;
      while ((line = in.readLine()) != null) {
        lineNumber++;
        b.add(line, lineNumber);
      }
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("trace file " + path + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + path, e);
    }
    if (b.size == 0) {
      throw new IllegalArgumentException("trace " + path + " holds no operation");
    }
    return b.build();
  }

  Path path() {
    return path;
  }

  /** Number of operations. */
  int size() {
    return size;
  }

  /** Number of distinct keys. */
  int keyCount() {
    return keys.length;
  }

  /** Number of keys whose first mention is a read. */
  int loadCount() {
    return loadKeys.length;
  }

  /** Fills {@code op} with operation {@code i}, a fresh copy of its key. */
  void fill(int i, Operation op, String phase) {
    int k = keyIndexes[i];
    op.type = TYPES[types[i]];
    op.key = keys[k].clone();
    op.keyId = k;
    op.valueBytes = valueBytes[i];
    op.phase = phase;
  }

  /** Fills {@code op} with an insert of the {@code j}-th key that needs loading. */
  void fillLoad(int j, Operation op, String phase) {
    int k = loadKeys[j];
    op.type = Operation.Type.INSERT;
    op.key = keys[k].clone();
    op.keyId = k;
    op.valueBytes = loadValueBytes[j];
    op.phase = phase;
  }

  /**
   * Among the reads of operations {@code 0 .. limit - 1}: element {@code i} is the number of reads
   * that go to the {@code i + 1} most read keys. Keys never read are left out.
   */
  long[] cumulativeReadCounts(int limit) {
    int[] counts = new int[keys.length];
    for (int i = 0; i < limit; i++) {
      if (types[i] == Operation.Type.READ.ordinal()) {
        counts[keyIndexes[i]]++;
      }
    }
    Arrays.sort(counts);
    int read = 0;
    while (read < counts.length && counts[counts.length - 1 - read] > 0) {
      read++;
    }
    long[] cumulative = new long[read];
    long sum = 0;
    for (int i = 0; i < read; i++) {
      sum += counts[counts.length - 1 - i];
      cumulative[i] = sum;
    }
    return cumulative;
  }

  private static final class Builder {
    private final Path path;
    private final int defaultValueBytes;
    private final Map<String, Integer> keyIndex = new HashMap<>();
    private byte[][] keys = new byte[1024][];
    private int size;
    private byte[] types = new byte[1024];
    private int[] keyIndexes = new int[1024];
    private int[] valueBytes = new int[1024];
    private int[] loadKeys = new int[256];
    private int[] loadValueBytes = new int[256];
    private int loadCount;

    Builder(Path path, int defaultValueBytes) {
      this.path = path;
      this.defaultValueBytes = defaultValueBytes;
    }

    void add(String line, int lineNumber) {
      String stripped = line.strip();
      if (stripped.isEmpty() || stripped.charAt(0) == '#') {
        return;
      }
      String[] fields = stripped.split("\\s+");
      Operation.Type type = type(fields[0], lineNumber);
      boolean read = type == Operation.Type.READ;
      if (fields.length != 3 && !(read && fields.length == 2)) {
        throw error(lineNumber, "expected '<op> <key> <valueSize>' but found " + fields.length
            + " field" + (fields.length == 1 ? "" : "s") + ": " + abbreviate(stripped));
      }
      int bytes = fields.length == 3 ? valueSize(fields[2], lineNumber) : defaultValueBytes;
      if (size == Integer.MAX_VALUE - 8) {
        throw error(lineNumber, "more operations than one trace can hold (" + size + ")");
      }
      Integer known = keyIndex.get(fields[1]);
      int k;
      if (known != null) {
        k = known;
      } else {
        byte[] key = fields[1].getBytes(StandardCharsets.UTF_8);
        if (key.length > MAX_KEY_BYTES) {
          throw error(lineNumber, "key is " + key.length + " bytes, longer than the "
              + MAX_KEY_BYTES + "-byte limit");
        }
        k = keyIndex.size();
        keyIndex.put(fields[1], k);
        if (k == keys.length) {
          keys = Arrays.copyOf(keys, grown(keys.length));
        }
        keys[k] = key;
        if (read) {
          if (loadCount == loadKeys.length) {
            loadKeys = Arrays.copyOf(loadKeys, grown(loadCount));
            loadValueBytes = Arrays.copyOf(loadValueBytes, grown(loadCount));
          }
          loadKeys[loadCount] = k;
          loadValueBytes[loadCount] = bytes;
          loadCount++;
        }
      }
      if (size == types.length) {
        types = Arrays.copyOf(types, grown(size));
        keyIndexes = Arrays.copyOf(keyIndexes, grown(size));
        valueBytes = Arrays.copyOf(valueBytes, grown(size));
      }
      types[size] = (byte) type.ordinal();
      keyIndexes[size] = k;
      valueBytes[size] = bytes;
      size++;
    }

    Trace build() {
      return new Trace(path, Arrays.copyOf(keys, keyIndex.size()), size,
          Arrays.copyOf(types, size), Arrays.copyOf(keyIndexes, size),
          Arrays.copyOf(valueBytes, size), Arrays.copyOf(loadKeys, loadCount),
          Arrays.copyOf(loadValueBytes, loadCount));
    }

    private Operation.Type type(String op, int lineNumber) {
      switch (op.toLowerCase(Locale.ROOT)) {
        case "read":
        case "get":
          return Operation.Type.READ;
        case "insert":
        case "put":
          return Operation.Type.INSERT;
        case "update":
          return Operation.Type.UPDATE;
        default:
          throw error(lineNumber, "unknown operation '" + abbreviate(op)
              + "'; expected read, get, insert, put or update");
      }
    }

    private int valueSize(String field, int lineNumber) {
      try {
        int v = Integer.parseInt(field);
        if (v >= 0) {
          return v;
        }
      } catch (NumberFormatException e) {
        // Reported below, with the line.
      }
      throw error(lineNumber, "value size '" + abbreviate(field)
          + "' is not a non-negative int");
    }

    private IllegalArgumentException error(int lineNumber, String what) {
      return new IllegalArgumentException(path + ":" + lineNumber + ": " + what);
    }

    private static int grown(int length) {
      return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, 2L * length));
    }

    private static String abbreviate(String s) {
      return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
  }
}
