#!/usr/bin/env python3
"""The straightforward ADAL -> MSAL migration a user would write in an afternoon.

The yardstick of `adal2msal-bench compare` (issue 23): adal2msal should be much faster than this. It is
deliberately plain: plistlib, a walk over each item's NSKeyedArchiver objects, one dict per entity type to
drop duplicates, sqlite3 executemany into one plain table per entity type. No optimisation tricks, no
identity rules beyond `oid.tid`, no report, no provenance.

    python3 straightforward_migrate.py DUMP.plist OUT.sqlite [--now 2026-01-01T00:00:00Z]
"""
import base64
import datetime
import json
import plistlib
import sqlite3
import sys
from urllib.parse import urlparse

APPLE_EPOCH = 978307200  # 2001-01-01 in Unix seconds: NSDate's reference date


def load_archive(data):
    """The root object of an NSKeyedArchiver archive, with a function that resolves references."""
    archive = plistlib.loads(data)
    objects = archive["$objects"]

    def resolve(value):
        if isinstance(value, plistlib.UID):
            value = objects[value.data]
        if value == "$null":
            return None
        if isinstance(value, dict):
            if "NS.time" in value:
                return value["NS.time"] + APPLE_EPOCH
            if "NS.string" in value:
                return value["NS.string"]
            if "NS.keys" in value:
                return {resolve(k): resolve(v) for k, v in zip(value["NS.keys"], value["NS.objects"])}
            if "NS.objects" in value:
                return [resolve(v) for v in value["NS.objects"]]
        return value

    return resolve(archive["$top"]["root"]), resolve


def field(obj, resolve, name):
    return resolve(obj.get(name)) if isinstance(obj, dict) else None


def jwt_claims(token):
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, AttributeError):
        return {}


def migrate(dump_path, out_path, now):
    with open(dump_path, "rb") as f:
        items = plistlib.load(f)
    accounts, access_tokens, refresh_tokens, id_tokens, app_metadata = {}, {}, {}, {}, {}
    for item in items:
        if item.get("gena") != b"MSOpenTech.ADAL.1" or "v_Data" not in item:
            continue
        try:
            root, resolve = load_archive(item["v_Data"])
        except Exception:
            continue
        authority = field(root, resolve, "authority")
        client_id = field(root, resolve, "clientId")
        if not authority or not client_id:
            continue
        user = field(root, resolve, "userInformation")
        id_token = field(user, resolve, "rawIdToken")
        claims = jwt_claims(id_token) if id_token else {}
        home = field(root, resolve, "homeAccountId")
        if not home:
            if "oid" not in claims or "tid" not in claims:
                continue
            home = claims["oid"] + "." + claims["tid"]
        url = urlparse(authority)
        environment = url.netloc.lower()
        realm = url.path.strip("/").split("/")[0] or claims.get("tid", "")
        if realm in ("common", "organizations", "consumers"):
            realm = claims.get("tid", realm)
        family = field(root, resolve, "familyId")
        username = (claims.get("preferred_username") or claims.get("upn") or claims.get("unique_name")
                    or field(user, resolve, "userId"))
        accounts[(home, environment, realm)] = (
            home, environment, realm, claims.get("oid"), username, "MSSTS", claims.get("name"),
            claims.get("given_name"), claims.get("family_name"))
        if client_id.startswith("foci-"):
            # A family token (FRT): its app is the one that signed in, the id token's audience.
            family, client_id = client_id[len("foci-"):], claims.get("aud") or client_id
        refresh = field(root, resolve, "refreshToken")
        if refresh:
            refresh_tokens[(home, environment, family or client_id)] = (
                home, environment, client_id, refresh, family)
        access = field(root, resolve, "accessToken")
        resource = field(root, resolve, "resource")
        expires = field(root, resolve, "expiresOn")
        if access and resource and expires and expires > now:
            cached = field(root, resolve, "cachedAt") or now
            server = field(root, resolve, "additionalServer") or {}
            extended = server.get("ext_expires_on")
            target = resource + "/.default"
            access_tokens[(home, environment, client_id, realm, target)] = (
                home, environment, client_id, realm, target, access, int(cached), int(expires),
                int(extended) if extended else None)
        if id_token and id_token.count(".") == 2:
            id_tokens[(home, environment, realm, client_id)] = (home, environment, realm, client_id, id_token)
        app_metadata[(environment, client_id)] = (environment, client_id, family)

    db = sqlite3.connect(out_path)
    db.executescript("""
        CREATE TABLE accounts (home_account_id TEXT, environment TEXT, realm TEXT, local_account_id TEXT,
          username TEXT, authority_type TEXT, name TEXT, given_name TEXT, family_name TEXT);
        CREATE TABLE access_tokens (home_account_id TEXT, environment TEXT, client_id TEXT, realm TEXT,
          target TEXT, secret TEXT, cached_at INTEGER, expires_on INTEGER, extended_expires_on INTEGER);
        CREATE TABLE refresh_tokens (home_account_id TEXT, environment TEXT, client_id TEXT, secret TEXT,
          family_id TEXT);
        CREATE TABLE id_tokens (home_account_id TEXT, environment TEXT, realm TEXT, client_id TEXT, secret TEXT);
        CREATE TABLE app_metadata (environment TEXT, client_id TEXT, family_id TEXT);
    """)
    db.executemany("INSERT INTO accounts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", accounts.values())
    db.executemany("INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", access_tokens.values())
    db.executemany("INSERT INTO refresh_tokens VALUES (?, ?, ?, ?, ?)", refresh_tokens.values())
    db.executemany("INSERT INTO id_tokens VALUES (?, ?, ?, ?, ?)", id_tokens.values())
    db.executemany("INSERT INTO app_metadata VALUES (?, ?, ?)", app_metadata.values())
    db.commit()
    db.close()
    counts = [len(accounts), len(access_tokens), len(refresh_tokens), len(id_tokens), len(app_metadata)]
    print("%d items: %d accounts, %d access tokens, %d refresh tokens, %d id tokens, %d app metadata"
          % (len(items), *counts))


if __name__ == "__main__":
    args = sys.argv[1:]
    now = datetime.datetime.now(datetime.timezone.utc).timestamp()
    if "--now" in args:
        at = args.index("--now")
        now = datetime.datetime.fromisoformat(args[at + 1].replace("Z", "+00:00")).timestamp()
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    migrate(args[0], args[1], now)
