import Foundation
import PropertyLists

/// What one read of a dump has seen already, so that its items share what they repeat. A user's items
/// repeat its id token, its refresh token (an MRRT and its FRT copy), its authority, client id, home account
/// id and user name; every item repeats the access group. Shared, a million-item read holds each once, not
/// once per item (CHANGELOG.md, benchmark history, "Memory"). A read keeps one per core
/// (`KeychainItemRouter.route`); its lock is only ever taken by one thread at a time, at no cost.
///
/// Every table is keyed by the text's exact scalars (`PropertyListString`), not by `String`, whose equality is
/// canonical equivalence: keyed by `String`, an item whose name spells "é" as `e` and a combining accent would be
/// handed another item's one-scalar spelling, or what was decoded from it.
final class ReadMemo: @unchecked Sendable {  // mutable state guarded by `lock`
  /// An id token shared by the items that carry it, and its claims or why they cannot be read.
  typealias ParsedIDToken = (idToken: ADALSecret, result: Result<IDTokenClaims, IDTokenClaimsError>)

  private let lock = NSLock()
  private var parsed: [HashedText: ParsedIDToken] = [:]
  private var secrets: [HashedText: ADALSecret] = [:]
  private var strings: Set<HashedText> = []
  private var services: [PropertyListString: Result<ADALKeychainService, ADALKeychainKeyError>] = [:]
  private var accounts: [PropertyListString: ADALKeychainAccount.Decoded] = [:]
  private var authorities: [PropertyListString: String] = [:]
  /// The id token and the secret the last `claims(for:)` and `secret(_:)` gave, by their kept text: a memo's
  /// thread decodes a run of consecutive items, and a user's items are next to each other and repeat both, so
  /// most calls are answered by comparing bytes, where a table lookup hashed a token of kilobytes, often twice.
  private var lastParsed: (key: PropertyListString, entry: ParsedIDToken)?
  private var lastSecret: (key: PropertyListString, secret: ADALSecret)?

  /// The shared id token (fingerprinted once) and its claims (or why they cannot be read): parsed once per
  /// read. Looked up by the archived text as it is (borrowed from the input, see `PropertyListString`): only a
  /// token not seen before is decoded, and the table keeps it as a native string, which outlives the input.
  func claims(for raw: PropertyListString) -> ParsedIDToken {
    if let known = lock.withLock({ lastParsed.flatMap { $0.key == raw ? $0.entry : nil } }) { return known }
    let key = HashedText(raw)
    if let known = lock.withLock({ tableClaims(for: key) }) { return known }
    // Parsed without the lock, which the other decoding threads take for every string they share; of two
    // threads that parse the same token, the first to store it wins, so that its items still share one copy.
    let text = raw.value
    let entry = (
      idToken: ADALSecret(text),
      result: Result { () throws(IDTokenClaimsError) in try IDTokenClaims(rawIDToken: text) }
    )
    return lock.withLock {
      if let known = parsed[key] { return known }
      let kept = key.keeping(text)
      parsed[kept] = entry
      lastParsed = (kept.text, entry)
      return entry
    }
  }

  /// The table's entry for `key` (made the last), else nil. With the lock.
  private func tableClaims(for key: HashedText) -> ParsedIDToken? {
    guard let index = parsed.index(forKey: key) else { return nil }
    lastParsed = (parsed.keys[index].text, parsed.values[index])
    return lastParsed?.entry
  }

  /// The shared secret for `value` (a refresh token), fingerprinted once; decoded only when not seen before.
  func secret(_ value: PropertyListString) -> ADALSecret {
    lock.lock()
    defer { lock.unlock() }
    if let last = lastSecret, last.key == value { return last.secret }
    let key = HashedText(value)
    if let index = secrets.index(forKey: key) {
      lastSecret = (secrets.keys[index].text, secrets.values[index])
      return secrets.values[index]
    }
    let text = value.value
    let secret = ADALSecret(text)
    let kept = key.keeping(text)
    secrets[kept] = secret
    lastSecret = (kept.text, secret)
    return secret
  }

  /// A `svce` value decoded once per read: items of one authority, resource and client share it.
  func service(_ service: String) -> Result<ADALKeychainService, ADALKeychainKeyError> {
    remembered(service, in: \.services) { service in
      Result { () throws(ADALKeychainKeyError) in try ADALKeychainService.decode(service) }
    }
  }

  /// An `acct` value decoded once per read: a user's items share it.
  func account(_ account: String) -> ADALKeychainAccount.Decoded {
    remembered(account, in: \.accounts, ADALKeychainAccount.decode)
  }

  /// `KeyConsistency.canonicalAuthority` once per read for each authority.
  func canonicalAuthority(_ authority: String) -> String {
    remembered(authority, in: \.authorities, KeyConsistency.canonicalAuthority)
  }

  private func remembered<Value>(
    _ text: String, in table: ReferenceWritableKeyPath<ReadMemo, [PropertyListString: Value]>,
    _ make: (String) -> Value
  ) -> Value {
    let key = PropertyListString(text)
    lock.lock()
    defer { lock.unlock() }
    if let known = self[keyPath: table][key] { return known }
    let value = make(text)
    self[keyPath: table][key] = value
    return value
  }

  /// The first equal string this read kept, or `value`, kept from now on. Strings of up to 15 UTF-8 bytes
  /// are stored inline, with nothing to share.
  func shared(_ value: String) -> String { shared(PropertyListString(value)) }

  /// `shared(_:)` of archived text, decoded only when this read has not kept it yet (or it is short): most of
  /// an item's strings repeat another item's.
  func shared(_ text: PropertyListString) -> String {
    guard text.utf8Count > 15 else { return text.value }
    lock.lock()
    defer { lock.unlock() }
    let slot = RecentStrings.slot(text)
    if let recent = recentStrings.string(at: slot, equalTo: text) { return recent }
    let key = HashedText(text)
    let value: String
    if let kept = strings.firstIndex(of: key) {
      value = strings[kept].text.value
    } else {
      // Kept native: a borrowed string would read the input's pages after they are let go.
      value = text.value
      strings.insert(key.keeping(value))
    }
    recentStrings.keep(value, at: slot)
    return value
  }

  /// The strings `shared(_:)` gave last, by slot: most calls are answered by comparing one kept string's bytes.
  private var recentStrings = RecentStrings()

  /// The binary archive reader's tables, reused by this memo's thread from item to item (outside the lock,
  /// which only ever one thread takes).
  var archiveScratch = ArchiveReadScratch()
}

/// Text with its hash, computed once: a table looks text up, stores it, and rehashes it as it grows, and hashing a
/// token of kilobytes each time was most of the cost of sharing it.
struct HashedText: Hashable {
  let text: PropertyListString
  let hash: Int

  init(_ text: PropertyListString) {
    self.text = text
    hash = text.hashValue
  }

  private init(_ text: PropertyListString, hash: Int) {
    self.text = text
    self.hash = hash
  }

  /// `string`, which is this text's scalars, with this hash (equal texts hash alike, whatever their storage).
  func keeping(_ string: String) -> HashedText { HashedText(PropertyListString(string), hash: hash) }

  static func == (lhs: HashedText, rhs: HashedText) -> Bool { lhs.hash == rhs.hash && lhs.text == rhs.text }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// Strings kept in a few slots chosen by a cheap mix of each one's length and end bytes, in front of a hash table:
/// an item's shared strings (its service, account, access group, authority, client id, user) nearly all repeat
/// recent items', and hashing each in full (SipHash over every byte) was most of the cost of sharing them. A
/// string is only ever answered by a kept string with the same scalars; a miss falls back to the table, so
/// strings that share a slot cost a comparison more, never a wrong answer.
struct RecentStrings {
  private var kept = [String?](repeating: nil, count: 1 << Self.slotBits)

  private static let slotBits = 8

  /// The slot of `text`.
  static func slot(_ text: PropertyListString) -> Int { Int(truncatingIfNeeded: text.endsMix >> (64 - slotBits)) }

  /// The string kept in `slot` when it is `text`'s scalars.
  func string(at slot: Int, equalTo text: PropertyListString) -> String? {
    guard let candidate = kept[slot], text.hasSameScalars(as: candidate) else { return nil }
    return candidate
  }

  mutating func keep(_ string: String, at slot: Int) { kept[slot] = string }
}
