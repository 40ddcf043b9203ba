package io.hotrap.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code scripts/slowdisk.sh} for real: a 64 MiB loop device throttled to
 * {@value #READ_IOPS} read IOPS, probed from this JVM (outside the cgroup) and from a child JVM
 * started by {@code slowdisk.sh run} (inside it). Needs root, a cgroup v1 blkio hierarchy and
 * losetup; skipped otherwise.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlowDiskScriptTest {
  static final int READ_IOPS = 200;
  static final Path BLKIO = Path.of("/sys/fs/cgroup/blkio");
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  Path script;
  Path mount;
  String cgroupName;

  @BeforeEach
  void requireRootBlkioAndLosetup() {
    assumeTrue(effectiveUid() == 0, "slowdisk.sh needs root to attach a loop device and mount it");
    assumeTrue(Files.exists(BLKIO.resolve("blkio.throttle.read_iops_device")),
        "no cgroup v1 blkio controller at " + BLKIO);
    assumeTrue(onPath("losetup") && onPath("mkfs.ext4"), "losetup or mkfs.ext4 is not installed");
    script = findScript();
    mount = tmp.resolve("slow");
    cgroupName = "hotrap-slowdisk-test-" + ProcessHandle.current().pid();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (mount == null) {
      return;
    }
    // "down" skips what is already gone, so it is safe after a failed or a finished test.
    Result down = sh(List.of(script.toString(), "down", "--dir", mount.toString()));
    assertFalse(Files.exists(BLKIO.resolve(cgroupName)), "cgroup left behind: " + down.output);
    assertFalse(isMountPoint(mount), "mount left behind: " + down.output);
  }

  @Test
  void throttlesOnlyTheJvmStartedInsideTheCgroup() throws Exception {
    Result up = sh(List.of(script.toString(), "up", "--dir", mount.toString(), "--size", "64M",
        "--read-iops", Integer.toString(READ_IOPS), "--cgroup", cgroupName));
    assertEquals(0, up.status, up.output);
    SlowDisk disk = SlowDisk.find(mount).orElseThrow();
    assertTrue(disk.isMounted(), disk.toString());
    assertEquals("throttled " + disk.deviceName() + " (" + disk.majmin() + ") read "
        + READ_IOPS + " IOPS", disk.describe());
    assertEquals(0, sh(List.of(script.toString(), "status", "--dir", mount.toString())).status);
    long readsBefore = disk.deviceReadsCompleted();

    DiskProbe.Result outside = DiskProbe.builder().fileBytes(8L << 20)
        .seconds(Duration.ofSeconds(1)).build().measure(mount);
    Result child = sh(List.of(script.toString(), "run", "--dir", mount.toString(), "--",
        javaExecutable(), "-cp", System.getProperty("java.class.path"),
        DiskProbe.class.getName(), "--dir", mount.toString(), "--seconds", "1",
        "--file-mib", "8"));

    assertEquals(0, child.status, child.output);
    assertTrue(child.output.contains("this JVM is in " + disk.cgroup()), child.output);
    double inside = iops(child.output);
    assertTrue(outside.directIo(), outside.toString());
    assertTrue(inside < 2 * READ_IOPS, "throttled " + inside + " IOPS, limit " + READ_IOPS);
    assertTrue(inside * 4 < outside.randomReadIops(),
        "throttled " + inside + " IOPS vs " + outside.randomReadIops() + " outside the cgroup");
    assertTrue(disk.cgroupReadsServiced() > 0, "the child's reads were counted in the cgroup");
    assertTrue(disk.deviceReadsCompleted() > readsBefore);
    assertFalse(disk.processInCgroup(), "this JVM stayed outside");
  }

  @Test
  void joiningTheCgroupThrottlesThisJvm() throws Exception {
    assertEquals(0, sh(List.of(script.toString(), "up", "--dir", mount.toString(), "--size",
        "64M", "--read-iops", Integer.toString(READ_IOPS), "--cgroup", cgroupName)).status);
    SlowDisk disk = SlowDisk.find(mount).orElseThrow();
    DiskProbe probe = DiskProbe.builder().fileBytes(8L << 20).seconds(Duration.ofSeconds(1))
        .build();

    boolean joined = disk.joinCgroup();
    try {
      assertTrue(joined, disk.joinFailure().orElse(""));
      assertTrue(disk.processInCgroup());
      double iops = probe.measure(mount).randomReadIops();
      assertTrue(iops < 2 * READ_IOPS, "throttled " + iops + " IOPS, limit " + READ_IOPS);
    } finally {
      Files.writeString(BLKIO.resolve("cgroup.procs"),
          Long.toString(ProcessHandle.current().pid()));
    }
    assertFalse(disk.processInCgroup());
  }

  @Test
  void refusesToMountTwiceAndTearsDownCompletely() throws Exception {
    List<String> upCommand = List.of(script.toString(), "up", "--dir", mount.toString(),
        "--size", "64M", "--read-iops", "100", "--cgroup", cgroupName);
    assertEquals(0, sh(upCommand).status);
    SlowDisk disk = SlowDisk.find(mount).orElseThrow();

    Result again = sh(upCommand);
    Result down = sh(List.of(script.toString(), "down", "--dir", mount.toString()));

    assertNotEquals(0, again.status);
    assertTrue(again.output.contains("already a slow disk"), again.output);
    assertEquals(0, down.status, down.output);
    assertFalse(Files.exists(disk.cgroup()), "cgroup removed");
    assertFalse(Files.exists(disk.image()), "image removed");
    assertFalse(Files.exists(Path.of("/sys/block", disk.deviceName(), "loop")),
        "loop device detached");
    assertEquals(1, sh(List.of(script.toString(), "status", "--dir", mount.toString())).status);
  }

  @Test
  void refusesToRunWithoutRoot() throws Exception {
    assumeTrue(onPath("setpriv"), "setpriv is not installed");

    Result r = sh(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        script.toString(), "up", "--dir", mount.toString(), "--size", "64M"));

    assertEquals(1, r.status, r.output);
    assertTrue(r.output.contains("needs root"), r.output);
  }

  @Test
  void refusesWithoutABlkioController() throws Exception {
    ProcessBuilder pb = new ProcessBuilder(script.toString(), "up", "--dir", mount.toString(),
        "--size", "64M");
    pb.environment().put("SLOWDISK_BLKIO_ROOT", tmp.resolve("no-blkio").toString());

    Result r = run(pb);

    assertEquals(1, r.status, r.output);
    assertTrue(r.output.contains("no cgroup v1 blkio controller"), r.output);
    assertFalse(Files.exists(mount), "nothing was created");
  }

  private static double iops(String probeOutput) {
    Matcher m = Pattern.compile("random 4 KiB reads: (\\d+) IOPS").matcher(probeOutput);
    assertTrue(m.find(), probeOutput);
    return Double.parseDouble(m.group(1));
  }

  record Result(int status, String output) {}

  private static Result sh(List<String> command) throws IOException, InterruptedException {
    return run(new ProcessBuilder(new ArrayList<>(command)));
  }

  private static Result run(ProcessBuilder pb) throws IOException, InterruptedException {
    Process p = pb.redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + pb.command());
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  private static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Path findScript() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("scripts/slowdisk.sh");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("scripts/slowdisk.sh not found above " + Path.of("").toAbsolutePath());
  }

  private static boolean onPath(String tool) {
    List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "")
        .split(":")));
    dirs.addAll(List.of("/sbin", "/usr/sbin"));
    return dirs.stream().anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool)));
  }

  /** This process's effective user id; -1 where /proc/self/status does not tell. */
  private static long effectiveUid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return Long.parseLong(line.split("\\s+")[2]);
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return -1;
  }

  private static boolean isMountPoint(Path dir) {
    return MountInfo.read().mounts().stream()
        .anyMatch(m -> m.mountPoint().equals(dir.toAbsolutePath()));
  }
}
