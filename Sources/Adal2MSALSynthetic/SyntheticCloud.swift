import Foundation

/// A national cloud as ADAL saw it: its login hosts, its id-token issuer and the resources apps asked for.
public struct SyntheticCloud: Sendable, Hashable {
  public var name: String
  /// Hosts apps put in their authority (the first is the preferred one).
  public var loginHosts: [String]
  /// The v1 issuer host (`https://<host>/<tid>/`).
  public var issuerHost: String
  /// Resources (v1 audiences) access tokens are cached for.
  public var resources: [String]
  /// The tenants' initial domain suffix (`onmicrosoft.com`, `partner.onmschina.cn`, …).
  public var domainSuffix: String

  public static let all: [SyntheticCloud] = [
    SyntheticCloud(
      name: "public", loginHosts: ["login.microsoftonline.com", "login.windows.net"], issuerHost: "sts.windows.net",
      resources: [
        "https://graph.microsoft.com", "https://graph.windows.net", "https://outlook.office365.com",
        "https://api.spaces.skype.com", "https://%tenant%-my.sharepoint.com",
      ], domainSuffix: "onmicrosoft.com"),
    SyntheticCloud(
      name: "china", loginHosts: ["login.chinacloudapi.cn", "login.partner.microsoftonline.cn"],
      issuerHost: "sts.chinacloudapi.cn",
      resources: [
        "https://microsoftgraph.chinacloudapi.cn", "https://partner.outlook.cn", "https://%tenant%-my.sharepoint.cn",
      ],
      domainSuffix: "partner.onmschina.cn"),
    SyntheticCloud(
      name: "usgov", loginHosts: ["login.microsoftonline.us"], issuerHost: "login.microsoftonline.us",
      resources: ["https://graph.microsoft.us", "https://outlook.office365.us", "https://%tenant%-my.sharepoint.us"],
      domainSuffix: "onmicrosoft.us"),
  ]
}

/// A tenant: its id, its short name and its cloud.
public struct SyntheticTenant: Sendable, Hashable {
  public var id: String
  public var name: String
  public var cloud: SyntheticCloud

  public var domain: String { "\(name).\(cloud.domainSuffix)" }

  /// The tenant set of a seed: six public tenants, two in China, two in US Government.
  static func tenants(_ random: inout SyntheticRandom) -> [SyntheticTenant] {
    let names = [
      "contoso", "fabrikam", "northwind", "tailspin", "wingtip", "adatum", "litware", "proseware", "woodgrove",
      "fourthcoffee",
    ]
    var result: [SyntheticTenant] = []
    for (index, name) in names.enumerated() {
      let cloud = index < 6 ? SyntheticCloud.all[0] : index < 8 ? SyntheticCloud.all[1] : SyntheticCloud.all[2]
      result.append(SyntheticTenant(id: random.guid(), name: name, cloud: cloud))
    }
    return result
  }
}

/// The apps whose ADAL caches are dumped: a line-of-business app and Office apps (family members).
public enum SyntheticApps {
  /// Client ids apps pass to ADAL (the LOB app in upper case, as some apps pass it).
  public static let clientIDs = [
    "C1E8E3B2-7D4A-4F5E-9B6C-0A1B2C3D4E5F", "d3590ed6-52b3-4102-aeff-aad2292ab01c",
    "27922004-5251-4030-b22d-91ecd9a37ea4",
  ]
  /// The keychain access group ADAL's shared cache uses.
  public static let accessGroup = "UBF8T346G9.com.microsoft.adalcache"
  /// ADAL's keychain `gena` for cache items.
  public static let generic = "MSOpenTech.ADAL.1"
  /// The key ADAL writes for "no resource" in `svce`.
  public static let nilKey = "CC3513A0-0E69-4B4D-97FC-DFB6C91EE132"
}
