import Testing
import UnifiedCache

@Suite struct EnvironmentAliasTests {
  @Test func publicCloudHostsAreOneGroupPreferringLoginWindowsNet() {
    let group = EnvironmentAliases.group(forHost: "login.microsoftonline.com")
    #expect(group.name == "public" && group.isKnown)
    #expect(group.preferredCacheHost == "login.windows.net")
    for host in ["login.windows.net", "login.microsoft.com", "sts.windows.net", "LOGIN.MicrosoftOnline.COM:443"] {
      #expect(EnvironmentAliases.group(forHost: host) == group)
    }
  }

  @Test(arguments: [
    ("login.chinacloudapi.cn", "china", "login.partner.microsoftonline.cn"),
    ("login.microsoftonline.de", "germany", "login.microsoftonline.de"),
    ("login.usgovcloudapi.net", "usgov", "login.microsoftonline.us"),
    ("login-us.microsoftonline.com", "usgov-legacy", "login-us.microsoftonline.com"),
    ("sts.windows-ppe.net", "ppe", "login.windows-ppe.net"),
    ("login.microsoft-ppe.com", "ppe", "login.windows-ppe.net"),
    ("login.sovcloud-identity.fr", "bleu", "login.sovcloud-identity.fr"),
    ("login.sovcloud-identity.de", "delos", "login.sovcloud-identity.de"),
    ("login.sovcloud-identity.sg", "govsg", "login.sovcloud-identity.sg"),
  ])
  func sovereignGroups(host: String, name: String, preferred: String) {
    let group = EnvironmentAliases.group(forHost: host)
    #expect(group.name == name && group.preferredCacheHost == preferred && group.isKnown)
  }

  @Test func cloudsAreNotAliasesOfEachOther() {
    #expect(!EnvironmentAliases.areAliases("login.microsoftonline.com", "login.microsoftonline.us"))
    #expect(!EnvironmentAliases.areAliases("login.microsoftonline.de", "login.microsoftonline.com"))
    #expect(EnvironmentAliases.areAliases("login.partner.microsoftonline.cn", "login.chinacloudapi.cn"))
  }

  @Test func unknownHostIsItsOwnUnknownGroup() {
    let group = EnvironmentAliases.group(forHost: "FS.Contoso.com:8443")
    #expect(!group.isKnown)
    #expect(group.hosts == ["fs.contoso.com"] && group.preferredCacheHost == "fs.contoso.com")
    #expect(!EnvironmentAliases.areAliases("fs.contoso.com", "login.windows.net"))
    #expect(EnvironmentAliases.areAliases("fs.contoso.com.", "FS.CONTOSO.COM"))
  }
}
