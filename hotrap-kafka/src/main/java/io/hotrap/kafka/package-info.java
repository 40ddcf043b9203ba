/**
 * A Kafka Streams key-value state store on {@link io.hotrap.core.HotRapDB} (DESIGN.md §17): each
 * task's store keeps its hot records on the fast disk under the task's state directory and lets cold
 * records sink to a slow disk, where Kafka's own RocksDB store would keep everything on one disk.
 *
 * <p>Entry point: {@link io.hotrap.kafka.HotRapStores#keyValueStore(String, java.nio.file.Path, long)},
 * a {@link org.apache.kafka.streams.state.KeyValueBytesStoreSupplier} for
 * {@code Materialized.as(supplier)} and {@code Stores.keyValueStoreBuilder(supplier, ...)}.
 *
 * <h2>Why a module of its own, not an optional dependency of hotrap-core</h2>
 *
 * <p>The store lives in {@code hotrap-kafka}, which depends on {@code hotrap-core} and
 * {@code kafka-streams}; core knows nothing of Kafka. The alternative, Kafka Streams as an
 * {@code <optional>} dependency of core with the store in core's jar, was rejected because:
 * <ul>
 *   <li>a user adds one dependency, {@code hotrap-kafka}, and gets a consistent set: Maven does not
 *       pass optional dependencies on, so with the optional variant every user would have to declare
 *       kafka-streams themselves and keep its version in step with the one core was compiled
 *       against;
 *   <li>kafka-streams brings its own, older {@code rocksdbjni}. This module's POM excludes it, so
 *       the store's RocksDB version (pinned by the parent) is the only one on the class path; in
 *       core the exclusion would have to be repeated by every user;
 *   <li>core's classes would link against Kafka types that are absent for users without Kafka, a
 *       {@code NoClassDefFoundError} waiting for the first reflective scan of core's jar;
 *   <li>Kafka's release cadence (a minor release every four months, each with state-store API
 *       changes such as {@code getPosition()} and the offset-managing {@code commit}) is not core's:
 *       this module can follow Kafka, or ship one artifact per Kafka line, without a core release;
 *   <li>the tests need a Kafka broker in-process; they stay out of core's build.
 * </ul>
 * The cost is one more artifact to publish, which the multi-module build already does.
 */
package io.hotrap.kafka;
