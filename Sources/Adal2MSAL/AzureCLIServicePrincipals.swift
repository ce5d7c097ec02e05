import ADALCache
import Adal2MSALSupport
import Foundation

/// The service principals of ADAL-era Azure CLI `accessTokens.json` files, for Azure CLI 2.30+'s
/// `service_principal_entries.json` (`--azure-cli-dir`).
///
/// Azure CLI ≤ 2.29 appended `{servicePrincipalId, servicePrincipalTenant, accessToken}` (the `accessToken` is the
/// client secret) or `{…, certificateFile, thumbprint}` to its ADAL token cache. 2.30+ keeps them apart, as a JSON
/// array of `{client_id, tenant, client_secret | certificate}` (azure-cli-core `auth/identity.py`). The user token
/// cache never receives them (`adal.service-principal-entry`); this is their only way out, and only on request.
public enum AzureCLIServicePrincipals {
  /// One service principal's credential. `description` never shows the secret.
  public struct Entry: Sendable, Hashable, CustomStringConvertible {
    public var clientID: String
    public var tenant: String
    public var clientSecret: ADALSecret?
    /// A PEM file's path (not a secret by itself).
    public var certificate: String?

    public var description: String {
      "\(clientID) in \(tenant) (" + (clientSecret.map { "secret \($0.fingerprint)" } ?? "certificate") + ")"
    }

    /// The entry as Azure CLI 2.30+ stores it.
    var json: [String: String] {
      var object = ["client_id": clientID, "tenant": tenant]
      if let clientSecret { object["client_secret"] = clientSecret.value }
      if let certificate { object["certificate"] = certificate }
      return object
    }
  }

  /// Every service-principal entry of the JSON arrays among `paths` (directories expanded), in input order. Files
  /// that are not JSON arrays are passed over: `migrate` has read and judged every input already.
  public static func collect(fromADAL paths: [String], limits: InputLimits) throws -> [Entry] {
    var entries: [Entry] = []
    for path in try InputFile.expand(paths) {
      let data = try InputFile.read(path, limits: limits)
      guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else { continue }
      for case let object as [String: Any] in array {
        guard let id = object["servicePrincipalId"] as? String, let tenant = object["servicePrincipalTenant"] as? String
        else { continue }
        // Azure CLI wrote the secret as accessToken; its own tests also use "secret".
        let secret = (object["accessToken"] as? String) ?? (object["secret"] as? String)
        let certificate = object["certificateFile"] as? String
        guard secret != nil || certificate != nil else { continue }
        entries.append(
          Entry(clientID: id, tenant: tenant, clientSecret: secret.map(ADALSecret.init), certificate: certificate))
      }
    }
    return entries
  }

  /// `service_principal_entries.json`: the `existing` file's entries (kept as they are) and then each of
  /// `entries` whose client id and tenant it does not hold yet, so that a re-run adds nothing twice.
  public static func merged(_ entries: [Entry], into existing: Data?) throws -> (data: Data, added: Int) {
    var array: [Any] = []
    if let existing, !existing.isEmpty {
      guard let old = try JSONSerialization.jsonObject(with: existing) as? [Any] else {
        throw MergeError()
      }
      array = old
    }
    func key(_ object: Any) -> String? {
      guard let object = object as? [String: Any], let id = object["client_id"] as? String,
        let tenant = object["tenant"] as? String
      else { return nil }
      return "\(id.lowercased())|\(tenant.lowercased())"
    }
    var known = Set(array.compactMap(key))
    var added = 0
    for entry in entries where known.insert(key(entry.json) ?? "").inserted {
      array.append(entry.json)
      added += 1
    }
    let data = try JSONSerialization.data(withJSONObject: array, options: [.sortedKeys])
    return (data, added)
  }

  /// The existing `service_principal_entries.json` is not a JSON array (never quoted: it holds secrets).
  public struct MergeError: Error, CustomStringConvertible {
    public var description: String { "the existing service_principal_entries.json is not a JSON array" }
  }
}
