package io.hotrap.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.HotRapOptions;
import io.hotrap.ralt.RaltOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rocksdb.CompressionType;

class OptionsTemplateTest {
  private static final Set<String> PATH_DEPENDENT =
      Set.of("fastPath", "slowPath", "raltOptions", "toString", "hashCode", "newBlockCache");

  @Test
  void everySettingButThePathsIsCopied() throws Exception {
    HotRapOptions template = HotRapOptions.builder()
        .fastPath(Path.of("/template/fast")).slowPath(Path.of("/template/slow"))
        .fastBudgetBytes(8L << 20)
        .blockCacheBytes(9L << 20)
        .fastBlockSize(8192).slowBlockSize(32768)
        .bloomBitsPerKey(7).slowBloomBitsPerKey(13)
        .fastCompression(CompressionType.NO_COMPRESSION).slowCompression(CompressionType.LZ4_COMPRESSION)
        .directReads(true).directIoForFlushAndCompaction(true)
        .backgroundJobs(3)
        .writeBufferBytes(128 * 1024).fastTargetFileBytes(256 * 1024).slowTargetFileBytes(512 * 1024)
        .highWatermark(0.7).lowWatermark(0.5)
        .migrationCheckInterval(Duration.ofMillis(300)).maxWriteStall(Duration.ofSeconds(3))
        .migrationBatchBytes(64 * 1024)
        .retainHotRecords(false).promotion(false).hotnessCheck(false).promoteByCompaction(false)
        .promotionCacheBytes(100_000).maxPromotedRecordBytes(1000)
        .maxKeyBytes(1000).maxValueBytes(2000).syncWrites(true).lockStripes(64)
        .meterRegistry(new SimpleMeterRegistry())
        .ralt(r -> r.alpha(0.5).beta(0.2).hotSetBeta(0.05).autoTuning(false).levelSizeRatio(4)
            .evictionSampleBlocks(7))
        .build();
    HotRapOptions copy = OptionsTemplate.of(template)
        .optionsFor(Path.of("/task/fast"), Path.of("/task/slow"), null);

    assertEquals(Path.of("/task/fast"), copy.fastPath());
    assertEquals(Path.of("/task/slow"), copy.slowPath());
    assertSameAccessors(HotRapOptions.class, template, copy, PATH_DEPENDENT);
    assertEquals(Path.of("/task/fast").resolve("ralt"), copy.raltOptions().directory());
    assertSameAccessors(RaltOptions.class, template.raltOptions(), copy.raltOptions(),
        Set.of("directory", "toString", "hashCode", "toBuilder"));
  }

  private static <T> void assertSameAccessors(Class<T> type, T expected, T actual, Set<String> skip)
      throws Exception {
    int compared = 0;
    for (Method m : type.getMethods()) {
      if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
          || m.getDeclaringClass() != type || skip.contains(m.getName())) {
        continue;
      }
      assertEquals(m.invoke(expected), m.invoke(actual), type.getSimpleName() + "." + m.getName());
      compared++;
    }
    assertTrue(compared > 10, "compared " + compared + " accessors");
  }
}
