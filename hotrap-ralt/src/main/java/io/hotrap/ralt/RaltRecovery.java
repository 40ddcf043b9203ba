package io.hotrap.ralt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What RALT finds in its directory when it opens: the {@link Manifest} (the runs, the clock and the
 * auto-tuned limits and threshold) and the segment files it lists. A missing or unusable manifest
 * means an empty tracker; a listed file that is missing or damaged is logged and skipped; files the
 * manifest does not list (a merge's output the crash kept from being published, a temporary
 * manifest) are deleted. Open never fails because of the files' content, only if the directory
 * cannot be created or listed.
 */
final class RaltRecovery {
  private static final System.Logger LOG = System.getLogger(RaltRecovery.class.getName());

  private RaltRecovery() {}

  /**
   * The recovered state: the manifest (null when there was none usable), the runs with their
   * segments (each segment holding one reference for the caller), and the next free file id.
   */
  record Recovered(Manifest manifest, List<Run> runs, long nextFileId) {}

  static Recovered recover(Path dir, RaltOptions options, IoStats io) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create RALT directory " + dir, e);
    }
    Manifest m = null;
    try {
      m = Manifest.read(dir);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "RALT manifest in " + dir + " is unusable (" + e.getMessage()
          + "); starting empty");
    }
    List<Run> runs = new ArrayList<>();
    Set<Long> kept = new HashSet<>();
    long nextFileId = 0;
    if (m != null) {
      nextFileId = m.nextFileId();
      for (Manifest.RunEntry e : m.runs()) {
        List<Segment> segs = new ArrayList<>();
        for (long id : e.segmentIds()) {
          Path p = Segment.fileName(dir, id);
          if (!Files.exists(p)) {
            LOG.log(Level.WARNING, "RALT file " + p + " listed in the manifest is missing; skipped");
            continue;
          }
          Segment s = Segment.recover(id, p, options.bloomBitsPerKey(), io);
          if (s != null) {
            segs.add(s);
            kept.add(id);
          }
        }
        if (!segs.isEmpty()) {
          runs.add(new Run(e.id(), e.level(), segs));
        }
      }
    }
    nextFileId = removeUnlisted(dir, kept, nextFileId);
    return new Recovered(m, runs, nextFileId);
  }

  /** Deletes segment files not in {@code kept}; returns a file id above every file seen. */
  private static long removeUnlisted(Path dir, Set<Long> kept, long nextFileId) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path p : files) {
        String name = p.getFileName().toString();
        if (name.startsWith("seg-") && name.endsWith(".ralt")) {
          long id;
          try {
            id = Long.parseUnsignedLong(name.substring(4, name.length() - 5), 16);
          } catch (NumberFormatException e) {
            continue;
          }
          if (!kept.contains(id)) {
            Files.deleteIfExists(p);
          }
          nextFileId = Math.max(nextFileId, id + 1);
        } else if (name.equals("MANIFEST.tmp")) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list RALT directory " + dir, e);
    }
    return nextFileId;
  }
}
