import Adal2MSALSynthetic
import Foundation

/// A deterministic generator (`SyntheticRandom`'s SplitMix64, seeded with the state as given) so that shuffles
/// and random test inputs are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
  private var random: SyntheticRandom
  public init(seed: UInt64) { random = SyntheticRandom(state: seed) }
  public mutating func next() -> UInt64 { random.next() }
}

/// `count` seeded mutations of `original`, for tests that hold two readers to each other on broken input: each
/// sets one to three of its bytes to another value or flips one of their bits.
public func seededMutations(of original: Data, count: Int, seed: UInt64) -> [Data] {
  var random = SeededGenerator(seed: seed)
  return (0..<count).map { _ in
    var bytes = [UInt8](original)
    for _ in 0...Int.random(in: 0...2, using: &random) {
      let position = Int.random(in: bytes.indices, using: &random)
      if Bool.random(using: &random) {
        bytes[position] = UInt8.random(in: 0...255, using: &random)
      } else {
        bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
      }
    }
    return Data(bytes)
  }
}
