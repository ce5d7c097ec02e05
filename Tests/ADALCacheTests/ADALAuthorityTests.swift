import ADALCache
import Testing

@Suite("Authority split")
struct ADALAuthorityTests {
  @Test(arguments: [
    ("https://login.microsoftonline.com/common", "login.microsoftonline.com", "common"),
    ("https://Login.Windows.NET/Contoso.onmicrosoft.com/", "login.windows.net", "Contoso.onmicrosoft.com"),
    (
      "https://login.microsoftonline.com/tfp/contoso.onmicrosoft.com/B2C_1_signin", "login.microsoftonline.com",
      "contoso.onmicrosoft.com"
    ),
    ("https://adfs.contoso.com:8443/adfs?x=1", "adfs.contoso.com:8443", "adfs"),
    ("https://adfs.contoso.com:443/adfs", "adfs.contoso.com", "adfs"),
    ("http://localhost:80/t#frag", "localhost", "t"),
    ("https://user@host.example.com/t", "host.example.com", "t"),
    ("https://[::1]:8443/t", "[::1]:8443", "t"),
    ("  https://login.chinacloudapi.cn/tenant-id", "login.chinacloudapi.cn", "tenant-id"),
  ])
  func splits(_ authority: String, _ environment: String, _ tenant: String) throws {
    let parsed = try #require(ADALAuthority(authority))
    #expect(parsed.environment == environment)
    #expect(parsed.tenant == tenant)
    #expect(parsed.original == authority)
  }

  @Test func noTenantAndNotURLs() {
    #expect(ADALAuthority("https://login.windows.net")?.tenant == nil)
    #expect(ADALAuthority("https://login.windows.net/tfp/")?.tenant == nil)
    #expect(ADALAuthority("login.windows.net/common") == nil)
    #expect(ADALAuthority("https:///common") == nil)
    #expect(ADALAuthority("") == nil)
  }
}
