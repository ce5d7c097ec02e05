import Adal2MSALSupport
import Foundation
import PropertyLists
import UnifiedCache

/// Turns a keychain dump (plist or JSON) into `KeychainRecord`s. Dialects are told apart by content.
struct KeychainDumpParser {
  let limits: InputLimits
  let file: String?

  /// Keychain class names as dumps use them for the class-keyed layout.
  static let classKeys: Set<String> = ["genp", "inet", "cert", "keys", "idnt"]
  /// Keys that mark a dictionary as one keychain item with Apple's short names.
  static let shortNameKeys = Set(
    [KeychainShortName.account, .service, .generic, .accessGroup, .data].map(\.key))
  /// Keys that mark an objection item.
  static let objectionKeys: Set<String> = [
    "account", "service", "generic", "entitlement_group", "dataHex", "data", "item_class", "create_date",
  ]

  struct Parsed {
    var kind: ADALInputKind
    var records: [KeychainRecord] = []
    var diagnostics: [Diagnostic] = []
  }

  // MARK: property lists

  /// nil when the plist is not a keychain dump by its layout (an array, a dictionary of keychain classes, one
  /// item); a dump of that layout none of whose entries is a keychain item is refused (`requireItems`).
  ///
  /// An array dump's entries are let go as their records are made, when `value` holds the only reference to
  /// them: the tree and the records do not peak together.
  func parse(plist value: consuming PropertyListValue) throws(ADALCacheError) -> Parsed? {
    if case .array(var elements) = value {
      value = .array([])  // `elements` is then the only reference, and each entry goes once its record is made
      try Self.requireItems(
        entries: elements.count, anyItem: elements.contains(where: Self.isItem), emptyIsDump: true,
        subject: "the property list is an array of \(Wording.counted(elements.count, "entry", "entries"))", file: file)
      var parsed = Parsed(kind: .keychainPlistArray)
      try addPlistItems(&elements, prefix: "", to: &parsed)
      return parsed
    }
    switch value {
    case .dictionary(let dictionary):
      if dictionary.keys.contains(where: Self.classKeys.contains) {
        let layout = try Self.classLayout(
          dictionary.map { ($0.key, $0.value) }, items: \.arrayValue, kindName: \.kindName, file: file)
        try Self.requireItems(
          entries: layout.entryCount, anyItem: layout.groups.contains { $0.items.contains(where: Self.isItem) },
          emptyIsDump: layout.otherMembers == 0,
          subject: "the property list is a dictionary of \(dictionary.count) members, \(layout.description)",
          file: file)
        var parsed = Parsed(kind: .keychainPlistClasses)
        for var group in layout.groups { try addPlistItems(&group.items, prefix: group.prefix, to: &parsed) }
        return parsed
      }
      if Self.isItem(value) {
        var parsed = Parsed(kind: .keychainPlistArray)
        var elements = [value]
        try addPlistItems(&elements, prefix: "", to: &parsed)
        return parsed
      }
      return nil
    default:
      return nil
    }
  }

  /// Makes the records of `elements`, emptying each entry once its record is made: on all cores, the records
  /// and diagnostics then taken in the entries' order (a 40k-item dump's records took a tenth of a second on one
  /// core while the other waited).
  private func addPlistItems(_ elements: inout [PropertyListValue], prefix: String, to parsed: inout Parsed)
    throws(ADALCacheError)
  {
    let first = parsed.records.count
    guard elements.count <= limits.maxObjects - first else {
      throw ADALCacheError("the dump has more than \(limits.maxObjects) items", at: SourceLocation(file: file))
    }
    var slots = elements.enumerated().map { Optional.some((position: $0.offset, element: $0.element)) }
    elements = []  // `slots` then holds the only reference to each entry, which goes once its record is made
    let (file, limits) = (file, limits)
    let problems = EntryDiagnostics()
    // Records only, so that they move into `parsed` whole; an entry's diagnostics (few) are put beside them.
    let made = slots.orderedParallelMapTaking(minimumChunk: 512) { entry -> KeychainRecord in
      let location = SourceLocation(
        file: file, itemIndex: first + entry.position, keyPath: "\(prefix)[\(entry.position)]")
      guard let dictionary = entry.element.dictionaryValue else {
        problems.add([Self.notADictionary(entry.element.kindName, at: location)], at: entry.position)
        return KeychainRecord.attributeless(at: location)
      }
      return Self.record(
        Self.dialect { dictionary[$0] != nil }, { dictionary[$0].flatMap(Self.scalar) }, at: location,
        position: entry.position, limits: limits, problems: problems)
    }
    if parsed.records.isEmpty { parsed.records = made } else { parsed.records += made }
    parsed.diagnostics += problems.inEntryOrder()
  }

  /// The record of dictionary `position` of a binary property list's array read without its tree
  /// (`FlatDictionaryArray`): the record `parse(plist:)` makes of the same entry. Read through `lane`, one worker's
  /// at a time: a string the writer stored once (an access group, a user's account, a service per resource) is
  /// decoded once per lane and shared by the records that name it, so that the router need not share their
  /// strings again (`KeychainItemRouter.route(flat:parser:into:releasing:)`). Its diagnostics go to `problems`.
  func record(
    ofFlatEntry position: Int, in entries: FlatDictionaryArray, lane: FlatLane, problems: EntryDiagnostics
  ) -> KeychainRecord {
    entries.objects(under: Self.flatKeys, inEntry: position, into: lane.found)
    // The value of the object a lookup found (-1: none), its strings decoded once per lane.
    let value = { (object: Int) -> Any? in
      guard object >= 0 else { return nil }
      guard entries.isString(object) else { return entries.value(ofObject: object).flatMap(Self.scalar) }
      return lane.text(of: object) { entries.value(ofObject: object).flatMap(Self.scalar) as? String }
    }
    let location = SourceLocation(file: file, itemIndex: position, keyPath: "[\(position)]")
    let found = lane.found
    let dialect = Self.dialect(hasShortName: Self.flatShortNames.contains { found[$0] >= 0 }) {
      Self.hasObjectionNames(ofFlatEntry: position, in: entries, lane: lane)
    }
    let objection = lane.objectionFound
    return Self.record(
      dialect, { name in Self.flatObjectionKeyIndex[name].flatMap { value(objection[$0]) } },
      shortName: { value(found[$0.rawValue]) }, at: location, position: position, limits: limits, problems: problems)
  }

  /// Whether entry `position` of a flat dump has objection's attribute names, looked up into the lane's
  /// `objectionFound`: asked only of an entry without Apple's short names.
  private static func hasObjectionNames(ofFlatEntry position: Int, in entries: FlatDictionaryArray, lane: FlatLane)
    -> Bool
  {
    entries.objects(under: flatObjectionKeys, inEntry: position, into: lane.objectionFound)
    return objectionKeys.contains { lane.objectionFound[flatObjectionKeyIndex[$0]!] >= 0 }
  }

  /// Whether a flat dump has a keychain item among its entries (the rule of `dialect(has:)`), stopping at the
  /// first: a dump's first entry, mostly.
  static func hasItem(amongFlat entries: FlatDictionaryArray) -> Bool {
    let lane = FlatLane()
    return (0..<entries.count).contains { position in
      entries.objects(under: flatKeys, inEntry: position, into: lane.found)
      return dialect(hasShortName: flatShortNames.contains { lane.found[$0] >= 0 }) {
        hasObjectionNames(ofFlatEntry: position, in: entries, lane: lane)
      } != nil
    }
  }

  /// The attributes of a record, looked up together in each entry of a flat dump, by `KeychainShortName`.
  private static let flatKeys = FlatKeys(KeychainShortName.allCases.map(\.key))
  /// The positions in `flatKeys` of the names that make an entry a keychain item (`shortNameKeys`).
  private static let flatShortNames = shortNameKeys.compactMap { KeychainShortName(key: $0)?.rawValue }
  /// Every name an objection item's record reads (`KeychainRecordBuilder.objection`), and each one's position.
  private static let objectionRecordKeys = Array(objectionKeys.union(KeychainRecordBuilder.objectionNames)).sorted()
  private static let flatObjectionKeys = FlatKeys(objectionRecordKeys)
  private static let flatObjectionKeyIndex = Dictionary(
    uniqueKeysWithValues: objectionRecordKeys.enumerated().map { ($0.element, $0.offset) })

  /// What one core keeps of a flat dump's read: the strings it decoded, by object, and the objects of the
  /// attributes of the entry it reads (`FlatDictionaryArray.objects(under:inEntry:into:)`). Used by one worker at
  /// a time.
  final class FlatLane: @unchecked Sendable {  // one worker at a time (lanes)
    private var byObject: [Int: String] = [:]
    let found = UnsafeMutableBufferPointer<Int>.allocate(capacity: KeychainDumpParser.flatKeys.count)
    /// The objects of objection's names (`flatObjectionKeys`) of the entry it reads, when it has no short names.
    let objectionFound = UnsafeMutableBufferPointer<Int>.allocate(capacity: KeychainDumpParser.flatObjectionKeys.count)

    deinit {
      found.deallocate()
      objectionFound.deallocate()
    }

    func text(of object: Int, _ decode: () -> String?) -> String? {
      if let known = byObject[object] { return known }
      let text = decode()
      byObject[object] = text
      return text
    }
  }

  /// The record of one dictionary entry of a plist dump, of `dialect`, whose values `attribute` gives by name;
  /// its diagnostics go to `problems`.
  private static func record(
    _ dialect: Dialect?, _ attribute: (String) -> Any?, shortName: ((KeychainShortName) -> Any?)? = nil,
    at location: SourceLocation, position: Int, limits: InputLimits, problems: EntryDiagnostics
  ) -> KeychainRecord {
    let (record, diagnostics) = record(
      ofEntry: dialect, attribute, shortName: shortName, textEncoded: false, location: location, limits: limits)
    if !diagnostics.isEmpty { problems.add(diagnostics, at: position) }
    return record
  }

  /// The diagnostics of a dump's entries, added from every core, given back in the entries' order.
  final class EntryDiagnostics: @unchecked Sendable {  // `byEntry` guarded by `lock`
    private let lock = NSLock()
    private var byEntry: [(position: Int, diagnostics: [Diagnostic])] = []

    func add(_ diagnostics: [Diagnostic], at position: Int) {
      lock.withLock { byEntry.append((position, diagnostics)) }
    }

    func inEntryOrder() -> [Diagnostic] {
      lock.withLock { byEntry.sorted { $0.position < $1.position }.flatMap(\.diagnostics) }
    }
  }

  private static func scalar(_ value: PropertyListValue) -> Any? {
    switch value {
    case .string(let text): text.value
    case .data(let bytes): bytes
    case .integer(let number): Int(exactly: number)
    case .real(let number): number
    case .bool(let flag): flag
    case .date(let date): date
    default: nil
    }
  }

  // MARK: JSON

  /// The dump in a parsed JSON document (`ADALJSON.parse`).
  func parse(json root: JSONValue) throws(ADALCacheError) -> Parsed {
    let groups = try itemGroups(root)
    var parsed = Parsed(kind: .keychainJSON)
    var objectionCount = 0
    for group in groups {
      for (position, element) in group.items.enumerated() {
        let location = try nextLocation(parsed, path: "\(group.prefix)[\(position)]")
        guard let item = element.objectValue else {
          parsed.diagnostics.append(Self.notADictionary(element.typeName, at: location))
          parsed.records.append(KeychainRecord.attributeless(at: location))
          continue
        }
        let dialect = Self.dialect { item[$0] != nil }
        if dialect == .objection { objectionCount += 1 }
        let (record, diagnostics) = Self.record(
          ofEntry: dialect, { item[$0]?.keychainAttribute }, textEncoded: true, location: location, limits: limits)
        parsed.records.append(record)
        parsed.diagnostics += diagnostics
      }
    }
    if objectionCount * 2 > parsed.records.count { parsed.kind = .objectionJSON }
    return parsed
  }

  /// The item groups of a JSON keychain dump, recognised by keychain attributes only: anything else is refused
  /// with what it looks like (an MSAL cache, a known unsupported format, other JSON), never its keys or values.
  private func itemGroups(_ root: JSONValue) throws(ADALCacheError) -> [(prefix: String, items: [JSONValue])] {
    let location = SourceLocation(file: file)
    if let array = root.arrayValue {
      if let format = InputFormatSniffer.unsupportedJSONArray(array) {
        if format == .msalDotNetDictionary {
          throw ADALCacheError(
            "this is an MSAL unified cache (an MSAL.NET v2 dictionary cache), not an ADAL cache", at: location,
            kind: .wrongOption(.msalInput))
        }
        throw ADALCacheError.refusing(.unsupported(format), file: file)
      }
      try Self.requireItems(
        entries: array.count, anyItem: array.contains(where: Self.isItem), emptyIsDump: true,
        subject: "the JSON is an array of \(Wording.counted(array.count, "entry", "entries"))", file: file)
      return [("", array)]
    }
    guard let dictionary = root.objectValue else {
      throw ADALCacheError(
        "not a keychain dump: the JSON is a single value, not an array of keychain items", at: location,
        kind: .unrecognised)
    }
    if dictionary.keys.contains(where: Self.classKeys.contains) {
      let layout = try Self.classLayout(
        dictionary.keys.sorted().map { ($0, dictionary[$0]!) }, items: \.arrayValue, kindName: \.typeName,
        file: file)
      try Self.requireItems(
        entries: layout.entryCount, anyItem: layout.groups.contains { $0.items.contains(where: Self.isItem) },
        emptyIsDump: layout.otherMembers == 0,
        subject: "the JSON is an object with \(dictionary.count) top-level keys, \(layout.description)", file: file)
      return layout.groups
    }
    if Self.isItem(root) { return [("", [root])] }
    if dictionary.keys.contains(where: Self.msalSections.contains) {
      throw ADALCacheError(
        "this is an MSAL unified cache, not an ADAL cache", at: location, kind: .wrongOption(.msalInput))
    }
    throw ADALCacheError(
      "not a keychain dump: the JSON is an object with \(dictionary.count) top-level keys, none a keychain class, "
        + "a keychain attribute or an MSAL cache section",
      at: location, kind: .unrecognised)
  }

  /// The section names of an MSAL unified cache.
  static let msalSections: Set<String> = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]

  // MARK: the rules of every dump (JSON, property list, binary property list read flat)

  /// How a keychain item's attributes are spelled.
  enum Dialect {
    /// Apple's short names (`svce`, `acct`, `gena`, `v_Data`, …): `KeychainRecordBuilder.shortNames`.
    case shortNames
    /// objection's (`service`, `account`, `generic`, `dataHex`, `data`, …): `KeychainRecordBuilder.objection`.
    case objection
  }

  /// What makes a dump entry (a dictionary, whose attribute names `has` tells) a keychain item: Apple's short names
  /// (`shortNameKeys`), else objection's (`objectionKeys`). nil for an entry with neither, which has no keychain
  /// attributes: not a keychain item, and not another app's (`record(ofEntry:...)` makes it an unreadable entry).
  /// Other spellings (the Security framework's constant names, `kSecAttrService`, `kSecValueData`) are none.
  static func dialect(has: (String) -> Bool) -> Dialect? {
    dialect(hasShortName: shortNameKeys.contains(where: has)) { objectionKeys.contains(where: has) }
  }

  /// `dialect(has:)` of an entry that has a short name or not, and has objection's names or not (asked only
  /// without short names).
  static func dialect(hasShortName: Bool, hasObjectionName: () -> Bool) -> Dialect? {
    if hasShortName { return .shortNames }
    return hasObjectionName() ? .objection : nil
  }

  private static func isItem(_ value: PropertyListValue) -> Bool {
    guard let dictionary = value.dictionaryValue else { return false }
    return dialect { dictionary[$0] != nil } != nil
  }

  private static func isItem(_ value: JSONValue) -> Bool {
    guard let object = value.objectValue else { return false }
    return dialect { object[$0] != nil } != nil
  }

  /// The record of one dump entry of `dialect` (`dialect(has:)`), whose attribute values (strings, data, numbers,
  /// dates, booleans) `attribute` gives by name, and `shortName`, when given, by `KeychainShortName` (a flat
  /// dump's lookup, by position); with `textEncoded`, short-name data attributes are base64 text. An entry without
  /// keychain attributes is one unreadable entry (`adal.item-unreadable`), never another app's item.
  static func record(
    ofEntry dialect: Dialect?, _ attribute: (String) -> Any?, shortName: ((KeychainShortName) -> Any?)? = nil,
    textEncoded: Bool, location: SourceLocation, limits: InputLimits
  ) -> (KeychainRecord, [Diagnostic]) {
    switch dialect {
    case .shortNames:
      if let shortName {
        KeychainRecordBuilder.shortNames(shortName, textEncoded: textEncoded, location: location, limits: limits)
      } else {
        KeychainRecordBuilder.shortNames(
          { attribute($0.key) }, textEncoded: textEncoded, location: location, limits: limits)
      }
    case .objection: KeychainRecordBuilder.objection(attribute, location: location, limits: limits)
    case nil:
      (
        KeychainRecord.attributeless(at: location),
        [
          ADALItemError(
            "the dump entry is a dictionary without keychain attributes (\(attributeNames)): not a keychain item",
            at: location
          ).diagnostic
        ]
      )
    }
  }

  /// The unreadable entry a dump holds in place of an item dictionary (a string, a number, an array).
  static func notADictionary(_ kindName: String, at location: SourceLocation) -> Diagnostic {
    ADALItemError("the dump entry is \(Wording.indefinite(kindName)), not an item dictionary", at: location).diagnostic
  }

  /// The attribute names an item is recognised by, for messages.
  static let attributeNames = "svce, acct, gena, agrp, v_Data, or objection's service, account, generic, data"

  /// The rule of what is a keychain dump: a file whose entries include a keychain item (`dialect(has:)`), or,
  /// when `emptyIsDump`, one with no entry at all (an empty array, a dictionary of keychain classes and nothing
  /// else, all empty). Anything else is refused as no dump, `subject` saying what it is (never its keys or values):
  /// an entry without keychain attributes is an unreadable item only beside items that have them.
  static func requireItems(
    entries: Int, anyItem: Bool, emptyIsDump: Bool, subject: String, file: String?
  ) throws(ADALCacheError) {
    if anyItem || (entries == 0 && emptyIsDump) { return }
    throw ADALCacheError(
      "not a keychain dump: \(subject), none with keychain attributes (\(attributeNames)); expected a keychain "
        + "dump (a property list or JSON of keychain items, or an objection JSON dump)",
      at: SourceLocation(file: file), kind: .unrecognised)
  }

  /// The item arrays of a dictionary of keychain classes (`{genp: [...], inet: [...]}`), in the order of `members`,
  /// with how many other members there are. A class that is no array of items (a dictionary of items by row id, a
  /// string) is an error naming its key path: read as no items, its items would be lost without a word.
  struct ClassLayout<Value> {
    var groups: [(prefix: String, items: [Value])] = []
    var otherMembers = 0

    var entryCount: Int { groups.reduce(0) { $0 + $1.items.count } }

    /// What the layout holds, in words (class names, counts; none of the file's other keys).
    var description: String {
      let classes = groups.map(\.prefix).joined(separator: ", ")
      return "\(groups.count) of them keychain classes (\(classes)) with \(entryCount) entries in all"
    }
  }

  static func classLayout<Value>(
    _ members: [(key: String, value: Value)], items: (Value) -> [Value]?, kindName: (Value) -> String,
    file: String?
  ) throws(ADALCacheError) -> ClassLayout<Value> {
    var layout = ClassLayout<Value>()
    for (key, value) in members {
      guard classKeys.contains(key) else {
        layout.otherMembers += 1
        continue
      }
      guard let entries = items(value) else {
        throw ADALCacheError(
          "the keychain class \(key) is \(Wording.indefinite(kindName(value))), not an array of items; expected a dump of keychain "
            + "classes ({\"\(key)\": [item, ...]})",
          at: SourceLocation(file: file, keyPath: key), kind: .unrecognised)
      }
      layout.groups.append((key, entries))
    }
    return layout
  }

  private func nextLocation(_ parsed: Parsed, path: String) throws(ADALCacheError) -> SourceLocation {
    guard parsed.records.count < limits.maxObjects else {
      throw ADALCacheError("the dump has more than \(limits.maxObjects) items", at: SourceLocation(file: file))
    }
    return SourceLocation(file: file, itemIndex: parsed.records.count, keyPath: path)
  }
}
