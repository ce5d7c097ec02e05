/// An `AppMetadata` entity: per app and environment, whether the app belongs to a token family (FOCI).
public struct UnifiedAppMetadata: UnifiedEntity {
  public static let kind = UnifiedEntityKind.appMetadata

  /// `client_id`.
  public var clientID: String
  /// `environment`.
  public var environment: String
  /// `family_id`: `"1"` for a FOCI app; nil or empty when the app is not (known to be) in a family.
  public var familyID: String?
  public var additionalFields: JSONObject
  /// The key and field names the entry had in its file (not part of its identity).
  public var writtenForm = WrittenForm()

  public init(
    clientID: String, environment: String, familyID: String? = nil, additionalFields: JSONObject = JSONObject()
  ) {
    self.clientID = clientID
    self.environment = environment
    self.familyID = familyID
    self.additionalFields = additionalFields
  }

  public var canonicalKey: String { UnifiedCacheKey.appMetadata(environment: environment, clientID: clientID) }
  public var owningHomeAccountID: String? { nil }
  public var owningClientID: String? { clientID }
  public var description: String { "AppMetadata(\(canonicalKey), family: \(familyID ?? "-"))" }
}
