package io.hotrap.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies one {@link HotRapKeyValueStore} per task; built by {@link HotRapStores}. Thread-safe.
 *
 * <p>Besides Kafka's supplier contract it lists the stores it supplied that are open, so that an
 * application can read their {@link HotRapKeyValueStore#stats()} (Kafka's own store handles wrap
 * the store in its metering and logging layers and hide it).
 */
public final class HotRapStoreSupplier implements KeyValueBytesStoreSupplier {
  private final String name;
  private final Path slowBaseDir;
  private final OptionsTemplate template;
  private final Set<HotRapKeyValueStore> open = ConcurrentHashMap.newKeySet();

  HotRapStoreSupplier(String name, Path slowBaseDir, OptionsTemplate template) {
    this.name = name;
    this.slowBaseDir = slowBaseDir.toAbsolutePath().normalize();
    this.template = template;
  }

  @Override
  public String name() {
    return name;
  }

  /** A new, unopened store; Kafka Streams opens it with {@code init}. */
  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new HotRapKeyValueStore(name, slowBaseDir, template, this);
  }

  @Override
  public String metricsScope() {
    return HotRapStores.METRICS_SCOPE;
  }

  /** The directory under which each task's slow tier is created. */
  public Path slowBaseDir() {
    return slowBaseDir;
  }

  /** Bytes of SST files each task's store may keep on the fast disk. */
  public long fastBudgetBytes() {
    return template.fastBudgetBytes();
  }

  /** The stores this supplier made that are open now, in no particular order. */
  public List<HotRapKeyValueStore> openStores() {
    return List.copyOf(open);
  }

  void opened(HotRapKeyValueStore store) {
    open.add(store);
  }

  void closed(HotRapKeyValueStore store) {
    open.remove(store);
  }

  @Override
  public String toString() {
    return "HotRapStoreSupplier{name=" + name + ", slowBaseDir=" + slowBaseDir
        + ", fastBudgetBytes=" + template.fastBudgetBytes() + '}';
  }
}
