import ADALCache
import Adal2MSALSupport
import Foundation

/// ADAL items built in code, for rules no fixture shows alone.
enum ItemFactory {
  static func jwt(_ claims: [String: Any]) -> String {
    func part(_ object: [String: Any]) -> String {
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
      return Base64URL.encode(data)
    }
    return part(["typ": "JWT", "alg": "none"]) + "." + part(claims) + ".c2lnbmF0dXJl"
  }

  static func member(oid: String, tid: String, upn: String) -> [String: Any] {
    ["oid": oid, "tid": tid, "upn": upn, "sub": "sub-\(oid)", "ver": "1.0", "iss": "https://sts.windows.net/\(tid)/"]
  }

  static func item(
    index: Int, claims: [String: Any]?, home: String? = nil, clientInfo: String? = nil, client: String = appID,
    authority: String = "https://login.microsoftonline.com/common", refreshToken: String? = nil,
    accessToken: String? = nil, resource: String? = nil, expiresOn: Date? = nil, file: String = "items"
  ) throws -> ADALTokenItem {
    let raw = claims.map(jwt)
    let kind = ADALTokenKind.classify(
      accessToken: accessToken, refreshToken: refreshToken, clientID: client, familyID: nil)
    return ADALTokenItem(
      authority: authority, resource: resource, clientID: client, accessToken: accessToken.map { ADALSecret($0) },
      refreshToken: refreshToken.map { ADALSecret($0) }, expiresOn: expiresOn, homeAccountID: home,
      idToken: raw.map { ADALSecret($0) }, idTokenClaims: try raw.map { try IDTokenClaims(rawIDToken: $0) },
      additionalServer: clientInfo.map { [ADALValueEntry(key: "client_info", value: .string($0))] } ?? [],
      kind: kind ?? .multiResourceRefreshToken, source: ADALItemSource(file: file, itemIndex: index))
  }
}
