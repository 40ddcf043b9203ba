package io.hotrap.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka Streams application with a HotRAP store against a real single-node KRaft broker run
 * in-process by Kafka's test kit: counts are computed, survive a restart from the store's fast and
 * slow directories, and survive the loss of the state directory through the changelog.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class BrokerEndToEndTest {
  private static final String INPUT = "clicks";
  private static final String OUTPUT = "click-counts";
  private static final String STORE = "click-counts-store";
  private static final int PARTITIONS = 2;
  private static final int KEYS = 16_000;
  private static final long BUDGET = 1L << 20;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static KafkaClusterTestKit cluster;

  @TempDir
  Path stateDir;
  @TempDir
  Path slowDir;

  @BeforeAll
  static void startBroker() throws Exception {
    TestKitNodes nodes = new TestKitNodes.Builder()
        .setCombined(true)
        .setNumBrokerNodes(1)
        .setNumControllerNodes(1)
        .build();
    cluster = new KafkaClusterTestKit.Builder(nodes)
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    try (Admin admin = cluster.admin()) {
      admin.createTopics(List.of(new NewTopic(INPUT, PARTITIONS, (short) 1),
          new NewTopic(OUTPUT, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A key long enough, and varied enough not to compress, that the keys outgrow the fast tiers. */
  static String key(int k) {
    StringBuilder b = new StringBuilder("user-").append(k).append('-');
    long x = k * 0x9E3779B97F4A7C15L + 1;
    while (b.length() < 150) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      b.append(Long.toHexString(x));
    }
    return b.substring(0, 150);
  }

  @Test
  void countsSurviveARestartAndTheLossOfTheStateDirectory() throws Exception {
    Map<String, Long> expected = new HashMap<>();
    try (KafkaProducer<String, String> producer = producer();
         KafkaConsumer<String, Long> output = outputConsumer()) {
      Map<String, Long> seen = new HashMap<>();

      // 1. First run.
      produce(producer, expected, 0, 32_000);
      HotRapStoreSupplier supplier = HotRapStores.keyValueStore(STORE, slowDir, BUDGET);
      RestoreCounter restored = new RestoreCounter();
      try (App app = start(supplier, restored)) {
        awaitOutput(output, seen, expected);
        assertQueries(app.streams, expected);
        long slowBytes = 0;
        for (HotRapKeyValueStore store : supplier.openStores()) {
          store.awaitBackgroundWork();
          slowBytes += store.stats().slowSstBytes();
        }
        assertEquals(PARTITIONS, supplier.openStores().size());
        assertTrue(slowBytes > 0, "records were demoted to the slow tiers");
      }
      assertEquals(0, restored.records.get(), "a new store has nothing to restore");

      // 2. Restart on the same directories: the stores reopen with their data on both tiers.
      produce(producer, expected, 32_000, 8_000);
      restored = new RestoreCounter();
      try (App app = start(supplier, restored)) {
        awaitOutput(output, seen, expected);
        assertQueries(app.streams, expected);
      }
      assertEquals(0, restored.records.get(), "a cleanly closed store is not restored");

      // 3. Lose the state directory (the fast tiers); the slow tiers are left behind.
      try (var tree = Files.walk(stateDir)) {
        tree.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(stateDir))
            .forEach(p -> p.toFile().delete());
      }
      produce(producer, expected, 40_000, 4_000);
      restored = new RestoreCounter();
      try (App app = start(supplier, restored)) {
        awaitOutput(output, seen, expected);
        assertQueries(app.streams, expected);
      }
      assertTrue(restored.records.get() >= KEYS,
          "the stores were restored from the changelog: " + restored.records.get() + " records");
    }
  }

  private static void produce(KafkaProducer<String, String> producer, Map<String, Long> expected,
      int from, int count) throws Exception {
    for (int i = from; i < from + count; i++) {
      // Every key at least once in the first run, then a skewed mix.
      int k = i < KEYS ? i : (int) ((i * 2654435761L) % (i % 3 == 0 ? KEYS : KEYS / 10));
      String key = key(k);
      expected.merge(key, 1L, Long::sum);
      producer.send(new ProducerRecord<>(INPUT, key, "click"));
    }
    producer.flush();
  }

  /**
   * A running application; closing it leaves the group, so that the next start need not wait for
   * the broker to time the old member out (session.timeout.ms).
   */
  private static final class App implements AutoCloseable {
    final KafkaStreams streams;

    App(KafkaStreams streams) {
      this.streams = streams;
    }

    @Override
    public void close() {
      streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
          .withTimeout(WAIT));
    }
  }

  private App start(HotRapStoreSupplier supplier, StateRestoreListener listener)
      throws InterruptedException {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
        .groupByKey()
        .count(Materialized.<String, Long>as(supplier).withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
        .toStream()
        .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "hotrap-e2e");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 1 << 20);
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    KafkaStreams streams = new KafkaStreams(builder.build(), p);
    CountDownLatch running = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        running.countDown();
      }
    });
    streams.setGlobalStateRestoreListener(listener);
    streams.start();
    if (!running.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
      new App(streams).close();
      throw new AssertionError("the Streams application did not reach RUNNING: " + streams.state());
    }
    return new App(streams);
  }

  private static void awaitOutput(KafkaConsumer<String, Long> output, Map<String, Long> seen,
      Map<String, Long> expected) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!seen.equals(expected)) {
      if (System.nanoTime() > deadline) {
        int missing = 0;
        for (Map.Entry<String, Long> e : expected.entrySet()) {
          if (!e.getValue().equals(seen.get(e.getKey()))) {
            missing++;
          }
        }
        throw new AssertionError(missing + " of " + expected.size() + " counts differ from the expected");
      }
      for (ConsumerRecord<String, Long> r : output.poll(Duration.ofMillis(200))) {
        seen.put(r.key(), r.value());
      }
    }
  }

  private static void assertQueries(KafkaStreams streams, Map<String, Long> expected) {
    List<String> probes = new ArrayList<>(List.of(key(0), key(1), key(KEYS / 2), key(KEYS - 1)));
    ReadOnlyKeyValueStore<String, Long> view = await(() -> streams.store(
        StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.keyValueStore())));
    for (String k : probes) {
      assertEquals(expected.get(k), view.get(k), "interactive query of " + k);
    }
    assertEquals(expected.size(), view.approximateNumEntries());
    for (String k : probes) {
      StateQueryResult<Long> r = streams.query(StateQueryRequest.inStore(STORE)
          .withQuery(KeyQuery.<String, Long>withKey(k)));
      Long value = null;
      for (var partitionResult : r.getPartitionResults().values()) {
        if (partitionResult.isSuccess() && partitionResult.getResult() != null) {
          value = partitionResult.getResult();
        }
      }
      assertNotNull(value, "IQv2 found " + k + ": " + r.getPartitionResults());
      assertEquals(expected.get(k), value, "IQv2 key query of " + k);
    }
  }

  /** Retries while the store is not queryable yet (a rebalance in progress). */
  private static <T> T await(java.util.function.Supplier<T> call) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        return call.get();
      } catch (InvalidStateStoreException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
    }
  }

  private static KafkaProducer<String, String> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  private static KafkaConsumer<String, Long> outputConsumer() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaConsumer<String, Long> c = new KafkaConsumer<>(p, new StringDeserializer(), new LongDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    for (int i = 0; i < PARTITIONS; i++) {
      partitions.add(new TopicPartition(OUTPUT, i));
    }
    c.assign(partitions);
    c.seekToBeginning(partitions);
    return c;
  }

  /** Counts the changelog records Kafka Streams restores. */
  private static final class RestoreCounter implements StateRestoreListener {
    final AtomicLong records = new AtomicLong();

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long count) {
      records.addAndGet(count);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long total) {
    }
  }
}
