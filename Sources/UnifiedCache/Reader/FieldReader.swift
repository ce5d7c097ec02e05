import Adal2MSALSupport
import Foundation

/// Takes the modelled fields out of one entity object, tolerating the variants real caches hold, and leaves
/// every other member (and every value it could not use) in `remaining`, which becomes `additionalFields`.
struct FieldReader {
  private(set) var remaining: JSONObject
  private(set) var diagnostics: [Diagnostic] = []
  /// For each field taken under a name other than its first (model) name, or under several names: the names it
  /// was written under, in the order asked. Kept so that the entry can be written back as it came.
  private(set) var spellings: [String: [String]] = [:]
  /// The exact JSON of timestamps whose text is not the integer string the writer makes (`WrittenForm.values`).
  private(set) var rawValues: [String: JSONValue] = [:]
  /// A `credential_type` of a refresh or id token other than the one the writer makes (`IDToken`).
  var credentialType: String?
  /// `Section.<key>` (or a keychain item label); field names are appended.
  let path: String
  let location: SourceLocation

  init(_ object: JSONObject, path: String, location: SourceLocation) {
    self.remaining = object
    self.path = path
    self.location = location
  }

  mutating func report(_ severity: Diagnostic.Severity, _ code: String, _ message: String, field: String? = nil) {
    var place = location
    place.keyPath = field.map { "\(path).\($0)" } ?? path
    diagnostics.append(Diagnostic(severity, code: code, message, at: place))
  }

  /// A string field under its name or one of its aliases (`FieldSpelling.readNames`; the first present wins). A
  /// null is absent (and kept as written); a value of another type is reported and kept as an unknown field. An
  /// alias holding a different value is reported and kept too, so nothing is lost.
  mutating func string(_ name: String) -> String? {
    take(FieldSpelling.readNames(of: name), expected: "string") { value in
      if case .string(let text) = value { return text }
      return nil
    }
  }

  /// A timestamp in epoch seconds under its name or one of its aliases: an integer or decimal string, or a JSON
  /// number. Fractions are dropped (MSAL compares whole seconds and writes integer strings).
  mutating func timestamp(_ name: String) -> Date? {
    let names = FieldSpelling.readNames(of: name)
    var read: [String: JSONValue] = [:]
    for name in names { if let value = remaining[name] { read[name] = value } }
    let date = take(names, expected: "epoch seconds (string or number)", problem: FieldReader.outOfRange) {
      FieldReader.epoch($0)
    }
    if let date {
      let canonical = JSONValue.string(UnifiedEntityJSON.epochString(date))
      for (name, value) in read where remaining[name] == nil && value != canonical { rawValues[name] = value }
    }
    return date
  }

  /// "timestamp 1e300 is out of range ...", for a number (or numeric string) `epoch` refused: only digits,
  /// signs, points and exponents are ever shown, never other text of the file.
  static func outOfRange(_ value: JSONValue) -> String? {
    let text: String
    switch value {
    case .string(let string): text = string.trimmedWhitespace()
    case .number(let number): text = number
    default: return nil
    }
    guard !text.isEmpty, text.utf8.count <= 40, text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }),
      Double(text) != nil
    else { return nil }
    return "timestamp \(text) is out of range (more than 10^12 seconds from 1970)"
  }

  /// `target`: a space-separated string, or (early MSAL Python) an array of strings, joined with one space.
  mutating func target(_ name: String) -> String? {
    if case .array? = remaining[name] { rawValues[name] = remaining[name] }
    return take([name], expected: "string or array of strings") { value in
      switch value {
      case .string(let text): return text
      case .array(let items):
        let scopes = items.compactMap(\.stringValue)
        return scopes.count == items.count ? scopes.joined(separator: " ") : nil
      default: return nil
      }
    }
  }

  /// A realm the model needs but the entry did not have (MSAL.NET's ADFS entries): a string field read as
  /// `defaultValue`, remembered as written under no name so that it is not written back.
  mutating func realm(default defaultValue: String) -> String {
    let present = remaining["realm"] != nil
    guard let value = string("realm") else {
      if !present { spellings["realm"] = [] }
      return defaultValue
    }
    return value
  }

  /// Seconds since 1970 from decimal text, whole seconds toward minus infinity; nil when not a finite number
  /// within ±10^12 s (about 31,000 years), which keeps later integer conversions safe.
  static func epoch(_ value: JSONValue) -> Date? {
    switch value {
    case .string(let text): epoch(text.trimmedWhitespace())
    case .number(let text): epoch(text)
    default: nil
    }
  }

  static func epoch(_ text: String) -> Date? {
    if let whole = Int64(text) {
      guard whole.magnitude <= CivilTime.epochSecondsLimit else { return nil }
      return Date(timeIntervalSince1970: TimeInterval(whole))
    }
    guard text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }), let seconds = Double(text),
      seconds.isFinite, seconds.magnitude <= Double(CivilTime.epochSecondsLimit)
    else { return nil }
    return Date(timeIntervalSince1970: seconds.rounded(.down))
  }

  private mutating func take<T: Equatable>(
    _ names: [String], expected: String, problem: (JSONValue) -> String? = { _ in nil }, convert: (JSONValue) -> T?
  ) -> T? {
    var chosen: T?
    var chosenName: String?
    var taken: [String] = []
    defer {
      if let first = names.first, !taken.isEmpty, taken != [first] { spellings[first] = taken }
    }
    for name in names {
      guard let value = remaining[name] else { continue }
      // A null is absent for the model, and stays among the unknown fields so that it is written back.
      if case .null = value { continue }
      guard let converted = convert(value) else {
        let what = problem(value) ?? "expected \(expected), found \(value.typeName)"
        report(.warning, "unified.field-type", "\(what); kept as an unknown field", field: name)
        continue
      }
      if let chosen, let chosenName {
        if chosen == converted {
          remaining.removeValue(forKey: name)
          taken.append(name)
        } else {
          report(
            .warning, "unified.field-conflict",
            "disagrees with '\(chosenName)'; '\(chosenName)' is used and this one kept as an unknown field", field: name
          )
        }
        continue
      }
      chosen = converted
      chosenName = name
      taken.append(name)
      remaining.removeValue(forKey: name)
    }
    return chosen
  }
}
