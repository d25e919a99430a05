"""The web dashboard (`pymem dashboard`, pymem/dashboard/), tested as a person uses it: a real server (uvicorn on a
loopback port) on a real database, read by a real headless Chromium (Debian's `chromium`, driven by Playwright).

One database, one server and one browser for the module. Two tenants are seeded: acme, with a supersession chain,
rules with feedback and episodes, and globex, whose every memory carries MARKER, which must never appear on a page
that acme's token shows. The HTTP-level checks (401, cookie flags, cross-origin POSTs) run without the browser; the
browser tests are skipped, with the reason, where no Chromium can be installed (`make install` installs it as root).

PYMEM_DASHBOARD_SCREENSHOTS=1 also writes the screenshots of docs/img/dashboard-*.png (1200x800).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import psycopg
import pytest
import uvicorn
from pgvector.psycopg import register_vector
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from pytest_postgresql.janitor import DatabaseJanitor

from pymem.bearer_tokens import create_token, revoke_token
from pymem.client import MemoryClient
from pymem.dashboard import DashboardOptions, create_app
from pymem.embeddings import Embedder, EmbeddingService
from pymem.http_guard import allowed_hosts, allowed_origins
from pymem.pool import make_pool
from pymem.tenancy import tenant_transaction
from pymem.tenant_export import export_lines

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MARKER = "GLOBEX-ZEBRA-7731"  # in every memory of the other tenant
TOPIC = "what milk can the user drink?"
NOW = dt.datetime.now(dt.UTC)
ROOT = Path(__file__).resolve().parent.parent


def ago(days: float) -> dt.datetime:
    return NOW - dt.timedelta(days=days)


@dataclass
class Site:
    url: str
    migrator_dsn: str
    app_dsn: str
    tokens: dict[str, str]  # tenant -> token
    token_ids: dict[str, UUID]
    ids: dict[str, UUID]  # what the seed stored, by name
    embedder: Embedder


# -- the data ---------------------------------------------------------------------------------------------------


def _store(db: MemoryClient, embedder: Embedder, kind: str, **arguments: Any) -> UUID:
    vector = embedder.embed(arguments["content"])
    store = {"fact": db.store_fact, "rule": db.store_rule, "episode": db.store_episode}[kind]
    return store(embedding=vector, embedding_model=embedder.model_id, **arguments).memory_id


def seed_acme(db: MemoryClient, embedder: Embedder) -> dict[str, UUID]:
    """A tenant as an agent leaves it after some weeks: facts (one moved twice), rules with feedback, episodes."""
    ids: dict[str, UUID] = {}
    for name, city, days in (("berlin", "Berlin", 200), ("hamburg", "Hamburg", 90), ("paris", "Paris", 20)):
        ids[name] = _store(
            db,
            embedder,
            "fact",
            subject="user",
            predicate="city",
            content=f"The user lives in {city}.",
            tags=["home"],
            source_butler="travel",
            observed_at=ago(days),
        )
    facts = (
        ("dairy", "diet", "The user is lactose intolerant and avoids dairy.", ["diet", "health"], "health", 8.0, 40),
        ("coffee", "coffee", "The user drinks oat-milk flat whites in the morning.", ["diet"], "health", 5.0, 12),
        ("cat", "pet", "The user has a cat named Miso.", ["home"], "global", 4.0, 150),
        ("run", "sport", "The user runs 10 km every Sunday by the river.", ["health"], "health", 6.0, 5),
    )
    for name, predicate, content, tags, scope, importance, days in facts:
        ids[name] = _store(
            db,
            embedder,
            "fact",
            subject="user",
            predicate=predicate,
            content=content,
            tags=tags,
            scope=scope,
            importance=importance,
            source_butler="health",
            observed_at=ago(days),
        )
    rules = (
        ("plant_milk", "Suggest plant-based milk when the user asks for coffee or recipes.", 15, 0),
        ("metric", "Give distances in kilometres, never in miles.", 6, 0),
        ("short", "Keep answers about workouts under five sentences.", 2, 1),
        ("dessert", "Recommend a cheesecake for dessert.", 0, 3),
    )
    for name, content, helpful, harmful in rules:
        ids[name] = _store(db, embedder, "rule", content=content, source_butler="health", observed_at=ago(30))
        for _ in range(helpful):
            db.mark_helpful(rule_id=ids[name])
        for _ in range(harmful):
            db.mark_harmful(rule_id=ids[name], reason="the user cannot eat dairy")
    ids["inferred"] = _store(
        db,
        embedder,
        "rule",
        content="Offer a vegan option first when suggesting restaurants.",
        source="agent_inference",
        citation="the user ordered vegan dishes three times",
        source_butler="health",
    )
    for content, butler, days in (
        ("User asked for a lactose-free cake recipe.", "health", 2),
        ("User booked a train from Hamburg to Paris.", "travel", 21),
        ("User said the cat knocked over the oat milk.", "home", 1),
    ):
        _store(db, embedder, "episode", content=content, butler=butler, observed_at=ago(days))
    return ids


def seed_globex(db: MemoryClient, embedder: Embedder) -> dict[str, UUID]:
    """The other tenant: memories that would show on acme's pages (same subject, tags, scope, words) if RLS let them."""
    return {
        "globex_fact": _store(
            db,
            embedder,
            "fact",
            subject="user",
            predicate="city",
            content=f"The user drinks milk in {MARKER} city.",
            tags=["diet", "home"],
            scope="health",
            source_butler="health",
        ),
        "globex_rule": _store(
            db, embedder, "rule", content=f"Suggest milk from {MARKER} farms.", source_butler="health"
        ),
        "globex_episode": _store(db, embedder, "episode", content=f"User asked about {MARKER} milk.", butler="health"),
    }


# -- the server and the browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dashboard_db(postgresql_proc: Any) -> Iterator[str]:
    """A database of its own for the module, a clone of the session's migrated template; its superuser DSN."""
    name = "pymem_dashboard_test"
    janitor = DatabaseJanitor(
        user=postgresql_proc.user,
        host=postgresql_proc.host,
        port=postgresql_proc.port,
        dbname=name,
        template_dbname=postgresql_proc.template_dbname,
        maintenance_dbname=postgresql_proc.maintenance_dbname,
        password=postgresql_proc.password,
    )
    janitor.drop()
    with janitor:
        yield make_conninfo(
            host=postgresql_proc.host, port=postgresql_proc.port, user=postgresql_proc.user, dbname=name
        )


@pytest.fixture(scope="module")
def site(dashboard_db: str, embedder: Embedder) -> Iterator[Site]:
    app_dsn = make_conninfo(dashboard_db, user="pymem_app")
    ids: dict[str, UUID] = {}
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        register_vector(conn)
        for tenant, seed in (("acme", seed_acme), ("globex", seed_globex)):
            with tenant_transaction(conn, tenant, actor="test:seed"):
                ids.update(seed(MemoryClient(conn), embedder))
    issued = {t: create_token(dashboard_db, t, read_only=True, label="dashboard test") for t in ("acme", "globex")}
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    pool = make_pool(app_dsn, min_size=1, max_size=4)
    options = DashboardOptions(
        pool=pool,
        embeddings=EmbeddingService(embedder),
        hosts=allowed_hosts("127.0.0.1", port),
        origins=allowed_origins("127.0.0.1", port),
        exporter=export_lines,
    )
    server = uvicorn.Server(uvicorn.Config(create_app(options), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the dashboard did not start"
        time.sleep(0.05)
    yield Site(
        url=f"http://127.0.0.1:{port}",
        migrator_dsn=dashboard_db,
        app_dsn=app_dsn,
        tokens={t: i.token for t, i in issued.items()},
        token_ids={t: i.id for t, i in issued.items()},
        ids=ids,
        embedder=embedder,
    )
    server.should_exit = True
    thread.join(10)
    sock.close()
    pool.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            "no Chromium at /usr/bin/chromium: install Debian's chromium package (`make install` does, as root with"
            " apt-get)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason="the dev extra's playwright package is missing")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (no cookie) and its page, every request URL recorded in page.requested."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.set_default_timeout(5000)
    tab = context.new_page()
    tab.requested = []
    tab.on("request", lambda request: tab.requested.append(request.url))
    yield tab
    context.close()


def sign_in(page: Any, site: Site, tenant: str = "acme") -> None:
    page.goto(f"{site.url}/signin")
    page.fill("#token", site.tokens[tenant])
    page.click("form[action='/signin'] button[type=submit]")
    page.wait_for_url(f"{site.url}/")


def count(page: Any, caption: str, state: str) -> int:
    """The count the overview's table `caption` shows for `state`."""
    rows = page.locator(f"table:has(caption:text-is('{caption}')) tbody tr").all_inner_texts()
    (shown,) = [row.split("\t")[-1] for row in rows if row.split("\t")[0] == state]
    return int(shown)


def sql_rows(site: Site, tenant: str, query: str, params: Any = ()) -> list[dict[str, Any]]:
    with psycopg.connect(site.app_dsn, autocommit=True) as conn:
        register_vector(conn)
        with tenant_transaction(conn, tenant), conn.cursor(row_factory=dict_row) as cur:
            return cur.execute(query, params).fetchall()


# -- without a session ------------------------------------------------------------------------------------------

PAGES = ("/", "/memories", "/memories?tag=diet", f"/search?q={TOPIC}", "/rules")


def test_every_page_without_a_token_is_refused_with_the_sign_in_form(site: Site) -> None:
    for path in (*PAGES, f"/memory/fact/{site.ids['paris']}"):
        response = httpx.get(site.url + path)
        assert response.status_code == 401, path
        assert "Sign in" in response.text
        assert "lives in" not in response.text and MARKER not in response.text
        assert response.headers["www-authenticate"].startswith("Bearer")


def test_a_bearer_header_works_for_scripts_and_a_bad_one_does_not(site: Site) -> None:
    good = httpx.get(f"{site.url}/rules", headers={"authorization": f"Bearer {site.tokens['acme']}"})
    assert good.status_code == 200 and "Suggest plant-based milk" in good.text
    bad = httpx.get(f"{site.url}/rules", headers={"authorization": "Bearer pmt_not-a-token-at-all"})
    assert bad.status_code == 401 and "plant-based" not in bad.text


def test_every_response_carries_the_security_headers(site: Site) -> None:
    response = httpx.get(f"{site.url}/signin")
    assert response.status_code == 200
    assert response.headers["content-security-policy"].startswith("default-src 'self'")
    assert "script-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["cache-control"] == "no-store"
    assert "<script" not in response.text and 'method="post"' in response.text


def test_sign_in_sets_an_httponly_strict_cookie_and_a_revoked_token_ends_the_session(site: Site) -> None:
    token = create_token(site.migrator_dsn, "acme", read_only=True, label="revoked by the test")
    with httpx.Client(base_url=site.url) as client:
        signed = client.post("/signin", data={"token": token.token})
        assert signed.status_code == 303 and signed.headers["location"] == "/"
        cookie = signed.headers["set-cookie"]
        assert re.search(r"(?i)\bhttponly\b", cookie) and re.search(r"(?i)samesite=strict", cookie)
        assert re.search(r"(?i)\bpath=/(;|$)", cookie) and not re.search(r"(?i)\bsecure\b", cookie)  # http here
        assert token.token not in cookie and token.token not in signed.headers["location"]
        assert client.get("/").status_code == 200
        revoke_token(site.migrator_dsn, token.id)
        after = client.get("/")
        assert after.status_code == 401 and "lives in" not in after.text


def test_a_wrong_token_is_refused_on_the_sign_in_form(site: Site) -> None:
    response = httpx.post(f"{site.url}/signin", data={"token": "pmt_" + "x" * 43})
    assert response.status_code == 401 and "not valid" in response.text and "set-cookie" not in response.headers


def test_cross_origin_and_cross_site_posts_are_refused(site: Site) -> None:
    token = site.tokens["acme"]
    evil = httpx.post(f"{site.url}/signin", data={"token": token}, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403 and "set-cookie" not in evil.headers
    cross = httpx.post(f"{site.url}/signin", data={"token": token}, headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403 and "set-cookie" not in cross.headers
    null = httpx.post(f"{site.url}/signin", data={"token": token}, headers={"origin": "null"})
    assert null.status_code == 403
    rebound = httpx.get(f"{site.url}/signin", headers={"host": "attacker.example"})
    assert rebound.status_code == 421


def test_sign_out_needs_the_pages_csrf_token(site: Site) -> None:
    with httpx.Client(base_url=site.url) as client:
        assert client.post("/signin", data={"token": site.tokens["acme"]}).status_code == 303
        page = client.get("/").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf is not None
        assert client.post("/signout", data={"csrf": "forged"}).status_code == 403
        assert client.get("/").status_code == 200  # still signed in
        out = client.post("/signout", data={"csrf": csrf.group(1)})
        assert out.status_code == 303 and out.headers["location"] == "/signin"
        assert client.get("/").status_code == 401


def test_a_bad_filter_is_answered_400_with_the_sql_message(site: Site) -> None:
    headers = {"authorization": f"Bearer {site.tokens['acme']}"}
    bad = httpx.get(f"{site.url}/memories?state=bogus", headers=headers)
    assert bad.status_code == 400 and "invalid state" in bad.text
    missing = httpx.get(f"{site.url}/memory/fact/{UUID(int=7)}", headers=headers)
    assert missing.status_code == 404 and "not found" in missing.text


# -- the SQL functions the pages read (sql/functions/280-dashboard.sql) -----------------------------------------


@pytest.mark.parametrize(
    ("query", "sqlstate", "message"),
    [
        ("select * from pymem.memory_browse(type => 'memo')", "PM002", "invalid type"),
        ("select * from pymem.memory_browse(state => 'gone')", "PM002", "invalid state"),
        ("select * from pymem.memory_browse(tag => ' ')", "PM002", "tag must be a non-empty text"),
        ('select * from pymem.memory_browse("offset" => -1)', "PM002", "offset must be between"),
        ('select * from pymem.memory_browse("limit" => 0)', "PM002", "limit must be between 1 and 1000"),
        ("select * from pymem.memory_fact_history(%(id)s)", "PM003", "fact"),
        ("select * from pymem.memory_confidence_curve('episode', %(id)s)", "PM002", "invalid type"),
        ("select * from pymem.memory_confidence_curve('fact', %(id)s)", "PM003", "not found"),
        ("select * from pymem.memory_confidence_curve('fact', %(paris)s, points => 1)", "PM002", "points"),
        ("select * from pymem.memory_confidence_curve('fact', %(paris)s, days => -1)", "PM002", "days"),
        ('select * from pymem.memory_rules_by_maturity("limit" => 1001)', "PM002", "limit"),
        ("select * from pymem.memory_audit_trail('memo', %(id)s)", "PM002", "invalid type"),
    ],
)
def test_the_dashboard_functions_check_their_arguments(site: Site, query: str, sqlstate: str, message: str) -> None:
    with pytest.raises(psycopg.Error) as raised:
        sql_rows(site, "acme", query, {"id": UUID(int=7), "paris": site.ids["paris"]})
    assert raised.value.sqlstate == sqlstate and message in str(raised.value)


def test_the_dashboard_functions_read_only_the_callers_tenant(site: Site) -> None:
    fact, rule = site.ids["globex_fact"], site.ids["globex_rule"]
    assert not [r for r in sql_rows(site, "acme", "select * from pymem.memory_browse()") if MARKER in r["content"]]
    assert sql_rows(site, "acme", "select * from pymem.memory_audit_trail('fact', %s)", (fact,)) == []
    assert MARKER not in str(sql_rows(site, "acme", "select * from pymem.memory_rules_by_maturity()"))
    for query in (
        "select * from pymem.memory_fact_history(%s)",
        "select * from pymem.memory_confidence_curve('fact', %s)",
    ):
        with pytest.raises(psycopg.Error, match="not found"):
            sql_rows(site, "acme", query, (fact,))
    with pytest.raises(psycopg.Error, match="not found"):
        sql_rows(site, "acme", "select * from pymem.memory_confidence_curve('rule', %s)", (rule,))
    own = sql_rows(site, "globex", "select * from pymem.memory_browse()")
    assert len(own) == 3 and all(MARKER in r["content"] for r in own)  # globex sees its own
    with pytest.raises(psycopg.Error, match="no tenant"), psycopg.connect(site.app_dsn) as conn:
        conn.execute("select * from pymem.memory_browse()")


def test_a_facts_history_chain_and_its_curve_in_sql(site: Site) -> None:
    chain = sql_rows(site, "acme", "select * from pymem.memory_fact_history(%s)", (site.ids["paris"],))
    assert [(r["step"], r["memory_id"], r["validity"], r["requested"]) for r in chain] == [
        (-2, site.ids["berlin"], "superseded", False),
        (-1, site.ids["hamburg"], "superseded", False),
        (0, site.ids["paris"], "active", True),
    ]
    assert chain[0]["invalidated_at"] is not None and chain[2]["invalidated_at"] is None
    curve = sql_rows(
        site,
        "acme",
        "select * from pymem.memory_confidence_curve('fact', %s, days => 30, points => 5)",
        (site.ids["paris"],),
    )
    assert len(curve) == 5 and curve[0]["day"] == 0 and curve[0]["effective_confidence"] == 1.0
    values = [p["effective_confidence"] for p in curve]
    assert values == sorted(values, reverse=True) and [p["future"] for p in curve][-1] is True
    direct = sql_rows(
        site,
        "acme",
        "select pymem.memory_effective_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, %s) as c"
        " from pymem.facts as f where f.id = %s",
        (curve[-1]["at"], site.ids["paris"]),
    )
    assert abs(direct[0]["c"] - curve[-1]["effective_confidence"]) < 1e-12  # the formula recall uses


# -- in the browser ---------------------------------------------------------------------------------------------


def test_sign_in_page_renders_accessibly(site: Site, page: Any) -> None:
    response = page.goto(f"{site.url}/signin")
    assert response.status == 200
    assert page.inner_text("h1") == "Sign in"
    assert page.get_attribute("#token", "type") == "password"
    assert page.locator("label[for=token]").inner_text() == "Bearer token"
    assert page.get_attribute("form[action='/signin']", "method") == "post"
    assert page.get_attribute("html", "lang") == "en"


def test_a_browser_without_a_session_gets_401(site: Site, page: Any) -> None:
    response = page.goto(f"{site.url}/memories")
    assert response.status == 401
    assert page.inner_text("h1") == "Sign in"
    assert "lives in" not in page.content()


def test_signing_in_shows_the_overview_with_the_counts_and_a_strict_httponly_cookie(site: Site, page: Any) -> None:
    sign_in(page, site)
    stats = sql_rows(site, "acme", "select * from pymem.memory_stats()")[0]
    cards = page.locator("ul.cards").inner_text()
    assert f"{stats['facts_active']}\nactive facts" in cards and f"of {stats['facts_total']}" in cards
    assert count(page, "Facts", "superseded") == stats["facts_superseded"] == 2
    assert count(page, "Facts", "active") == stats["facts_active"]
    assert count(page, "Rules", "proven") == stats["rules_proven"] == 1
    assert count(page, "Episodes", "all") == stats["episodes_total"] == 3
    assert "Offer a vegan option first" in page.locator("section[aria-labelledby=review]").inner_text()
    (cookie,) = page.context.cookies()
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert site.tokens["acme"] not in cookie["value"]
    assert not any(site.tokens["acme"] in url for url in page.requested)


def test_the_browser_filters_by_type_tag_scope_butler_and_state(site: Site, page: Any) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/memories")
    page.select_option("#f-type", "fact")
    page.fill("#f-tag", "home")
    page.click("form.filters button[type=submit]")
    shown = page.locator("table.list tbody tr").all_inner_texts()
    assert len(shown) == 4 and all("fact" in row and "home" in row for row in shown)  # the chain and the cat
    page.select_option("#f-state", "superseded")
    page.click("form.filters button[type=submit]")
    superseded = page.locator("table.list tbody tr").all_inner_texts()
    assert [("Berlin" in r, "Hamburg" in r) for r in superseded] == [(False, True), (True, False)]  # newest first
    assert "state=superseded" in page.url and "tag=home" in page.url
    page.goto(f"{site.url}/memories?type=episode&butler=travel")
    assert page.locator("table.list tbody tr").all_inner_texts()[0].count("travel") == 2  # scope and butler
    assert page.locator("table.list tbody tr").count() == 1
    page.goto(f"{site.url}/memories?scope=health&type=fact")
    assert page.locator("table.list tbody tr").count() == 3


def test_a_search_shows_each_component_as_memory_recall_returns_it(site: Site, page: Any) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/search")
    page.fill("#q", TOPIC)
    page.click("form[role=search] button[type=submit]")
    page.wait_for_selector("#recall")
    vector = site.embedder.embed(TOPIC)
    expected = sql_rows(
        site,
        "acme",
        "select * from pymem.memory_recall(topic => %s, query_embedding => %s, bump_references => false)",
        (TOPIC, vector),
    )
    rows = page.locator("#recall tbody tr")
    assert rows.count() == len(expected) >= 2
    fields = ("score", "relevance", "importance", "recency", "effective_confidence")
    for i, want in enumerate(expected):
        row = rows.nth(i)
        assert row.get_attribute("data-memory-id") == str(want["memory_id"])
        for field in fields:
            shown = row.locator(f"[data-field={field}]").inner_text().split()[-1]
            assert abs(float(shown) - want[field]) <= 0.0005 + 1e-9, (field, shown, want[field])
        for leg in ("semantic_rank", "keyword_rank"):
            assert row.locator(f"[data-field={leg}]").inner_text() == str(want[leg] or "\u2013")
    assert "milk" in rows.nth(0).locator("td.content").inner_text()
    assert "hybrid" in page.locator("main").inner_text()


def test_a_facts_history_shows_its_supersession_chain_and_a_decay_chart(site: Site, page: Any) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/memory/fact/{site.ids['hamburg']}")
    chain = page.locator("ol.chain li").all_inner_texts()
    contents = page.locator("ol.chain li > p:nth-of-type(2)").all_inner_texts()
    assert contents == [f"The user lives in {c}." for c in ("Berlin", "Hamburg", "Paris")]
    assert "Hamburg." in page.locator("ol.chain li[aria-current=true]").inner_text()
    assert "superseded" in chain[0] and "active" in chain[2]
    svg = page.locator("figure.chart svg[role=img]")
    assert svg.count() == 1 and svg.locator("polyline.curve").count() == 2  # so far, and ahead
    assert "Effective confidence" in (svg.locator("desc").text_content() or "")
    curve = sql_rows(site, "acme", "select * from pymem.memory_confidence_curve('fact', %s)", (site.ids["hamburg"],))
    assert page.locator("details table tbody tr").count() == len(curve)
    trail = page.locator("section[aria-labelledby=audit] tbody tr").all_inner_texts()
    assert ["insert" in trail[0], "superseded" in trail[-1]] == [True, True]


def test_the_rules_page_shows_rules_by_maturity_with_their_feedback(site: Site, page: Any) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/rules")
    headings = page.locator("main h2").all_inner_texts()
    assert [h.split(" ")[0] for h in headings] == ["proven", "established", "candidate", "anti-pattern"]
    expected = {r["content"]: r for r in sql_rows(site, "acme", "select * from pymem.memory_rules_by_maturity()")}
    for row in page.locator("table.list tbody tr").all():
        content = row.locator("td.content").inner_text()
        assert row.locator("[data-field=helpful]").inner_text() == str(expected[content]["helpful"])
        assert row.locator("[data-field=harmful]").inner_text() == str(expected[content]["harmful"])
    proven = page.locator("section[aria-labelledby=m-proven]").inner_text()
    assert "plant-based milk" in proven and "\t15\t0\t" in proven
    assert "cheesecake" in page.locator("section[aria-labelledby=m-anti_pattern]").inner_text()


def test_another_tenants_memories_never_appear(site: Site, page: Any) -> None:
    sign_in(page, site)
    for path in (*PAGES, "/search?q=milk from farms", "/memories?scope=health", f"/memory/fact/{site.ids['paris']}"):
        response = page.goto(site.url + path)
        assert response.status == 200, path
        assert MARKER not in page.content(), path
    for name, kind in (("globex_fact", "fact"), ("globex_rule", "rule"), ("globex_episode", "episode")):
        response = page.goto(f"{site.url}/memory/{kind}/{site.ids[name]}")
        assert response.status == 404 and MARKER not in page.content()
    sign_in(page, site, "globex")  # the marker is there for its own tenant: the check above can fail
    page.goto(f"{site.url}/memories")
    assert MARKER in page.content() and "Paris" not in page.content()


def test_the_export_is_the_file_of_pymem_export_for_the_tenant_only(site: Site) -> None:
    with httpx.Client(base_url=site.url) as client:
        client.post("/signin", data={"token": site.tokens["acme"]})
        response = client.get("/export")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith('attachment; filename="pymem-acme-')
    lines = response.text.splitlines()
    with psycopg.connect(site.app_dsn, autocommit=True) as conn:
        expected = list(export_lines(conn, "acme"))
    assert json.loads(lines[0])["counts"] == json.loads(expected[0])["counts"]
    assert lines[1:] == expected[1:] and len(lines) > 15
    assert MARKER not in response.text
    assert httpx.get(f"{site.url}/export").status_code == 401


def test_no_token_ever_appears_in_a_url(site: Site, page: Any) -> None:
    sign_in(page, site)
    for path in PAGES:
        page.goto(site.url + path)
    page.click("header form[action='/signout'] button")
    page.wait_for_url(f"{site.url}/signin")
    assert len(page.requested) > len(PAGES)
    assert not any(site.tokens["acme"] in url or "token=" in url for url in page.requested)


def test_screenshots_of_each_page(site: Site, page: Any, tmp_path: Path) -> None:
    """One screenshot per page (1200x800 PNG), into docs/img with PYMEM_DASHBOARD_SCREENSHOTS=1."""
    out = ROOT / "docs" / "img" if os.environ.get("PYMEM_DASHBOARD_SCREENSHOTS") else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    sign_in(page, site)
    shots = {
        "overview": "/",
        "memories": "/memories?type=fact",
        "search": f"/search?q={TOPIC}",
        "fact-history": f"/memory/fact/{site.ids['hamburg']}",
        "rules": "/rules",
    }
    for name, path in shots.items():
        page.goto(site.url + path)
        target = out / f"dashboard-{name}.png"
        page.screenshot(path=str(target))
        assert 10_000 < target.stat().st_size < 200_000, (name, target.stat().st_size)


def test_a_superseded_facts_curve_is_not_recallable_after_it_was_superseded(site: Site) -> None:
    """Recall leaves out a fact from the moment it stopped being valid, however confident it still is."""
    hamburg = sql_rows(site, "acme", "select invalidated_at from pymem.facts where id = %s", (site.ids["hamburg"],))
    ended = hamburg[0]["invalidated_at"]
    curve = sql_rows(
        site,
        "acme",
        "select * from pymem.memory_confidence_curve('fact', %s, days => 30, points => 50, min_confidence => 0)",
        (site.ids["hamburg"],),
    )
    assert any(p["recallable"] for p in curve) and any(not p["recallable"] for p in curve)
    assert all(p["recallable"] == (p["at"] < ended) for p in curve)
