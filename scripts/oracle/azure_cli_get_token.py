#!/usr/bin/env python3
"""Runs the real Azure CLI (azure-cli-core's Profile.get_raw_token, the code of `az account get-access-token`)
on a migrated Azure CLI directory, with the network faked, and checks every subscription's token.

Usage: azure_cli_get_token.py --config-dir DIR --adal ACCESS_TOKENS_JSON [--now TIME]
                              [--expect SUBSCRIPTION=cache|refresh|client_secret ...]

DIR holds what `adal2msal migrate --adal accessTokens.json --azure-cli-dir DIR` wrote (msal_token_cache.json,
service_principal_entries.json) and the azureProfile.json the user already had (the subscriptions, each with a
user name and type user or servicePrincipal). The script works on a private copy of those three files with
AZURE_CONFIG_DIR pointing to the copy, so DIR is never changed, and restores the copy before each subscription.
ACCESS_TOKENS_JSON is the ADAL-era file the migration read: the expected secrets come from it, not from the
migrated files. TIME pins time.time() (epoch seconds or ISO 8601 like 2099-11-20T09:30:00Z; default: now).

For each subscription of the active cloud in azureProfile.json, Profile(...).get_raw_token(subscription=ID)
(default scope: ARM, https://management.core.windows.net//.default) must return a token, and:
  user, served from cache   no token request; the token is the user's ADAL access token for
                            https://management.core.windows.net/ (the migrated one);
  user, refreshed           every token request is a refresh_token grant by Azure CLI's client id posting
                            exactly one of the user's ADAL refresh tokens, at the subscription's tenant; the
                            token is the one the fake IdP issued; afterwards msal_token_cache.json (as Azure
                            CLI persisted it) holds the new refresh token and no longer the redeemed one;
  servicePrincipal          one client_credentials request by the principal's client id whose client_secret
                            is the principal's ADAL secret (the entry's accessToken), at the subscription's
                            tenant; the token is the one the fake IdP issued.
--expect pins which of the three paths a subscription (id or name) must take; one that names no subscription
of the active cloud is a failure. --keep SUBSCRIPTION writes msal_token_cache.json as Azure CLI persisted it after
that subscription's check back into DIR, as `az account get-access-token --subscription ...` run on DIR itself
would have changed it (a refresh's new tokens), for a run that reads DIR again.

The fake network: requests.Session.get answers OpenID and instance discovery from the URL;
requests.Session.post is the token endpoint (accepts only the ADAL file's refresh tokens and client secrets);
sockets refuse to connect, so anything else fails loudly. Azure CLI's version check (which would go online) is
switched off.

Output (stdout, JSON): {"now", "checks": [{"subscription", "name", "user", "type", "tenant", "expect", "path",
"status": "pass"|"fail", "reason", "token", "requests": [{"url", "grant_type", "client_id", "scope",
"refresh_token", "client_secret"}]}], "log", "problems" (when any), "passed", "failed", "summary"}; the
summary also goes to stderr. Secrets never appear, only fingerprints "sha256:<12 hex>" (the output is scanned
for every known secret before it is printed). Exit 0 only when there was at least one check and every check
passed, 1 otherwise, 2 on bad usage.
"""
import argparse
import base64
import datetime
import json
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
import warnings
from unittest import mock

from fake_http import Response, fingerprint, openid_configuration

AZURE_CLI_CLIENT_ID = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
ARM_RESOURCE = "https://management.core.windows.net/"
FILES = ("msal_token_cache.json", "service_principal_entries.json", "azureProfile.json")
PATHS = ("cache", "refresh", "client_secret")


class UsageError(Exception):
    pass


class CheckFailed(Exception):
    pass


class NetworkBlocked(OSError):
    pass


def parse_now(text):
    if text is None:
        return int(time.time())
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())
    except ValueError:
        raise UsageError("--now %r is neither epoch seconds nor ISO 8601" % text)


class ADALFile:
    """The ADAL-era accessTokens.json: the secrets each check expects."""

    def __init__(self, path):
        with open(path, encoding="utf-8-sig") as handle:
            entries = json.load(handle)
        if not isinstance(entries, list):
            raise UsageError("%s is not an ADAL Python token list" % path)
        self.users = [e for e in entries if isinstance(e, dict) and "servicePrincipalId" not in e]
        self.principals = [e for e in entries if isinstance(e, dict) and "servicePrincipalId" in e]

    def of_user(self, username):
        return [e for e in self.users if (e.get("userId") or "").lower() == username.lower()
                and e.get("_clientId") == AZURE_CLI_CLIENT_ID]

    def refresh_tokens(self, username=None):
        entries = self.of_user(username) if username else self.users
        return {e["refreshToken"] for e in entries if e.get("refreshToken")}

    def arm_access_tokens(self, username):
        return {e["accessToken"] for e in self.of_user(username) if e.get("resource") == ARM_RESOURCE}

    def secret_of(self, client_id):
        return {e.get("accessToken") for e in self.principals if e.get("servicePrincipalId") == client_id}

    def secrets(self):
        found = set()
        for e in self.users + self.principals:
            found.update(v for k, v in e.items() if k in ("accessToken", "refreshToken") and isinstance(v, str))
        return found


class FakeIdp:
    """The token endpoint: redeems the ADAL refresh tokens (Azure CLI's client id) and the principals' secrets."""

    def __init__(self, adal, home_of_refresh_token):
        self.adal = adal
        self.home_of_refresh_token = home_of_refresh_token
        self.issued_count = 0
        self.issued = []
        self.reset()

    def reset(self):
        self.posts = []
        self.issued_now = []

    def get(self, url, params=None, headers=None, **kwargs):
        if "/common/discovery/instance" in url:  # MSAL asks after a token error (and for unknown hosts)
            host = url.split("://", 1)[-1].split("/", 1)[0]
            return Response(200, {"api-version": "1.1", "tenant_discovery_endpoint":
                                  "https://%s/common/v2.0/.well-known/openid-configuration" % host,
                                  "metadata": [{"preferred_network": host, "preferred_cache": host,
                                                "aliases": [host]}]})
        return openid_configuration(url, "azure_cli_get_token fake")

    def post(self, url, params=None, data=None, headers=None, **kwargs):
        data = dict(data or {})
        self.posts.append({"url": url, "grant_type": data.get("grant_type"), "client_id": data.get("client_id"),
                           "scope": data.get("scope"), "refresh_token": data.get("refresh_token"),
                           "client_secret": data.get("client_secret")})
        grant, client_id = data.get("grant_type"), data.get("client_id")
        if grant == "refresh_token":
            accepted = client_id == AZURE_CLI_CLIENT_ID and data.get("refresh_token") in self.adal.refresh_tokens()
        elif grant == "client_credentials":
            accepted = bool(data.get("client_secret")) and data.get("client_secret") in self.adal.secret_of(client_id)
        else:
            return Response(400, {"error": "unsupported_grant_type", "error_description": "azure_cli fake"})
        if not accepted:
            return Response(400, {"error": "invalid_grant", "error_description": "azure_cli fake: not accepted"})
        self.issued_count += 1
        answer = {"access_token": "azure-cli-fake-at-%d" % self.issued_count, "token_type": "Bearer",
                  "expires_in": 3599, "ext_expires_in": 3599,
                  "scope": " ".join(s for s in (data.get("scope") or "").split()
                                    if s not in ("openid", "profile", "offline_access"))}
        if grant == "refresh_token":
            answer["refresh_token"] = "azure-cli-fake-rt-%d" % self.issued_count
            home = self.home_of_refresh_token.get(data.get("refresh_token"))
            if home and "." in home:
                uid, utid = home.split(".", 1)
                info = json.dumps({"uid": uid, "utid": utid}).encode()
                answer["client_info"] = base64.urlsafe_b64encode(info).decode().rstrip("=")
        self.issued.append(answer)
        self.issued_now.append(answer)
        return Response(200, answer)


def refresh_tokens_in(path):
    try:
        with open(path, encoding="utf-8-sig") as handle:
            state = json.load(handle)
    except (OSError, ValueError):
        return {}
    return {rt.get("secret"): rt.get("home_account_id") for rt in (state.get("RefreshToken") or {}).values()
            if isinstance(rt, dict)}


def cache_secrets(path):
    try:
        with open(path, encoding="utf-8-sig") as handle:
            state = json.load(handle)
    except (OSError, ValueError):
        return set()
    return {e.get("secret") for section in state.values() if isinstance(section, dict)
            for e in section.values() if isinstance(e, dict) and isinstance(e.get("secret"), str)}


def tenant_of(url):
    # https://login.microsoftonline.com/<tenant>/oauth2/v2.0/token
    parts = url.split("://", 1)[-1].split("/")
    return parts[1] if len(parts) > 1 else None


class Run:
    def __init__(self, source, work, adal, now, expectations, keep=None):
        self.source, self.work, self.adal, self.now = source, work, adal, now
        self.expectations = expectations
        self.keep, self.kept = (keep or "").lower(), None
        self.idp = FakeIdp(adal, refresh_tokens_in(os.path.join(source, "msal_token_cache.json")))

    def restore(self):
        """The work directory as the migration left DIR, and Azure CLI's in-process singletons forgotten."""
        for name in os.listdir(self.work):
            os.remove(os.path.join(self.work, name))
        for name in FILES:
            if os.path.exists(os.path.join(self.source, name)):
                shutil.copy2(os.path.join(self.source, name), os.path.join(self.work, name))
        from azure.cli.core.auth.identity import Identity
        Identity._msal_token_cache = None
        Identity._msal_http_cache = None
        Identity._service_principal_store_instance = None
        self.idp.reset()

    def check(self, subscription):
        from azure.cli.core import get_default_cli
        from azure.cli.core._profile import Profile
        self.restore()
        user = subscription.get("user") or {}
        username, kind = user.get("name") or "", user.get("type")
        expected_tenant = subscription.get("tenantId")
        (token_type, token, entry), _, tenant = Profile(cli_ctx=get_default_cli()).get_raw_token(
            subscription=subscription["id"])
        self.token = token
        if not token:
            raise CheckFailed("get_raw_token returned no token")
        if tenant != expected_tenant:
            raise CheckFailed("get_raw_token answered for tenant %s, the subscription's is %s" % (
                tenant, expected_tenant))
        posts = self.idp.posts
        wrong_tenant = [p["url"] for p in posts if tenant_of(p["url"]) != expected_tenant]
        if wrong_tenant:
            raise CheckFailed("token request(s) went to another tenant: %s" % ", ".join(wrong_tenant))
        if kind == "servicePrincipal":
            return self.service_principal(username, token, posts)
        if kind == "user":
            return self.user(username, token, posts)
        raise CheckFailed("user type %r is none this check knows" % kind)

    def user(self, username, token, posts):
        if not posts:
            if token not in self.adal.arm_access_tokens(username):
                raise CheckFailed("served %s from the cache without a request, but that is not %s's ADAL access token "
                                  "for %s" % (fingerprint(token), username, ARM_RESOURCE))
            return "cache", "served the migrated ADAL access token %s from the cache, no token request" % (
                fingerprint(token))
        own = self.adal.refresh_tokens(username)
        for post in posts:
            if post["grant_type"] != "refresh_token" or post["client_id"] != AZURE_CLI_CLIENT_ID:
                raise CheckFailed("sent a %s request by client %s, expected only refresh_token by Azure CLI" % (
                    post["grant_type"], post["client_id"]))
            if post["refresh_token"] not in own:
                raise CheckFailed("posted refresh token %s, which is not one of %s's ADAL refresh tokens (%s)" % (
                    fingerprint(post["refresh_token"]), username, ", ".join(sorted(map(fingerprint, own))) or "none"))
        if not self.idp.issued_now or token != self.idp.issued_now[-1]["access_token"]:
            raise CheckFailed("returned %s, not the access token the refresh issued" % fingerprint(token))
        redeemed, new_rt = posts[-1]["refresh_token"], self.idp.issued_now[-1]["refresh_token"]
        persisted = refresh_tokens_in(os.path.join(self.work, "msal_token_cache.json"))
        if new_rt not in persisted or redeemed in persisted:
            raise CheckFailed("after the refresh msal_token_cache.json holds %s, expected the new %s instead of %s" % (
                ", ".join(sorted(map(fingerprint, persisted))) or "no refresh token", fingerprint(new_rt),
                fingerprint(redeemed)))
        return "refresh", ("redeemed the ADAL refresh token %s (scope %s); Azure CLI saved the new one %s in its "
                           "place" % (fingerprint(redeemed), posts[-1]["scope"], fingerprint(new_rt)))

    def service_principal(self, client_id, token, posts):
        secrets = self.adal.secret_of(client_id)
        if not secrets:
            raise CheckFailed("the ADAL file has no service principal %s" % client_id)
        if len(posts) != 1 or posts[0]["grant_type"] != "client_credentials" or posts[0]["client_id"] != client_id:
            raise CheckFailed("expected one client_credentials request by %s, saw %s" % (client_id, ", ".join(
                "%s by %s" % (p["grant_type"], p["client_id"]) for p in posts) or "none"))
        if posts[0]["client_secret"] not in secrets:
            raise CheckFailed("posted client_secret %s, the ADAL secret is %s" % (
                fingerprint(posts[0]["client_secret"]), ", ".join(sorted(map(fingerprint, secrets)))))
        if not self.idp.issued_now or token != self.idp.issued_now[-1]["access_token"]:
            raise CheckFailed("returned %s, not the access token the fake IdP issued" % fingerprint(token))
        return "client_secret", "posted the ADAL secret %s as client_secret, got %s" % (
            fingerprint(posts[0]["client_secret"]), fingerprint(token))

    def run(self, subscription):
        user = subscription.get("user") or {}
        expect = self.expectations.get(subscription.get("id", "").lower()) or self.expectations.get(
            (subscription.get("name") or "").lower())
        result = {"subscription": subscription.get("id"), "name": subscription.get("name"),
                  "user": user.get("name"), "type": user.get("type"), "tenant": subscription.get("tenantId"),
                  "expect": expect, "path": None}
        self.token = None
        try:
            path, reason = self.check(subscription)
            result["path"] = path
            if expect and path != expect:
                raise CheckFailed("took the %s path, expected %s (%s)" % (path, expect, reason))
            result.update(status="pass", reason=reason)
        except CheckFailed as why:
            result.update(status="fail", reason=str(why))
        except Exception as error:  # noqa: BLE001 - Azure CLI refusing the files is a finding, not a crash
            result.update(status="fail", reason="raised %s: %s" % (type(error).__name__, str(error)[:400]))
        if self.keep and self.keep in ((subscription.get("id") or "").lower(), (subscription.get("name") or "").lower()):
            with open(os.path.join(self.work, "msal_token_cache.json"), "rb") as handle:
                self.kept = handle.read()
        result["token"] = fingerprint(self.token) if self.token else None
        result["requests"] = [{"url": p["url"], "grant_type": p["grant_type"], "client_id": p["client_id"],
                               "scope": p["scope"],
                               "refresh_token": fingerprint(p["refresh_token"]) if p["refresh_token"] else None,
                               "client_secret": fingerprint(p["client_secret"]) if p["client_secret"] else None}
                              for p in self.idp.posts]
        return result


class Captured(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        try:
            self.lines.append("%s %s: %s" % (record.levelname, record.name, record.getMessage()[:400]))
        except Exception:  # noqa: BLE001
            pass


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config-dir", required=True)
    parser.add_argument("--adal", required=True)
    parser.add_argument("--now")
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--keep")
    options = parser.parse_args(argv[1:])
    expectations = {}
    for item in options.expect:
        key, _, path = item.rpartition("=")
        if not key or path not in PATHS:
            raise UsageError("--expect %r: SUBSCRIPTION=%s" % (item, "|".join(PATHS)))
        expectations[key.lower()] = path
    profile_path = os.path.join(options.config_dir, "azureProfile.json")
    try:
        with open(profile_path, encoding="utf-8-sig") as handle:
            profile = json.load(handle)
        adal = ADALFile(options.adal)
    except (OSError, ValueError) as error:
        raise UsageError(str(error))
    if not isinstance(profile.get("subscriptions"), list):
        raise UsageError("%s has no subscriptions list" % profile_path)
    return options, expectations, profile, adal, parse_now(options.now)


def main(argv):
    try:
        options, expectations, profile, adal, now = parse_args(argv)
    except UsageError as error:
        print("bad usage: %s" % error, file=sys.stderr)
        return 2
    source = os.path.abspath(options.config_dir)
    work = tempfile.mkdtemp(prefix="azure-cli-config-")
    os.environ["AZURE_CONFIG_DIR"] = work  # read when azure.cli.core is imported
    os.environ["AZURE_CORE_COLLECT_TELEMETRY"] = "false"
    for name in ("AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID", "MSI_ENDPOINT", "ACC_CLOUD"):
        os.environ.pop(name, None)
    captured = Captured()
    logging.getLogger().addHandler(captured)
    run = Run(source, work, adal, now, expectations, options.keep)
    output = {"now": now, "checks": []}

    def refuse(*args, **kwargs):
        raise NetworkBlocked("azure_cli_get_token.py: no network (%r)" % (args[1:] if len(args) > 1 else args,))

    import requests
    try:
        with mock.patch("time.time", lambda: float(now)), \
                mock.patch.object(socket.socket, "connect", refuse), \
                mock.patch.object(socket, "create_connection", refuse), \
                mock.patch.object(requests.Session, "get", lambda session, url, **kw: run.idp.get(url, **kw)), \
                mock.patch.object(requests.Session, "post", lambda session, url, **kw: run.idp.post(url, **kw)), \
                mock.patch.object(requests.Session, "request", refuse), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import azure.cli.core.util
            with mock.patch.object(azure.cli.core.util, "handle_version_update", lambda: None):
                from azure.cli.core import get_default_cli
                run.restore()
                cloud = get_default_cli().cloud.name
                for subscription in profile["subscriptions"]:
                    if isinstance(subscription, dict) and subscription.get("environmentName", cloud) == cloud:
                        output["checks"].append(run.run(subscription))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if run.kept is not None:
        with open(os.path.join(source, "msal_token_cache.json"), "wb") as handle:
            handle.write(run.kept)
    statuses = [c["status"] for c in output["checks"]]
    output["log"] = captured.lines
    output["passed"], output["failed"] = statuses.count("pass"), statuses.count("fail")
    problems = []
    if not statuses:
        problems.append("no subscription of the active cloud in azureProfile.json")
    named = {(c.get(k) or "").lower() for c in output["checks"] for k in ("subscription", "name")}
    problems += ["--expect %s=%s names no checked subscription" % (key, path)
                 for key, path in sorted(expectations.items()) if key not in named]
    if options.keep and run.kept is None:
        problems.append("--keep %s names no checked subscription" % options.keep)
    if problems:
        output["failed"] += len(problems)
        output["problems"] = problems
    output["summary"] = "%d passed, %d failed" % (output["passed"], output["failed"])

    # Secrets never leave: anything known to be secret is replaced by its fingerprint, and that is a failure.
    text = json.dumps(output, indent=2)
    secrets = adal.secrets() | cache_secrets(os.path.join(source, "msal_token_cache.json"))
    secrets |= {v for answer in run.idp.issued for k, v in answer.items() if k in ("access_token", "refresh_token")}
    leaked = sorted(s for s in secrets if s and len(s) >= 8 and s in text)
    if leaked:
        for secret in leaked:
            text = text.replace(secret, fingerprint(secret))
        output = json.loads(text)
        output["failed"] += 1
        output["problems"] = output.get("problems", []) + ["secret(s) %s reached the output (redacted)" % ", ".join(
            fingerprint(s) for s in leaked)]
        output["summary"] = "%d passed, %d failed" % (output["passed"], output["failed"])
        text = json.dumps(output, indent=2)
    print(text)
    print(output["summary"], file=sys.stderr)
    return 0 if output["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
