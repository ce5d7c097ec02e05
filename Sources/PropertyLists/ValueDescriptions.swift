/// Descriptions of values that may hold tokens: compact JSON with secrets shown as fingerprints (see
/// `SecretPolicy`), so that logs, debugger output and test failures never print a secret.
extension PropertyListValue: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { PropertyListRendering.json(self) }
  public var debugDescription: String { description }
}

extension PropertyListDictionary: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { PropertyListRendering.json(PropertyListValue.dictionary(self)) }
  public var debugDescription: String { description }
}

extension ArchiveValue: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { PropertyListRendering.json(self) }
  public var debugDescription: String { description }
}

extension ArchivedObject: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { PropertyListRendering.json(ArchiveValue.object(self)) }
  public var debugDescription: String { description }
}

extension ArchiveDictionaryEntry: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { "\(key): \(value)" }
  public var debugDescription: String { description }
}

extension KeyedArchive: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String {
    "KeyedArchive(rootClass: \(rootClassName ?? "nil"), root: \(root))"
  }
  public var debugDescription: String { description }
}
