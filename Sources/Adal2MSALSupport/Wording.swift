/// The few English forms messages need, so that a kind or a count read from the input reads as a sentence.
package enum Wording {
  /// `noun` after its indefinite article: "an integer", "an NSArray", "an ADUserInformation", "a string",
  /// "a UID". The sound decides, so an initialism of a consonant's name ("NS…") takes "an", and one read as
  /// "you" ("UID", "URL") takes "a".
  package static func indefinite(_ noun: String) -> String {
    (takesAn(noun) ? "an " : "a ") + noun
  }

  /// `count` and the noun in its number: "1 entry", "0 entries", "3 entries".
  package static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) \(count == 1 ? singular : plural)"
  }

  private static func takesAn(_ noun: String) -> Bool {
    guard let first = noun.first else { return false }
    if noun.hasPrefix("NS") { return true }
    if "aeioAEIO".contains(first) { return true }
    if first == "u" { return !noun.hasPrefix("uni") && !noun.hasPrefix("use") && !noun.hasPrefix("usu") }
    return false
  }
}
