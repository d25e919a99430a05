# ruff: noqa: RUF001
# (the Chinese text uses the full-width comma)
"""Writes eval/golden/dataset.json: the golden dataset of `pymem eval` (deterministic, no randomness).

    .venv/bin/python eval/golden/generate.py        # rewrites eval/golden/dataset.json

Four tenants: a family household assistant, a small company's ops agents, a marine-biology
researcher and a Kyoto cafe (Japanese/Chinese text). Memories are stored in list order through the
SQL API (a later fact with the same subject + predicate supersedes the earlier one); ``retract``
marks a memory that is forgotten (memory_forget) after the corpus is stored; ``maturity`` promotes
a rule with helpful feedback. Every memory has a stable key; questions name the keys that answer
them (grade 2 = the answer, 1 = related), and the keys that must not appear. Short chat sessions
carry the conversational questions, whose answer is a reply that does not name its topic.
Questions are of split "test" (reported) or "train" (ids "t-...": for fitting, never reported).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("dataset.json")

memories: list[dict[str, Any]] = []
questions: list[dict[str, Any]] = []


def fact(
    key: str,
    tenant: str,
    subject: str,
    predicate: str,
    content: str,
    *,
    scope: str = "global",
    importance: float = 5.0,
    permanence: str = "standard",
    tags: list[str] | None = None,
    retract: bool = False,
) -> None:
    memories.append(
        {
            "key": key,
            "tenant": tenant,
            "type": "fact",
            "subject": subject,
            "predicate": predicate,
            "content": content,
            "scope": scope,
            "importance": importance,
            "permanence": permanence,
            "tags": tags or [],
            **({"retract": True} if retract else {}),
        }
    )


def episode(
    key: str, tenant: str, butler: str, session: str, content: str, *, importance: float = 5.0, retract: bool = False
) -> None:
    memories.append(
        {
            "key": key,
            "tenant": tenant,
            "type": "episode",
            "butler": butler,
            "session": session,
            "content": content,
            "importance": importance,
            **({"retract": True} if retract else {}),
        }
    )


def rule(
    key: str,
    tenant: str,
    content: str,
    *,
    scope: str = "global",
    maturity: str = "candidate",
    tags: list[str] | None = None,
    retract: bool = False,
) -> None:
    memories.append(
        {
            "key": key,
            "tenant": tenant,
            "type": "rule",
            "content": content,
            "scope": scope,
            "maturity": maturity,
            "tags": tags or [],
            **({"retract": True} if retract else {}),
        }
    )


def ask(
    qid: str,
    tenant: str,
    category: str,
    query: str,
    relevant: dict[str, int] | list[str] | None = None,
    *,
    scope: str | None = None,
    types: list[str] | None = None,
    current: str | None = None,
    absent: list[str] | None = None,
    split: str = "test",
) -> None:
    grades = dict.fromkeys(relevant, 2) if isinstance(relevant, list) else dict(relevant or {})
    if current is not None:
        grades.setdefault(current, 2)
    question: dict[str, Any] = {
        "id": qid,
        "tenant": tenant,
        "category": category,
        "query": query,
        "relevant": grades,
        "split": split,
    }
    if scope is not None:
        question["scope"] = scope
    if types is not None:
        question["types"] = types
    if current is not None:
        question["current"] = current
    if absent:
        question["absent"] = absent
    questions.append(question)


def train(
    qid: str,
    tenant: str,
    category: str,
    query: str,
    relevant: dict[str, int] | list[str] | None = None,
    **options: Any,
) -> None:
    """A question of the train split: for fitting a relevance model, never reported."""
    ask(qid, tenant, category, query, relevant, split="train", **options)


chat_sessions: dict[str, list[str]] = {}


def chat(prefix: str, tenant: str, butler: str, session: str, turns: list[str]) -> None:
    """A short chat session: its turns stored one after the other, keys prefix.1, prefix.2, ..."""
    chat_sessions[session] = [f"{prefix}.{i}" for i in range(1, len(turns) + 1)]
    for key, text in zip(chat_sessions[session], turns, strict=True):
        episode(key, tenant, butler, session, text)


# ---------------------------------------------------------------------------------------------
# Tenant 1: household -- the Okafor-Lindqvist family assistant (butlers: kitchen, calendar,
# health, school, home). Scopes: health, school, kitchen, home.
# ---------------------------------------------------------------------------------------------
HH = "household"

PEOPLE = {
    "maya": ("Maya", "mother, a civil engineer at the city water utility"),
    "daniel": ("Daniel", "father, a secondary-school history teacher"),
    "emma": ("Emma", "daughter, ten years old, in fourth grade"),
    "leo": ("Leo", "son, seven years old, in first grade"),
    "ingrid": ("Grandma Ingrid", "Maya's mother, who lives with the family on weekdays"),
}
for pid, (name, role) in PEOPLE.items():
    fact(f"hh.{pid}.role", HH, pid, "role", f"{name} is the {role}.", importance=7, permanence="permanent")

BIRTHDAYS = {"maya": "14 March", "daniel": "2 November", "emma": "21 June", "leo": "9 January", "ingrid": "30 August"}
for pid, day in BIRTHDAYS.items():
    name = PEOPLE[pid][0]
    fact(
        f"hh.{pid}.birthday",
        HH,
        pid,
        "birthday",
        f"{name}'s birthday is on {day}.",
        permanence="permanent",
        importance=8,
    )

FOODS = {
    "maya": "spicy jollof rice with fried plantain",
    "daniel": "Swedish meatballs with lingonberry jam",
    "emma": "homemade margherita pizza",
    "leo": "pancakes with maple syrup",
    "ingrid": "pickled herring on rye bread",
}
for pid, food in FOODS.items():
    name = PEOPLE[pid][0]
    fact(f"hh.{pid}.food", HH, pid, "favorite_food", f"{name}'s favourite meal is {food}.", scope="kitchen")

fact(
    "hh.leo.allergy",
    HH,
    "leo",
    "allergy",
    "Leo is allergic to peanuts and carries an EpiPen to school.",
    scope="health",
    importance=10,
    permanence="permanent",
    tags=["allergy", "safety"],
)
fact(
    "hh.emma.allergy",
    HH,
    "emma",
    "allergy",
    "Emma gets hay fever in May and takes cetirizine in spring.",
    scope="health",
    importance=7,
    tags=["allergy"],
)
fact(
    "hh.ingrid.medication",
    HH,
    "ingrid",
    "medication",
    "Grandma Ingrid takes 5 mg of amlodipine every morning for her blood pressure.",
    scope="health",
    importance=9,
    tags=["medication"],
)
fact(
    "hh.family.doctor",
    HH,
    "family",
    "doctor",
    "The family doctor is Dr. Smith at the Elm Street practice, phone 555-0142.",
    scope="health",
    importance=8,
    permanence="stable",
)
fact(
    "hh.leo.dentist",
    HH,
    "leo",
    "dentist",
    "Leo's dentist is Dr. Haruto Nakamura at Bright Smiles Dental.",
    scope="health",
    importance=6,
    permanence="stable",
)
fact(
    "hh.emma.school",
    HH,
    "emma",
    "school",
    "Emma attends Willow Creek Elementary, class 4B with Ms. Okonkwo.",
    scope="school",
    importance=7,
    permanence="stable",
)
fact(
    "hh.leo.school",
    HH,
    "leo",
    "school",
    "Leo attends Willow Creek Elementary, class 1A with Mr. Patel.",
    scope="school",
    importance=7,
    permanence="stable",
)
fact(
    "hh.emma.instrument",
    HH,
    "emma",
    "instrument",
    "Emma plays the cello and practises twenty minutes every evening.",
    scope="school",
)
fact("hh.leo.sport", HH, "leo", "sport", "Leo goes swimming on Tuesdays at the Riverside pool.", scope="school")
fact("hh.daniel.hobby", HH, "daniel", "hobby", "Daniel is running a half marathon in October and trains on Sundays.")
fact("hh.maya.hobby", HH, "maya", "hobby", "Maya restores vintage bicycles in the garage.")
fact("hh.dog.name", HH, "dog", "name", "The family dog is a beagle called Biscuit.", permanence="permanent")
fact(
    "hh.dog.vet",
    HH,
    "dog",
    "vet",
    "Biscuit's vet is the Oakwood Animal Clinic; vaccinations are due every April.",
    scope="home",
)
fact("hh.dog.food", HH, "dog", "food", "Biscuit eats grain-free salmon kibble, two scoops a day.", scope="home")
fact(
    "hh.home.wifi",
    HH,
    "home",
    "wifi",
    "The home wifi network is Lindqvist-5G and the password is on the fridge.",
    scope="home",
)
fact(
    "hh.home.bins",
    HH,
    "home",
    "bin_day",
    "Recycling bins go out on Wednesday night; general waste on Friday.",
    scope="home",
)
fact("hh.home.boiler", HH, "home", "boiler", "The boiler was serviced by Kowalski Heating in January.", scope="home")
fact("hh.home.alarm", HH, "home", "alarm_code", "The burglar alarm code was changed; ask Maya for it.", scope="home")
fact(
    "hh.car.insurance",
    HH,
    "car",
    "insurance",
    "The car insurance with Harbor Mutual renews every September.",
    scope="home",
)
fact("hh.car.service", HH, "car", "service", "The Volvo estate needs its next service at 90,000 km.", scope="home")
fact("hh.kitchen.diet", HH, "family", "diet", "The family eats vegetarian on Mondays.", scope="kitchen")
fact(
    "hh.kitchen.shopping",
    HH,
    "family",
    "grocery_day",
    "The weekly grocery order is delivered on Saturday morning.",
    scope="kitchen",
)
fact(
    "hh.kitchen.oven",
    HH,
    "kitchen",
    "oven",
    "The oven runs about 10 degrees hot; lower recipes by 10 degrees.",
    scope="kitchen",
)

# superseded facts (the same subject + predicate stored again)
fact("hh.emma.teacher.old", HH, "emma", "cello_teacher", "Emma's cello teacher is Mr. Brandt.", scope="school")
fact("hh.emma.teacher.new", HH, "emma", "cello_teacher", "Emma's cello teacher is now Mrs. Achterberg.", scope="school")
fact("hh.maya.car.old", HH, "maya", "commute", "Maya commutes to work by car.")
fact("hh.maya.car.new", HH, "maya", "commute", "Maya commutes to work by e-bike since the spring.")
fact("hh.leo.bedtime.old", HH, "leo", "bedtime", "Leo's bedtime is 7:30 pm.", scope="home")
fact("hh.leo.bedtime.new", HH, "leo", "bedtime", "Leo's bedtime is 8:00 pm on school nights.", scope="home")
fact("hh.ingrid.phone.old", HH, "ingrid", "phone", "Grandma Ingrid's mobile number is 555-0199.")
fact("hh.ingrid.phone.new", HH, "ingrid", "phone", "Grandma Ingrid's mobile number is 555-0377.")

# retracted
fact("hh.daniel.job.wrong", HH, "daniel", "second_job", "Daniel tutors Latin on Thursday evenings.", retract=True)
fact(
    "hh.emma.braces.wrong",
    HH,
    "emma",
    "orthodontics",
    "Emma will get braces fitted in November.",
    scope="health",
    retract=True,
)
episode(
    "hh.ep.pool.wrong",
    HH,
    "calendar",
    "hh-s9",
    "Booked a family trip to the water park Aqualand for 12 July.",
    retract=True,
)

# episodes (near-duplicates included)
EPISODES_H = [
    ("calendar", "hh-s1", "Maya asked to move Leo's swimming lesson from Tuesday to Thursday this week only."),
    ("calendar", "hh-s1", "Added parent-teacher evening for Emma on 18 November at 6 pm."),
    ("calendar", "hh-s2", "Daniel asked for a reminder to renew his passport before the trip to Lagos."),
    ("calendar", "hh-s2", "Reminder set: renew Daniel's passport before the Lagos trip."),  # near-duplicate
    ("kitchen", "hh-s3", "Grandma Ingrid taught Emma how to bake cardamom buns on Saturday."),
    ("kitchen", "hh-s3", "The freezer is nearly full; use the frozen berries first."),
    ("kitchen", "hh-s4", "Leo refused the broccoli again but ate the carrots."),
    ("kitchen", "hh-s4", "Planned dinners: lentil soup Monday, fish tacos Wednesday, pizza Friday."),
    ("health", "hh-s5", "Leo had a mild fever of 38.1 C in the evening; gave children's paracetamol."),
    ("health", "hh-s5", "Leo's temperature was normal the next morning and he went to school."),
    ("health", "hh-s6", "Grandma Ingrid's blood pressure reading was 135 over 85 this morning."),
    ("school", "hh-s7", "Emma's class is collecting bottle caps for an art project until Friday."),
    ("school", "hh-s7", "Leo's school photo day is on 3 October; he should wear the blue sweater."),
    ("school", "hh-s8", "Emma scored 18 out of 20 on her multiplication test."),
    ("home", "hh-s10", "The plumber fixed the dripping tap in the upstairs bathroom."),
    ("home", "hh-s10", "Biscuit chewed through the garden hose; ordered a new one."),
    ("home", "hh-s11", "The smoke alarm in the hallway beeped; the battery was replaced."),
    ("home", "hh-s11", "Smoke alarm battery in the hallway replaced after it started beeping."),  # near-duplicate
    ("calendar", "hh-s12", "Daniel ran 15 kilometres along the river on Sunday morning."),
    ("calendar", "hh-s12", "Booked Biscuit's annual vaccination at the Oakwood Animal Clinic for 14 April."),
]
for i, (butler, session, text) in enumerate(EPISODES_H, 1):
    episode(f"hh.ep.{i:02d}", HH, butler, session, text)

RULES_H = [
    ("hh.rule.peanuts", "Never suggest recipes or snacks containing peanuts for Leo.", "kitchen", "proven"),
    (
        "hh.rule.bedtime",
        "Do not schedule activities for the children after 7 pm on school nights.",
        "global",
        "established",
    ),
    ("hh.rule.grandma", "Speak slowly and avoid jargon when talking with Grandma Ingrid.", "global", "candidate"),
    ("hh.rule.meds", "Remind Grandma Ingrid about her morning pills at 8 am.", "health", "established"),
    ("hh.rule.shopping", "Add oat milk to every grocery order.", "kitchen", "candidate"),
    ("hh.rule.photos", "Never post the children's photos on social media.", "global", "proven"),
    ("hh.rule.homework", "Homework comes before screen time for Emma and Leo.", "school", "candidate"),
]
for key, text, scope, maturity in RULES_H:
    rule(key, HH, text, scope=scope, maturity=maturity)

# ---------------------------------------------------------------------------------------------
# Tenant 2: ops -- the ops agents of Northwind Parcel, a small logistics company
# (butlers: oncall, deploy, billing, support). Scopes: infra, billing, support.
# ---------------------------------------------------------------------------------------------
OPS = "ops"

SERVICES = {
    "api-gateway": ("nginx 1.25", "edge-01", 443, "Tomasz Kowalski"),
    "orders": ("Python 3.12 with FastAPI", "app-02", 8001, "Aisha Bello"),
    "tracking": ("Go 1.22", "app-03", 8002, "Lukas Meyer"),
    "billing-worker": ("Python 3.11 with Celery", "app-04", 8003, "Sofia Rossi"),
    "notifications": ("Node.js 20", "app-05", 8004, "Aisha Bello"),
    "route-planner": ("Rust 1.78", "app-06", 8005, "Lukas Meyer"),
    "warehouse-sync": ("Java 21 with Spring Boot", "app-07", 8006, "Chen Wei"),
    "customer-portal": ("TypeScript with Next.js", "web-01", 3000, "Sofia Rossi"),
    "postgres-main": ("PostgreSQL 16", "db-01", 5432, "Tomasz Kowalski"),
    "redis-cache": ("Redis 7.2", "cache-01", 6379, "Chen Wei"),
}
for svc, (runtime, host, port, owner) in SERVICES.items():
    fact(f"ops.{svc}.runtime", OPS, svc, "runtime", f"The {svc} service runs on {runtime}.", scope="infra")
    fact(
        f"ops.{svc}.host",
        OPS,
        svc,
        "host",
        f"The {svc} service is deployed on host {host}, port {port}.",
        scope="infra",
    )
    fact(
        f"ops.{svc}.owner",
        OPS,
        svc,
        "owner",
        f"{owner} owns the {svc} service and is its first escalation.",
        scope="infra",
        importance=7,
    )

PEOPLE_O = {
    "tomasz": ("Tomasz Kowalski", "head of infrastructure", "Warsaw"),
    "aisha": ("Aisha Bello", "backend lead", "Lagos"),
    "lukas": ("Lukas Meyer", "platform engineer", "Hamburg"),
    "sofia": ("Sofia Rossi", "full-stack engineer", "Turin"),
    "chen": ("Chen Wei", "data engineer", "Singapore"),
    "grace": ("Grace Mwangi", "customer support manager", "Nairobi"),
    "oliver": ("Oliver Smith", "chief financial officer", "Leeds"),
}
for pid, (name, role, city) in PEOPLE_O.items():
    fact(f"ops.person.{pid}.role", OPS, name, "role", f"{name} is the {role}.", importance=6, permanence="stable")
    fact(f"ops.person.{pid}.city", OPS, name, "location", f"{name} works remotely from {city}.", permanence="stable")

fact(
    "ops.oncall.current.old",
    OPS,
    "oncall",
    "primary",
    "The primary on-call engineer this week is Lukas Meyer.",
    scope="infra",
    permanence="volatile",
)
fact(
    "ops.oncall.current.new",
    OPS,
    "oncall",
    "primary",
    "The primary on-call engineer this week is Sofia Rossi.",
    scope="infra",
    permanence="volatile",
)
fact("ops.deploy.freeze.old", OPS, "deploys", "freeze", "Deploy freeze from 20 December to 2 January.", scope="infra")
fact(
    "ops.deploy.freeze.new",
    OPS,
    "deploys",
    "freeze",
    "Deploy freeze moved: no production deploys from 15 December to 5 January.",
    scope="infra",
)
fact(
    "ops.billing.provider.old",
    OPS,
    "billing",
    "payment_provider",
    "Card payments are processed by PayFast.",
    scope="billing",
)
fact(
    "ops.billing.provider.new",
    OPS,
    "billing",
    "payment_provider",
    "Card payments are processed by Stripe since the migration in March.",
    scope="billing",
)
fact(
    "ops.db.version.old",
    OPS,
    "postgres-main",
    "major_version_plan",
    "Upgrade postgres-main to PostgreSQL 16 in Q2.",
    scope="infra",
)
fact(
    "ops.db.version.new",
    OPS,
    "postgres-main",
    "major_version_plan",
    "Upgrade postgres-main to PostgreSQL 17 in Q4.",
    scope="infra",
)
fact(
    "ops.support.hours.old", OPS, "support", "hours", "Support answers tickets from 9:00 to 17:00 CET.", scope="support"
)
fact(
    "ops.support.hours.new",
    OPS,
    "support",
    "hours",
    "Support answers tickets from 8:00 to 20:00 CET on weekdays.",
    scope="support",
)

fact(
    "ops.billing.vat",
    OPS,
    "billing",
    "vat",
    "Invoices to German customers carry 19 percent VAT.",
    scope="billing",
    importance=8,
)
fact(
    "ops.billing.cycle",
    OPS,
    "billing",
    "cycle",
    "Customers are invoiced monthly on the first business day.",
    scope="billing",
)
fact(
    "ops.billing.dunning",
    OPS,
    "billing",
    "dunning",
    "Unpaid invoices get reminders after 7, 14 and 30 days.",
    scope="billing",
)
fact(
    "ops.support.sla",
    OPS,
    "support",
    "sla",
    "Priority-one tickets must get a first response within 30 minutes.",
    scope="support",
    importance=9,
)
fact(
    "ops.support.tool",
    OPS,
    "support",
    "tool",
    "Support tickets are tracked in Zendesk under the NWP project.",
    scope="support",
)
fact(
    "ops.infra.backups",
    OPS,
    "postgres-main",
    "backups",
    "postgres-main is backed up nightly at 02:00 UTC with pgBackRest to the eu-west bucket.",
    scope="infra",
    importance=9,
)
fact(
    "ops.infra.monitoring",
    OPS,
    "monitoring",
    "stack",
    "Metrics go to Prometheus and dashboards live in Grafana.",
    scope="infra",
)
fact(
    "ops.infra.secrets",
    OPS,
    "secrets",
    "store",
    "Secrets are kept in HashiCorp Vault; never in the repository.",
    scope="infra",
    importance=9,
)
fact(
    "ops.infra.cloud",
    OPS,
    "cloud",
    "provider",
    "All servers run in the Hetzner Falkenstein data centre.",
    scope="infra",
)
fact(
    "ops.infra.ci",
    OPS,
    "ci",
    "system",
    "Builds and tests run on GitHub Actions; deploys go through Argo CD.",
    scope="infra",
)
fact(
    "ops.infra.vpn.wrong",
    OPS,
    "vpn",
    "endpoint",
    "The office VPN endpoint is vpn.northwind.example:1194.",
    scope="infra",
    retract=True,
)
fact(
    "ops.billing.discount.wrong",
    OPS,
    "billing",
    "discount",
    "Enterprise customers get a 40 percent discount.",
    scope="billing",
    retract=True,
)
rule("ops.rule.oldfreeze.wrong", OPS, "Deploy only on Fridays after 16:00.", scope="infra", retract=True)

INCIDENTS = [
    ("INC-2041", "tracking", "The tracking service ran out of memory after a bad release; rolled back to v3.4.2."),
    ("INC-2042", "orders", "Orders API returned 502 errors for 12 minutes because api-gateway lost its upstream."),
    ("INC-2043", "postgres-main", "Disk on db-01 reached 92 percent; vacuumed and archived old WAL files."),
    ("INC-2044", "notifications", "SMS notifications were delayed by 40 minutes by a provider outage."),
    ("INC-2045", "billing-worker", "The billing worker charged 14 customers twice; refunds issued the same day."),
    ("INC-2046", "route-planner", "Route planner timed out on large depots; raised the solver time limit to 20 s."),
    ("INC-2047", "redis-cache", "Redis evicted session keys under memory pressure; maxmemory raised to 4 GB."),
    (
        "INC-2048",
        "warehouse-sync",
        "Warehouse sync stopped after a certificate expired; renewed it and added alerting.",
    ),
]
for i, (inc, svc, text) in enumerate(INCIDENTS):
    episode(f"ops.inc.{inc}", OPS, "oncall", f"ops-inc-{i}", f"{inc}: {text}", importance=8)
    fact(
        f"ops.postmortem.{inc}",
        OPS,
        inc,
        "postmortem",
        f"Postmortem of {inc} ({svc}): {text}",
        scope="infra",
        tags=["postmortem"],
    )

EPISODES_O = [
    ("deploy", "ops-d1", "Deployed orders v2.8.0 to production at 14:05; smoke tests passed."),
    ("deploy", "ops-d1", "Deployed tracking v3.5.0; canary at 10 percent for one hour, then full rollout."),
    ("deploy", "ops-d2", "Rolled back customer-portal v1.19 because the login page rendered blank in Safari."),
    ("deploy", "ops-d2", "customer-portal v1.19 rolled back: blank login page in Safari."),  # near-duplicate
    ("billing", "ops-b1", "Oliver Smith asked for the monthly revenue report by Thursday."),
    ("billing", "ops-b1", "Exported 312 invoices for the accountant at the end of the quarter."),
    ("billing", "ops-b2", "A customer disputed a charge of 89 euros; sent the delivery proof."),
    ("support", "ops-s1", "Grace Mwangi reported that many tickets ask where a parcel is after it left the depot."),
    ("support", "ops-s1", "Drafted a help-centre article explaining tracking statuses."),
    ("support", "ops-s2", "A customer from Vienna complained that the courier left the parcel in the rain."),
    ("oncall", "ops-o1", "Tomasz runs the quarterly restore test of the backups next Monday."),
    ("oncall", "ops-o1", "Alert: CPU on app-06 above 90 percent for 10 minutes during the morning route batch."),
    ("oncall", "ops-o2", "Rotated the TLS certificates on edge-01 ahead of expiry."),
    ("oncall", "ops-o2", "Lukas is running load tests against route-planner on staging tonight."),
]
for i, (butler, session, text) in enumerate(EPISODES_O, 1):
    episode(f"ops.ep.{i:02d}", OPS, butler, session, text)

RULES_O = [
    ("ops.rule.freeze", "Never deploy to production on Friday afternoons.", "infra", "proven"),
    (
        "ops.rule.migrations",
        "Run database migrations before deploying the code that needs them.",
        "infra",
        "established",
    ),
    ("ops.rule.secrets", "Never paste credentials or tokens into tickets or chat.", "global", "proven"),
    ("ops.rule.p1", "Page the owner of a service for any priority-one incident.", "infra", "established"),
    ("ops.rule.refunds", "Refunds above 500 euros need approval from Oliver Smith.", "billing", "established"),
    ("ops.rule.tone", "Apologise first, then explain, when answering an upset customer.", "support", "candidate"),
    ("ops.rule.postmortem", "Write a blameless postmortem within five days of every incident.", "infra", "candidate"),
]
for key, text, scope, maturity in RULES_O:
    rule(key, OPS, text, scope=scope, maturity=maturity)

# ---------------------------------------------------------------------------------------------
# Tenant 3: lab -- Dr. Priya Raman's research assistant (coral reef microbiome research;
# butlers: literature, experiments, writing, admin). Scopes: experiments, writing, admin.
# ---------------------------------------------------------------------------------------------
LAB = "lab"

PAPERS = [
    ("bourne2016", "Bourne et al. 2016", "coral microbiome shifts precede visible bleaching"),
    ("peixoto2017", "Peixoto et al. 2017", "beneficial microorganisms for corals improve heat tolerance"),
    ("hughes2018", "Hughes et al. 2018", "global warming transforms coral reef assemblages"),
    (
        "ziegler2017",
        "Ziegler et al. 2017",
        "bacterial community dynamics are linked to patterns of coral heat tolerance",
    ),
    ("rosado2019", "Rosado et al. 2019", "marine probiotics increase coral resistance to bleaching"),
    ("thurber2009", "Vega Thurber et al. 2009", "metagenomic analysis of stressed coral holobionts"),
    ("ainsworth2015", "Ainsworth et al. 2015", "the coral core microbiome identifies rare bacterial taxa"),
    ("smith2021", "Smith and Okoro 2021", "sponge symbionts fix nitrogen on oligotrophic reefs"),
    ("lesser2004", "Lesser 2004", "experimental biology of coral reef ecosystems under oxidative stress"),
    ("glasl2016", "Glasl et al. 2016", "the coral surface mucus layer microbiome is a sensitive indicator"),
    ("bay2018", "Bay and Palumbi 2018", "rapid acclimation of corals through epigenetic changes"),
    ("doering2021", "Doering et al. 2021", "microbiome flexibility of Red Sea corals under thermal stress"),
]
for key, cite, finding in PAPERS:
    fact(
        f"lab.paper.{key}", LAB, cite, "finding", f"{cite} found that {finding}.", scope="writing", tags=["literature"]
    )

EXPERIMENTS = [
    ("E1", "tank A", 26, "control corals at ambient temperature", "Acropora tenuis"),
    ("E2", "tank B", 31, "heat stress without probiotics", "Acropora tenuis"),
    ("E3", "tank C", 31, "heat stress with the probiotic consortium BMC-7", "Acropora tenuis"),
    ("E4", "tank D", 29, "moderate heat with reduced light", "Pocillopora damicornis"),
    ("E5", "tank E", 31, "heat stress with antibiotics", "Pocillopora damicornis"),
    ("E6", "tank F", 26, "nitrate enrichment at ambient temperature", "Porites lutea"),
]
for exp, tank, temp, design, species in EXPERIMENTS:
    fact(
        f"lab.exp.{exp}.design",
        LAB,
        f"experiment {exp}",
        "design",
        f"Experiment {exp} in {tank} tests {design} on {species} fragments.",
        scope="experiments",
        importance=7,
    )
    fact(
        f"lab.exp.{exp}.temp",
        LAB,
        f"experiment {exp}",
        "temperature",
        f"Experiment {exp} holds {tank} at {temp} degrees Celsius.",
        scope="experiments",
    )

fact(
    "lab.exp.E3.result.old",
    LAB,
    "experiment E3",
    "result",
    "Experiment E3: the probiotic had no effect on bleaching.",
    scope="experiments",
)
fact(
    "lab.exp.E3.result.new",
    LAB,
    "experiment E3",
    "result",
    "Experiment E3: probiotic-treated fragments bleached 35 percent less than in E2.",
    scope="experiments",
    importance=9,
)
fact(
    "lab.grant.deadline.old",
    LAB,
    "grant",
    "deadline",
    "The Marine Futures grant proposal is due on 1 March.",
    scope="admin",
    importance=9,
)
fact(
    "lab.grant.deadline.new",
    LAB,
    "grant",
    "deadline",
    "The Marine Futures grant proposal deadline was extended to 15 March.",
    scope="admin",
    importance=9,
)
fact(
    "lab.sequencer.old",
    LAB,
    "sequencing",
    "facility",
    "Samples are sequenced at the Genomics Core on MiSeq.",
    scope="experiments",
)
fact(
    "lab.sequencer.new",
    LAB,
    "sequencing",
    "facility",
    "Samples are now sequenced at the Genomics Core on the NovaSeq X.",
    scope="experiments",
)
fact(
    "lab.thesis.title.old",
    LAB,
    "thesis",
    "working_title",
    "Kofi's thesis working title: Microbes and heat.",
    scope="writing",
)
fact(
    "lab.thesis.title.new",
    LAB,
    "thesis",
    "working_title",
    "Kofi's thesis working title: Probiotic rescue of heat-stressed Acropora.",
    scope="writing",
)

fact(
    "lab.person.priya",
    LAB,
    "Priya Raman",
    "role",
    "Dr. Priya Raman is the principal investigator of the reef lab.",
    permanence="permanent",
    importance=8,
)
fact(
    "lab.person.kofi",
    LAB,
    "Kofi Mensah",
    "role",
    "Kofi Mensah is a PhD student running experiments E2 and E3.",
    permanence="stable",
)
fact(
    "lab.person.lena",
    LAB,
    "Lena Vogt",
    "role",
    "Lena Vogt is the lab technician who maintains the aquarium system.",
    permanence="stable",
)
fact(
    "lab.person.smith",
    LAB,
    "Dr. Smith",
    "role",
    "Dr. Alan Smith at the Genomics Core handles the 16S amplicon sequencing runs.",
    permanence="stable",
)
fact(
    "lab.admin.budget",
    LAB,
    "budget",
    "sequencing",
    "The sequencing budget for this year is 18,000 euros.",
    scope="admin",
    importance=7,
)
fact(
    "lab.admin.ethics",
    LAB,
    "permits",
    "collection",
    "The coral collection permit GBRMPA-G21/4471 expires in June.",
    scope="admin",
    importance=8,
)
fact(
    "lab.writing.journal",
    LAB,
    "manuscript",
    "target_journal",
    "The E2/E3 manuscript targets the journal Microbiome.",
    scope="writing",
)
fact(
    "lab.writing.style",
    LAB,
    "manuscript",
    "reference_style",
    "References use the Vancouver numbered style.",
    scope="writing",
)
fact(
    "lab.data.repo",
    LAB,
    "data",
    "repository",
    "Raw reads are deposited in the NCBI SRA under BioProject PRJNA88.",
    scope="experiments",
)
fact(
    "lab.pipeline",
    LAB,
    "analysis",
    "pipeline",
    "Amplicon reads are processed with QIIME 2 and DADA2.",
    scope="experiments",
)
fact("lab.stats", LAB, "analysis", "statistics", "Differential abundance is tested with ANCOM-BC.", scope="experiments")
fact(
    "lab.conf.wrong",
    LAB,
    "conference",
    "talk",
    "Priya gives a keynote at the Coral Reef Symposium in Auckland.",
    retract=True,
)
fact(
    "lab.tank.wrong",
    LAB,
    "tank G",
    "status",
    "Tank G holds the Montipora fragments.",
    scope="experiments",
    retract=True,
)

EPISODES_L = [
    (
        "experiments",
        "lab-x1",
        "Lena noticed tank B running 0.5 degrees above target overnight; recalibrated the heater.",
    ),
    (
        "experiments",
        "lab-x1",
        "Tank B heater recalibrated after it ran half a degree warm during the night.",
    ),  # near-dup
    ("experiments", "lab-x2", "Sampled mucus from all E3 fragments on day 14 and froze them at -80."),
    ("experiments", "lab-x2", "Kofi photographed the E2 fragments; most are pale after ten days at 31 degrees."),
    ("experiments", "lab-x3", "Extracted DNA from 48 samples; two failed the quality check."),
    ("literature", "lab-l1", "Priya asked for a summary of studies on probiotics for corals."),
    ("literature", "lab-l1", "Found a 2023 preprint on phage therapy against Vibrio coryliiticus."),
    ("writing", "lab-w1", "Drafted the methods section of the E2/E3 manuscript."),
    ("writing", "lab-w1", "Priya wants the discussion to compare E3 with the Rosado 2019 field trial."),
    ("admin", "lab-a1", "Ordered 200 sterile swabs and two boxes of cryovials."),
    ("admin", "lab-a1", "Booked the boat for the collection trip to Orpheus Island on 4 May."),
    ("admin", "lab-a2", "Kofi's travel reimbursement for the Townsville workshop was approved."),
]
for i, (butler, session, text) in enumerate(EPISODES_L, 1):
    episode(f"lab.ep.{i:02d}", LAB, butler, session, text)

RULES_L = [
    ("lab.rule.gloves", "Always wear gloves when handling coral fragments.", "experiments", "proven"),
    ("lab.rule.cite", "Cite the primary study, not a review, for experimental claims.", "writing", "established"),
    ("lab.rule.backup", "Copy raw sequencing data to two locations before any analysis.", "experiments", "established"),
    ("lab.rule.meetings", "Keep Priya's Wednesday mornings free for writing.", "admin", "candidate"),
    ("lab.rule.units", "Report temperatures in degrees Celsius with one decimal.", "writing", "candidate"),
]
for key, text, scope, maturity in RULES_L:
    rule(key, LAB, text, scope=scope, maturity=maturity)

# ---------------------------------------------------------------------------------------------
# Tenant 4: cafe -- Kissa Hinata, a small cafe in Kyoto (Japanese and Chinese text; butlers:
# counter, kitchen, staff). Scopes: menu, staff.
# ---------------------------------------------------------------------------------------------
CAFE = "cafe"

CAFE_FACTS = [
    ("cafe.menu.matcha", "menu", "matcha", "抹茶ラテは宇治の抹茶を使い、オーツミルクに変更できます。", "menu"),
    ("cafe.menu.pudding", "menu", "pudding", "自家製プリンは毎朝十二個だけ作ります。", "menu"),
    ("cafe.menu.curry", "menu", "curry", "ランチの日替わりカレーは九百円です。", "menu"),
    (
        "cafe.menu.coffee",
        "menu",
        "coffee",
        "ブレンドコーヒーの豆は京都の焙煎所「小川珈琲」から仕入れています。",
        "menu",
    ),
    ("cafe.menu.sando", "menu", "sandwich", "たまごサンドは土曜日と日曜日だけの限定メニューです。", "menu"),
    ("cafe.menu.tea_cn", "menu", "chinese_tea", "我们提供台湾高山乌龙茶，一壶六百日元。", "menu"),
    ("cafe.hours", "shop", "hours", "営業時間は午前八時から午後六時まで、水曜日は定休日です。", "global"),
    ("cafe.address", "shop", "address", "店舗は京都市左京区の哲学の道の近くにあります。", "global"),
    ("cafe.staff.yui", "Yui", "role", "結衣さんは店長で、シフト表を管理しています。", "staff"),
    ("cafe.staff.ken", "Ken", "role", "健太さんはバリスタで、ラテアートが得意です。", "staff"),
    ("cafe.staff.li", "Li Na", "role", "李娜是周末的兼职员工，会说中文和日语。", "staff"),
    ("cafe.supplier.milk", "supplier", "milk", "牛乳は丹波の牧場から毎週月曜日と木曜日に届きます。", "global"),
    ("cafe.wifi", "shop", "wifi", "お客様用Wi-Fiのパスワードはレシートに印刷されています。", "global"),
    ("cafe.card", "shop", "payment", "Cash and IC cards are accepted; credit cards only above 1,000 yen.", "global"),
    ("cafe.english", "menu", "english_menu", "An English menu is available for tourists at the counter.", "menu"),
]
for key, subject, predicate, content, scope in CAFE_FACTS:
    fact(key, CAFE, subject, predicate, content, scope=scope)
fact("cafe.price.latte.old", CAFE, "menu", "latte_price", "カフェラテは五百円です。", scope="menu")
fact(
    "cafe.price.latte.new", CAFE, "menu", "latte_price", "カフェラテは値上げして五百五十円になりました。", scope="menu"
)
fact("cafe.closed.wrong", CAFE, "shop", "holiday", "年末は十二月二十日から休業します。", retract=True)
EPISODES_C = [
    ("counter", "cafe-c1", "常連の田中さんが抹茶ラテを二杯注文しました。"),
    ("counter", "cafe-c1", "観光客がカレーの辛さについて質問しました。"),
    ("kitchen", "cafe-k1", "プリン用の卵が足りなくなったので追加で注文しました。"),
    ("staff", "cafe-s1", "健太さんが来週の火曜日に休みを希望しています。"),
    ("staff", "cafe-s1", "李娜说她下个月可以多上两个班。"),
    ("counter", "cafe-c2", "A tourist from Canada asked whether the pudding contains gelatin."),
]
for i, (butler, session, text) in enumerate(EPISODES_C, 1):
    episode(f"cafe.ep.{i:02d}", CAFE, butler, session, text)
rule(
    "cafe.rule.allergy",
    CAFE,
    "アレルギーについて聞かれたら、必ず店長に確認してください。",
    scope="global",
    maturity="established",
)
rule("cafe.rule.photo", CAFE, "Always ask before photographing customers for social media.", scope="global")

# ---------------------------------------------------------------------------------------------
# Filler: more ordinary memories per tenant, so that ranking has real competition.
# ---------------------------------------------------------------------------------------------
CHORES = [
    "vacuum the living room",
    "water the tomato plants",
    "clean the bathroom",
    "walk Biscuit after dinner",
    "empty the dishwasher",
    "fold the laundry",
    "sweep the patio",
    "wipe the kitchen counters",
]
for i, chore in enumerate(CHORES):
    who = ["Emma", "Leo", "Daniel", "Maya"][i % 4]
    day = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Monday"][i]
    fact(f"hh.chore.{i}", HH, f"chore {i}", "assignment", f"{who} has to {chore} on {day}.", scope="home")
RECIPES = [
    ("lentil soup", "red lentils, carrots and cumin"),
    ("fish tacos", "cod, cabbage slaw and lime"),
    ("cardamom buns", "cardamom, butter and pearl sugar"),
    ("vegetable curry", "chickpeas, spinach and coconut"),
    ("banana bread", "ripe bananas, walnuts and cinnamon"),
    ("egusi soup", "melon seeds, spinach and palm oil"),
    ("shakshuka", "eggs, tomatoes and peppers"),
    ("potato gratin", "potatoes, cream and nutmeg"),
]
for i, (dish, parts) in enumerate(RECIPES):
    fact(f"hh.recipe.{i}", HH, dish, "recipe", f"The family recipe for {dish} uses {parts}.", scope="kitchen")
for i, (name, day) in enumerate(
    [
        ("Aunt Chioma", "5 February"),
        ("Uncle Sven", "17 July"),
        ("cousin Astrid", "3 May"),
        ("cousin Tobi", "28 October"),
        ("neighbour Mrs. Park", "11 December"),
    ]
):
    fact(f"hh.relative.{i}", HH, name, "birthday", f"{name}'s birthday is on {day}; send a card.")

for svc in SERVICES:
    fact(
        f"ops.{svc}.dashboard",
        OPS,
        svc,
        "dashboard",
        f"The Grafana dashboard for {svc} is grafana/d/{svc}; alerts go to the #ops-{svc} channel.",
        scope="infra",
    )
    fact(
        f"ops.{svc}.repo",
        OPS,
        svc,
        "repository",
        f"The source code of {svc} is in github.com/northwind/{svc}.",
        scope="infra",
    )
CUSTOMERS = [
    ("Alpenfrisch", "Munich", "fresh food"),
    ("Baltic Books", "Gdansk", "books"),
    ("Casa Verde", "Milan", "garden supplies"),
    ("Dunmore Tea", "Dublin", "tea"),
    ("Elbe Electronics", "Dresden", "electronics"),
    ("Fjord Outdoor", "Bergen", "outdoor gear"),
]
for i, (name, city, goods) in enumerate(CUSTOMERS):
    fact(
        f"ops.customer.{i}",
        OPS,
        name,
        "account",
        f"{name} in {city} ships {goods} with us on the business plan.",
        scope="billing",
    )

for key, cite, finding in PAPERS[:8]:
    episode(f"lab.read.{key}", LAB, "literature", "lab-reading", f"Read {cite}; key point: {finding}.")
SAMPLES = ["mucus", "tissue", "skeleton", "seawater", "sediment", "biofilm"]
for i, sample in enumerate(SAMPLES):
    fact(
        f"lab.protocol.{sample}",
        LAB,
        f"{sample} samples",
        "protocol",
        f"{sample.capitalize()} samples are stored at -80 degrees Celsius in box {i + 1} of freezer 2.",
        scope="experiments",
    )

# ---------------------------------------------------------------------------------------------
# Chat sessions: short conversations whose answer is in a reply that does not repeat the topic
# ("Did you get to the Rijksmuseum?" -- "Yes, last Tuesday, with my sister."); the turn before the
# reply, in the same session, says what it is about. Small talk turns answer nothing.
# hh-chat-*, ops-chat-*, lab-chat-*, cafe-chat-*: the test split's; *-tchat-*: the train split's.
# ---------------------------------------------------------------------------------------------
chat(
    "hh.chat1",
    HH,
    "calendar",
    "hh-chat-1",
    [
        "Morning, Maya! Anything new for the calendar?",
        "Did you get to the Rijksmuseum in the end?",
        "Yes, last Tuesday, with my sister.",
        "Lovely. Was it very crowded?",
        "Packed, but worth it.",
    ],
)
chat(
    "hh.chat2",
    HH,
    "health",
    "hh-chat-2",
    [
        "How is Leo's ear this morning?",
        "Much better, he slept right through the night.",
        "Did the doctor say how long he needs the drops?",
        "Five more days, morning and evening.",
        "I'll set reminders for both.",
    ],
)
chat(
    "hh.chat3",
    HH,
    "kitchen",
    "hh-chat-3",
    [
        "Shopping list time. How many kids are coming to Emma's party on Saturday?",
        "Eleven, if the twins can make it.",
        "Any food restrictions among the guests?",
        "Noor is vegan. Everyone else eats anything.",
        "Noted. Homemade cake or one from the bakery?",
        "Homemade, Grandma insists.",
    ],
)
chat(
    "hh.chat4",
    HH,
    "home",
    "hh-chat-4",
    [
        "Did the electrician ever come about the garage light?",
        "He did. Thursday, ten minutes, a loose wire.",
        "Great. Should I pay his invoice now?",
        "Yes, from the joint account.",
    ],
)
chat(
    "hh.chat5",
    HH,
    "school",
    "hh-chat-5",
    [
        "Emma mentioned a class trip. Do you know where they're going?",
        "The planetarium, I think. There was a letter from Ms. Okonkwo.",
        "Does the trip cost anything?",
        "Twelve euros, cash in an envelope by Friday.",
        "Thanks, I'll put it in her bag.",
    ],
)
chat(
    "hh.chat6",
    HH,
    "calendar",
    "hh-chat-6",
    [
        "Hi Daniel. Did your new passport come through?",
        "Friday, just in time.",
        "Good. Shall I book the taxi for the 14th?",
        "Please, for 5 am.",
        "Booked. Safe travels!",
    ],
)
chat(
    "ops.chat1",
    OPS,
    "deploy",
    "ops-chat-1",
    [
        "Is the notifications v4.2 release still going out today?",
        "No, pushed to Monday. QA found a regression in the templates.",
        "Should I tell Grace's team?",
        "Yes please, they promised it to a customer.",
        "Done.",
    ],
)
chat(
    "ops.chat2",
    OPS,
    "oncall",
    "ops-chat-2",
    [
        "Quiet night on call?",
        "Mostly. One page at 3 am that cleared by itself.",
        "Did Lukas finish the route-planner load tests?",
        "Yep. Holds about 400 depots before p95 goes over two seconds.",
        "That's well above what we need.",
    ],
)
chat(
    "ops.chat3",
    OPS,
    "billing",
    "ops-chat-3",
    [
        "Did Alpenfrisch ever pay the March invoice?",
        "Partly. 2,400 of the 3,100 came in on Friday.",
        "Send them a reminder for the rest?",
        "Give it a week, Oliver knows their finance director.",
    ],
)
chat(
    "ops.chat4",
    OPS,
    "support",
    "ops-chat-4",
    [
        "Grace, how many tickets are still open from the weekend?",
        "Thirty-seven. Mostly where-is-my-parcel.",
        "Do you need extra hands on Monday?",
        "Sofia offered to help until noon.",
        "Great, thanks both.",
    ],
)
chat(
    "ops.chat5",
    OPS,
    "deploy",
    "ops-chat-5",
    [
        "Did we ever decide when the customer-portal moves to the new CDN?",
        "Yes, Sunday 9 November, early morning.",
        "Who's running the CDN switch?",
        "Sofia, with Tomasz on standby.",
    ],
)
chat(
    "lab.chat1",
    LAB,
    "experiments",
    "lab-chat-1",
    [
        "Lena, did the new chiller for tank D arrive?",
        "Yesterday afternoon. Installed, not plumbed in yet.",
        "When will the chiller be running?",
        "Thursday, if the plumber turns up.",
    ],
)
chat(
    "lab.chat2",
    LAB,
    "writing",
    "lab-chat-2",
    [
        "Good morning, Priya. Coffee first?",
        "Always.",
        "Did reviewer 2 accept our response on the manuscript?",
        "Mostly. They still want rarefaction curves in the supplement.",
        "I'll make them today.",
    ],
)
chat(
    "lab.chat3",
    LAB,
    "admin",
    "lab-chat-3",
    [
        "Is the Orpheus Island boat booking confirmed?",
        "Confirmed, but they moved us to the 6th because of the tides.",
        "How many people can the boat take?",
        "Six divers plus the skipper.",
        "Perfect, that's the whole team.",
    ],
)
chat(
    "lab.chat4",
    LAB,
    "experiments",
    "lab-chat-4",
    [
        "Kofi, how many E5 fragments survived the antibiotics?",
        "Nine of twelve. The three on the bottom rack died.",
        "Ouch. Any idea why?",
        "Weaker flow down there, probably. Lena is checking the pump.",
    ],
)
chat(
    "cafe.chat1",
    CAFE,
    "staff",
    "cafe-chat-1",
    [
        "健太さん、来週の土曜日は出勤できますか？",
        "はい、午後からなら大丈夫です。",
        "助かります。午前は結衣さんにお願いしますね。",
        "よろしくお願いします。",
    ],
)
chat(
    "cafe.chat2",
    CAFE,
    "kitchen",
    "cafe-chat-2",
    [
        "新しいバスクチーズケーキ、お客さんの反応はどうでしたか？",
        "大好評でした！午後二時には売り切れました。",
        "じゃあ明日はチーズケーキを何個焼きましょうか？",
        "倍の十六個でお願いします。",
        "了解です。",
    ],
)
chat(
    "cafe.chat3",
    CAFE,
    "counter",
    "cafe-chat-3",
    [
        "明天的旅行团订位确认了吗？",
        "确认了，一共十八个人，上午十点到。",
        "需要准备中文菜单吗？",
        "要的，打印二十份吧。",
    ],
)
chat(
    "cafe.chat4",
    CAFE,
    "counter",
    "cafe-chat-4",
    [
        "エスプレッソマシンの修理の人は来ましたか？",
        "来ました。パッキンの交換だけで、三千円でした。",
        "よかった。今日は暑いですね。",
        "本当に。アイスコーヒーがよく出ます。",
    ],
)

# the train split's sessions
chat(
    "hh.tchat1",
    HH,
    "kitchen",
    "hh-tchat-1",
    [
        "Did the new dishwasher get delivered?",
        "This morning. They took the old one away in the van.",
        "Is it quieter?",
        "Much. You can barely hear it.",
    ],
)
chat(
    "hh.tchat2",
    HH,
    "calendar",
    "hh-tchat-2",
    [
        "Are we still doing the cabin weekend in Dalarna?",
        "Yes, first weekend of August. Ingrid's coming too.",
        "Should I book train tickets, or are you driving up?",
        "Driving. The Volvo fits everyone.",
        "Okay!",
    ],
)
chat(
    "ops.tchat1",
    OPS,
    "oncall",
    "ops-tchat-1",
    [
        "Morning. Coffee machine's fixed, by the way.",
        "Finally!",
        "Did anyone renew the northwind-parcel.example domain?",
        "Tomasz did, for three years.",
        "Nice, one less thing.",
    ],
)
chat(
    "ops.tchat2",
    OPS,
    "billing",
    "ops-tchat-2",
    [
        "Have the new price plans gone live on the website?",
        "Not yet. Oliver wants one more look on Wednesday.",
        "Any change to the business plan price?",
        "Up 5 percent from July.",
    ],
)
chat(
    "lab.tchat1",
    LAB,
    "literature",
    "lab-tchat-1",
    [
        "Did you finish the Bourne 2016 paper?",
        "Halfway. The methods are heavy going.",
        "Worth citing in the introduction?",
        "Definitely, it's the key one for early warning signs.",
    ],
)
chat(
    "lab.tchat2",
    LAB,
    "admin",
    "lab-tchat-2",
    [
        "Did the cryovials arrive?",
        "Two boxes on Tuesday. One was cracked.",
        "Should I ask for a replacement?",
        "Yes, they said they'd send one free of charge.",
        "Thanks.",
    ],
)
chat(
    "cafe.tchat1",
    CAFE,
    "counter",
    "cafe-tchat-1",
    [
        "今日のお客さんは多かったですか？",
        "はい、六十人くらい。雨なのに。",
        "テイクアウトはどうでした？",
        "少なめでした、十件ぐらい。",
    ],
)

# More superseded and retracted memories, for the train split's questions
fact("hh.cleaner.old", HH, "cleaner", "visit_day", "The cleaner, Rosa, comes on Thursday mornings.", scope="home")
fact("hh.cleaner.new", HH, "cleaner", "visit_day", "The cleaner, Rosa, now comes on Tuesday mornings.", scope="home")
fact("hh.streaming.old", HH, "family", "streaming", "The family watches films on Netflix.")
fact("hh.streaming.new", HH, "family", "streaming", "The family cancelled Netflix and switched to Disney+.")
fact(
    "hh.maya.promotion.wrong", HH, "maya", "promotion", "Maya was promoted to head of the water utility.", retract=True
)
fact(
    "hh.leo.glasses.wrong",
    HH,
    "leo",
    "eyesight",
    "Leo needs glasses for reading.",
    scope="health",
    retract=True,
)
fact("ops.standup.old", OPS, "standup", "time", "The daily stand-up is at 09:30 CET.")
fact("ops.standup.new", OPS, "standup", "time", "The daily stand-up moved to 10:00 CET.")
fact("ops.allhands.old", OPS, "all-hands", "schedule", "The monthly all-hands call is on the first Monday at 15:00.")
fact(
    "ops.allhands.new",
    OPS,
    "all-hands",
    "schedule",
    "The monthly all-hands call moved to the last Thursday of the month at 14:00.",
)
fact(
    "ops.office.move.wrong",
    OPS,
    "office",
    "move",
    "Northwind Parcel moves its office to Rotterdam in May.",
    retract=True,
)
episode(
    "ops.ep.outage.wrong",
    OPS,
    "oncall",
    "ops-o3",
    "Full outage of every service for two hours after a power cut in the data centre.",
    importance=8,
    retract=True,
)
fact("lab.meeting.old", LAB, "lab meeting", "schedule", "The lab meeting is on Mondays at 14:00.", scope="admin")
fact("lab.meeting.new", LAB, "lab meeting", "schedule", "The lab meeting moved to Thursdays at 10:00.", scope="admin")
fact(
    "lab.microscope.old",
    LAB,
    "confocal microscope",
    "booking",
    "The confocal microscope is booked by emailing Lena.",
    scope="experiments",
)
fact(
    "lab.microscope.new",
    LAB,
    "confocal microscope",
    "booking",
    "The confocal microscope is now booked in the faculty's online calendar.",
    scope="experiments",
)
fact(
    "lab.paper.nakamura.wrong",
    LAB,
    "Nakamura et al. 2020",
    "finding",
    "Nakamura et al. 2020 found that corals reject every probiotic strain.",
    scope="writing",
    retract=True,
)
fact("cafe.beans.old", CAFE, "supplier", "coffee_beans", "コーヒー豆は毎週火曜日に届きます。")
fact("cafe.beans.new", CAFE, "supplier", "coffee_beans", "コーヒー豆の配達は金曜日に変わりました。")
fact("cafe.terrace.old", CAFE, "shop", "terrace", "テラス席は四席あります。")
fact("cafe.terrace.new", CAFE, "shop", "terrace", "テラス席は六席に増えました。")
fact("cafe.parfait.wrong", CAFE, "menu", "seasonal", "季節限定で桜パフェを始めます。", scope="menu", retract=True)

# ---------------------------------------------------------------------------------------------
# Questions
# ---------------------------------------------------------------------------------------------
# direct lookup
ask("d01", HH, "direct", "When is Emma's birthday?", ["hh.emma.birthday"])
ask("d02", HH, "direct", "What is Leo allergic to?", ["hh.leo.allergy"])
ask("d03", HH, "direct", "Which day do the recycling bins go out?", ["hh.home.bins"])
ask("d04", HH, "direct", "What does Biscuit eat?", ["hh.dog.food"])
ask("d05", OPS, "direct", "Which host is the tracking service deployed on?", ["ops.tracking.host"])
ask("d06", OPS, "direct", "Who owns the billing-worker service?", ["ops.billing-worker.owner"])
ask("d07", OPS, "direct", "When is postgres-main backed up?", ["ops.infra.backups"])
ask("d08", OPS, "direct", "What VAT do German customers pay on invoices?", ["ops.billing.vat"])
ask("d09", LAB, "direct", "What temperature is experiment E2 held at?", ["lab.exp.E2.temp"])
ask("d10", LAB, "direct", "Which pipeline processes the amplicon reads?", ["lab.pipeline"])
ask("d11", LAB, "direct", "When does the coral collection permit expire?", ["lab.admin.ethics"])
ask("d12", CAFE, "direct", "Are credit cards accepted at the cafe?", ["cafe.card"])
ask(
    "d13", HH, "direct", "How much amlodipine does Grandma Ingrid take?", {"hh.ingrid.medication": 2, "hh.rule.meds": 1}
)
ask("d14", OPS, "direct", "Which runtime does the route-planner service use?", ["ops.route-planner.runtime"])

# paraphrase: no content word shared with the answer
ask(
    "p01",
    HH,
    "paraphrase",
    "Which nut could put our youngest in hospital?",
    {"hh.leo.allergy": 2, "hh.rule.peanuts": 1},
)
ask("p02", HH, "paraphrase", "Who is the GP we call when someone is sick?", ["hh.family.doctor"])
ask("p03", HH, "paraphrase", "What pet do we own?", {"hh.dog.name": 2, "hh.dog.food": 1, "hh.dog.vet": 1})
ask("p04", HH, "paraphrase", "Gran's pills for hypertension", {"hh.ingrid.medication": 2, "hh.rule.meds": 1})
ask("p05", OPS, "paraphrase", "How fast should urgent customer complaints be acknowledged?", ["ops.support.sla"])
ask(
    "p06",
    OPS,
    "paraphrase",
    "Where do we store passwords and API keys?",
    {"ops.infra.secrets": 2, "ops.rule.secrets": 1},
)
ask("p07", OPS, "paraphrase", "Which company hosts our machines?", ["ops.infra.cloud"])
ask(
    "p08",
    LAB,
    "paraphrase",
    "Did the helpful bacteria protect the reef animals when it got hot?",
    {"lab.exp.E3.result.new": 2, "lab.exp.E3.design": 1, "lab.paper.rosado2019": 1, "lab.paper.peixoto2017": 1},
)
ask("p09", LAB, "paraphrase", "Who looks after the fish tanks?", ["lab.person.lena"])
ask("p10", LAB, "paraphrase", "How much money can we spend on DNA reads?", ["lab.admin.budget"])
ask("p11", CAFE, "paraphrase", "What are the opening times?", ["cafe.hours"])

# keyword-only names and identifiers
ask("k01", HH, "keyword_name", "Dr. Smith", ["hh.family.doctor"])
ask("k02", LAB, "keyword_name", "Dr. Smith", {"lab.person.smith": 2, "lab.paper.smith2021": 1})
ask("k03", OPS, "keyword_name", "INC-2045", {"ops.inc.INC-2045": 2, "ops.postmortem.INC-2045": 2})
ask(
    "k04",
    OPS,
    "keyword_name",
    "Kowalski",
    {
        "ops.person.tomasz.role": 2,
        "ops.person.tomasz.city": 2,
        "ops.api-gateway.owner": 1,
        "ops.postgres-main.owner": 1,
    },
)
ask("k05", HH, "keyword_name", "Kowalski Heating", ["hh.home.boiler"])
ask("k06", LAB, "keyword_name", "PRJNA88", ["lab.data.repo"])
ask("k07", LAB, "keyword_name", "ANCOM-BC", ["lab.stats"])
ask(
    "k08", OPS, "keyword_name", "Grace Mwangi", {"ops.person.grace.role": 2, "ops.person.grace.city": 2, "ops.ep.08": 1}
)
ask("k09", HH, "keyword_name", "Nakamura", ["hh.leo.dentist"])
ask("k10", LAB, "keyword_name", "GBRMPA-G21/4471", ["lab.admin.ethics"])
ask("k11", OPS, "keyword_name", "Zendesk", ["ops.support.tool"])

# stemming: the query word in another inflection than the memory's
ask("s01", HH, "stemming", "Who runs?", {"hh.daniel.hobby": 2, "hh.ep.19": 2})
ask("s02", HH, "stemming", "swim lessons", {"hh.leo.sport": 2, "hh.ep.01": 2})
ask("s03", OPS, "stemming", "deploying orders", {"ops.ep.01": 2, "ops.orders.host": 1})
ask(
    "s04",
    OPS,
    "stemming",
    "certificate expiring",
    {"ops.inc.INC-2048": 2, "ops.postmortem.INC-2048": 2, "ops.ep.13": 1},
)
ask("s05", LAB, "stemming", "photograph fragments", ["lab.ep.04"])
ask("s06", LAB, "stemming", "freeze samples", {"lab.ep.03": 2, "lab.protocol.mucus": 1})
ask("s07", HH, "stemming", "baked buns", {"hh.ep.05": 2, "hh.recipe.2": 2})
ask("s08", OPS, "stemming", "charging customers twice", {"ops.inc.INC-2045": 2, "ops.postmortem.INC-2045": 2})
ask("s09", LAB, "stemming", "sequences samples", {"lab.sequencer.new": 2, "lab.person.smith": 1})
ask("s10", HH, "stemming", "practising the cello", ["hh.emma.instrument"])

# CJK
ask("j01", CAFE, "cjk", "抹茶ラテ", {"cafe.menu.matcha": 2, "cafe.ep.01": 1})
ask("j02", CAFE, "cjk", "プリン", {"cafe.menu.pudding": 2, "cafe.ep.03": 1, "cafe.ep.06": 1})
ask("j03", CAFE, "cjk", "カレーの値段", {"cafe.menu.curry": 2, "cafe.ep.02": 1})
ask("j04", CAFE, "cjk", "定休日は何曜日ですか", ["cafe.hours"])
ask("j05", CAFE, "cjk", "乌龙茶", ["cafe.menu.tea_cn"])
ask("j06", CAFE, "cjk", "店長", {"cafe.staff.yui": 2, "cafe.rule.allergy": 1})
ask("j07", CAFE, "cjk", "牛乳", ["cafe.supplier.milk"])
ask("j08", CAFE, "cjk", "李娜", {"cafe.staff.li": 2, "cafe.ep.05": 2})
ask("j09", CAFE, "cjk", "たまごサンド", ["cafe.menu.sando"])
ask("j10", CAFE, "cjk", "哲学の道", ["cafe.address"])

# scope-restricted: the scope filter must keep the answer and drop the same-topic memory of another scope
ask("c01", HH, "scope", "allergy", ["hh.leo.allergy", "hh.emma.allergy"], scope="health", types=["fact"])
ask(
    "c02",
    HH,
    "scope",
    "favourite meal",
    {"hh.emma.food": 2, "hh.leo.food": 2, "hh.maya.food": 2, "hh.daniel.food": 2, "hh.ingrid.food": 2},
    scope="kitchen",
    types=["fact"],
)
ask(
    "c03",
    HH,
    "scope",
    "Who is Emma's teacher?",
    {"hh.emma.school": 2, "hh.emma.teacher.new": 2},
    scope="school",
    types=["fact"],
)
ask(
    "c04",
    OPS,
    "scope",
    "Which deploys are not allowed?",
    {"ops.deploy.freeze.new": 2, "ops.rule.freeze": 2},
    scope="infra",
    types=["fact", "rule"],
    absent=["ops.rule.refunds"],
)
ask(
    "c05",
    OPS,
    "scope",
    "reminders for unpaid invoices",
    ["ops.billing.dunning"],
    scope="billing",
    types=["fact"],
    absent=["ops.ep.05"],
)
ask(
    "c06",
    LAB,
    "scope",
    "tank temperature",
    {
        "lab.exp.E1.temp": 2,
        "lab.exp.E2.temp": 2,
        "lab.exp.E3.temp": 2,
        "lab.exp.E4.temp": 2,
        "lab.exp.E5.temp": 2,
        "lab.exp.E6.temp": 2,
    },
    scope="experiments",
    types=["fact"],
    absent=["lab.rule.units"],
)
ask(
    "c07",
    LAB,
    "scope",
    "What did Priya ask for?",
    ["lab.ep.06"],
    scope="literature",
    types=["episode"],
    absent=["lab.ep.09"],
)
ask("c08", HH, "scope", "Leo's fever", {"hh.ep.09": 2, "hh.ep.10": 2}, scope="health", types=["episode"])
ask("c09", CAFE, "scope", "シフト", {"cafe.staff.yui": 2}, scope="staff", types=["fact"], absent=["cafe.menu.matcha"])
ask(
    "c10",
    OPS,
    "scope",
    "customer complaint",
    {"ops.ep.10": 2, "ops.ep.08": 1},
    scope="support",
    types=["episode"],
    absent=["ops.ep.07"],
)

# superseded: the current value first, the old one absent
ask(
    "u01",
    HH,
    "superseded",
    "Who teaches Emma the cello?",
    current="hh.emma.teacher.new",
    absent=["hh.emma.teacher.old"],
)
ask("u02", HH, "superseded", "How does Maya get to work?", current="hh.maya.car.new", absent=["hh.maya.car.old"])
ask(
    "u03",
    HH,
    "superseded",
    "What time does Leo go to bed?",
    current="hh.leo.bedtime.new",
    absent=["hh.leo.bedtime.old"],
)
ask(
    "u04",
    HH,
    "superseded",
    "Grandma Ingrid's phone number",
    current="hh.ingrid.phone.new",
    absent=["hh.ingrid.phone.old"],
)
ask(
    "u05",
    OPS,
    "superseded",
    "Who is the primary on-call engineer this week?",
    current="ops.oncall.current.new",
    absent=["ops.oncall.current.old"],
)
ask(
    "u06",
    OPS,
    "superseded",
    "When is the deploy freeze?",
    current="ops.deploy.freeze.new",
    absent=["ops.deploy.freeze.old"],
)
ask(
    "u07",
    OPS,
    "superseded",
    "Who processes card payments?",
    current="ops.billing.provider.new",
    absent=["ops.billing.provider.old"],
)
ask(
    "u08",
    OPS,
    "superseded",
    "Which PostgreSQL version will postgres-main be upgraded to?",
    current="ops.db.version.new",
    absent=["ops.db.version.old"],
)
ask("u09", OPS, "superseded", "support hours", current="ops.support.hours.new", absent=["ops.support.hours.old"])
ask(
    "u10",
    LAB,
    "superseded",
    "What was the result of experiment E3?",
    current="lab.exp.E3.result.new",
    absent=["lab.exp.E3.result.old"],
)
ask(
    "u11",
    LAB,
    "superseded",
    "When is the Marine Futures grant proposal due?",
    current="lab.grant.deadline.new",
    absent=["lab.grant.deadline.old"],
)
ask(
    "u12",
    LAB,
    "superseded",
    "Which sequencer is used for the samples?",
    current="lab.sequencer.new",
    absent=["lab.sequencer.old"],
)
ask("u13", CAFE, "superseded", "カフェラテの値段", current="cafe.price.latte.new", absent=["cafe.price.latte.old"])
ask(
    "u14",
    LAB,
    "superseded",
    "Kofi's thesis working title",
    current="lab.thesis.title.new",
    absent=["lab.thesis.title.old"],
)

# retracted: never returned
ask("r01", HH, "retracted", "Does Daniel tutor Latin?", absent=["hh.daniel.job.wrong"])
ask("r02", HH, "retracted", "When will Emma get braces?", absent=["hh.emma.braces.wrong"])
ask("r03", HH, "retracted", "water park trip Aqualand", absent=["hh.ep.pool.wrong"])
ask("r04", OPS, "retracted", "office VPN endpoint", absent=["ops.infra.vpn.wrong"])
ask("r05", OPS, "retracted", "discount for enterprise customers", absent=["ops.billing.discount.wrong"])
ask("r06", OPS, "retracted", "Which day may we deploy?", {"ops.rule.freeze": 1}, absent=["ops.rule.oldfreeze.wrong"])
ask("r07", LAB, "retracted", "Priya's keynote in Auckland", absent=["lab.conf.wrong"])
ask("r08", LAB, "retracted", "What is in tank G?", absent=["lab.tank.wrong"])
ask("r09", CAFE, "retracted", "年末の休業", absent=["cafe.closed.wrong"])

# no answer: nothing in the tenant is about it
ask("n01", HH, "no_answer", "What is the airspeed of an unladen swallow?")
ask("n02", HH, "no_answer", "quantum chromodynamics lattice gauge theory")
ask("n03", OPS, "no_answer", "Who won the 1998 football world cup?")
ask("n04", OPS, "no_answer", "sourdough starter hydration ratio")
ask("n05", LAB, "no_answer", "Kubernetes ingress controller annotations")
ask("n06", LAB, "no_answer", "What is the plot of Hamlet?")
ask("n07", CAFE, "no_answer", "mortgage refinancing interest rates")
ask("n08", HH, "no_answer", "Zxqv Plorth Wimbleton")
ask("n09", OPS, "no_answer", "medieval falconry techniques")

# near misses: the tenant knows the topic, not the answer (reported: how often recall returns nothing)
ask("m01", HH, "near_miss", "What is Emma's shoe size?")
ask("m02", HH, "near_miss", "Which dentist does Daniel see?")
ask("m03", OPS, "near_miss", "What is the tracking service's error budget?")
ask("m04", LAB, "near_miss", "What pH is tank B kept at?")
ask("m05", LAB, "near_miss", "How many citations does Peixoto et al. 2017 have?")
ask("m06", CAFE, "near_miss", "店の電話番号は？")

# conversational: the answer is a reply in a chat session that does not name its topic; the turn
# before it (grade 1) does
ask("cv01", HH, "conversational", "When did Maya visit the Rijksmuseum?", {"hh.chat1.3": 2, "hh.chat1.2": 1})
ask("cv02", HH, "conversational", "Is Leo's ear infection getting better?", {"hh.chat2.2": 2, "hh.chat2.1": 1})
ask(
    "cv03",
    HH,
    "conversational",
    "For how many more days does Leo need his ear drops?",
    {"hh.chat2.4": 2, "hh.chat2.3": 1},
)
ask(
    "cv04",
    HH,
    "conversational",
    "How many children are expected at Emma's party?",
    {"hh.chat3.2": 2, "hh.chat3.1": 1},
)
ask("cv05", HH, "conversational", "Which party guest needs vegan food?", {"hh.chat3.4": 2, "hh.chat3.3": 1})
ask(
    "cv06",
    HH,
    "conversational",
    "What was wrong with the light in the garage?",
    {"hh.chat4.2": 2, "hh.chat4.1": 1},
    types=["episode"],
)
ask(
    "cv07",
    HH,
    "conversational",
    "Where is Emma's class going on their outing?",
    {"hh.chat5.2": 2, "hh.chat5.1": 1},
)
ask("cv08", HH, "conversational", "Has Daniel's new passport arrived?", {"hh.chat6.2": 2, "hh.chat6.1": 1})
ask(
    "cv09",
    OPS,
    "conversational",
    "When will notifications v4.2 be deployed?",
    {"ops.chat1.2": 2, "ops.chat1.1": 1},
)
ask(
    "cv10",
    OPS,
    "conversational",
    "How many depots can the route planner handle under load?",
    {"ops.chat2.4": 2, "ops.chat2.3": 1},
)
ask(
    "cv11",
    OPS,
    "conversational",
    "How much of the March invoice has Alpenfrisch paid so far?",
    {"ops.chat3.2": 2, "ops.chat3.1": 1},
)
ask(
    "cv12",
    OPS,
    "conversational",
    "How many support tickets are left over from the weekend?",
    {"ops.chat4.2": 2, "ops.chat4.1": 1},
)
ask(
    "cv13",
    OPS,
    "conversational",
    "Who is helping the support team on Monday?",
    {"ops.chat4.4": 2, "ops.chat4.3": 1},
    types=["episode"],
)
ask(
    "cv14",
    OPS,
    "conversational",
    "When is the customer-portal CDN migration scheduled?",
    {"ops.chat5.2": 2, "ops.chat5.1": 1},
)
ask("cv15", OPS, "conversational", "Who will carry out the CDN cutover?", {"ops.chat5.4": 2, "ops.chat5.3": 1})
ask(
    "cv16",
    LAB,
    "conversational",
    "Has the chiller for tank D been delivered?",
    {"lab.chat1.2": 2, "lab.chat1.1": 1},
)
ask(
    "cv17",
    LAB,
    "conversational",
    "When will the new chiller start working?",
    {"lab.chat1.4": 2, "lab.chat1.3": 1},
)
ask("cv18", LAB, "conversational", "What is reviewer 2 still asking for?", {"lab.chat2.4": 2, "lab.chat2.3": 1})
ask(
    "cv19",
    LAB,
    "conversational",
    "What date is the collection trip to Orpheus Island now?",
    {"lab.chat3.2": 2, "lab.chat3.1": 1},
)
ask("cv20", LAB, "conversational", "How many divers fit on the boat?", {"lab.chat3.4": 2, "lab.chat3.3": 1})
ask(
    "cv21",
    LAB,
    "conversational",
    "How many fragments survived in experiment E5?",
    {"lab.chat4.2": 2, "lab.chat4.1": 1},
    types=["episode"],
)
ask(
    "cv22",
    LAB,
    "conversational",
    "Why did the fragments on the bottom rack die?",
    {"lab.chat4.4": 2, "lab.chat4.3": 1},
)
ask(
    "cv23",
    CAFE,
    "conversational",
    "健太さんは土曜日の何時から働けますか？",
    {"cafe.chat1.2": 2, "cafe.chat1.1": 1},
)
ask("cv24", CAFE, "conversational", "チーズケーキの評判はどうだった？", {"cafe.chat2.2": 2, "cafe.chat2.1": 1})
ask("cv25", CAFE, "conversational", "明日焼くチーズケーキは何個？", {"cafe.chat2.4": 2, "cafe.chat2.3": 1})
ask(
    "cv26",
    CAFE,
    "conversational",
    "旅行团有多少人？",
    {"cafe.chat3.2": 2, "cafe.chat3.1": 1},
    types=["episode"],
)
ask("cv27", CAFE, "conversational", "要打印几份中文菜单？", {"cafe.chat3.4": 2, "cafe.chat3.3": 1})
ask(
    "cv28",
    CAFE,
    "conversational",
    "エスプレッソマシンの修理代はいくら？",
    {"cafe.chat4.2": 2, "cafe.chat4.1": 1},
)

# ---------------------------------------------------------------------------------------------
# The train split: questions for fitting a relevance model, never reported. Other wording and,
# where possible, other memories than the test questions; ids start with "t-".
# ---------------------------------------------------------------------------------------------
train("t-d01", HH, "direct", "On which weekday does the family eat vegetarian?", ["hh.kitchen.diet"])
train("t-d02", HH, "direct", "When is the Volvo's next service due?", ["hh.car.service"])
train("t-d03", HH, "direct", "What does Maya do in the garage?", ["hh.maya.hobby"])
train("t-d04", OPS, "direct", "Which port does the notifications service listen on?", ["ops.notifications.host"])
train("t-d05", OPS, "direct", "Where does Aisha Bello work from?", ["ops.person.aisha.city"])
train("t-d06", OPS, "direct", "How often are customers invoiced?", ["ops.billing.cycle"])
train("t-d07", OPS, "direct", "Where is the source code of warehouse-sync?", ["ops.warehouse-sync.repo"])
train("t-d08", LAB, "direct", "Which journal is the E2/E3 manuscript aimed at?", ["lab.writing.journal"])
train("t-d09", LAB, "direct", "Which coral species is used in experiment E6?", ["lab.exp.E6.design"])
train("t-d10", CAFE, "direct", "Is there a menu in English?", ["cafe.english"])

train("t-p01", HH, "paraphrase", "Which month does our daughter sneeze from pollen?", ["hh.emma.allergy"])
train(
    "t-p02",
    HH,
    "paraphrase",
    "Where do the kids get their education?",
    {"hh.emma.school": 2, "hh.leo.school": 2},
)
train("t-p03", HH, "paraphrase", "How do guests get online at our place?", ["hh.home.wifi"])
train("t-p04", OPS, "paraphrase", "Where can I see graphs of system health?", ["ops.infra.monitoring"])
train("t-p05", OPS, "paraphrase", "What automation compiles our software and ships it?", ["ops.infra.ci"])
train("t-p06", OPS, "paraphrase", "Who handles the money side of the company?", ["ops.person.oliver.role"])
train("t-p07", LAB, "paraphrase", "How should the bibliography be formatted?", ["lab.writing.style"])
train("t-p08", LAB, "paraphrase", "Who leads the research group?", ["lab.person.priya"])
train("t-p09", CAFE, "paraphrase", "Is it okay to take pictures of guests for Instagram?", ["cafe.rule.photo"])

train("t-k01", OPS, "keyword_name", "INC-2043", {"ops.inc.INC-2043": 2, "ops.postmortem.INC-2043": 2})
train(
    "t-k02",
    OPS,
    "keyword_name",
    "Chen Wei",
    {
        "ops.person.chen.role": 2,
        "ops.person.chen.city": 2,
        "ops.warehouse-sync.owner": 1,
        "ops.redis-cache.owner": 1,
    },
)
train("t-k03", HH, "keyword_name", "Harbor Mutual", ["hh.car.insurance"])
train(
    "t-k04",
    LAB,
    "keyword_name",
    "Acropora tenuis",
    {"lab.exp.E1.design": 2, "lab.exp.E2.design": 2, "lab.exp.E3.design": 2, "lab.thesis.title.new": 1},
)
train("t-k05", LAB, "keyword_name", "BMC-7", ["lab.exp.E3.design"])
train("t-k06", HH, "keyword_name", "Mrs. Park", ["hh.relative.4"])
train("t-k07", OPS, "keyword_name", "Hetzner", ["ops.infra.cloud"])
train("t-k08", HH, "keyword_name", "Willow Creek", {"hh.emma.school": 2, "hh.leo.school": 2})
train("t-k09", LAB, "keyword_name", "Vibrio", ["lab.ep.07"])

train("t-s01", HH, "stemming", "vaccinating the dog", {"hh.dog.vet": 2, "hh.ep.20": 2})
train("t-s02", HH, "stemming", "walking Biscuit", ["hh.chore.3"])
train("t-s03", OPS, "stemming", "rolling back the portal", {"ops.ep.03": 2, "ops.ep.04": 2})
train("t-s04", OPS, "stemming", "exporting invoices", ["ops.ep.06"])
train("t-s05", LAB, "stemming", "extracting DNA", ["lab.ep.05"])
train("t-s06", LAB, "stemming", "recalibrating heaters", {"lab.ep.01": 2, "lab.ep.02": 2})
train(
    "t-s07",
    OPS,
    "stemming",
    "evicting session keys",
    {"ops.inc.INC-2047": 2, "ops.postmortem.INC-2047": 2},
)
train("t-s08", HH, "stemming", "replacing batteries", {"hh.ep.17": 2, "hh.ep.18": 2})

train("t-j01", CAFE, "cjk", "ブレンドコーヒーの豆", {"cafe.menu.coffee": 2, "cafe.beans.new": 1})
train("t-j02", CAFE, "cjk", "Wi-Fiのパスワード", ["cafe.wifi"])
train("t-j03", CAFE, "cjk", "ラテアート", ["cafe.staff.ken"])
train("t-j04", CAFE, "cjk", "健太さんの休み", {"cafe.ep.04": 2, "cafe.staff.ken": 1})
train("t-j05", CAFE, "cjk", "卵の注文", ["cafe.ep.03"])
train("t-j06", CAFE, "cjk", "田中さんの注文", ["cafe.ep.01"])
train("t-j07", CAFE, "cjk", "カレーの辛さ", {"cafe.ep.02": 2, "cafe.menu.curry": 1})
train("t-j08", CAFE, "cjk", "台湾茶的价格", ["cafe.menu.tea_cn"])

train(
    "t-c01",
    HH,
    "scope",
    "What does Grandma take in the morning?",
    {"hh.ingrid.medication": 2, "hh.rule.meds": 2},
    scope="health",
    absent=["hh.ingrid.food"],
)
train(
    "t-c02",
    OPS,
    "scope",
    "export for the accountant",
    ["ops.ep.06"],
    scope="billing",
    types=["episode"],
)
train(
    "t-c03",
    OPS,
    "scope",
    "support tickets",
    {"ops.support.tool": 2, "ops.support.sla": 1},
    scope="support",
    types=["fact"],
    absent=["ops.ep.08"],
)
train(
    "t-c04",
    LAB,
    "scope",
    "Where are the skeleton samples kept?",
    ["lab.protocol.skeleton"],
    scope="experiments",
    types=["fact"],
)
train(
    "t-c05",
    LAB,
    "scope",
    "Priya's wishes for the discussion section",
    ["lab.ep.09"],
    scope="writing",
    types=["episode"],
    absent=["lab.ep.06"],
)
train(
    "t-c06",
    HH,
    "scope",
    "dinner plans for the week",
    {"hh.ep.08": 2, "hh.ep.07": 1},
    scope="kitchen",
    types=["episode"],
    absent=["hh.ep.19"],
)
train(
    "t-c07",
    CAFE,
    "scope",
    "限定メニュー",
    ["cafe.menu.sando"],
    scope="menu",
    types=["fact"],
)

train("t-u01", HH, "superseded", "Which day does Rosa clean?", current="hh.cleaner.new", absent=["hh.cleaner.old"])
train(
    "t-u02",
    HH,
    "superseded",
    "Which streaming service does the family use?",
    current="hh.streaming.new",
    absent=["hh.streaming.old"],
)
train("t-u03", OPS, "superseded", "What time is the stand-up?", current="ops.standup.new", absent=["ops.standup.old"])
train(
    "t-u04",
    OPS,
    "superseded",
    "When is the all-hands call?",
    current="ops.allhands.new",
    absent=["ops.allhands.old"],
)
train("t-u05", LAB, "superseded", "lab meeting day", current="lab.meeting.new", absent=["lab.meeting.old"])
train(
    "t-u06",
    LAB,
    "superseded",
    "How do I book the confocal microscope?",
    current="lab.microscope.new",
    absent=["lab.microscope.old"],
)
train("t-u07", CAFE, "superseded", "コーヒー豆は何曜日に届く？", current="cafe.beans.new", absent=["cafe.beans.old"])
train("t-u08", CAFE, "superseded", "テラス席の数", current="cafe.terrace.new", absent=["cafe.terrace.old"])

train(
    "t-r01",
    HH,
    "retracted",
    "Was Maya promoted at the water utility?",
    {"hh.maya.role": 1},
    absent=["hh.maya.promotion.wrong"],
)
train("t-r02", HH, "retracted", "Does Leo need reading glasses?", absent=["hh.leo.glasses.wrong"])
train("t-r03", OPS, "retracted", "office move to Rotterdam", absent=["ops.office.move.wrong"])
train("t-r04", OPS, "retracted", "power cut outage in the data centre", absent=["ops.ep.outage.wrong"])
train("t-r05", LAB, "retracted", "Nakamura 2020 probiotic strains", absent=["lab.paper.nakamura.wrong"])
train("t-r06", CAFE, "retracted", "桜パフェ", absent=["cafe.parfait.wrong"])

# near misses: the tenant knows the topic, not the answer (what recall returns is about the topic, not wrong)
train("t-m01", HH, "near_miss", "What is Leo's shoe size?")
train("t-m02", HH, "near_miss", "What is Emma's blood type?")
train("t-m03", HH, "near_miss", "Which vet does Grandma Ingrid's cat go to?")
train("t-m04", HH, "near_miss", "What is the registration plate of the Volvo?")
train("t-m05", OPS, "near_miss", "What is Chen Wei's phone number?")
train("t-m06", OPS, "near_miss", "How much does the Hetzner bill come to each month?")
train("t-m07", OPS, "near_miss", "Who owns the payments-gateway service?")
train("t-m08", OPS, "near_miss", "What is Alpenfrisch's customer number?")
train("t-m09", LAB, "near_miss", "What is Kofi's office phone extension?")
train("t-m10", LAB, "near_miss", "What salinity is tank A kept at?")
train("t-m11", LAB, "near_miss", "How many citations does Hughes et al. 2018 have?")
train("t-n12", LAB, "no_answer", "best hiking trails in Patagonia")
train("t-m13", CAFE, "near_miss", "抹茶ラテのカロリーは？")
train("t-m14", CAFE, "near_miss", "駐車場はありますか？")
train("t-m15", CAFE, "near_miss", "健太さんの誕生日はいつ？")

# no answer: nothing in the tenant is about it (as the test split's no-answer questions)
train("t-n13", HH, "no_answer", "How do I replace the chain on a road bike?")
train("t-n14", HH, "no_answer", "Who painted the ceiling of the Sistine Chapel?")
train("t-n15", HH, "no_answer", "boiling point of liquid nitrogen")
train("t-n16", OPS, "no_answer", "What is the best fertiliser for tomato plants?")
train("t-n17", OPS, "no_answer", "rules of cricket explained")
train("t-n18", OPS, "no_answer", "Quorvax Blint Trellimore")
train("t-n19", LAB, "no_answer", "How do I file my income tax return?")
train("t-n20", LAB, "no_answer", "Which team won the 2010 basketball finals?")
train("t-n21", LAB, "no_answer", "ski resorts in the Rocky Mountains")
train("t-n22", CAFE, "no_answer", "What is the capital of Australia?")
train("t-n23", CAFE, "no_answer", "car engine oil change interval")
train("t-n24", CAFE, "no_answer", "history of the Byzantine empire")

train("t-cv01", HH, "conversational", "When was the dishwasher delivered?", {"hh.tchat1.2": 2, "hh.tchat1.1": 1})
train(
    "t-cv02",
    HH,
    "conversational",
    "When is the family's cabin weekend?",
    {"hh.tchat2.2": 2, "hh.tchat2.1": 1},
)
train(
    "t-cv03",
    HH,
    "conversational",
    "How is the family travelling to Dalarna?",
    {"hh.tchat2.4": 2, "hh.tchat2.3": 1},
)
train("t-cv04", OPS, "conversational", "Who renewed the company's domain?", {"ops.tchat1.4": 2, "ops.tchat1.3": 1})
train("t-cv05", OPS, "conversational", "Are the new price plans live yet?", {"ops.tchat2.2": 2, "ops.tchat2.1": 1})
train(
    "t-cv06",
    OPS,
    "conversational",
    "By how much does the business plan price go up?",
    {"ops.tchat2.4": 2, "ops.tchat2.3": 1},
)
train(
    "t-cv07",
    LAB,
    "conversational",
    "Has Priya finished reading the Bourne paper?",
    {"lab.tchat1.2": 2, "lab.tchat1.1": 1},
)
train(
    "t-cv08",
    LAB,
    "conversational",
    "Were any of the cryovial boxes damaged?",
    {"lab.tchat2.2": 2, "lab.tchat2.1": 1},
    types=["episode"],
)
train(
    "t-cv09",
    LAB,
    "conversational",
    "Will the broken box of cryovials be replaced?",
    {"lab.tchat2.4": 2, "lab.tchat2.3": 1},
)
train("t-cv10", CAFE, "conversational", "今日の来客数は？", {"cafe.tchat1.2": 2, "cafe.tchat1.1": 1})
train("t-cv11", CAFE, "conversational", "テイクアウトの注文は何件？", {"cafe.tchat1.4": 2, "cafe.tchat1.3": 1})


def check() -> None:
    """What the parser does not check: chat sessions stored in one piece, a conversational answer being
    a reply (not the first turn of its session), and train questions kept apart from the test ones."""
    keys = [m["key"] for m in memories]
    assert len(keys) == len(set(keys)), "duplicate memory keys"
    order = {key: i for i, key in enumerate(keys)}
    for session, turns in chat_sessions.items():
        assert 3 <= len(turns) <= 6, session
        assert [order[t] for t in turns] == list(range(order[turns[0]], order[turns[0]] + len(turns))), session
    first_turns = {turns[0] for turns in chat_sessions.values()}
    test_sessions: set[str] = set()
    train_sessions: set[str] = set()
    for q in questions:
        assert q["id"].startswith("t-") == (q["split"] == "train"), q["id"]
        if q["category"] == "conversational":
            answers = [key for key, grade in q["relevant"].items() if grade == 2]
            assert answers and not set(answers) & first_turns, q["id"]
            sessions = {next(m["session"] for m in memories if m["key"] == key) for key in answers}
            (train_sessions if q["split"] == "train" else test_sessions).update(sessions)
    assert not test_sessions & train_sessions, "a chat session has both test and train questions"
    test_queries = {q["query"].lower() for q in questions if q["split"] == "test"}
    for q in questions:
        assert q["split"] == "test" or q["query"].lower() not in test_queries, q["id"]


def main() -> None:
    check()
    data = {
        "version": 1,
        "description": "pymem golden dataset: four tenants, superseded/retracted/near-duplicate memories, short "
        "chat sessions, and questions by category (conversational: the answer is an elliptical reply in a chat). "
        'Questions of split "test" are reported; those of split "train" (ids t-...) are for fitting only, never '
        "reported. Generated by eval/golden/generate.py; do not edit by hand.",
        "tenants": {
            HH: "A family household assistant (kitchen, calendar, health, school, home butlers)",
            OPS: "The ops agents of a small logistics company (oncall, deploy, billing, support)",
            LAB: "A marine-biology researcher's assistant (literature, experiments, writing, admin)",
            CAFE: "A Kyoto cafe's assistant, Japanese and Chinese text (counter, kitchen, staff)",
        },
        "memories": memories,
        "questions": questions,
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    splits = {split: sum(q["split"] == split for q in questions) for split in ("test", "train")}
    print(f"wrote {OUT}: {len(memories)} memories, {len(questions)} questions ({splits})")


if __name__ == "__main__":
    main()
