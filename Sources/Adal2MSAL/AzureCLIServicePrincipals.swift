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
    /// The ADAL file and the item of its array the entry was read from.
    public var source: SourceLocation

    public var description: String { "\(clientID) in \(tenant) (\(credential))" }

    var credential: String { AzureCLIServicePrincipals.credential(clientSecret?.fingerprint, certificate) }

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
      for (index, object) in array.enumerated() {
        guard let object = object.objectValue, let id = object["servicePrincipalId"]?.stringValue,
          let tenant = object["servicePrincipalTenant"]?.stringValue
        else { continue }
        // Azure CLI wrote the secret as accessToken; its own tests also use "secret".
        let secret = object["accessToken"]?.stringValue ?? object["secret"]?.stringValue
        let certificate = object["certificateFile"]?.stringValue
        guard secret != nil || certificate != nil else { continue }
        entries.append(
          Entry(
            clientID: id, tenant: tenant, clientSecret: secret.map { ADALSecret($0) }, certificate: certificate,
            source: SourceLocation(file: path, itemIndex: index)))
      }
    }
    return entries
  }

  /// What `merged` made of the file and the inputs' entries.
  public struct Merge: Sendable {
    /// `service_principal_entries.json` as it is to be written.
    public var data: Data
    /// How many of the entries were new to the file.
    public var added: Int
    /// How many the file already held, with the same credential.
    public var alreadyThere: Int
    /// How many repeated an entry of the inputs read first, with the same credential (an SP file given twice).
    public var repeated: Int
    /// A warning (`leftOutCode`) for each entry not written because the file, or an earlier entry, holds another
    /// credential for its client id and tenant. An entry whose credential is the one kept is not named.
    public var diagnostics: [Diagnostic]
  }

  /// The code of the warning that names an entry left out for another credential of the same service principal.
  public static let leftOutCode = "azure-cli.service-principal-kept"

  /// `service_principal_entries.json`: the `existing` file's entries (kept as they are, members and number text
  /// in their order) and then each of `entries` whose client id and tenant it does not hold yet, so that a re-run
  /// adds nothing twice. One line of JSON, as `JSONText.compact` writes it. The file's entry for a service principal
  /// wins, as it is the one Azure CLI signs in with now; between the inputs, the first.
  public static func merged(_ entries: [Entry], into existing: Data?) throws -> Merge {
    func key(_ object: JSONObject?) -> String? {
      guard let id = object?["client_id"]?.stringValue, let tenant = object?["tenant"]?.stringValue else { return nil }
      return "\(id.lowercased())|\(tenant.lowercased())"
    }
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
      // Azure CLI writes each service principal with its `client_id` and `tenant`: another array (ADAL's
      // accessTokens.json linked or copied there) is no such file, and merging into it wrote its user tokens back
      // into Azure CLI's service principals.
      if let index = items.firstIndex(where: { key($0.objectValue) == nil }) {
        throw MergeError(reason: "holds entry \(index), which is no service principal (no client_id and tenant)")
      }
      array = items
    }
    var kept: [String: Kept] = [:]
    for object in array.compactMap(\.objectValue) {
      if let key = key(object), kept[key] == nil { kept[key] = Kept(existing: object) }
    }
    var (added, alreadyThere, repeated) = (0, 0, 0)
    var diagnostics: [Diagnostic] = []
    for entry in entries {
      let key = key(entry.json) ?? ""
      guard let other = kept[key] else {
        kept[key] = Kept(entry: entry)
        array.append(.object(entry.json))
        added += 1
        continue
      }
      guard other.secret != entry.clientSecret?.value || other.certificate != entry.certificate else {
        if other.isInFile { alreadyThere += 1 } else { repeated += 1 }
        continue
      }
      diagnostics.append(
        Diagnostic(
          .warning, code: leftOutCode,
          "service principal \(entry.clientID) in \(entry.tenant): \(entry.credential) left out: "
            + "service_principal_entries.json \(other.keeping)",
          at: entry.source))
    }
    return Merge(
      data: Data(JSONText.compact(.array(array)).utf8), added: added, alreadyThere: alreadyThere, repeated: repeated,
      diagnostics: diagnostics)
  }

  /// A credential as a message shows it: a secret by its fingerprint, a certificate by its file.
  static func credential(_ secretFingerprint: String?, _ certificate: String?) -> String {
    secretFingerprint.map { "secret \($0)" } ?? certificate.map { "certificate \($0)" } ?? "no credential"
  }

  /// The credential the merged file holds for a service principal, and what the file does with it.
  private struct Kept {
    var secret: String?
    var certificate: String?
    /// "already holds …, which Azure CLI signs in with", "gets … from FILE, item N, read first".
    var keeping: String
    /// Whether the file held it before the run.
    var isInFile: Bool

    init(existing object: JSONObject) {
      secret = object["client_secret"]?.stringValue
      certificate = object["certificate"]?.stringValue
      keeping =
        "already holds \(credential(secret.map { ADALSecret($0).fingerprint }, certificate)) for it, which Azure CLI "
        + "signs in with, and keeps it"
      isInFile = true
    }

    init(entry: Entry) {
      secret = entry.clientSecret?.value
      certificate = entry.certificate
      keeping = "gets \(entry.credential) for it, from \(entry.source), read first"
      isInFile = false
    }
  }

  /// The existing `service_principal_entries.json` cannot be merged into (its content is never quoted: it holds
  /// secrets).
  public struct MergeError: Error, LocalizedError, CustomStringConvertible, Sendable {
    /// What is wrong with the file: "is not a JSON array", "is not valid JSON (at byte N)", or "holds entry N, which
    /// is no service principal (…)".
    public var reason: String
    public var description: String { "the existing service_principal_entries.json \(reason)" }
    public var errorDescription: String? { description }
  }
}
