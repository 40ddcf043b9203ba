package io.hotrap.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The CSV dialect of the report files (RFC 4180): fields separated by commas, records by line
 * breaks; a field holding a comma, a double quote or a line break is enclosed in double quotes and
 * its quotes doubled. The parser also accepts CRLF line ends.
 */
final class Csv {

  private Csv() {}

  /** One field, quoted when it must be. */
  static String field(String value) {
    if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0
        && value.indexOf('\r') < 0) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }

  /** One record without its line break. */
  static String row(List<String> values) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      line.append(field(values.get(i)));
    }
    return line.toString();
  }

  /**
   * Splits {@code text} into records of fields. Empty lines are skipped.
   *
   * @throws IllegalArgumentException on a quote that is never closed or text after a closing quote
   */
  static List<List<String>> parse(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean atFieldStart = true;
    boolean quoted = false;
    int n = text.length();
    int i = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '"' && atFieldStart) {
        i = readQuoted(text, i, field);
        quoted = true;
        atFieldStart = false;
        if (i < n && text.charAt(i) != ',' && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
          throw new IllegalArgumentException("text after a closing quote at offset " + i);
        }
        continue;
      }
      if (c == ',') {
        record.add(field.toString());
        field.setLength(0);
        quoted = false;
        atFieldStart = true;
      } else if (c == '\n' || c == '\r') {
        if (!record.isEmpty() || field.length() > 0 || quoted) {
          record.add(field.toString());
          records.add(record);
          record = new ArrayList<>();
        }
        field.setLength(0);
        quoted = false;
        atFieldStart = true;
      } else {
        field.append(c);
        atFieldStart = false;
      }
      i++;
    }
    if (!record.isEmpty() || field.length() > 0 || quoted) {
      record.add(field.toString());
      records.add(record);
    }
    return records;
  }

  /** Appends the quoted field opening at {@code open} to {@code field}; returns the end offset. */
  private static int readQuoted(String text, int open, StringBuilder field) {
    int from = open + 1;
    while (true) {
      int q = text.indexOf('"', from);
      if (q < 0) {
        throw new IllegalArgumentException("unclosed quote at offset " + open);
      }
      field.append(text, from, q);
      if (q + 1 < text.length() && text.charAt(q + 1) == '"') {
        field.append('"');
        from = q + 2;
      } else {
        return q + 1;
      }
    }
  }
}
