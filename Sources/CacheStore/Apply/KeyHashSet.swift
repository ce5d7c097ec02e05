/// A set of `KeyHash` values (the keys a run wrote to a table, `TableWriter.written`), in an open-addressing
/// table indexed by their low bits: FNV-1a spreads them evenly already. Swift's `Set` hashed each one again
/// with SipHash, and an insert with the set's growth took about 440 instructions, for every row a run writes.
struct KeyHashSet {
  /// Each slot a hash or 0 (free); the hash 0 itself is `holdsZero`. At least twice as many slots as hashes.
  private var slots = [Int64](repeating: 0, count: 1024)
  private var count = 0
  private var holdsZero = false

  func contains(_ hash: Int64) -> Bool {
    if hash == 0 { return holdsZero }
    var slot = self.slot(of: hash)
    while slots[slot] != 0 {
      if slots[slot] == hash { return true }
      slot = (slot + 1) & (slots.count - 1)
    }
    return false
  }

  mutating func insert(_ hash: Int64) {
    if hash == 0 {
      holdsZero = true
      return
    }
    var slot = self.slot(of: hash)
    while slots[slot] != 0 {
      if slots[slot] == hash { return }
      slot = (slot + 1) & (slots.count - 1)
    }
    slots[slot] = hash
    count += 1
    if count * 2 > slots.count { grow() }
  }

  private func slot(of hash: Int64) -> Int { Int(truncatingIfNeeded: hash) & (slots.count - 1) }

  /// Doubles the slots and places every hash again.
  private mutating func grow() {
    let old = slots
    slots = [Int64](repeating: 0, count: old.count * 2)
    for hash in old where hash != 0 {
      var slot = slot(of: hash)
      while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = hash
    }
  }
}
