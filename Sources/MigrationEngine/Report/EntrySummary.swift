import Adal2MSALSupport
import Foundation
import UnifiedCache

/// What the text and Markdown reports show of an entry: a headline (what the entity is) and a detail line (its
/// other fields), written as UTF-8 from the entry's parts.
///
/// The parts are passed, not the entry: the text report reads entries through a pointer, and a method on the
/// entry made the compiler copy all of it (every string retained and released) for each call. Noncopyable: the
/// closure that writes the detail line borrows it, where it had copied it (its strings retained and released
/// again) for every entry.
struct EntrySummary: ~Copyable {
  var kind: UnifiedEntityKind?
  var reasonCode: String
  var sources: [PlanSource]
  /// Whether the entry has fields (an entity, or fields a caller set).
  private var hasFields: Bool
  /// The values of the fields it shows, read once (`EntityFields.summaryValues`).
  private var values: SummaryValues

  init(kind: UnifiedEntityKind?, reasonCode: String, sources: [PlanSource], fields: EntryFieldReader) {
    self.kind = kind
    self.reasonCode = reasonCode
    self.sources = sources
    hasFields = !fields.isEmpty
    values = hasFields ? fields.summaryValues() : SummaryValues()
  }

  /// Whether there is a detail line (an entity, not a skipped item).
  var hasDetail: Bool { kind != nil && hasFields }

  func writeHeadline(to out: inout [UInt8]) {
    guard hasFields else {
      out.appendUTF8(kind == nil ? reasonCode : (sources.first?.label ?? "-"))
      return
    }
    switch kind {
    case .account?: field(.username, to: &out)
    case .accessToken?: field(.target, to: &out)
    case .refreshToken?:
      labelled("client ", .clientID, to: &out)
      family(to: &out)
    case .idToken?, .appMetadata?:
      labelled("client ", .clientID, to: &out)
    case nil: out.appendUTF8(reasonCode)
    }
  }

  func writeDetail(to out: inout [UInt8]) {
    guard hasDetail else { return }
    switch kind {
    case .account?:
      labelled("realm ", .realm, to: &out)
      labelled(", ", .authorityType, to: &out)
      labelled(", at ", .environment, to: &out)
    case .refreshToken?:
      labelled("at ", .environment, to: &out)
      labelled(", secret ", .secret, to: &out)
    case .accessToken?:
      labelled("realm ", .realm, to: &out)
      out.appendLiteral(", expires ")
      if let expires = values.expirySeconds.map(Double.init) ?? value(.expiresOn).flatMap(Double.init) {
        ReportDate.write(Date(timeIntervalSince1970: expires), to: &out)
      } else {
        out.append(UInt8(ascii: "-"))
      }
      labelled(", secret ", .secret, to: &out)
    case .idToken?:
      labelled("realm ", .realm, to: &out)
      labelled(", secret ", .secret, to: &out)
    case .appMetadata?:
      labelled("at ", .environment, to: &out)
      family(to: &out)
    case nil: break
    }
  }

  private func value(_ field: EntityFields.SummaryField) -> String? { values[field] }

  /// The field's value, or "-" when the entity has none.
  private func field(_ field: EntityFields.SummaryField, to out: inout [UInt8]) {
    if field == .secret, let digest = values.secretDigest {
      SecretFingerprint.write(ofDigestPrefix: digest, to: &out)
    } else {
      out.appendUTF8(value(field) ?? "-")
    }
  }

  /// `label`, then the field's value (or "-").
  private func labelled(_ label: StaticString, _ field: EntityFields.SummaryField, to out: inout [UInt8]) {
    out.appendLiteral(label)
    self.field(field, to: &out)
  }

  private func family(to out: inout [UInt8]) {
    guard let family = value(.familyID) else { return }
    out.appendLiteral(", family ")
    out.appendUTF8(family)
  }
}

extension MigrationReport.Entry {
  /// The entry's parts that its summary reads.
  var summaryParts: EntrySummary {
    EntrySummary(kind: kind, reasonCode: reasonCode, sources: sources, fields: fieldReader)
  }

  /// The headline and the detail line (empty when there is none), as Strings.
  func summary() -> (headline: String, detail: String) {
    let parts = summaryParts
    var headline: [UInt8] = []
    var detail: [UInt8] = []
    parts.writeHeadline(to: &headline)
    parts.writeDetail(to: &detail)
    return (String(decoding: headline, as: UTF8.self), String(decoding: detail, as: UTF8.self))
  }
}
