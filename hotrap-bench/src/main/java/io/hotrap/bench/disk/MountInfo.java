package io.hotrap.bench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The mount table of this process, as Linux lists it in {@code /proc/self/mountinfo}.
 *
 * <p>Each line reads {@code id parent major:minor root mount-point options [optional...] -
 * fstype source super-options}; paths escape space, tab, newline and backslash as octal
 * ({@code \040}). Immutable.
 */
final class MountInfo {
  static final Path PROC_SELF_MOUNTINFO = Path.of("/proc/self/mountinfo");

  /** One mounted file system. {@code root} is the directory of the file system mounted here. */
  record Mount(String majmin, String root, Path mountPoint, String fsType, String source,
      List<String> superOptions) {}

  private final List<Mount> mounts;

  private MountInfo(List<Mount> mounts) {
    this.mounts = List.copyOf(mounts);
  }

  /** The mount table of this process; empty where {@code /proc/self/mountinfo} is unreadable. */
  static MountInfo read() {
    try {
      return parse(Files.readAllLines(PROC_SELF_MOUNTINFO));
    } catch (IOException | SecurityException e) {
      return new MountInfo(List.of());
    }
  }

  /**
   * Parses mountinfo lines.
   *
   * @throws IllegalArgumentException on a line that does not follow the format, naming it
   */
  static MountInfo parse(List<String> lines) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(" ");
      int separator = Arrays.asList(f).indexOf("-");
      if (f.length < 6 || separator < 6 || f.length < separator + 4) {
        throw new IllegalArgumentException("not a mountinfo line: " + line);
      }
      mounts.add(new Mount(f[2], unescape(f[3]), Path.of(unescape(f[4])), f[separator + 1],
          unescape(f[separator + 2]), List.of(f[separator + 3].split(","))));
    }
    return new MountInfo(mounts);
  }

  List<Mount> mounts() {
    return mounts;
  }

  /**
   * The mount that holds {@code path} (absolute, symbolic links resolved): the one with the
   * longest mount point above it, the last one mounted when several share that mount point.
   */
  Optional<Mount> containing(Path path) {
    Mount best = null;
    for (Mount m : mounts) {
      if (path.startsWith(m.mountPoint())
          && (best == null || m.mountPoint().getNameCount() >= best.mountPoint().getNameCount())) {
        best = m;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The path that {@code /proc/<pid>/cgroup} shows for the cgroup directory {@code cgroupDir}
   * of the cgroup v1 hierarchy that carries {@code controller}, for example
   * {@code /hotrap-slow} for {@code /sys/fs/cgroup/blkio/hotrap-slow}.
   */
  Optional<String> cgroupPathOf(Path cgroupDir, String controller) {
    for (Mount m : mounts) {
      if (m.fsType().equals("cgroup") && m.superOptions().contains(controller)
          && cgroupDir.startsWith(m.mountPoint())) {
        Path inHierarchy = Path.of(m.root()).resolve(m.mountPoint().relativize(cgroupDir));
        return Optional.of(inHierarchy.normalize().toString());
      }
    }
    return Optional.empty();
  }

  /** Undoes the kernel's octal escapes ({@code \040} for a space). */
  static String unescape(String field) {
    if (field.indexOf('\\') < 0) {
      return field;
    }
    StringBuilder sb = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        sb.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '7') {
        return false;
      }
    }
    return true;
  }
}
