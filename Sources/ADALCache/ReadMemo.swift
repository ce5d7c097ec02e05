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
  private var parsed: [HashedText: KeptIDToken] = [:]
  private var secrets: [HashedText: ADALSecret] = [:]
  private var strings: Set<HashedText> = []
  private var services: [PropertyListString: Result<DecodedService, ADALKeychainKeyError>] = [:]
  private var accounts: [PropertyListString: ADALKeychainAccount.Decoded] = [:]
  private var authorities: [PropertyListString: String] = [:]
  /// The id token and the secret the last `claims(for:)` and `secret(_:)` gave, by their kept text: a memo's
  /// thread decodes a run of consecutive items, and a user's items are next to each other and repeat both, so
  /// most calls are answered by comparing bytes, where a table lookup hashed a token of kilobytes, often twice.
  private var lastParsed: KeptIDToken?
  private var lastSecret: (key: PropertyListString, secret: ADALSecret)?

  /// The shared id token (fingerprinted once) and its claims (or why they cannot be read): parsed once per
  /// read. Looked up by the archived text as it is (borrowed from the input, see `PropertyListString`): only a
  /// token not seen before is decoded, and the table keeps it as a native string, which outlives the input.
  func claims(for raw: PropertyListString) -> ParsedIDToken {
    if let known = lock.withLock({ () -> ParsedIDToken? in
      guard let last = lastParsed, last.key == raw else { return nil }
      return last.entry
    }) {
      return known
    }
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
      if let known = parsed[key] { return known.entry }
      let kept = key.keeping(text)
      let token = KeptIDToken(key: kept.text, entry: entry)
      parsed[kept] = token
      lastParsed = token
      return entry
    }
  }

  /// The table's entry for `key` (made the last), else nil. With the lock.
  private func tableClaims(for key: HashedText) -> ParsedIDToken? {
    guard let kept = parsed[key] else { return nil }
    lastParsed = kept
    return kept.entry
  }

  /// An id token kept by the memo, boxed: most items are answered from the one given last (`lastParsed`), and as
  /// an optional tuple it was copied whole (its text, secret and claims retained, then released) to compare its
  /// text. The table holds the same box, so that making one the last given allocates nothing.
  private final class KeptIDToken {
    let key: PropertyListString
    let entry: ParsedIDToken

    init(key: PropertyListString, entry: ParsedIDToken) {
      self.key = key
      self.entry = entry
    }
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
  func service(_ service: String) -> Result<DecodedService, ADALKeychainKeyError> {
    lock.withLock { remembered(service, in: &services, recent: &recentServices, DecodedService.decode) }
  }

  /// A decoded `svce`, handed out by reference: each item's check read the key's strings from a copy, a retain and
  /// a release of each.
  final class DecodedService: Sendable {
    let key: ADALKeychainService

    private init(_ key: ADALKeychainService) { self.key = key }

    /// `ADALKeychainService.decode(_:)` of `service`, boxed.
    static func decode(_ service: String) -> Result<DecodedService, ADALKeychainKeyError> {
      Result { () throws(ADALKeychainKeyError) in DecodedService(try ADALKeychainService.decode(service)) }
    }
  }

  /// An `acct` value decoded once per read: a user's items share it.
  func account(_ account: String) -> ADALKeychainAccount.Decoded {
    lock.withLock { remembered(account, in: &accounts, recent: &recentAccounts, ADALKeychainAccount.decode) }
  }

  /// `KeyConsistency.canonicalAuthority` once per read for each authority.
  func canonicalAuthority(_ authority: String) -> String {
    lock.withLock {
      remembered(authority, in: &authorities, recent: &recentAuthorities, KeyConsistency.canonicalAuthority)
    }
  }

  /// `table`'s value for `text`, made by `make` when the read has not seen it. Looked for first in `recent` by
  /// comparing bytes, as `shared(_:)` does: hashing a `svce` or `acct` of a hundred bytes for each item was most of
  /// what remembering cost. With the lock.
  private func remembered<Value>(
    _ text: String, in table: inout [PropertyListString: Value], recent: inout RecentSlots<Value>,
    _ make: (String) -> Value
  ) -> Value {
    let key = PropertyListString(text)
    let (slot, hit) = recent.find(key)
    if let hit { return hit.value }
    let value: Value
    if let known = table[key] {
      value = known
    } else {
      value = make(text)
      table[key] = value
    }
    recent.keep(text, value, at: slot)
    return value
  }

  private var recentServices = RecentSlots<Result<DecodedService, ADALKeychainKeyError>>()
  private var recentAccounts = RecentSlots<ADALKeychainAccount.Decoded>()
  private var recentAuthorities = RecentSlots<String>()

  /// The first equal string this read kept, or `value`, kept from now on. Strings of up to 15 UTF-8 bytes
  /// are stored inline, with nothing to share.
  func shared(_ value: String) -> String { shared(PropertyListString(value)) }

  /// `shared(_:)` of archived text, decoded only when this read has not kept it yet (or it is short): most of
  /// an item's strings repeat another item's.
  func shared(_ text: PropertyListString) -> String {
    guard text.utf8Count > 15 else { return text.value }
    lock.lock()
    defer { lock.unlock() }
    let (slot, recent) = recentStrings.find(text)
    if let recent { return recent.text }
    let key = HashedText(text)
    let value: String
    if let kept = strings.firstIndex(of: key) {
      value = strings[kept].text.value
    } else {
      // Kept native: a borrowed string would read the input's pages after they are let go.
      value = text.value
      strings.insert(key.keeping(value))
    }
    recentStrings.keep(value, (), at: slot)
    return value
  }

  /// The strings `shared(_:)` gave last, by slot: most calls are answered by comparing one kept string's bytes.
  private var recentStrings = RecentSlots<Void>()

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

/// Texts (and what was made of them) kept in a few slots chosen by a cheap mix of each one's length and a few of
/// its bytes, in front of a hash table: an item's shared strings (its service, account, access group, authority,
/// client id, user) nearly all repeat recent items', and hashing each in full (SipHash over every byte) was most
/// of the cost of sharing them. A text is only ever answered by a kept text with the same bytes (the same
/// scalars); a miss falls back to the table, so texts that share a slot cost a comparison more, never a wrong
/// answer.
struct RecentSlots<Value> {
  private var kept = [(text: String, value: Value)?](repeating: nil, count: 1 << Self.slotBits)

  private static var slotBits: Int { 8 }

  /// The slot of a text with these UTF-8 bytes: its length and its first, middle and last eight bytes mixed (the
  /// middle tells apart `svce` values of one client that differ only in their resource). Texts under eight
  /// bytes share slot 0.
  static func slot(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard bytes.count >= 8, let base = bytes.baseAddress else { return 0 }
    let head = base.loadUnaligned(as: UInt64.self)
    let middle = base.loadUnaligned(fromByteOffset: (bytes.count - 8) / 2, as: UInt64.self)
    let tail = base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
    let mix = (head ^ (middle &<< 3) ^ (tail &<< 1) ^ UInt64(bytes.count)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mix >> (64 - slotBits))
  }

  /// The slot of `text`, and the entry kept there when it is `text`'s (the same UTF-8 bytes).
  func find(_ text: PropertyListString) -> (slot: Int, entry: (text: String, value: Value)?) {
    var found: (slot: Int, entry: (text: String, value: Value)?) = (0, nil)
    // Through `withUTF8Bytes`, not the generic `withUTF8`: called across modules, that one was not specialized.
    text.withUTF8Bytes { bytes in
      let slot = Self.slot(bytes)
      found = (slot, entry(at: slot, matching: bytes))
    }
    return found
  }

  /// The entry kept in `slot` when its text has these UTF-8 bytes.
  func entry(at slot: Int, matching bytes: UnsafeRawBufferPointer) -> (text: String, value: Value)? {
    guard let candidate = kept[slot], Self.string(candidate.text, hasBytes: bytes) else { return nil }
    return candidate
  }

  /// Whether `string`'s UTF-8 is `bytes`, compared in place (a kept string is native, hence contiguous).
  private static func string(_ string: String, hasBytes bytes: UnsafeRawBufferPointer) -> Bool {
    guard string.utf8.count == bytes.count else { return false }
    func same(_ kept: UnsafeBufferPointer<UInt8>) -> Bool {
      bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    }
    if let result = string.utf8.withContiguousStorageIfAvailable(same) { return result }
    var copy = string
    return copy.withUTF8(same)
  }

  mutating func keep(_ text: String, _ value: Value, at slot: Int) { kept[slot] = (text, value) }
}
