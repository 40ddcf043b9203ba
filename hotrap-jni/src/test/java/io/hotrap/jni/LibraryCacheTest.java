package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryCacheTest {
  @TempDir Path root;

  private static final byte[] LIBRARY = "library bytes, version 1".getBytes(UTF_8);

  private List<Path> filesUnder(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void aSecondExtractionReusesTheFirstCopy() throws Exception {
    Path first = LibraryCache.extract(LIBRARY, "libx.so", root);
    FileTime written = FileTime.fromMillis(1_000_000L);
    Files.setLastModifiedTime(first, written);

    Path second = LibraryCache.extract(LIBRARY, "libx.so", root);

    assertEquals(first, second);
    assertEquals(written, Files.getLastModifiedTime(second), "not rewritten");
    assertEquals(List.of(first), filesUnder(root), "one copy, no temporary files left");
    assertEquals(root.resolve(LibraryCache.digest(LIBRARY)).resolve("libx.so"), first);
  }

  @Test
  void anAlteredCopyIsReplaced() throws Exception {
    Path copy = LibraryCache.extract(LIBRARY, "libx.so", root);
    Files.writeString(copy, "truncated");

    Path again = LibraryCache.extract(LIBRARY, "libx.so", root);

    assertEquals(copy, again);
    assertArrayEquals(LIBRARY, Files.readAllBytes(again));
    assertEquals(List.of(copy), filesUnder(root));
  }

  @Test
  void anotherBuildGetsItsOwnDirectory() throws Exception {
    Path v1 = LibraryCache.extract(LIBRARY, "libx.so", root);
    Path v2 = LibraryCache.extract("version 2".getBytes(UTF_8), "libx.so", root);

    assertNotEquals(v1.getParent(), v2.getParent());
    assertArrayEquals(LIBRARY, Files.readAllBytes(v1));
  }
}
