"""The client matrix's steps with the MCP Python SDK (`mcp`) and FastMCP's client (`fastmcp`).

Run by hand in a virtual environment outside the repository (see README.md beside this file); it is
not part of `npm test`. Each step prints PASS or FAIL with what the client showed, and the HTTP
exchanges of the logins, as the TypeScript matrix does (tests/integration/client-matrix.test.ts).

    python client_matrix.py http://localhost:4390/mcp --query "fuga de agua" [--data-dir DIR]

`--data-dir` is the server's AGENT_API_DATA_DIR: with it the refresh step moves the access token's
expiry in the site's sqlite store to the past and the SDK's clock an hour on, as an hour would, and
checks the client refreshes (the Python SDK refreshes a token it knows expired; after a 401 alone it
sends the person to authorize again).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import re
import secrets
import sqlite3
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx2
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, oauth2
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
)
from mcp.client.streamable_http import streamable_http_client
from mcp.shared import auth_utils
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

SCOPE = "content:read quota:read"
# The wait a refusal states: "retry in 58 s", "wait 58 seconds".
WAIT = re.compile(r"\b(?:retry|wait)[^.\d]{0,20}?(\d+) ?s(?:econds?)?\b", re.IGNORECASE)
REDIRECT_URL = "http://127.0.0.1:33418/callback"


class MemoryStorage:
    """The app's token store (the SDK's TokenStorage), optionally starting from a token the server forgot."""

    def __init__(self, tokens: OAuthToken | None = None) -> None:
        self.tokens = tokens
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Wire:
    """The HTTP exchanges of one client, as lines `POST http://…/mcp [Bearer] → 401`."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    async def note(self, response: httpx2.Response) -> None:
        scheme = response.request.headers.get("authorization", "").split(" ")[0]
        self.lines.append(f"{response.request.method} {response.request.url}{f' [{scheme}]' if scheme else ''} → {response.status_code}")


class HourLater:
    """The clock of the SDK's OAuth modules an hour on."""

    @staticmethod
    def time() -> float:
        return time.time() + 3601


def innermost(error: BaseException) -> BaseException:
    """The error an SDK call raised, out of the task groups that carried it."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def stale_token() -> OAuthToken:
    return OAuthToken(access_token="agt_at_" + base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("="))


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


def json_of(result) -> dict:
    return json.loads(text_of(result))


def connect(mcp_url: str, auth: httpx2.Auth | None = None, wire: Wire | None = None) -> Client:
    """A Client over Streamable HTTP with the app's httpx2 client (its auth and a log of its exchanges)."""
    hooks = {"response": [wire.note]} if wire else {}
    http = httpx2.AsyncClient(auth=auth, event_hooks=hooks, timeout=httpx2.Timeout(30, read=300))
    return Client(streamable_http_client(mcp_url, http_client=http))


class Matrix:
    def __init__(self, mcp_url: str, query: str, data_dir: Path | None) -> None:
        self.mcp_url = mcp_url
        self.origin = f"{urlsplit(mcp_url).scheme}://{urlsplit(mcp_url).netloc}"
        self.query = query
        self.data_dir = data_dir
        self.results: list[tuple[str, bool, str]] = []
        self.http = httpx2.AsyncClient(timeout=30)
        self.page_url: str | None = None

    async def step(self, name: str, body: Callable[[], Awaitable[str | None]]) -> None:
        try:
            note = await body()
            self.results.append((name, True, note or ""))
            print(f"PASS {name}{f': {note}' if note else ''}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is the step's result
            cause = innermost(error)
            message = f"{type(cause).__name__}: {cause}"
            self.results.append((name, False, message))
            print(f"FAIL {name}: {message}", flush=True)
            if "--traceback" in sys.argv:
                traceback.print_exc()

    async def register(self, body: dict) -> dict:
        response = await self.http.post(f"{self.origin}/oauth/register", json=body)
        if response.status_code != 201:
            raise AssertionError(f"registration answered {response.status_code}: {response.text}")
        return response.json()

    async def assert_identified(self, client: Client, client_id: str | None = None) -> dict:
        result = await client.call_tool("get_quota", {})
        if result.is_error:
            raise AssertionError(f"the model read no identified quota: {text_of(result)[:300]}")
        quota = json_of(result)
        if client_id is not None and quota.get("client_id") != client_id:
            raise AssertionError(f"the quota read is {quota.get('client_id')}'s, not {client_id}'s")
        return quota

    # The steps, as in tests/integration/client-matrix.test.ts.

    async def connects_and_lists(self) -> str:
        async with Client(self.mcp_url) as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            resources = (await client.list_resources()).resources
            prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
        if not {"search_pages", "read_page"} <= set(tools) or not resources or not prompts:
            raise AssertionError(f"tools {tools}, {len(resources)} resources, prompts {prompts}")
        return f"tools {', '.join(tools)}; {len(resources)} resources; prompts {', '.join(prompts)}"

    async def search_then_read(self) -> str:
        async with Client(self.mcp_url) as client:
            first = json_of(await client.call_tool("search_pages", {"query": self.query}))["results"][0]
            page = await client.call_tool("read_page", {"url": first["url"]})
        if page.is_error or first["title"] not in text_of(page):
            raise AssertionError(f"read_page of {first['url']} does not show {first['title']!r}")
        self.page_url = first["url"]
        return f"{first['url']}: {len(text_of(page))} characters for the model"

    async def resources_read(self) -> None:
        async with Client(self.mcp_url) as client:
            uri = self.page_url or (await client.list_resources()).resources[0].uri
            contents = (await client.read_resource(uri)).contents
        twin = (await self.http.get(uri, headers={"accept": "text/markdown"})).text
        if contents[0].text != twin:
            raise AssertionError("the resource is not the page's Markdown twin")

    async def prompt(self) -> None:
        question = "¿Podéis venir hoy?"
        async with Client(self.mcp_url) as client:
            name = (await client.list_prompts()).prompts[0].name
            messages = (await client.get_prompt(name, {"question": question})).messages
        text = "\n".join(message.content.text for message in messages)
        if question not in text or text.find("search_pages") > text.find("read_page"):
            raise AssertionError(f"the prompt: {text[:300]}")

    async def chatgpt_search_then_fetch(self) -> None:
        async with Client(self.mcp_url) as client:
            first = json_of(await client.call_tool("search", {"query": self.query}))["results"][0]
            document = json_of(await client.call_tool("fetch", {"id": first["id"]}))
        if (document["id"], document["url"], document["title"]) != (first["id"], first["url"], first["title"]) or len(document["text"]) < 100:
            raise AssertionError(f"fetch answered {json.dumps(document)[:300]}")

    async def exhaust_anonymous_quota(self) -> int:
        for _ in range(200):
            response = await self.http.get(f"{self.origin}/api/v1/search_pages", params={"query": self.query})
            if response.status_code == 429:
                return int(response.headers["retry-after"])
        raise AssertionError("the anonymous quota never ran out")

    async def refusal(self) -> str:
        async with Client(self.mcp_url) as client:
            await client.list_tools()
            retry_after = await self.exhaust_anonymous_quota()
            exhausted_at = time.monotonic()
            result = await client.call_tool("search_pages", {"query": self.query})
            since = int(time.monotonic() - exhausted_at) + 1
        text = text_of(result)
        wait = WAIT.search(text)
        if not result.is_error or not wait or not retry_after - since - 1 <= int(wait.group(1)) <= retry_after or not re.search(r"/oauth/register|auth\.md", text):
            raise AssertionError(f"the model read (is_error={result.is_error}, the site's Retry-After {retry_after} s): {text[:400]}")
        return text[:160]

    async def client_credentials(self) -> None:
        registered = await self.register({"client_name": "Python SDK matrix"})
        provider = ClientCredentialsOAuthProvider(
            server_url=self.mcp_url, storage=MemoryStorage(), client_id=registered["client_id"], client_secret=registered["client_secret"], scope=SCOPE, issuer=self.origin
        )
        await self.identified_session(provider, registered["client_id"])

    async def identified_session(self, provider: httpx2.Auth, client_id: str) -> None:
        """As auth.md shows: the provider asks for a token only after a 401, which /agent/identity answers a call without one."""
        http = httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(30, read=300))
        (await http.get(f"{self.origin}/agent/identity")).raise_for_status()
        async with Client(streamable_http_client(self.mcp_url, http_client=http)) as client:
            await self.assert_identified(client, client_id)

    async def private_key_jwt(self) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        coordinate = lambda value: base64.urlsafe_b64encode(value.to_bytes(32, "big")).decode().rstrip("=")  # noqa: E731
        jwk = {"kty": "EC", "crv": "P-256", "x": coordinate(numbers.x), "y": coordinate(numbers.y), "alg": "ES256", "use": "sig"}
        registered = await self.register({"client_name": "Python SDK matrix key", "token_endpoint_auth_method": "private_key_jwt", "jwks": {"keys": [jwk]}})
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
        assertion = SignedJWTParameters(issuer=registered["client_id"], subject=registered["client_id"], signing_key=pem, signing_algorithm="ES256")
        provider = PrivateKeyJWTOAuthProvider(
            server_url=self.mcp_url, storage=MemoryStorage(), client_id=registered["client_id"], assertion_provider=assertion.create_assertion_provider(), issuer=self.origin, scope=SCOPE
        )
        await self.identified_session(provider, registered["client_id"])

    def connector(self, storage: MemoryStorage, wire: Wire) -> OAuthClientProvider:
        """The SDK's OAuthClientProvider as a connector app sets it up; its browser follows the authorization URL once."""
        callback: dict[str, str | None] = {}
        browser = httpx2.AsyncClient(event_hooks={"response": [wire.note]}, timeout=30)

        async def open_browser(url: str) -> None:
            response = await browser.get(url, follow_redirects=False)
            location = response.headers.get("location")
            if location is None or not location.startswith(REDIRECT_URL):
                raise AssertionError(f"the authorization endpoint answered {response.status_code} {location or response.text[:300]}")
            query = parse_qs(urlsplit(location).query)
            callback.update({name: values[0] for name, values in query.items()})

        async def read_callback() -> AuthorizationCodeResult:
            return AuthorizationCodeResult(code=callback["code"], state=callback.get("state"), iss=callback.get("iss"))

        metadata = OAuthClientMetadata(
            client_name="Python SDK matrix connector",
            redirect_uris=[REDIRECT_URL],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
            scope=SCOPE,
        )
        return OAuthClientProvider(server_url=self.mcp_url, client_metadata=metadata, storage=storage, redirect_handler=open_browser, callback_handler=read_callback)

    async def authorization_code_after_401(self) -> str:
        wire = Wire()
        async with connect(self.mcp_url, self.connector(MemoryStorage(stale_token()), wire), wire) as client:
            await self.assert_identified(client)
        if not any(line.endswith("[Bearer] → 401") for line in wire.lines) or not any("/oauth/authorize" in line for line in wire.lines):
            raise AssertionError("\n".join(wire.lines))
        return "the login on the wire:\n  " + "\n  ".join(wire.lines)

    def expire(self, token: str) -> None:
        store = sqlite3.connect(self.data_dir / "agent-api.sqlite")
        try:
            digest = hashlib.sha256(token.encode()).hexdigest()
            changed = store.execute("UPDATE access_tokens SET expires_at = ? WHERE token_hash = ?", (int(time.time() * 1000) - 1000, digest)).rowcount
            store.commit()
        finally:
            store.close()
        if changed != 1:
            raise AssertionError("the site's store holds no such access token")

    async def refresh(self) -> str:
        """An hour later on both sides: the site's store says the token expired, and so does the SDK's clock
        (it refreshes a token it knows expired; on a 401 alone it authorizes again)."""
        storage = MemoryStorage(stale_token())
        wire = Wire()
        async with connect(self.mcp_url, self.connector(storage, wire), wire) as client:
            quota = await self.assert_identified(client)
            expired = storage.tokens.access_token
            self.expire(expired)
            logged_in = len(wire.lines)
            real_clock = oauth2.time
            oauth2.time = auth_utils.time = HourLater
            try:
                await self.assert_identified(client, quota["client_id"])
            except AssertionError as error:
                raise AssertionError("\n".join([str(error), *wire.lines[logged_in:]])) from error
            finally:
                oauth2.time = auth_utils.time = real_clock
        after = wire.lines[logged_in:]
        if storage.tokens.access_token == expired or any("/oauth/authorize" in line for line in after) or not any("/oauth/token" in line and line.endswith("200") for line in after):
            raise AssertionError("\n".join(after))
        return "after the access token expired:\n  " + "\n  ".join(after)

    async def fastmcp_search_then_read(self) -> None:
        from fastmcp import Client as FastMCPClient

        async with FastMCPClient(self.mcp_url) as client:
            tools = [tool.name for tool in await client.list_tools()]
            first = json.loads((await client.call_tool("search_pages", {"query": self.query})).content[0].text)["results"][0]
            page = await client.call_tool("read_page", {"url": first["url"]})
        if "search_pages" not in tools or first["title"] not in page.content[0].text:
            raise AssertionError(f"tools {tools}, read {page.content[0].text[:200]}")

    async def fastmcp_refusal(self) -> str:
        """After the SDK's refusal step: the network's anonymous quota is spent."""
        from fastmcp import Client as FastMCPClient

        async with FastMCPClient(self.mcp_url) as client:
            refused = await client.call_tool("search_pages", {"query": self.query}, raise_on_error=False)
        text = refused.content[0].text if refused.content else ""
        if not refused.is_error or not WAIT.search(text) or not re.search(r"/oauth/register|auth\.md", text):
            raise AssertionError(f"the model read: {text[:400]}")
        return text[:160]

    async def run(self) -> bool:
        await self.step("connects and lists tools, resources and prompts", self.connects_and_lists)
        await self.step("search → read", self.search_then_read)
        await self.step("resources/read", self.resources_read)
        await self.step("prompt", self.prompt)
        await self.step("ChatGPT search → fetch", self.chatgpt_search_then_fetch)
        await self.step("FastMCP: search → read", self.fastmcp_search_then_read)
        await self.step("client credentials (ClientCredentialsOAuthProvider)", self.client_credentials)
        await self.step("private_key_jwt (PrivateKeyJWTOAuthProvider)", self.private_key_jwt)
        await self.step("authorization code + PKCE after a 401 (OAuthClientProvider)", self.authorization_code_after_401)
        if self.data_dir is not None:
            await self.step("refresh", self.refresh)
        # Last: they spend the network's anonymous quota.
        await self.step("refusal: the model reads the wait and the registration hint", self.refusal)
        await self.step("FastMCP: refusal", self.fastmcp_refusal)
        await self.http.aclose()
        return all(passed for _, passed, _ in self.results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mcp_url", help="the site's MCP endpoint at its published address, e.g. http://localhost:4390/mcp")
    parser.add_argument("--query", default="fuga de agua", help="a search that finds a page of the site")
    parser.add_argument("--data-dir", type=Path, help="the server's AGENT_API_DATA_DIR, for the refresh step")
    parser.add_argument("--traceback", action="store_true", help="print the traceback of each failure")
    arguments = parser.parse_args()
    passed = asyncio.run(Matrix(arguments.mcp_url, arguments.query, arguments.data_dir).run())
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
