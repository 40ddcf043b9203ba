package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class BenchVersionTest {
  /** The commit git reports for this work tree, or null where git or the work tree is missing. */
  private static String head() throws InterruptedException {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "HEAD")
          .directory(Path.of("").toAbsolutePath().toFile())
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && out.matches("[0-9a-f]{40}") ? out : null;
    } catch (IOException e) {
      return null;
    }
  }

  @Test
  void theBuildRecordsTheCommitOfItsWorkTree() throws InterruptedException {
    String head = head();
    Assumptions.assumeTrue(head != null, "not built in a git work tree, or git is missing");
    String commit = BenchVersion.commit();
    assertTrue(commit.matches("[0-9a-f]{12}(-dirty)?"), commit);
    assertEquals(head.substring(0, 12), commit.substring(0, 12),
        "the build recorded another commit than the work tree's HEAD");
  }
}
