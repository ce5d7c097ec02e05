import Adal2MSALSynthetic

/// A deterministic generator (`SyntheticRandom`'s SplitMix64, seeded with the state as given) so that shuffles
/// and random test inputs are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
  private var random: SyntheticRandom
  public init(seed: UInt64) { random = SyntheticRandom(state: seed) }
  public mutating func next() -> UInt64 { random.next() }
}
