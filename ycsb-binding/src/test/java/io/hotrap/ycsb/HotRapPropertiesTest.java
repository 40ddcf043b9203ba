package io.hotrap.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.HotRapOptions;
import io.hotrap.jni.NativeHooks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.CompressionType;
import site.ycsb.DBException;

class HotRapPropertiesTest {

  private static Properties required() {
    Properties p = new Properties();
    p.setProperty("hotrap.fast.dir", "/tmp/hotrap-props/fast");
    p.setProperty("hotrap.slow.dir", "/tmp/hotrap-props/slow");
    p.setProperty("hotrap.fast.budget", "16M");
    return p;
  }

  private static DBException rejected(Properties p) {
    return assertThrows(DBException.class, () -> HotRapProperties.toOptions(p));
  }

  @ParameterizedTest
  @CsvSource({"0,0", "512,512", "8K,8192", "8k,8192", "16M,16777216", "16 M,16777216",
      "3g,3221225472", " 7 ,7"})
  void bytesTakeBinarySuffixes(String text, long bytes) throws DBException {
    assertEquals(bytes, HotRapProperties.parseBytes("hotrap.x", text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-1", "1.5M", "12X", "M", "16MB", "9999999999G", "99999999999999999999"})
  void malformedBytesNameTheProperty(String text) {
    DBException e = assertThrows(DBException.class, () -> HotRapProperties.parseBytes("hotrap.fast.budget", text));
    assertTrue(e.getMessage().startsWith("hotrap.fast.budget=" + text), e.getMessage());
  }

  @Test
  void requiredPropertiesGiveTheStore() throws DBException {
    HotRapOptions o = HotRapProperties.toOptions(required());
    assertEquals(Path.of("/tmp/hotrap-props/fast"), o.fastPath());
    assertEquals(Path.of("/tmp/hotrap-props/slow"), o.slowPath());
    assertEquals(16L << 20, o.fastBudgetBytes());
    assertEquals(HotRapOptions.DEFAULT_BACKGROUND_JOBS, o.backgroundJobs());
  }

  @ParameterizedTest
  @ValueSource(strings = {"hotrap.fast.dir", "hotrap.slow.dir", "hotrap.fast.budget"})
  void missingRequiredPropertyIsNamed(String name) {
    Properties p = required();
    p.remove(name);
    assertEquals("missing required property " + name, rejected(p).getMessage());
    p.setProperty(name, "  ");
    assertEquals("missing required property " + name, rejected(p).getMessage());
  }

  @Test
  void everyPassThroughPropertyReachesTheOptions() throws DBException {
    Properties p = required();
    p.setProperty("hotrap.block.cache", "12M");
    p.setProperty("hotrap.fast.block.size", "8K");
    p.setProperty("hotrap.slow.block.size", "32K");
    p.setProperty("hotrap.bloom.bits.per.key", "12.5");
    p.setProperty("hotrap.slow.bloom.bits.per.key", "18");
    p.setProperty("hotrap.fast.compression", "none");
    p.setProperty("hotrap.slow.compression", "LZ4HC_COMPRESSION");
    p.setProperty("hotrap.direct.reads", "true");
    p.setProperty("hotrap.direct.io.flush.compaction", "TRUE");
    p.setProperty("hotrap.background.jobs", "3");
    p.setProperty("hotrap.write.buffer.size", "128K");
    p.setProperty("hotrap.fast.target.file.size", "256K");
    p.setProperty("hotrap.slow.target.file.size", "1M");
    p.setProperty("hotrap.high.watermark", "0.7");
    p.setProperty("hotrap.low.watermark", "0.5");
    p.setProperty("hotrap.migration.check.interval.ms", "250");
    p.setProperty("hotrap.max.write.stall.ms", "0");
    p.setProperty("hotrap.migration.batch.size", "64K");
    p.setProperty("hotrap.retain.hot.records", "false");
    p.setProperty("hotrap.max.key.size", "1K");
    p.setProperty("hotrap.max.value.size", "1M");
    p.setProperty("hotrap.sync.writes", "true");
    p.setProperty("hotrap.lock.stripes", "64");
    p.setProperty("hotrap.write.hot.separation", "true");
    p.setProperty("hotrap.write.hot.share", "0.2");
    p.setProperty("hotrap.write.skew.threshold", "2.5");
    p.setProperty("hotrap.hot.block.cache.share", "0.8");
    p.setProperty("hotrap.read.skew.detection", "false");
    p.setProperty("hotrap.drop.demoted.files", "false");
    // The native path can only be asked for where its hooks load (Linux x86-64 with gcc).
    p.setProperty("hotrap.native.migration", Boolean.toString(NativeHooks.available()));
    HotRapOptions o = HotRapProperties.toOptions(p);
    assertEquals(12L << 20, o.blockCacheBytes());
    assertEquals(8192, o.fastBlockSize());
    assertEquals(32768, o.slowBlockSize());
    assertEquals(12.5, o.bloomBitsPerKey());
    assertEquals(18, o.slowBloomBitsPerKey());
    assertEquals(CompressionType.NO_COMPRESSION, o.fastCompression());
    assertEquals(CompressionType.LZ4HC_COMPRESSION, o.slowCompression());
    assertTrue(o.directReads());
    assertTrue(o.directIoForFlushAndCompaction());
    assertEquals(3, o.backgroundJobs());
    assertFalse(o.dropDemotedFiles());
    assertEquals(128 << 10, o.writeBufferBytes());
    assertEquals(256 << 10, o.fastTargetFileBytes());
    assertFalse(o.readSkewDetection());
    assertEquals(1 << 20, o.slowTargetFileBytes());
    assertEquals(0.7, o.highWatermark());
    assertEquals(0.5, o.lowWatermark());
    assertEquals(Duration.ofMillis(250), o.migrationCheckInterval());
    assertEquals(Duration.ZERO, o.maxWriteStall());
    assertEquals(64 << 10, o.migrationBatchBytes());
    assertFalse(o.retainHotRecords());
    assertEquals(1024, o.maxKeyBytes());
    assertEquals(1 << 20, o.maxValueBytes());
    assertTrue(o.syncWrites());
    assertEquals(64, o.lockStripes());
    assertTrue(o.writeHotSeparation());
    assertEquals(0.2, o.writeHotShare());
    assertEquals(2.5, o.writeSkewThreshold());
    assertEquals(0.8, o.hotBlockCacheShare());
    assertEquals(NativeHooks.available(), o.nativeMigration());
  }

  @Test
  void everyDocumentedPropertyIsAccepted() {
    int n = 0;
    for (String name : HotRapProperties.names()) {
      assertTrue(name.startsWith("hotrap."), name);
      n++;
    }
    assertEquals(33, n);
  }

  @ParameterizedTest
  @CsvSource({
      "hotrap.background.jobs, many, is not an integer",
      "hotrap.background.jobs, 1, rejected: hotrap.background.jobs must be in [2, 256] but was 1",
      "hotrap.bloom.bits.per.key, lots, is not a number",
      "hotrap.direct.reads, yes, is not true or false",
      "hotrap.slow.compression, gzip, is not a compression",
      "hotrap.slow.compression, DISABLE_COMPRESSION_OPTION, is not a compression",
      "hotrap.lock.stripes, 3, rejected: hotrap.lock.stripes must be a power of two",
      "hotrap.max.key.size, 4G, exceeds 2147483647 bytes",
      "hotrap.write.buffer.size, 1K, rejected: hotrap.write.buffer.size must be at least 65536",
      "hotrap.high.watermark, 1.5, rejected: hotrap.high.watermark must be in (0, 1]",
      "hotrap.migration.check.interval.ms, 0, rejected: hotrap.migration.check.interval.ms must be positive",
  })
  void invalidPassThroughValueNamesTheProperty(String name, String value, String complaint) {
    Properties p = required();
    p.setProperty(name, value);
    String message = rejected(p).getMessage();
    assertTrue(message.startsWith(name + "=" + value + " "), message);
    assertTrue(message.contains(complaint), message);
  }

  @Test
  void unknownHotrapPropertyIsRejectedByName() {
    Properties p = required();
    p.setProperty("hotrap.fast.budgte", "1G");
    p.setProperty("recordcount", "1000");
    String message = rejected(p).getMessage();
    assertTrue(message.startsWith("unknown property hotrap.fast.budgte;"), message);
  }

  @Test
  void conflictingSettingsAreReportedWithPropertyNames() {
    Properties p = required();
    p.setProperty("hotrap.low.watermark", "0.9");
    p.setProperty("hotrap.high.watermark", "0.6");
    assertEquals("invalid hotrap.* properties: hotrap.low.watermark (0.9) must not exceed"
        + " hotrap.high.watermark (0.6)", rejected(p).getMessage());

    Properties tiny = required();
    tiny.setProperty("hotrap.fast.budget", "256K");
    String message = rejected(tiny).getMessage();
    assertTrue(message.startsWith("invalid hotrap.* properties: hotrap.fast.budget (262144) leaves no room"),
        message);
  }

  @Test
  void overlappingDirectoriesAreRejected() {
    Properties p = required();
    p.setProperty("hotrap.slow.dir", "/tmp/hotrap-props/fast/slow");
    String message = rejected(p).getMessage();
    assertTrue(message.contains("hotrap.fast.dir (/tmp/hotrap-props/fast) and hotrap.slow.dir"), message);
  }
}
