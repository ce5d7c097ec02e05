// The umbrella for pipeline authors: `import Adal2MSAL` gives every stage.
@_exported import ADALCache
@_exported import Adal2MSALSupport
@_exported import CacheStore
@_exported import MigrationEngine
@_exported import PropertyLists
@_exported import UnifiedCache
