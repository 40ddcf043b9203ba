package io.hotrap.kafka;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * A task's context as Kafka Streams hands it to a store, for tests that drive a store directly:
 * the task directory is {@code <stateDir>/<app>/<task>}, the record being processed is settable,
 * and the restore callback the store registers is kept.
 */
final class TestStoreContext implements StateStoreContext {
  static final String APP = "test-app";

  private final Path stateDir;
  private final TaskId taskId;
  private final Map<String, Object> configs = new HashMap<>();
  private RecordMetadata record;
  StateRestoreCallback restoreCallback;

  TestStoreContext(Path stateDir, TaskId taskId) {
    this.stateDir = stateDir;
    this.taskId = taskId;
    configs.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    configs.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
    taskDir().toFile().mkdirs();
  }

  Path taskDir() {
    return stateDir.resolve(APP).resolve(taskId.toString());
  }

  TestStoreContext config(String key, Object value) {
    configs.put(key, value);
    return this;
  }

  /** Makes the next writes come from {@code topic}-{@code partition} at {@code offset}. */
  void processing(String topic, int partition, long offset) {
    record = new RecordMetadata() {
      @Override
      public String topic() {
        return topic;
      }

      @Override
      public int partition() {
        return partition;
      }

      @Override
      public long offset() {
        return offset;
      }
    };
  }

  @Override
  public String applicationId() {
    return APP;
  }

  @Override
  public TaskId taskId() {
    return taskId;
  }

  @Override
  public Optional<RecordMetadata> recordMetadata() {
    return Optional.ofNullable(record);
  }

  @Override
  public Serde<?> keySerde() {
    return null;
  }

  @Override
  public Serde<?> valueSerde() {
    return null;
  }

  @Override
  public File stateDir() {
    return taskDir().toFile();
  }

  @Override
  public StreamsMetrics metrics() {
    throw new UnsupportedOperationException("no metrics in this context");
  }

  @Override
  public void register(StateStore store, StateRestoreCallback callback) {
    this.restoreCallback = callback;
  }

  @Override
  public void register(StateStore store, StateRestoreCallback callback, CommitCallback commitCallback) {
    this.restoreCallback = callback;
  }

  @Override
  public Map<String, Object> appConfigs() {
    return configs;
  }

  @Override
  public Map<String, Object> appConfigsWithPrefix(String prefix) {
    Map<String, Object> out = new HashMap<>();
    configs.forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        out.put(k.substring(prefix.length()), v);
      }
    });
    return out;
  }
}
