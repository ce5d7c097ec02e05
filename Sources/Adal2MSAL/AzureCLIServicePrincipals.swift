import ADALCache
import Adal2MSALSupport
import Foundation
import UnifiedCache

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

    /// The entry as Azure CLI 2.30+ stores it, keys sorted.
    var json: JSONObject {
      var object: JSONObject = [:]
      if let certificate { object["certificate"] = .string(certificate) }
      object["client_id"] = .string(clientID)
      if let clientSecret { object["client_secret"] = .string(clientSecret.value) }
      object["tenant"] = .string(tenant)
      return object
    }
  }

  /// Every service-principal entry of the JSON arrays among `paths` (directories expanded, `runFiles` such as the
  /// run's store passed over), in input order. Files that are not JSON arrays are passed over: `migrate` has read
  /// and judged every input already.
  public static func collect(fromADAL paths: [String], passingOver runFiles: [String] = [], limits: InputLimits)
    throws -> [Entry]
  {
    var entries: [Entry] = []
    for path in try InputFile.expand(paths, passingOver: runFiles) {
      // A file a directory run skipped (a broken link, a FIFO) was named by `migrate` already.
      guard let data = try? InputFile.read(path, limits: limits) else { continue }
      guard let array = (try? JSONParser(limits: limits).parse(data))?.arrayValue else { continue }
      for object in array.compactMap(\.objectValue) {
        guard let id = object["servicePrincipalId"]?.stringValue,
          let tenant = object["servicePrincipalTenant"]?.stringValue
        else { continue }
        // Azure CLI wrote the secret as accessToken; its own tests also use "secret".
        let secret = object["accessToken"]?.stringValue ?? object["secret"]?.stringValue
        let certificate = object["certificateFile"]?.stringValue
        guard secret != nil || certificate != nil else { continue }
        entries.append(
          Entry(clientID: id, tenant: tenant, clientSecret: secret.map { ADALSecret($0) }, certificate: certificate))
      }
    }
    return entries
  }

  /// `service_principal_entries.json`: the `existing` file's entries (kept as they are, members and number text
  /// in their order) and then each of `entries` whose client id and tenant it does not hold yet, so that a re-run
  /// adds nothing twice. One line of JSON, as `JSONText.compact` writes it.
  public static func merged(_ entries: [Entry], into existing: Data?) throws -> (data: Data, added: Int) {
    var array: [JSONValue] = []
    if let existing, !existing.isEmpty {
      let old: JSONValue
      do {
        old = try JSONParser().parse(existing)
      } catch {
        // The parser's message may show the character it stopped at: a secret's, here. The place is enough.
        throw MergeError(reason: "is not valid JSON (at byte \(error.location.byteOffset ?? 0))")
      }
      guard let items = old.arrayValue else { throw MergeError(reason: "is not a JSON array") }
      array = items
    }
    func key(_ object: JSONObject?) -> String? {
      guard let id = object?["client_id"]?.stringValue, let tenant = object?["tenant"]?.stringValue else { return nil }
      return "\(id.lowercased())|\(tenant.lowercased())"
    }
    var known = Set(array.compactMap { key($0.objectValue) })
    var added = 0
    for entry in entries where known.insert(key(entry.json) ?? "").inserted {
      array.append(.object(entry.json))
      added += 1
    }
    return (Data(JSONText.compact(.array(array)).utf8), added)
  }

  /// The existing `service_principal_entries.json` cannot be merged into (its content is never quoted: it holds
  /// secrets).
  public struct MergeError: Error, CustomStringConvertible {
    /// What is wrong with the file: "is not a JSON array", or "is not valid JSON (at byte N)".
    public var reason: String
    public var description: String { "the existing service_principal_entries.json \(reason)" }
  }
}
