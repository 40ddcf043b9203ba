package io.hotrap.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

  @Test
  void fieldsWithCommasQuotesOrLineBreaksAreQuoted() {
    assertEquals("plain", Csv.field("plain"));
    assertEquals("\"a,b\"", Csv.field("a,b"));
    assertEquals("\"say \"\"hi\"\"\"", Csv.field("say \"hi\""));
    assertEquals("\"two\nlines\"", Csv.field("two\nlines"));
    assertEquals("", Csv.field(""));
  }

  @Test
  void parseReadsBackWhatRowWrote() {
    List<String> fields = List.of("a,b", "say \"hi\"", "", "two\nlines", "x");
    String text = Csv.row(List.of("h1", "h2", "h3", "h4", "h5")) + "\n" + Csv.row(fields) + "\n";

    List<List<String>> records = Csv.parse(text);

    assertEquals(List.of(List.of("h1", "h2", "h3", "h4", "h5"), fields), records);
  }

  @Test
  void parseAcceptsCrLfAndSkipsEmptyLinesButKeepsEmptyFields() {
    assertEquals(List.of(List.of("a", "", ""), List.of("", "b"), List.of("")),
        Csv.parse("a,,\r\n\r\n,b\n\"\"\n"));
  }

  @Test
  void parseRejectsAnUnclosedQuote() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Csv.parse("a,\"b\n"));
    assertEquals("unclosed quote at offset 2", e.getMessage());
  }
}
