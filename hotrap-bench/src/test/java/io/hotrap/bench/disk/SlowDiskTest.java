package io.hotrap.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlowDiskTest {
  @TempDir
  Path dir;

  static final String STATE = String.join("\n",
      "device=/dev/loop3",
      "majmin=7:3",
      "image=/work/slow.img",
      "cgroup=/sys/fs/cgroup/blkio/hotrap-slow",
      "mountpoint=/work/slow",
      "size=20G",
      "direct_io=on",
      "read_iops=500",
      "write_iops=0",
      "read_bps=16777216",
      "write_bps=0",
      "created_at=2025-01-31T12:00:00Z",
      "");

  private Path writeState(Path where, String text) throws IOException {
    return Files.writeString(where.resolve(SlowDisk.STATE_FILE), text);
  }

  @Test
  void readsEveryFieldOfTheStateFile() throws IOException {
    SlowDisk disk = SlowDisk.read(writeState(dir, STATE));

    assertEquals("/dev/loop3", disk.device());
    assertEquals("loop3", disk.deviceName());
    assertEquals("7:3", disk.majmin());
    assertEquals(Path.of("/work/slow.img"), disk.image());
    assertEquals(Path.of("/sys/fs/cgroup/blkio/hotrap-slow"), disk.cgroup());
    assertEquals(new SlowDisk.Limits(500, 0, 16L << 20, 0), disk.limits());
    assertEquals(Instant.parse("2025-01-31T12:00:00Z"), disk.createdAt());
    assertTrue(disk.loopDirectIo());
    assertEquals(dir.toAbsolutePath(), disk.mountPoint(), "the state file's directory");
  }

  @Test
  void describesReadLimitsLikeAReportLine() throws IOException {
    SlowDisk disk = SlowDisk.read(writeState(dir, STATE));

    assertEquals("throttled loop3 (7:3) read 500 IOPS, 16 MiB/s", disk.describe());
  }

  @Test
  void describesWriteLimitsAfterReadLimits() throws IOException {
    String text = STATE.replace("write_iops=0", "write_iops=200")
        .replace("write_bps=0", "write_bps=1572864");

    assertEquals("throttled loop3 (7:3) read 500 IOPS, 16 MiB/s; write 200 IOPS, 1.5 MiB/s",
        SlowDisk.read(writeState(dir, text)).describe());
  }

  @Test
  void describesADiskWithoutLimitsAsUnthrottled() throws IOException {
    String text = STATE.replace("read_iops=500", "read_iops=0")
        .replace("read_bps=16777216", "read_bps=0");

    assertEquals("unthrottled loop3 (7:3): no limits set",
        SlowDisk.read(writeState(dir, text)).describe());
  }

  @Test
  void describesTheSameDiskCase() {
    assertEquals("unthrottled (slow directory on the same disk as the fast one)",
        SlowDisk.describeUnthrottled());
  }

  @Test
  void formatsRatesInTheLargestWholeUnit() {
    assertEquals("64 MiB/s", SlowDisk.rate(64L << 20));
    assertEquals("2.5 MiB/s", SlowDisk.rate(5L << 19));
    assertEquals("512 KiB/s", SlowDisk.rate(512 << 10));
    assertEquals("1000 B/s", SlowDisk.rate(1000));
  }

  @Test
  void findsTheStateFileFromASubdirectory() throws IOException {
    writeState(dir, STATE);
    Path sub = Files.createDirectories(dir.resolve("bench/slow/data"));

    Optional<SlowDisk> found = SlowDisk.find(sub);

    assertTrue(found.isPresent());
    assertEquals("7:3", found.get().majmin());
    assertEquals(dir.toRealPath(), found.get().mountPoint());
  }

  @Test
  void findsTheStateFileFromADirectoryNotYetCreated() throws IOException {
    writeState(dir, STATE);

    assertTrue(SlowDisk.find(dir.resolve("not/yet/made")).isPresent());
  }

  @Test
  void findsNothingOnAnOrdinaryDisk() throws IOException {
    Path sub = Files.createDirectories(dir.resolve("a/b"));

    assertEquals(Optional.empty(), SlowDisk.find(sub));
  }

  @Test
  void doesNotLookAboveTheMountPoint() throws IOException {
    writeState(dir, STATE);
    Path mount = Files.createDirectories(dir.resolve("other-fs"));
    Path sub = Files.createDirectories(mount.resolve("data"));

    assertEquals(Optional.empty(), SlowDisk.find(sub, mount));
    assertTrue(SlowDisk.find(sub, dir).isPresent(), "the mount point itself is searched");
  }

  @Test
  void rejectsAStateFileWithoutADevice() throws IOException {
    Path state = writeState(dir, STATE.replace("majmin=7:3\n", ""));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SlowDisk.read(state));
    assertTrue(e.getMessage().contains("no majmin= line"), e.getMessage());
  }

  @Test
  void rejectsAMalformedLimitNamingKeyAndValue() throws IOException {
    Path state = writeState(dir, STATE.replace("read_iops=500", "read_iops=-5"));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SlowDisk.read(state));
    assertTrue(e.getMessage().contains("read_iops must be a whole number >= 0 but was -5"),
        e.getMessage());
  }

  @Test
  void readsTheBlkioLineOfProcSelfCgroup() {
    List<String> lines = List.of("9:name=systemd:/", "7:blkio:/hotrap-slow", "4:memory:/x",
        "0::/");

    assertEquals(Optional.of("/hotrap-slow"), SlowDisk.blkioCgroup(lines));
    assertEquals(Optional.of("/a"), SlowDisk.blkioCgroup(List.of("3:cpu,blkio:/a")));
    assertEquals(Optional.empty(), SlowDisk.blkioCgroup(List.of("0::/user.slice")));
  }

  @Test
  void readsTheReadCountOfItsOwnDeviceFromIoServiced() {
    List<String> serviced = List.of("7:30 Read 999", "7:3 Write 12", "7:3 Read 1234",
        "7:3 Sync 1240", "7:3 Async 6", "7:3 Discard 0", "7:3 Total 1246", "Total 2245");

    assertEquals(1234, SlowDisk.readsServiced(serviced, "7:3"));
    assertEquals(999, SlowDisk.readsServiced(serviced, "7:30"));
    assertEquals(0, SlowDisk.readsServiced(serviced, "7:4"), "no I/O yet, no line");
    assertEquals(0, SlowDisk.readsServiced(List.of("Total 0"), "7:3"));
  }

  @Test
  void countsTheCgroupsReadsFromItsIoServicedFile() throws IOException {
    Path cgroup = Files.createDirectories(dir.resolve("cgroup"));
    Files.writeString(cgroup.resolve("blkio.throttle.io_serviced"),
        "7:30 Read 5\n7:3 Read 41\n7:3 Write 2\n7:3 Total 43\nTotal 48\n");
    Path state = writeState(dir, STATE.replace("/sys/fs/cgroup/blkio/hotrap-slow",
        cgroup.toString()));

    assertEquals(41, SlowDisk.read(state).cgroupReadsServiced());
  }

  @Test
  void joiningACgroupThatDoesNotExistFailsWithAReason() throws IOException {
    Path state = writeState(dir, STATE.replace("/sys/fs/cgroup/blkio/hotrap-slow",
        dir.resolve("no-such-cgroup").toString()));
    SlowDisk disk = SlowDisk.read(state);

    assertFalse(disk.joinCgroup());
    assertTrue(disk.joinFailure().orElseThrow().contains("does not exist"),
        disk.joinFailure().orElseThrow());
    assertFalse(disk.processInCgroup());
  }
}
