package io.hotrap.bench.workload;

/** Every key id equally likely. */
final class UniformStream extends AccessStream {

  UniformStream(int keyCount, long seed) {
    super(keyCount, seed);
  }

  @Override
  public int next() {
    return random.nextInt(keyCount);
  }

  @Override
  public String name() {
    return "uniform";
  }
}
