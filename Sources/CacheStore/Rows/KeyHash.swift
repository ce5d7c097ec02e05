/// The 64-bit FNV-1a hash of a key's UTF-8 bytes, as the store's hash columns hold it (`key_hash`,
/// `home_account_hash`). The indexes are on these numbers instead of the keys' text (150-250 bytes each):
/// an index of numbers is a twentieth the size, stays in the page cache during a large apply, and takes
/// random keys without rewriting pages of a large B-tree. Every lookup also compares the text, so two keys
/// with the same hash are still told apart. Unlike Swift's `Hasher`, the value is the same in every process.
public enum KeyHash {
  /// The hash of `text` as SQLite stores it (the bits of the unsigned hash as a signed integer).
  public static func of(_ text: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }
}
