package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadParseTest {

  private static final WorkloadParams PARAMS = new WorkloadParams(10_000, 100, 1_000, 7, 0.99);

  @Test
  void mixesHaveThePapersShares() {
    assertEquals(1.0, Mix.RO.readShare());
    assertEquals(0.75, Mix.RW.readShare());
    assertEquals(0.5, Mix.WH.readShare());
    assertEquals(0.5, Mix.UH.readShare());
    assertFalse(Mix.RO.writesInsert());
    assertTrue(Mix.RW.writesInsert());
    assertTrue(Mix.WH.writesInsert());
    assertFalse(Mix.UH.writesInsert());
  }

  @Test
  void parsesMixAndDistribution() {
    Workload w = Workload.parse("RO-hotspot5", PARAMS);
    assertEquals("ro-hotspot5", w.name());
    assertEquals(Mix.RO, w.mix());
    assertEquals("hotspot5", w.distribution());
    assertEquals(List.of("run"), w.phases());
    assertEquals(10_000, w.loadRecords());
  }

  @Test
  void mixAndDistributionAreCaseInsensitiveAndNormalized() {
    Workload w = Workload.parse(" rw-Zipf ", PARAMS);
    assertEquals("rw-zipf", w.name());
    assertEquals(Mix.RW, w.mix());
    assertEquals("zipf", w.distribution());
  }

  @ParameterizedTest
  @ValueSource(strings = {"RO-hotspot1", "RW-hotspot5", "WH-hotspot0.5", "UH-hotspot33.3",
      "RO-zipf", "RO-zipfian", "RO-zipf0.8", "RO-zipf1.2", "RO-uniform", "WH-latest",
      "UH-dynamic"})
  void acceptsEveryDocumentedForm(String name) {
    Workload w = Workload.parse(name, PARAMS);
    assertEquals(name.toLowerCase(), w.name().toLowerCase());
    double oracle = w.oracleHitRate(1_000);
    assertTrue(oracle > 0 && oracle <= 1, name + " oracle " + oracle);
  }

  @Test
  void dynamicHasSevenPhasesInFigure15Order() {
    assertEquals(List.of("uniform", "hotspot-1%", "hotspot-3%", "hotspot-5%",
            "hotspot-5%-shifted", "hotspot-4%", "hotspot-2%"),
        Workload.parse("RO-dynamic", PARAMS).phases());
  }

  @Test
  void zipfExponentInTheNameOverridesTheParameter() {
    double fromName = Workload.parse("RO-zipf0.8", PARAMS).oracleHitRate(1);
    double fromParams = Workload.parse("RO-zipf", PARAMS.withZipfS(0.8)).oracleHitRate(1);
    double dflt = Workload.parse("RO-zipf", PARAMS).oracleHitRate(1);
    assertEquals(1 / ZipfianSampler.harmonic(10_000, 0.8), fromName, 1e-12);
    assertEquals(fromName, fromParams, 1e-15);
    assertTrue(dflt > fromName, "a larger exponent concentrates more on rank 0");
  }

  @Test
  void hotspotPercentSizesTheHotSet() {
    // 0.5% of 10,000 keys = 50 keys holding 95% of the accesses.
    assertEquals(0.95, Workload.parse("RO-hotspot0.5", PARAMS).oracleHitRate(50), 1e-12);
    assertEquals(0.95, Workload.parse("RO-hotspot5", PARAMS).oracleHitRate(500), 1e-12);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "RO", "hotspot5", "RO-", "XX-uniform", "RO-foo", "RO-hotspot",
      "RO-hotspot0", "RO-hotspot100", "RO-hotspot-5", "RO-hotspotx", "RO-hotspot5%",
      "RO-zipf0", "RO-zipf-1", "RO-zipfx", "RO-uniform2", "RO-latest0.9", "RO-trace:/x"})
  void rejectsUnknownNamesListingWhatIsAccepted(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse(name, PARAMS));
    assertTrue(e.getMessage().contains("'" + name + "'")
            || e.getMessage().contains(name.substring(name.indexOf('-') + 1)),
        e.getMessage());
    if (!name.startsWith("RO-hotspot") && !name.startsWith("RO-zipf")) {
      assertTrue(e.getMessage().contains("accepted: <mix>-<distribution> with mix RO, RW, WH,"
          + " UH or RU and distribution hotspotN"), e.getMessage());
    }
  }

  @Test
  void unknownMixIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("XR-uniform", PARAMS));
    assertTrue(e.getMessage().startsWith("unknown mix 'XR'"), e.getMessage());
  }

  @Test
  void outOfRangeHotspotSaysWhy() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("RO-hotspot100", PARAMS));
    assertTrue(e.getMessage().contains("must be in (0, 100) but was 100"), e.getMessage());
  }

  @Test
  void traceNeedsAnExistingPath() {
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("trace:", PARAMS));
    assertTrue(blank.getMessage().contains("trace:<path>"), blank.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("trace:/no/such/trace.txt", PARAMS));
    assertTrue(missing.getMessage().contains("/no/such/trace.txt does not exist"),
        missing.getMessage());
  }

  @Test
  void dynamicNeedsRoomForTwoDisjointHotSets() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Workload.parse("RO-dynamic", PARAMS.withRecords(1)));
    assertTrue(e.getMessage().contains("two disjoint 5% hot sets"), e.getMessage());
  }

  @Test
  void generatorsRejectImpossibleThreads() {
    Workload w = Workload.parse("RO-uniform", PARAMS);
    assertThrows(IllegalArgumentException.class, () -> w.runner(0, 0));
    assertThrows(IllegalArgumentException.class, () -> w.runner(3, 3));
    assertThrows(IllegalArgumentException.class, () -> w.runner(-1, 3));
    assertThrows(IllegalArgumentException.class, () -> w.loader(2, 2));
  }
}
