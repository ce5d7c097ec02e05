import Foundation

/// A JSON Schema (draft 2020-12) checker for the keywords docs/report-schema.json uses: `type`, `enum`,
/// `const`, `required`, `properties`, `additionalProperties`, `items`, `$ref` (local `#/$defs/...`),
/// `oneOf`, `pattern`, `minimum`. Returns the paths that fail; enough to hold the report to its schema.
struct MiniSchema {
  let root: [String: Any]

  func errors(_ value: Any) -> [String] { check(value, root, path: "$") }

  private func check(_ value: Any, _ schema: [String: Any], path: String) -> [String] {
    if let ref = schema["$ref"] as? String {
      let name = ref.replacingOccurrences(of: "#/$defs/", with: "")
      guard let defs = root["$defs"] as? [String: Any], let target = defs[name] as? [String: Any] else {
        return ["\(path): unresolved \(ref)"]
      }
      return check(value, target, path: path)
    }
    var errors: [String] = []
    if let options = schema["oneOf"] as? [[String: Any]] {
      let matching = options.filter { check(value, $0, path: path).isEmpty }.count
      if matching != 1 { errors.append("\(path): matches \(matching) of oneOf") }
    }
    if let types = schema["type"] {
      let names = (types as? [String]) ?? [(types as? String) ?? ""]
      if !names.contains(where: { Self.has(value, type: $0) }) { errors.append("\(path): not \(names)") }
    }
    if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.equal($0, value) }) {
      errors.append("\(path): not in enum")
    }
    if let constant = schema["const"], !Self.equal(constant, value) { errors.append("\(path): not const") }
    if let pattern = schema["pattern"] as? String, let text = value as? String,
      text.range(of: pattern, options: .regularExpression) == nil
    {
      errors.append("\(path): does not match \(pattern)")
    }
    if let minimum = schema["minimum"] as? Int, let number = value as? Int, number < minimum {
      errors.append("\(path): below \(minimum)")
    }
    if let object = value as? [String: Any], !(value is NSNull) {
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for name in schema["required"] as? [String] ?? [] where object[name] == nil {
        errors.append("\(path): missing \(name)")
      }
      for (name, member) in object {
        if let sub = properties[name] as? [String: Any] {
          errors += check(member, sub, path: "\(path).\(name)")
        } else if let extra = schema["additionalProperties"] {
          if let flag = extra as? Bool, !flag { errors.append("\(path): unexpected \(name)") }
          if let sub = extra as? [String: Any] { errors += check(member, sub, path: "\(path).\(name)") }
        }
      }
    }
    if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
      for (index, element) in array.enumerated() { errors += check(element, items, path: "\(path)[\(index)]") }
    }
    return errors
  }

  private static func has(_ value: Any, type: String) -> Bool {
    switch type {
    case "null": return value is NSNull
    case "object": return value is [String: Any]
    case "array": return value is [Any]
    case "string": return value is String
    case "boolean": return isBoolean(value)
    case "integer", "number":
      guard let number = value as? NSNumber, !isBoolean(value) else { return false }
      return type == "number" || number.doubleValue.rounded() == number.doubleValue
    default: return false
    }
  }

  /// JSONSerialization gives booleans as NSNumbers of type `c` (a char), numbers as `i`, `q`, `d`, ...
  private static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) == "c"
  }

  private static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
    switch (lhs, rhs) {
    case (is NSNull, is NSNull): return true
    case (let l as String, let r as String): return l == r
    case (let l as NSNumber, let r as NSNumber): return l == r
    default: return false
    }
  }
}
