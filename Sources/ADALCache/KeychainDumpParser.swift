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

  /// nil when the plist is not a keychain dump.
  ///
  /// An array dump's entries are let go as their records are made, when `value` holds the only reference to
  /// them: the tree and the records do not peak together.
  func parse(plist value: consuming PropertyListValue) throws(ADALCacheError) -> Parsed? {
    if case .array(var elements) = value {
      value = .array([])  // `elements` is then the only reference, and each entry goes once its record is made
      var parsed = Parsed(kind: .keychainPlistArray)
      try addPlistItems(&elements, prefix: "", to: &parsed)
      return parsed
    }
    switch value {
    case .dictionary(let dictionary):
      if dictionary.keys.contains(where: Self.classKeys.contains) {
        var parsed = Parsed(kind: .keychainPlistClasses)
        for (key, classItems) in dictionary {
          guard var elements = classItems.arrayValue else { continue }
          try addPlistItems(&elements, prefix: key, to: &parsed)
        }
        return parsed
      }
      if dictionary.keys.contains(where: Self.shortNameKeys.contains) {
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
        let error = ADALItemError(
          "the dump entry is a \(entry.element.kindName), not an item dictionary", at: location)
        problems.add([error.diagnostic], at: entry.position)
        return KeychainRecord.attributeless(at: location)
      }
      return Self.record(
        { dictionary[$0.key].flatMap(Self.scalar) }, at: location, position: entry.position, limits: limits,
        problems: problems)
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
    let found = lane.found
    return Self.record(
      { name in
        let object = found[name.rawValue]
        guard object >= 0 else { return nil }
        guard entries.isString(object) else { return entries.value(ofObject: object).flatMap(Self.scalar) }
        return lane.text(of: object) { entries.value(ofObject: object).flatMap(Self.scalar) as? String }
      },
      at: SourceLocation(file: file, itemIndex: position, keyPath: "[\(position)]"), position: position,
      limits: limits, problems: problems)
  }

  /// The attributes of a record, looked up together in each entry of a flat dump, by `KeychainShortName`.
  private static let flatKeys = FlatKeys(KeychainShortName.allCases.map(\.key))

  /// What one core keeps of a flat dump's read: the strings it decoded, by object, and the objects of the
  /// attributes of the entry it reads (`FlatDictionaryArray.objects(under:inEntry:into:)`). Used by one worker at
  /// a time.
  final class FlatLane: @unchecked Sendable {  // one worker at a time (lanes)
    private var byObject: [Int: String] = [:]
    let found = UnsafeMutableBufferPointer<Int>.allocate(capacity: KeychainDumpParser.flatKeys.count)

    deinit { found.deallocate() }

    func text(of object: Int, _ decode: () -> String?) -> String? {
      if let known = byObject[object] { return known }
      let text = decode()
      byObject[object] = text
      return text
    }
  }

  /// The record of one dictionary entry of a plist dump, whose values `attribute` gives; its diagnostics go to
  /// `problems`.
  private static func record(
    _ attribute: (KeychainShortName) -> Any?, at location: SourceLocation, position: Int, limits: InputLimits,
    problems: EntryDiagnostics
  ) -> KeychainRecord {
    let (record, diagnostics) = KeychainRecordBuilder.shortNames(
      attribute, textEncoded: false, location: location, limits: limits)
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
          parsed.diagnostics.append(ADALItemError("the dump entry is not a JSON object", at: location).diagnostic)
          parsed.records.append(KeychainRecord.attributeless(at: location))
          continue
        }
        let (record, diagnostics): (KeychainRecord, [Diagnostic])
        guard Self.isItem(item) else {
          parsed.diagnostics.append(
            ADALItemError(
              "the entry is a JSON object with \(item.count) fields but no keychain attributes (service, account, data): not a keychain item",
              at: location
            ).diagnostic)
          parsed.records.append(KeychainRecord.attributeless(at: location))
          continue
        }
        if item.keys.contains(where: Self.shortNameKeys.contains) {
          (record, diagnostics) = KeychainRecordBuilder.shortNames(
            { item[$0.key]?.keychainAttribute }, textEncoded: true, location: location, limits: limits)
        } else {
          objectionCount += 1
          let attributes = Dictionary(uniqueKeysWithValues: item.members.map { ($0.key, $0.value.keychainAttribute) })
          (record, diagnostics) = KeychainRecordBuilder.objection(attributes, location: location, limits: limits)
        }
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
      guard array.contains(where: { $0.objectValue.map(Self.isItem) ?? false }) else {
        throw ADALCacheError(
          "not a keychain dump: the JSON is an array of \(array.count) entries, none with keychain attributes "
            + "(service, account, data); expected an objection or keychain JSON dump",
          at: location, kind: .unrecognised)
      }
      return [("", array)]
    }
    guard let dictionary = root.objectValue else {
      throw ADALCacheError(
        "not a keychain dump: the JSON is a single value, not an array of keychain items", at: location,
        kind: .unrecognised)
    }
    if dictionary.keys.contains(where: Self.classKeys.contains) {
      return dictionary.keys.sorted().compactMap { key in dictionary[key]?.arrayValue.map { (key, $0) } }
    }
    if Self.isItem(dictionary) { return [("", [root])] }
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

  private static func isItem(_ dictionary: JSONObject) -> Bool {
    dictionary.keys.contains { shortNameKeys.contains($0) || objectionKeys.contains($0) }
  }

  private func nextLocation(_ parsed: Parsed, path: String) throws(ADALCacheError) -> SourceLocation {
    guard parsed.records.count < limits.maxObjects else {
      throw ADALCacheError("the dump has more than \(limits.maxObjects) items", at: SourceLocation(file: file))
    }
    return SourceLocation(file: file, itemIndex: parsed.records.count, keyPath: path)
  }
}
