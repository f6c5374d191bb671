"""The client matrix's steps with the MCP Python SDK's client (`mcp`) or FastMCP's (`fastmcp`).

tests/integration/client-matrix.test.ts runs it, one library at a time, in a virtual environment it
makes with the versions pinned in requirements.txt beside this file, against the demo and
examples/blog; it also runs by hand against any site (README.md beside this file). Each step prints
PASS or FAIL with what the client showed (the logins' HTTP exchanges too), as the TypeScript matrix
does, and `--report FILE` writes the steps' results as JSON.

    python client_matrix.py http://localhost:4390/mcp --library sdk --query "fuga de agua" [--data-dir DIR]

`--data-dir` is the server's AGENT_API_DATA_DIR: with it the refresh step moves the access token's
expiry in the site's sqlite store to the past and the SDK's clock an hour on, as an hour would, and
checks the client refreshes (the Python SDK, under FastMCP too, refreshes a token it knows expired;
after a 401 alone it sends the person to authorize again).
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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
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
LIBRARIES = {"sdk": "Python SDK (mcp 2.3.0)", "fastmcp": "FastMCP 4.0.10"}


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

    def http_client(self, **options: Any) -> httpx2.AsyncClient:
        """An HTTP client for a transport (the MCP SDK's timeouts unless the transport sets its own), its exchanges noted here."""
        return httpx2.AsyncClient(**{"timeout": httpx2.Timeout(30, read=300), **options}, event_hooks={"response": [self.note]})


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


@dataclass
class Reading:
    """What a model reads from one tool call: the result's text content, and whether it is marked as an error."""

    text: str
    is_error: bool

    def json(self) -> dict:
        return json.loads(self.text)


def reading_of(result: Any) -> Reading:
    text = "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")
    return Reading(text, bool(result.is_error))


class SdkSession:
    """A session of the Python SDK's Client, as an app embeds it."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def tools(self) -> list[str]:
        return [tool.name for tool in (await self.client.list_tools()).tools]

    async def resources(self) -> list[str]:
        return [str(resource.uri) for resource in (await self.client.list_resources()).resources]

    async def prompts(self) -> list[str]:
        return [prompt.name for prompt in (await self.client.list_prompts()).prompts]

    async def call(self, name: str, arguments: dict) -> Reading:
        return reading_of(await self.client.call_tool(name, arguments))

    async def read_resource(self, uri: str) -> str:
        return "\n".join(content.text for content in (await self.client.read_resource(uri)).contents)

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> str:
        return "\n".join(message.content.text for message in (await self.client.get_prompt(name, arguments)).messages)


class FastMCPSession:
    """A session of FastMCP's Client; a tool's error reaches the model as its result (raise_on_error=False), as FastMCP's agent integrations hand it over."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def tools(self) -> list[str]:
        return [tool.name for tool in await self.client.list_tools()]

    async def resources(self) -> list[str]:
        return [str(resource.uri) for resource in await self.client.list_resources()]

    async def prompts(self) -> list[str]:
        return [prompt.name for prompt in await self.client.list_prompts()]

    async def call(self, name: str, arguments: dict) -> Reading:
        return reading_of(await self.client.call_tool(name, arguments, raise_on_error=False))

    async def read_resource(self, uri: str) -> str:
        return "\n".join(content.text for content in await self.client.read_resource(uri))

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> str:
        return "\n".join(message.content.text for message in (await self.client.get_prompt(name, arguments)).messages)


class Library:
    """How one library opens a session and sets up each kind of authentication, as its documentation shows."""

    def __init__(self, key: str, mcp_url: str, origin: str) -> None:
        self.key = key
        self.name = LIBRARIES[key]
        self.mcp_url = mcp_url
        self.origin = origin

    @asynccontextmanager
    async def open(self, auth: httpx2.Auth | None = None, wire: Wire | None = None) -> AsyncIterator[SdkSession | FastMCPSession]:
        wire = wire or Wire()
        if self.key == "sdk":
            async with Client(streamable_http_client(self.mcp_url, http_client=wire.http_client(auth=auth))) as client:
                yield SdkSession(client)
        else:
            from fastmcp import Client as FastMCPClient
            from fastmcp.client.transports import StreamableHttpTransport

            async with FastMCPClient(StreamableHttpTransport(self.mcp_url, auth=auth, httpx_client_factory=wire.http_client)) as client:
                yield FastMCPSession(client)

    def client_credentials(self, client_id: str, client_secret: str) -> httpx2.Auth:
        if self.key == "sdk":
            return ClientCredentialsOAuthProvider(
                server_url=self.mcp_url, storage=MemoryStorage(), client_id=client_id, client_secret=client_secret, scope=SCOPE, issuer=self.origin
            )
        from fastmcp.client.auth import ClientCredentialsOAuthProvider as FastMCPClientCredentials

        return FastMCPClientCredentials(self.mcp_url, client_id=client_id, client_secret=client_secret, scopes=SCOPE)

    def private_key_jwt(self, client_id: str, assertion: Callable[[str], Awaitable[str]]) -> httpx2.Auth:
        if self.key == "sdk":
            return PrivateKeyJWTOAuthProvider(server_url=self.mcp_url, storage=MemoryStorage(), client_id=client_id, assertion_provider=assertion, issuer=self.origin, scope=SCOPE)
        from fastmcp.client.auth import PrivateKeyJWTOAuthProvider as FastMCPPrivateKeyJWT

        return FastMCPPrivateKeyJWT(self.mcp_url, client_id=client_id, assertion_provider=assertion, scopes=SCOPE)

    async def connector(self, wire: Wire) -> tuple[httpx2.Auth, Callable[[], Awaitable[str | None]]]:
        """A connector's OAuth client for the authorization code flow with PKCE, holding a token the server
        forgot, and how to read the access token it holds. The SDK's is set up as a connector app sets it
        up, its browser following the authorization URL once; FastMCP's OAuth opens the system's browser
        (BROWSER) on a callback server of its own."""
        if self.key == "sdk":
            storage = MemoryStorage(stale_token())

            async def kept() -> str | None:
                return access_token(storage.tokens)

            return self.sdk_connector(storage, wire), kept
        from fastmcp.client.auth import OAuth
        from fastmcp.client.auth.oauth import TokenStorageAdapter
        from key_value.aio.stores.memory import MemoryStore

        store = MemoryStore()
        tokens = TokenStorageAdapter(store, self.mcp_url)
        await tokens.set_tokens(stale_token())

        async def held() -> str | None:
            return access_token(await tokens.get_tokens())

        provider = OAuth(self.mcp_url, scopes=SCOPE, client_name="FastMCP matrix connector", token_storage=store, callback_host="127.0.0.1", callback_timeout=60)
        return provider, held

    def sdk_connector(self, storage: MemoryStorage, wire: Wire) -> OAuthClientProvider:
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


def access_token(tokens: OAuthToken | None) -> str | None:
    return tokens.access_token if tokens else None


def plain_phrase(markdown: str) -> str:
    """A phrase of the page's text with no character JSON escapes: counted in what the model reads."""
    line = next((line for line in markdown.split("\n") if re.match(r"^[\w ,.]{60,}", line)), None)
    if line is None:
        raise AssertionError("the page has no plain line of text")
    return line[:60]


class Matrix:
    def __init__(self, library: str, mcp_url: str, query: str, data_dir: Path | None) -> None:
        self.mcp_url = mcp_url
        self.origin = f"{urlsplit(mcp_url).scheme}://{urlsplit(mcp_url).netloc}"
        self.library = Library(library, mcp_url, self.origin)
        self.query = query
        self.data_dir = data_dir
        self.results: list[dict] = []
        self.http = httpx2.AsyncClient(timeout=30)
        self.page_url: str | None = None

    async def step(self, name: str, body: Callable[[], Awaitable[str | None]]) -> None:
        try:
            note = await body()
            self.results.append({"client": self.library.name, "step": name, "passed": True, "note": note or ""})
            print(f"PASS {name}{f': {note}' if note else ''}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is the step's result
            cause = innermost(error)
            message = f"{type(cause).__name__}: {cause}"
            self.results.append({"client": self.library.name, "step": name, "passed": False, "note": message})
            print(f"FAIL {name}: {message}", flush=True)
            if "--traceback" in sys.argv:
                traceback.print_exc()

    async def register(self, body: dict) -> dict:
        response = await self.http.post(f"{self.origin}/oauth/register", json=body)
        if response.status_code != 201:
            raise AssertionError(f"registration answered {response.status_code}: {response.text}")
        return response.json()

    async def assert_identified(self, session: SdkSession | FastMCPSession, client_id: str | None = None) -> dict:
        reading = await session.call("get_quota", {})
        if reading.is_error or "policy" not in reading.text:
            raise AssertionError(f"the model read no identified quota: {reading.text[:300]}")
        quota = reading.json()
        if client_id is not None and quota.get("client_id") != client_id:
            raise AssertionError(f"the quota read is {quota.get('client_id')}'s, not {client_id}'s")
        return quota

    async def twin(self, url: str) -> str:
        return (await self.http.get(url, headers={"accept": "text/markdown"})).text

    # The steps, as in tests/integration/client-matrix.test.ts.

    async def connects_and_lists(self) -> str:
        card = (await self.http.get(f"{self.origin}/.well-known/mcp/server-card.json")).json()
        async with self.library.open() as session:
            tools, resources, prompts = await session.tools(), await session.resources(), await session.prompts()
        if sorted(tools) != sorted(tool["name"] for tool in card["tools"]) or f"{self.origin}/" not in resources or not prompts:
            raise AssertionError(f"tools {tools}, {len(resources)} resources, prompts {prompts}")
        return f"tools {', '.join(tools)}; {len(resources)} resources; prompts {', '.join(prompts)}"

    async def search_then_read(self) -> str:
        async with self.library.open() as session:
            first = (await session.call("search_pages", {"query": self.query})).json()["results"][0]
            page = await session.call("read_page", {"url": first["url"]})
        if page.is_error or first["title"] not in page.text:
            raise AssertionError(f"read_page of {first['url']} does not show {first['title']!r}")
        self.page_url = first["url"]
        return first["url"]

    async def resources_read(self) -> None:
        async with self.library.open() as session:
            uri = self.page_url or f"{self.origin}/"
            text = await session.read_resource(uri)
        if text != await self.twin(uri):
            raise AssertionError("the resource is not the page's Markdown twin")

    async def prompt(self) -> None:
        question = "¿Podéis venir hoy?"
        async with self.library.open() as session:
            name = (await session.prompts())[0]
            text = await session.get_prompt(name, {"question": question})
        if question not in text or text.find("search_pages") > text.find("read_page"):
            raise AssertionError(f"the prompt: {text[:300]}")

    async def chatgpt_search_then_fetch(self) -> None:
        async with self.library.open() as session:
            first = (await session.call("search", {"query": self.query})).json()["results"][0]
            document = (await session.call("fetch", {"id": first["id"]})).json()
        if (document["id"], document["url"], document["title"]) != (first["id"], first["url"], first["title"]) or len(document["text"]) < 100 or not isinstance(document["metadata"], dict):
            raise AssertionError(f"fetch answered {json.dumps(document)[:300]}")

    async def read_page_once(self) -> str:
        url = self.page_url or f"{self.origin}/"
        async with self.library.open() as session:
            reading = await session.call("read_page", {"url": url})
        phrase = plain_phrase(await self.twin(url))
        if reading.text.count(phrase) != 1:
            raise AssertionError(f"the page text is in what the model reads {reading.text.count(phrase)} times")
        return f"{len(reading.text)} characters"

    async def exhaust_anonymous_quota(self) -> int:
        for _ in range(200):
            response = await self.http.get(f"{self.origin}/api/v1/search_pages", params={"query": self.query})
            if response.status_code == 429:
                return int(response.headers["retry-after"])
        raise AssertionError("the anonymous quota never ran out")

    async def refusal(self) -> str:
        async with self.library.open() as session:
            await session.tools()
            retry_after = await self.exhaust_anonymous_quota()
            exhausted_at = time.monotonic()
            reading = await session.call("search_pages", {"query": self.query})
            since = int(time.monotonic() - exhausted_at) + 1
        wait = WAIT.search(reading.text)
        if not reading.is_error or not wait or not retry_after - since - 1 <= int(wait.group(1)) <= retry_after or not re.search(r"/oauth/register|auth\.md", reading.text):
            raise AssertionError(f"the model read (is_error={reading.is_error}, the site's Retry-After {retry_after} s): {reading.text[:400]}")
        return reading.text[:160]

    async def identified_session(self, provider: httpx2.Auth, client_id: str) -> None:
        """As auth.md shows: the provider asks for a token only after a 401, which /agent/identity answers a call without one."""
        async with httpx2.AsyncClient(auth=provider, timeout=30) as http:
            (await http.get(f"{self.origin}/agent/identity")).raise_for_status()
        async with self.library.open(provider) as session:
            await self.assert_identified(session, client_id)

    async def client_credentials(self) -> None:
        registered = await self.register({"client_name": f"{self.library.name} matrix"})
        await self.identified_session(self.library.client_credentials(registered["client_id"], registered["client_secret"]), registered["client_id"])

    async def private_key_jwt(self) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        coordinate = lambda value: base64.urlsafe_b64encode(value.to_bytes(32, "big")).decode().rstrip("=")  # noqa: E731
        jwk = {"kty": "EC", "crv": "P-256", "x": coordinate(numbers.x), "y": coordinate(numbers.y), "alg": "ES256", "use": "sig"}
        registered = await self.register({"client_name": f"{self.library.name} matrix key", "token_endpoint_auth_method": "private_key_jwt", "jwks": {"keys": [jwk]}})
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
        assertion = SignedJWTParameters(issuer=registered["client_id"], subject=registered["client_id"], signing_key=pem, signing_algorithm="ES256")
        await self.identified_session(self.library.private_key_jwt(registered["client_id"], assertion.create_assertion_provider()), registered["client_id"])

    async def authorization_code_after_401(self) -> str:
        wire = Wire()
        provider, _ = await self.library.connector(wire)
        async with self.library.open(provider, wire) as session:
            await self.assert_identified(session)
        if not any(line.endswith("[Bearer] → 401") for line in wire.lines) or not any("/oauth/token" in line and line.endswith("200") for line in wire.lines):
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
        wire = Wire()
        provider, held = await self.library.connector(wire)
        async with self.library.open(provider, wire) as session:
            quota = await self.assert_identified(session)
            expired = await held()
            self.expire(expired)
            logged_in = len(wire.lines)
            real_clock = oauth2.time
            oauth2.time = auth_utils.time = HourLater
            try:
                await self.assert_identified(session, quota["client_id"])
            except AssertionError as error:
                raise AssertionError("\n".join([str(error), *wire.lines[logged_in:]])) from error
            finally:
                oauth2.time = auth_utils.time = real_clock
        after = wire.lines[logged_in:]
        if await held() == expired or any("/oauth/authorize" in line for line in after) or not any("/oauth/token" in line and line.endswith("200") for line in after):
            raise AssertionError("\n".join(after))
        return "after the access token expired:\n  " + "\n  ".join(after)

    async def run(self) -> bool:
        await self.step("connects and lists tools, resources and prompts", self.connects_and_lists)
        await self.step("search → read", self.search_then_read)
        await self.step("resources/read", self.resources_read)
        await self.step("prompt", self.prompt)
        await self.step("ChatGPT search → fetch", self.chatgpt_search_then_fetch)
        await self.step("read_page reaches the model once", self.read_page_once)
        await self.step("client credentials", self.client_credentials)
        await self.step("private_key_jwt", self.private_key_jwt)
        await self.step("authorization code + PKCE after a 401", self.authorization_code_after_401)
        if self.data_dir is not None:
            await self.step("refresh", self.refresh)
        # Last: it spends the network's anonymous quota.
        await self.step("refusal: the model reads the wait and the registration hint", self.refusal)
        await self.http.aclose()
        return all(result["passed"] for result in self.results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mcp_url", help="the site's MCP endpoint at its published address, e.g. http://localhost:4390/mcp")
    parser.add_argument("--library", choices=sorted(LIBRARIES), required=True, help="the client library: the Python SDK's Client or FastMCP's")
    parser.add_argument("--query", default="fuga de agua", help="a search that finds a page of the site")
    parser.add_argument("--data-dir", type=Path, help="the server's AGENT_API_DATA_DIR, for the refresh step")
    parser.add_argument("--report", type=Path, help="write the steps' results here as JSON")
    parser.add_argument("--traceback", action="store_true", help="print the traceback of each failure")
    arguments = parser.parse_args()
    matrix = Matrix(arguments.library, arguments.mcp_url, arguments.query, arguments.data_dir)
    passed = asyncio.run(matrix.run())
    if arguments.report:
        arguments.report.write_text(json.dumps(matrix.results, ensure_ascii=False))
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
