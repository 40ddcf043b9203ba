package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UpdatedKeysTest {
  @Test
  void aRangedMoverKeepsOnlyTheWritesOfItsRange() {
    CommitGate gate = new CommitGate(new StripedWriteCounters(16));
    UpdatedKeys ranged = gate.registerMover(key(10), key(20));
    UpdatedKeys all = gate.registerMover();
    for (int i = 0; i < 100; i++) {
      gate.enterWriter();
      gate.markWritten(key(i));
      gate.exitWriter();
    }
    assertEquals(11, ranged.size());
    assertEquals(100, all.size());
    assertTrue(ranged.contains(key(10)) && ranged.contains(key(20)));
    assertThrows(IllegalArgumentException.class, () -> ranged.contains(key(21)));
    gate.unregisterMover(ranged);
    gate.unregisterMover(all);
    gate.enterWriter();
    gate.markWritten(key(15));
    gate.exitWriter();
    assertEquals(11, ranged.size());
    assertFalse(new UpdatedKeys(key(1), key(2)).contains(key(1)));
  }
}
