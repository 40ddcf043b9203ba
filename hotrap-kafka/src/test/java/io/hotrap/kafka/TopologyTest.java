package io.hotrap.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.HotRapStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Topologies with HotRAP stores, run by Kafka's {@link TopologyTestDriver}. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TopologyTest {
  static final long BUDGET = 1L << 20;

  @TempDir
  Path stateDir;
  @TempDir
  Path slowDir;

  private Properties config(String app) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return p;
  }

  @Test
  void countsPerKey() {
    HotRapStoreSupplier counts = HotRapStores.keyValueStore("counts", slowDir, BUDGET);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("words", Consumed.with(Serdes.String(), Serdes.String()))
        .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long>as(counts).withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
        .toStream()
        .to("counts", Produced.with(Serdes.String(), Serdes.Long()));

    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config("counts-app"))) {
      TestInputTopic<String, String> in =
          driver.createInputTopic("words", Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, Long> out =
          driver.createOutputTopic("counts", Serdes.String().deserializer(), Serdes.Long().deserializer());
      for (String w : "the cat saw the dog and the bird".split(" ")) {
        in.pipeInput((String) null, w);
      }
      Map<String, Long> last = out.readKeyValuesToMap();
      assertEquals(3L, last.get("the"));
      assertEquals(1L, last.get("cat"));
      assertEquals(6, last.size());

      KeyValueStore<String, Long> store = driver.getKeyValueStore("counts");
      assertEquals(3L, store.get("the"));
      List<String> keys = new ArrayList<>();
      try (KeyValueIterator<String, Long> it = store.all()) {
        it.forEachRemaining(kv -> keys.add(kv.key));
      }
      assertEquals(List.of("and", "bird", "cat", "dog", "saw", "the"), keys);
      assertEquals(1, counts.openStores().size());
    }
    assertEquals(List.of(), counts.openStores(), "closing the driver closes the store");
  }

  @Test
  void aStreamJoinsATableKeptInAHotRapStore() {
    HotRapStoreSupplier customers = HotRapStores.keyValueStore("customers", slowDir, BUDGET);
    StreamsBuilder builder = new StreamsBuilder();
    KTable<String, String> table = builder.table("customers", Consumed.with(Serdes.String(), Serdes.String()),
        Materialized.<String, String>as(customers).withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
    builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
        .join(table, (order, customer) -> order + " for " + customer)
        .to("enriched", Produced.with(Serdes.String(), Serdes.String()));

    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config("join-app"))) {
      TestInputTopic<String, String> customerIn =
          driver.createInputTopic("customers", Serdes.String().serializer(), Serdes.String().serializer());
      TestInputTopic<String, String> orders =
          driver.createInputTopic("orders", Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, String> out =
          driver.createOutputTopic("enriched", Serdes.String().deserializer(), Serdes.String().deserializer());

      customerIn.pipeInput("c1", "Ada");
      customerIn.pipeInput("c2", "Grace");
      orders.pipeInput("c1", "book");
      orders.pipeInput("c3", "lamp");
      customerIn.pipeInput("c1", "Ada L.");
      orders.pipeInput("c1", "pen");
      customerIn.pipeInput("c2", (String) null);
      orders.pipeInput("c2", "cup");

      assertEquals(List.of(KeyValue.pair("c1", "book for Ada"), KeyValue.pair("c1", "pen for Ada L.")),
          out.readKeyValuesToList(), "no match for an unknown or deleted customer");
      assertEquals(1L, customers.openStores().get(0).approximateNumEntries());
    }
  }

  /**
   * A sum per key over 120,000 records on a 1 MiB fast budget: the aggregates outgrow the fast
   * tier, so records are demoted and read back from the slow tier, and the result must equal the
   * same sums computed in a map.
   */
  @Test
  void anAggregationLargerThanTheFastBudgetMatchesAPlainComputation() {
    HotRapStoreSupplier sums = HotRapStores.keyValueStore("sums", slowDir, BUDGET);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("events", Consumed.with(Serdes.String(), Serdes.Long()))
        .groupByKey()
        .aggregate(() -> "0|", (key, amount, agg) -> add(agg, amount),
            Materialized.<String, String>as(sums).withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
        .toStream()
        .to("sums", Produced.with(Serdes.String(), Serdes.String()));
    Properties p = config("sum-app");
    // The driver commits after every record; flushing the memtables at each would make 120,000
    // tiny SST files.
    p.put(HotRapStores.FLUSH_INTERVAL_MS_CONFIG, 60_000L);

    Map<String, String> expected = new HashMap<>();
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), p)) {
      TestInputTopic<String, Long> in =
          driver.createInputTopic("events", Serdes.String().serializer(), Serdes.Long().serializer());
      Random random = new Random(42);
      int keys = 20_000;
      for (int i = 0; i < 120_000; i++) {
        // A skewed key choice: a fifth of the keys gets most records.
        int k = random.nextInt(4) == 0 ? random.nextInt(keys) : random.nextInt(keys / 5);
        String key = "account-" + k;
        Long amount = (long) random.nextInt(1000);
        expected.merge(key, add("0|", amount), (old, one) -> add(old, amount));
        in.pipeInput(key, amount);
      }

      HotRapKeyValueStore store = sums.openStores().get(0);
      store.commit(Map.of());
      store.awaitBackgroundWork();
      HotRapStats stats = store.stats();
      assertTrue(stats.recordsDemoted() > 0, "records were demoted: " + stats);
      assertTrue(stats.slowSstBytes() > 0, "the slow tier holds files: " + stats);
      assertTrue(stats.getsServedSlow() > 0, "aggregation read the slow tier: " + stats);

      Map<String, String> actual = new HashMap<>();
      KeyValueStore<String, String> view = driver.getKeyValueStore("sums");
      try (KeyValueIterator<String, String> it = view.all()) {
        it.forEachRemaining(kv -> actual.put(kv.key, kv.value));
      }
      assertEquals(expected, actual);
      TestOutputTopic<String, String> out =
          driver.createOutputTopic("sums", Serdes.String().deserializer(), Serdes.String().deserializer());
      assertEquals(expected, out.readKeyValuesToMap());
      assertEquals(0, store.openIteratorCount(), "every iterator was closed");
    }
  }

  /**
   * An aggregate "sum|history": the sum and a tail of the amounts added, so that values are large
   * enough (up to about 120 bytes) to fill the fast tier.
   */
  static String add(String agg, long amount) {
    int bar = agg.indexOf('|');
    long sum = Long.parseLong(agg.substring(0, bar)) + amount;
    String history = agg.substring(bar + 1) + amount + ",";
    if (history.length() > 120) {
      history = history.substring(history.length() - 120);
    }
    return sum + "|" + history;
  }

  @Test
  void aProcessorApiStoreBuiltWithKeyValueStoreBuilder() {
    HotRapStoreSupplier latest = HotRapStores.keyValueStore("latest", slowDir, BUDGET);
    StreamsBuilder builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(latest, Serdes.String(), Serdes.String()));
    builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
        .process(() -> new Processor<String, String, String, String>() {
          private KeyValueStore<String, String> store;
          private ProcessorContext<String, String> context;

          @Override
          public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.store = context.getStateStore("latest");
          }

          @Override
          public void process(Record<String, String> record) {
            String previous = store.get(record.key());
            store.put(record.key(), record.value());
            context.forward(record.withValue(previous == null ? "new" : "was " + previous));
          }
        }, "latest")
        .to("out", Produced.with(Serdes.String(), Serdes.String()));

    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config("papi-app"))) {
      TestInputTopic<String, String> in =
          driver.createInputTopic("in", Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, String> out =
          driver.createOutputTopic("out", Serdes.String().deserializer(), Serdes.String().deserializer());
      in.pipeInput("k", "1");
      in.pipeInput("k", "2");
      assertEquals(List.of("new", "was 1"), out.readValuesToList());
      HotRapKeyValueStore store = latest.openStores().get(0);
      try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
        assertEquals(Bytes.wrap("k".getBytes(StandardCharsets.UTF_8)), it.peekNextKey());
      }
    }
  }
}
